"""What an LLM extractor sends and reads: the extraction prompt and the tolerant parser of the model's reply.

:func:`build_extraction_prompt` shows the model the turn and the user's similar stored facts under
short ids (``F1``, ``F2`` ...); :func:`parse_extraction_reply` reads the JSON it answers with and maps
those ids back, keeping only ids it was given. Pure: no framework, no model call.
"""

from __future__ import annotations

import ast
import json
import logging
import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from ..context import utc_offset_text
from ..text import normalize_fact_text
from .dates import UNKNOWN_ZONE_MARGIN, day_label
from .types import (
    DEFAULT_MAX_FACT_CHARS,
    USER_ROLES,
    ExtractedFact,
    KnownFact,
    Message,
    MessageLike,
    as_messages,
    last_said_at,
)

__all__ = [
    "MIN_MAX_FACT_CHARS", "build_extraction_prompt", "check_max_chars", "check_max_facts", "parse_extraction_reply",
    "turn_said_at",
]

MIN_MAX_FACT_CHARS = 20
"""The smallest ``max_chars`` an LLM extractor takes: a fact cut shorter than this says nothing."""

logger = logging.getLogger(__name__)

_TAG = re.compile(r"</?\s*(?:conversation|known_facts)\s*>", re.IGNORECASE)


def check_max_facts(value: Any) -> int:
    """``max_facts`` of an LLM extractor, checked as a positive int."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_facts must be a positive int, got {value!r}")
    return value


def _alias(i: int) -> str:
    return f"F{i + 1}"


def _one_line(text: str) -> str:
    return " ".join(_TAG.sub(" ", str(text)).split())


def check_max_chars(value: Any) -> int:
    """``max_chars`` of an LLM extractor, checked as an int of at least :data:`MIN_MAX_FACT_CHARS`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < MIN_MAX_FACT_CHARS:
        raise ValueError(f"max_chars must be an int >= {MIN_MAX_FACT_CHARS}, got {value!r}")
    return value


def turn_said_at(messages: Sequence[Message], now: datetime | None = None) -> datetime:
    """When the turn in ``messages`` was said: the ``created_at`` of its last user message that has one
    (:func:`~memori_core.extraction.types.last_said_at`), else ``now`` (default: the current time in UTC)."""
    return last_said_at(messages) or (now if now is not None else datetime.now(timezone.utc))


def _zone_name(when: datetime) -> str:
    """``when``'s zone as the prompt writes it: ``"UTC"``, ``"UTC+01:00"``, or its zone name
    (``"Europe/Lisbon, UTC+00:00"``)."""
    offset = utc_offset_text(when.utcoffset())
    written = "UTC" if offset is None else f"UTC{offset}"
    key = getattr(when.tzinfo, "key", None)  # a ZoneInfo's IANA name
    return f"{key}, {written}" if isinstance(key, str) and key not in ("UTC", "Etc/UTC") else written


def _said_line(when: datetime) -> str:
    tomorrow = day_label(when.date() + timedelta(days=1))
    return (f"The turn below was said on {day_label(when.date())} at {when:%H:%M} ({_zone_name(when)}). Read "
            f'its relative dates ("tomorrow", "on Thursday", "next month") from that day ("tomorrow" is {tomorrow}) '
            f"and write them out in the fact (\"User's exam is on {tomorrow}.\"), so that it still reads right "
            "later.")


