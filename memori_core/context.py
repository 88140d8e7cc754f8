"""The ``<memori_context>`` block written into system prompts."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import Any

from .facts import stated_at
from .validate import parse_utc

OPEN_TAG = "<memori_context>"
CLOSE_TAG = "</memori_context>"
MAX_SHOWN_FACT_CHARS = 8_000
"""The most characters of one fact the block shows (about 2,000 tokens): a longer fact is cut, ending in
" …", so one long stored turn cannot crowd the model's context (facts are stored up to
:data:`memori_core.validate.MAX_FACT_CHARS`). Pass ``max_fact_chars`` to :func:`format_context` for another cut."""

PREAMBLE = (
    "Only use the relevant context if it is relevant to the user's query. "
    "Relevant context about the user:"
)

# What the model may read of a text, for detection only (:func:`_fold`): NFKC, no invisible or control
# characters, every letter folded to its Unicode TR39 prototype (Cyrillic о is o), casefolded, and every
# bracket variant (‹ 〈 ⟨ ＜ ...) read as the ASCII bracket it looks like.
_OPENING = "<‹〈⟨❬❮ᐸ˂﹤＜《⟪⧼⦑⦉"
_CLOSING = ">›〉⟩❭❯ᐳ˃﹥＞》⟫⧽⦒⦊"
_SQUARE_OPEN = "[［⟦〚【〖⁅"
_SQUARE_CLOSE = "]］⟧〛】〗⁆"

# Always removed from stored text: C0/C1 controls (NUL ...) and the bidi embeddings, overrides and isolates
# that reorder what a model reads (U+202A..U+202E, U+2066..U+2069, LRM/RLM/ALM).
_ALWAYS_DROPPED = dict.fromkeys(
    [*range(0x00, 0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C]
)

# Control tokens of the chat-template families a model may honour: ChatML (OpenAI, Qwen, Phi: <|...|>),
# Llama 2 / Mistral ([INST], <<SYS>>, <s>, </s>), Mistral's tool tokens, Gemma (<start_of_turn> ...),
# DeepSeek (<｜begin▁of▁sentence｜>, fullwidth bars: NFKC folds them) and Llama 3 (<|eot_id|> ...).
_TOKENS = (
    "[inst]", "[/inst]", "<<sys>>", "<</sys>>", "<s>", "</s>", "<start_of_turn>", "<end_of_turn>", "<bos>",
    "<eos>", "<pad>", "<unk>", "[system_prompt]", "[/system_prompt]", "[tool_calls]", "[available_tools]",
    "[/available_tools]", "[tool_results]", "[/tool_results]",
)


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (TR39) as ``char -> prototype`` for the characters with one prototype."""
    from confusable_homoglyphs import confusables as table

    data: dict[str, list[dict[str, str]]] = table.confusables_data
    brackets = {**dict.fromkeys(_OPENING, "<"), **dict.fromkeys(_CLOSING, ">"),
                **dict.fromkeys(_SQUARE_OPEN, "["), **dict.fromkeys(_SQUARE_CLOSE, "]")}
    out = {ch: entries[0]["c"] for ch, entries in data.items() if len(entries) == 1 and entries[0]["c"] != ch}
    out.update(brackets)
    return out


def _visible(text: str) -> str:
    """NFKC (fullwidth ＜ is <) without format characters (zero-width spaces, soft hyphens, joiners)."""
    folded = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in folded if unicodedata.category(ch) not in ("Cf", "Cc"))


def _fold(text: str) -> str:
    """What a model may read of ``text``, for detection: :func:`_visible`, casefolded, letters folded to their
    TR39 prototype (casefolded again), bracket variants as ASCII brackets."""
    table = _prototypes()
    # Prototypes before NFKC (which turns some lookalikes into others: lunate ϲ into final ς) and after it
    # (fullwidth letters have no prototype of their own); casefolded first, as the table is case-sensitive.
    mapped = "".join(table.get(ch, ch) for ch in text.casefold())
    return "".join(table.get(ch, ch) for ch in _visible(mapped).casefold()).casefold()


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], tuple[str, ...]]:
    """The block's tag (any spacing, a closing slash, attributes) and the control tokens, as folded text."""
    word = re.escape(_fold("memori_context"))
    slash = re.escape(_fold("/"))
    bar = "|" + "".join(sorted({_fold(ch) for ch in "|｜│∣ǀ"}))
    tag = re.compile(rf"<\s*(?:{slash}|/)?\s*{word}|<\s*[{re.escape(bar)}][^<>]{{0,64}}[{re.escape(bar)}]\s*>")
    return tag, tuple(_fold(t) for t in _TOKENS)


def _hides_tag_or_token(text: str) -> bool:
    if text.isascii() and "<" not in text and "[" not in text:
        return False  # the common case, without folding
    folded = _fold(text)
    if "<" not in folded and "[" not in folded:
        return False
    tag, tokens = _patterns()
    return bool(tag.search(folded)) or any(t in folded for t in tokens)


def fold_for_detection(text: str) -> str:
    """What a model may read of ``text``, for detection only: NFKC, no invisible characters, casefolded, every
    letter folded to its Unicode TR39 prototype (Cyrillic о is o) and every bracket variant to its ASCII bracket."""
    return _fold(text)


def hides_tag_or_token(text: str) -> bool:
    """Whether ``text`` spells (in any lookalike, bracket variant or case) a tag that could open or close the
    ``<memori_context>`` block, or a chat-template control token (``<|im_start|>``, ``[INST]``, ``</s>`` ...)."""
    return _hides_tag_or_token(text)


_ESCAPES = {"<": "&lt;", ">": "&gt;", "[": "&#91;", "]": "&#93;"}


def sanitize_fact(content: str) -> str:
    """Make stored text safe inside the block: one line, no control characters or bidi overrides, and, when
    the text spells (in any lookalike, bracket variant or case) a tag that could open or close the block or a
    chat-template control token, every bracket in it escaped, so no tag or token is left to read."""
    one_line = " ".join(content.split()).translate(_ALWAYS_DROPPED)
    if not _hides_tag_or_token(one_line):
        return one_line
    table = _prototypes()
    return "".join(_ESCAPES.get(table.get(ch, ch), ch) for ch in _visible(one_line))


def format_timestamp(created_at: Any, *, zone: bool = True, tz: tzinfo | None = None) -> str | None:
    """``YYYY-MM-DD HH:MM UTC`` for a datetime or ISO 8601 string (``zone=False``: without the
    ``UTC``, upstream Memori's format); ``None`` if absent or unreadable.

    ``tz`` (the conversation's zone: the ``tzinfo`` of the turn's time, a fixed offset or a ``ZoneInfo``) writes
    the time in that zone with its offset, ``2026-11-09 21:00 -05:00``, so that it reads in the calendar the
    user's days are written in; a time whose offset there is zero keeps the ``UTC`` label. ``zone=False`` prints
    UTC whatever ``tz`` says (upstream Memori's line, exactly).

    >>> format_timestamp("2026-11-10T02:00:00Z", tz=timezone(timedelta(hours=-5)))
    '2026-11-09 21:00 -05:00'
    """
    if created_at is None or created_at == "":
        return None
    try:
        dt = parse_utc(created_at if isinstance(created_at, datetime) else str(created_at))
    except ValueError:
        return None
    if not zone:
        return dt.strftime("%Y-%m-%d %H:%M")
    if tz is not None:
        try:
            local = dt.astimezone(tz)
        except (OverflowError, ValueError):  # the first or last hours of the calendar: UTC, as without a zone
            local = dt
        offset = utc_offset_text(local.utcoffset())
        if offset is not None:
            return f"{local.strftime('%Y-%m-%d %H:%M')} {offset}"
    return dt.strftime("%Y-%m-%d %H:%M UTC")


def utc_offset_text(offset: timedelta | None) -> str | None:
    """``-05:00`` for five hours west of UTC (``+05:30`` ...; seconds of an old local mean time dropped);
    ``None`` for no offset or one under a minute: such a time is written as UTC. The block's "Stated at" and the
    extraction prompt's said-at line both write a zone with it."""
    minutes = abs(int(offset.total_seconds())) // 60 if offset is not None else 0
    if not minutes:
        return None
    sign = "-" if offset is not None and offset < timedelta(0) else "+"
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def clip_fact(text: str, max_chars: int | None = MAX_SHOWN_FACT_CHARS) -> str:
    """``text`` cut to at most ``max_chars`` characters, ending in " …" (at a word boundary when one is near)
    when it is longer; ``None``: never cut."""
    if max_chars is None or len(text) <= max_chars:
        return text
    head = text[: max(1, max_chars - 2)]
    space = head.rfind(" ")
    if space >= len(head) * 3 // 4:
        head = head[:space]
    return head.rstrip() + " …"


def format_fact_line(content: str, created_at: Any = None, *, valid_from: Any = None, zone: bool = True,
                     max_chars: int | None = MAX_SHOWN_FACT_CHARS, tz: tzinfo | None = None,
                     valid_to: Any = None, starts_at: Any = None) -> str:
    """``- {content}. Stated at {YYYY-MM-DD HH:MM} UTC``; no timestamp gives ``- {content}``.

    A change told ahead (``starts_at``, :attr:`~memori_core.RecalledFact.starts_at`: its start, later than it was
    said) was stated when it was told (``created_at``), and its line says its start after that:
    ``Stated at 2026-12-07 09:00 UTC (holds from 2027-01-04 00:00 UTC)``.

    The time is when the current text was stated: ``valid_from`` when it is later than ``created_at`` (an
    updated text, a fact said again after it was superseded), else ``created_at``
    (:func:`~memori_core.facts.stated_at`); a restored fact or version keeps the time it was stated.
    ``zone=False`` leaves out the ``UTC`` (upstream Memori's line, what
    ``RecallConfig.memori_compat()`` asks for through ``time_zone_label``); ``tz`` writes the time in the
    conversation's zone (:func:`format_timestamp`).
    A fact longer than ``max_chars`` is cut, ending in " …" (:func:`clip_fact`).

    A fact no longer true (``valid_to``: recall returns one only for a question about the past) ends in
    ``(past: no longer true since {YYYY-MM-DD HH:MM} UTC)``; a current fact's line is as above.
    """
    text = clip_fact(sanitize_fact(content), max_chars)
    stamp = format_timestamp(stated_at(created_at, None if starts_at else valid_from), zone=zone, tz=tz)
    ended = format_timestamp(valid_to, zone=zone, tz=tz) if valid_to else None
    past = "" if ended is None else f" (past: no longer true since {ended})"
    start = format_timestamp(starts_at, zone=zone, tz=tz) if starts_at else None
    if start is not None:
        past = f" (holds from {start})" + past
    if stamp is None:
        return f"- {text}{past}"
    end = "" if text.endswith((".", "!", "?", "\u2026", "\u3002", "\uff01", "\uff1f")) else "."
    return f"- {text}{end} Stated at {stamp}{past}"