def build_extraction_prompt(
    messages: Sequence[MessageLike],
    existing: Sequence[KnownFact] = (),
    *,
    max_facts: int = 10,
    core: bool = True,
    max_chars: int = DEFAULT_MAX_FACT_CHARS,
    now: datetime | None = None,
) -> str:
    """The prompt asking a model for the user's facts in ``messages`` as JSON.

    Stored facts in ``existing`` are listed under short ids (``F1``, ``F2``
    ... in order) that :func:`parse_extraction_reply` maps back to their real
    ids. Each fact is asked to be at most ``max_chars`` characters long. The model is asked for a JSON array of
    ``{"fact": "User ...", "supersedes": ["F1"], "core": false, "expires_at": "2026-01-15"}`` objects
    (``[]`` when nothing is worth keeping); with ``core`` (default) it is told
    to set ``"core": true`` on allergies, intolerances, medication, conditions that
    limit food or activity, and dietary restrictions (without, the key is not asked for).

    The prompt says when the turn was said (:func:`turn_said_at`: its last user message's ``created_at``,
    else ``now``, else the current time in UTC), with the weekday, so the model reads "on Thursday" from
    that day, writes the date out in the fact, and gives a fact that stops being true at a known time (an
    appointment, a visit, a trip, "no alcohol this month") an ``"expires_at"``: the last day it holds
    (``YYYY-MM-DD``) or the moment it ends.
    """
    turn = as_messages(messages)
    when = turn_said_at(turn, now)
    lines = [
        "You maintain a long-term memory about a user. Read the new conversation turn below and write down the "
        "facts the USER states about themselves that are worth remembering in later conversations: "
        "preferences, diet and allergies, health, work, family and pets, places, plans, routines.",
        "",
        _said_line(when),
        "",
        "Rules:",
        "- Only facts the user states about themselves. Never questions, requests or instructions to the "
        "assistant, greetings, thanks, small talk, hypotheticals, or anything the assistant said "
        "(assistant messages are context only).",
        "- Words the user quotes, forwards or pastes are not the user's: text quoted after \">\" (as markdown and "
        "e-mail replies quote), text in quotation marks, a message, e-mail or post someone else wrote (\"My sister "
        "texted me: I'm pregnant\"). Their \"I\" is whoever wrote them; never write it as a fact about the user. "
        "Nor is a role the user plays in a game or role-play (\"Let's pretend I'm a pirate\").",
        "- Never a password, PIN, card or bank account number, ID number or key, even when the user gives one.",
        '- One short third-person sentence per fact, starting with "User" '
        '(for example "User is vegetarian." or "User\'s daughter Mia starts school in September.").',
        '- If a new fact updates or contradicts one of the known facts, put that known fact\'s id in "supersedes". '
        "Use only ids from the list of known facts.",
        f"- At most {max_facts} facts, each at most {max_chars} characters; split a longer fact into several "
        "short ones.",
    ]
    if core:
        lines.append(
            '- Set "core" to true for a fact that must be remembered in every conversation whatever the topic: '
            "allergies and intolerances, medications, conditions that limit what the user can eat, drink or do "
            "(pregnancy, diabetes, asthma, epilepsy, high blood pressure, a doctor's dietary advice), and dietary "
            "restrictions (vegetarian, vegan, halal, kosher, gluten-free, coeliac, lactose-free, does not drink "
            "alcohol), the user's own only. Set it to false for every other fact, someone else's too (a partner's, "
            "a child's, a friend's)."
        )
    lines.append(
        '- Set "expires_at" on a fact that stops being true at a known time: an appointment, a visit, a trip, an '
        'event, a plan for a given day or month, a state with an end ("no alcohol this month"). Write the last day '
        'it holds, "YYYY-MM-DD" (for an appointment: its day), or the moment it ends, "YYYY-MM-DDTHH:MM" in the '
        "turn's time zone. Leave it out for a lasting fact."
    )
    lines += [
        "",
        "<known_facts>",
    ]
    known = [f"{_alias(i)}: {_one_line(f.content)}" for i, f in enumerate(existing)]
    lines += known or ["(none)"]
    lines += ["</known_facts>", "", "<conversation>"]
    for message in turn:
        if message.role in ("user", "human", "assistant", "ai") and message.text.strip():
            role = "user" if message.role in USER_ROLES else "assistant"
            lines.append(f"{role}: {_one_line(message.text)}")
    lines += [
        "</conversation>",
        "",
        "Reply with a JSON array only, each item an object with a "
        + ('"fact" string, a "supersedes" list of ids, a "core" boolean' if core
           else '"fact" string, a "supersedes" list of ids')
        + ' and, when it has one, an "expires_at" string; reply with an empty array when there is nothing worth '
        "remembering.",
    ]
    return "\n".join(lines)


_THINKING = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_LIST_KEYS = ("facts", "memories", "items", "results")
_TEXT_KEYS = ("fact", "text", "content", "memory")
_SUPERSEDE_KEYS = ("supersedes", "replaces", "supersede")
_EXPIRY_KEYS = ("expires_at", "expires", "expiry", "expiration", "valid_until")
_NO_EXPIRY = frozenset({"", "none", "null", "never", "n/a", "no"})
_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _flag(value: Any) -> bool:
    """A model's ``"core"`` value: JSON ``true`` (or the string ``"true"`` / ``"yes"``) is true, anything else false."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes")
    return value is True


# A token of a Python literal: a quoted string, a bracket, or a name (true / false / null are JSON's spelling).
_LITERAL_TOKEN = re.compile(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|[\[\]{}()]|[A-Za-z_]\w*""")
_OPENING = frozenset("[{(")
_CLOSING = frozenset("]})")
_JSON_NAMES = {"true": "True", "false": "False", "null": "None"}