def format_context(facts: Iterable[Any], *, zone: bool = True,
                   max_fact_chars: int | None = MAX_SHOWN_FACT_CHARS, tz: tzinfo | None = None) -> str:
    """The ``<memori_context>`` block for recalled facts, or ``""`` when there are none.

    Accepts :class:`~memori_core.RecalledFact` objects or anything with
    ``content`` and ``created_at`` attributes, and optionally ``valid_from``
    (or such mapping keys), ``starts_at`` (a change told ahead: its line says its start beside the time it was
    stated) and ``valid_to`` (a fact no longer true, recalled for a question about the past: its
    line says since when, :func:`format_fact_line`). Each line's time is when the fact's current text was
    stated (:func:`format_fact_line`). Times are
    UTC and say so (``zone=False``: Memori's format, without the label); with ``tz``, the conversation's zone
    (the ``tzinfo`` of the turn being answered, which the adapters read from its ``created_at``), they are written
    in it with their offset (``Stated at 2026-11-09 21:00 -05:00``), the calendar capture wrote the facts' days
    in (:func:`format_timestamp`). Each
    fact shows at most ``max_fact_chars`` characters (:data:`MAX_SHOWN_FACT_CHARS`;
    a longer one ends in " …"; ``None``: whole).

    ``TypeError`` for a str (of the whole, or of an item: a fact's text alone has no time to show), for ``None``
    and for one fact instead of a list: ``""`` means that no fact was relevant, never that the input was of the wrong kind.
    """
    if isinstance(facts, str) or hasattr(facts, "content") or not isinstance(facts, Iterable):
        raise TypeError(f"format_context takes a list of RecalledFact (what recall returns), got "
                        f"{type(facts).__name__}" + (": pass [fact]" if hasattr(facts, "content") else ""))
    lines = []
    for n, fact in enumerate(facts):
        if not (("content" in fact) if isinstance(fact, dict) else hasattr(fact, "content")):
            raise TypeError(f"format_context takes a list of RecalledFact (what recall returns): fact #{n} is a "
                            f"{type(fact).__name__} without content")
        if isinstance(fact, dict):
            content, created, since = fact.get("content"), fact.get("created_at"), fact.get("valid_from")
            until, start = fact.get("valid_to"), fact.get("starts_at")
        else:
            content, created = getattr(fact, "content", None), getattr(fact, "created_at", None)
            since = getattr(fact, "valid_from", None)
            until, start = getattr(fact, "valid_to", None), getattr(fact, "starts_at", None)
        if not isinstance(content, str) or not content.strip():
            continue
        lines.append(format_fact_line(content, created, valid_from=since, zone=zone, max_chars=max_fact_chars,
                                      tz=tz, valid_to=until, starts_at=start))
    if not lines:
        return ""
    return "\n".join([OPEN_TAG, PREAMBLE, *lines, CLOSE_TAG])


_EARLIER_BLOCK = re.compile(
    r"(?:\n\n)?" + re.escape(OPEN_TAG) + r"\n" + re.escape(PREAMBLE) + r"\n.*?" + re.escape(CLOSE_TAG), re.DOTALL
)
"""A block :func:`format_context` wrote into a prompt on an earlier turn (with the blank line before it): stored
facts cannot hold the closing tag (:func:`sanitize_fact`), so the first one ends it."""


def without_block(text: str) -> str:
    """``text`` without the ``<memori_context>`` blocks an earlier turn wrote into it (an app that keeps the
    messages a call was sent with as its history sends them again): they hold that turn's facts, which may
    have been deleted or superseded since."""
    if OPEN_TAG not in text:
        return text
    return _EARLIER_BLOCK.sub("", text)


def is_block(text: str) -> bool:
    """Whether ``text`` is nothing but blocks an earlier turn wrote (:func:`without_block`)."""
    return OPEN_TAG in text and not without_block(text).strip()


def append_block(text: str | None, block: str) -> str:
    """Append ``block`` to existing prompt text, after a blank line; the block alone if ``text`` is empty. A block
    an earlier turn wrote into ``text`` is replaced (:func:`without_block`); an empty ``block`` only removes it."""
    text = without_block(text) if text else text
    if not block:
        return text or ""
    if not text:
        return block
    return f"{text}\n\n{block}"