def _python_literal(text: str, start: int) -> Any:
    """The Python literal (``[{'fact': 'User ...', 'core': True}]``) whose bracket opens at ``text[start]``,
    read with :func:`ast.literal_eval` (literals only, never code); JSON's ``true`` / ``false`` / ``null``
    are read too. Raises ``ValueError`` when the brackets do not close or the text is not a literal."""
    parts: list[str] = []
    depth = 0
    pos = start
    for m in _LITERAL_TOKEN.finditer(text, start):
        token = m.group()
        parts += [text[pos:m.start()], _JSON_NAMES.get(token, token)]
        pos = m.end()
        if token in _OPENING:
            depth += 1
        elif token in _CLOSING:
            depth -= 1
            if depth <= 0:
                break
    if depth != 0:
        raise ValueError("the brackets do not close")
    try:
        return ast.literal_eval("".join(parts))
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


def _decoded_values(text: str) -> Iterable[Any]:
    """Values found in ``text``: the whole text as JSON, else each JSON value, or Python literal (single
    quotes, ``True`` / ``None``, a trailing comma), starting at a ``[`` or ``{``, leftmost first."""
    stripped = text.strip()
    try:
        yield json.loads(stripped)
        return
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[\[{]", stripped):
        try:
            value, _ = decoder.raw_decode(stripped, m.start())
        except ValueError:
            try:
                value = _python_literal(stripped, m.start())
            except ValueError:
                continue
        yield value


def _read_expiry(value: Any, said_at: datetime) -> datetime | None:
    """A model's ``"expires_at"`` as an aware datetime; ``None`` for no expiry. A date alone (``2026-01-15``, the
    last day the fact holds) ends when that day has ended everywhere (24:00 in ``said_at``'s zone plus
    :data:`~memori_core.extraction.dates.UNKNOWN_ZONE_MARGIN`: a model does not know the user's zone; the rules
    do the same without one); a time without a zone is read in ``said_at``'s. Raises ``ValueError`` for
    anything else."""
    if value is None or (isinstance(value, str) and value.strip().casefold() in _NO_EXPIRY):
        return None
    if not isinstance(value, str):
        raise ValueError("not a date string")
    text = value.strip()
    if _DATE_ONLY.fullmatch(text):
        day = date.fromisoformat(text)
        return datetime.combine(day + timedelta(days=1), time(0), tzinfo=said_at.tzinfo) + UNKNOWN_ZONE_MARGIN
    when = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    if when.tzinfo is None:
        when = when.replace(tzinfo=said_at.tzinfo)
    when.timestamp()  # out of range (year 1 in a zone east of UTC) raises here
    return when


def _later_expiry(a: datetime | None, b: datetime | None) -> datetime | None:
    """The life of a fact said twice in one reply: the longer one (``None``, no expiry, is the longest)."""
    return None if a is None or b is None else max(a, b)


def _clip(text: str, limit: int = 200) -> str:
    """``text`` quoted on one line for a log message, cut to ``limit`` characters."""
    one_line = " ".join(text.split())
    return repr(one_line if len(one_line) <= limit else one_line[:limit] + "...")


def _items(value: Any) -> list[Any] | None:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        for key in _LIST_KEYS:
            if isinstance(value.get(key), list):
                return value[key]
        if any(isinstance(value.get(k), str) for k in _TEXT_KEYS):
            return [value]
    return None


_CLAUSE_END = re.compile(r"[.;,:!]\s|\s[-\u2013\u2014]\s")
_ELLIPSIS = "\u2026"


def _shortened(text: str, max_chars: int) -> str | None:
    """``text`` (one line) cut to at most ``max_chars`` characters, ending in "…": at its last clause end
    (". ", "; ", ", ", " - ") when that keeps three quarters of ``max_chars`` (the cut falls between two
    thoughts, not inside one), else at its last word boundary that keeps half. ``None`` when there is neither
    (one long token is not a fact)."""
    room = max_chars - len(_ELLIPSIS)
    head = text[: room + 1]  # one more character: a cut may fall on the space right after the room
    cut = max((m.start() + 1 for m in _CLAUSE_END.finditer(head) if m.start() + 1 <= room), default=0)
    if cut < max_chars * 3 // 4:
        cut = head.rfind(" ")
    if cut < max_chars // 2:
        return None
    return text[:cut].rstrip(" ,;:.!-\u2013\u2014") + _ELLIPSIS


_ALIAS_PREFIX = re.compile(r"^(F\d+)\s*[:.)\-]\s*(.*)$", re.IGNORECASE | re.DOTALL)
_NO_ID = frozenset({"", "none", "null", "n/a"})


class _Shown:
    """The stored facts a model was shown, for reading the ``supersedes`` of its reply."""

    def __init__(self, existing: Sequence[KnownFact]) -> None:
        self.ids: dict[str, str] = {}
        self.content_key: dict[str, str] = {}
        self.by_text: dict[str, list[str]] = {}
        for i, fact in enumerate(existing):
            self.ids[_alias(i).casefold()] = fact.id
            self.ids[str(fact.id).casefold()] = fact.id
            key = normalize_fact_text(str(fact.content))
            self.content_key[fact.id] = key
            self.by_text.setdefault(key, []).append(fact.id)

    def __len__(self) -> int:
        return len(self.content_key)

    def _named(self, ref: str) -> list[str]:
        """The ids ``ref`` names: a short id (``F1``) or real id, a fact's text, or ``"F1: <its text>"``."""
        folded = ref.casefold()
        if folded in self.ids:
            return [self.ids[folded]]
        prefixed = _ALIAS_PREFIX.match(ref)
        if prefixed and prefixed.group(1).casefold() in self.ids:
            fid = self.ids[prefixed.group(1).casefold()]
            rest = normalize_fact_text(prefixed.group(2))
            if not rest or rest == self.content_key[fid]:
                return [fid]
        return list(self.by_text.get(normalize_fact_text(ref), []))

    def resolve(self, refs: Sequence[Any]) -> tuple[list[str], list[Any]]:
        """The ids of the shown facts that ``refs`` (a reply's ``supersedes``) name, and the refs naming none."""
        found: list[str] = []
        unknown: list[Any] = []
        for ref in refs:
            if ref is None or (isinstance(ref, str) and ref.strip().casefold() in _NO_ID):
                continue
            named = self._named(ref.strip()) if isinstance(ref, str) else []
            found += named
            if not named:
                unknown.append(ref)
        return list(dict.fromkeys(found)), unknown


def parse_extraction_reply(
    reply: str,
    existing: Sequence[KnownFact] = (),
    *,
    max_chars: int = DEFAULT_MAX_FACT_CHARS,
    max_facts: int = 20,
    core: bool = True,
    now: datetime | None = None,
) -> list[ExtractedFact]:
    """The facts in a model's reply to :func:`build_extraction_prompt`; ``[]`` for a reply it cannot read.

    Accepts a JSON array (or ``{"facts": [...]}``) bare, inside a
    ````json ... ```` fence, or among other text, and the same written as a
    Python literal (single quotes, ``True`` / ``None``, read with
    :func:`ast.literal_eval`, never run as code); items may be objects
    (``fact`` / ``text``, ``supersedes``) or plain strings. A ``supersedes``
    entry is kept only if it names one of ``existing`` (by its short id ``F1``
    ... or its real id, or by its text, compared case- and space-insensitively),
    and not a fact with the same text as the new one: a model can never point at
    another user's facts or invent ids. An entry naming none of them is dropped
    with a WARNING line (the new fact is kept). A fact over ``max_chars`` is cut
    at its last clause end or word boundary and ends in "…" (dropped when it has
    no such boundary in its first half, one long token); empty items are skipped,
    question facts dropped, repeats merged, and at most ``max_facts`` are
    returned. An object's ``"core": true`` makes the fact core (read only with
    ``core``; a repeat is core if any copy is). A ``<think>...</think>`` block
    is skipped. Every fact dropped or cut, and a blank reply or one holding no
    list of facts, is logged at WARNING, one line each (no traceback).

    An object's ``"expires_at"`` (or ``"expires"``, ``"expiry"``, ``"valid_until"``) becomes the fact's
    ``expires_at``: a date alone is the last day the fact holds (it expires once that day has ended
    everywhere), a date-time without a zone is read in the zone of ``now`` (when the turn was said; default:
    the current time in UTC). A value that is no date (``"soon"``, a number) is dropped with a WARNING line and
    the fact kept without an expiry; ``null``, ``"never"`` or ``""`` mean none. A fact said twice keeps the
    longer life. (Capture does not store a fact whose expiry is at or before the turn's time.)
    """
    said_at = now if now is not None else datetime.now(timezone.utc)
    if not isinstance(reply, str) or not reply.strip():
        logger.warning("the fact extractor's model replied with no text; nothing is stored from it: %s",
                       _clip(str(reply)))
        return []
    reply = _THINKING.sub(" ", reply)  # a reasoning model's thoughts may quote facts it then rejects
    shown = _Shown(existing)
    items: list[Any] | None = None
    for candidate in [m.group(1) for m in _FENCE.finditer(reply)] + [reply]:
        for value in _decoded_values(candidate):
            items = _items(value)
            if items is not None:
                break
        if items is not None:
            break
    if items is None:
        logger.warning("the fact extractor's reply holds no list of facts; nothing is stored from it: %s",
                       _clip(reply))
        return []
    if not items:
        return []

    out: dict[str, tuple[str, list[str]]] = {}
    cores: set[str] = set()
    expiries: dict[str, datetime | None] = {}
    for item in items:
        is_core = False
        raw_expiry: Any = None
        if isinstance(item, str):
            text, raw_ids = item, []
        elif isinstance(item, dict):
            text = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str)), "")
            raw = next((item[k] for k in _SUPERSEDE_KEYS if k in item), None)
            raw_ids = raw if isinstance(raw, list) else [] if raw is None else [raw]
            is_core = core and _flag(item.get("core"))
            raw_expiry = next((item[k] for k in _EXPIRY_KEYS if item.get(k) is not None), None)
        else:
            logger.warning("the fact extractor's reply holds an item that is no fact, dropped: %s", _clip(str(item)))
            continue
        text = " ".join(text.split())
        if not text:
            if isinstance(item, dict):
                logger.warning("the fact extractor's reply holds an object without a fact text, dropped: %s",
                               _clip(str(item)))
            continue
        if text.endswith("?"):
            logger.warning("the fact extractor's reply holds a question, not a fact, dropped: %s", _clip(text))
            continue
        if len(text) > max_chars:
            short = _shortened(text, max_chars)
            if short is None:
                logger.warning("the fact extractor's reply holds a fact of %d characters (max_chars=%d) with no "
                               "word boundary to cut it at, dropped: %s", len(text), max_chars, _clip(text))
                continue
            logger.warning("the fact extractor's reply holds a fact of %d characters (max_chars=%d), stored cut "
                           "to %s: %s", len(text), max_chars, _clip(short, max_chars), _clip(text, 1000))
            text = short
        key = normalize_fact_text(text)
        if not key:
            continue
        replaced, unknown = shown.resolve(raw_ids)
        if unknown:
            logger.warning("the fact extractor's reply says %s supersedes %s, which %s none of the %d facts it "
                           "was shown; the fact is kept, that supersede dropped",
                           _clip(text), ", ".join(_clip(str(u), 80) for u in unknown),
                           "names" if len(unknown) == 1 else "name", len(shown))
        replaced = [r for r in replaced if shown.content_key.get(r) != key]
        try:
            expires = _read_expiry(raw_expiry, said_at)
        except (ValueError, TypeError, OverflowError):
            logger.warning("the fact extractor's reply gives %s an expires_at that is no date, %s; the fact is "
                           "kept without one", _clip(text), _clip(str(raw_expiry), 80))
            expires = None
        if key in out:
            out[key][1].extend(r for r in replaced if r not in out[key][1])
            expiries[key] = _later_expiry(expiries[key], expires)
        elif len(out) < max_facts:
            out[key] = (text, list(dict.fromkeys(replaced)))
            expiries[key] = expires
        else:
            logger.warning("the fact extractor's reply holds more than max_facts=%d facts; dropped: %s",
                           max_facts, _clip(text))
            continue
        if is_core:
            cores.add(key)
    return [ExtractedFact(text, tuple(replaced), core=key in cores, expires_at=expiries[key])
            for key, (text, replaced) in out.items()]
