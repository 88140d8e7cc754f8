"""Argument checks shared by the engine and the adapters: fail early, name the problem."""

from __future__ import annotations

import json
import os
import re
import reprlib
import sys
import time
import unicodedata
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta, timezone
from typing import Any


#: Keys recall adds to every fact's metadata; user metadata may not use them (they would shadow the bookkeeping).
RESERVED_METADATA_KEYS = frozenset({"times_seen", "last_seen", "session_id", "updated_at", "expires_at"})

#: A fact's own fields (:class:`~memori_core.facts.RecalledFact`, :class:`~memori_core.facts.StoredFact`), which the
#: adapters also write into a Document's or a node's metadata; user metadata may not use them (alice's fact with
#: ``metadata["entity_id"] == "bob"`` would contradict the fact, and an adapter would drop the value).
FACT_FIELD_KEYS = frozenset({
    "id", "entity_id", "content", "created_at", "valid_from", "valid_to", "superseded_by", "supersedes",
    "restored_at", "cosine", "lexical", "rank_score", "passed_by",
})


def check_str(value: Any, name: str) -> str:
    """``value`` if it is a ``str``; anything else raises ``TypeError`` naming ``name`` and the type given.

    >>> check_str(3, "query")
    Traceback (most recent call last):
    TypeError: query must be a str, got int
    """
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    return value


def check_text(value: str, name: str) -> str:
    """``value`` if it can be stored as UTF-8; a lone surrogate (``"\\ud800"``) raises ``ValueError`` naming it."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{name} is not valid Unicode text (lone surrogate at position {exc.start})") from None
    return value


def repair_text(value: str) -> str:
    """``value`` with each lone surrogate (half of an emoji a client cut in two: JSON ``"\\ud83d"``) replaced by
    U+FFFD, and a surrogate pair written as two code units joined into its character: for end-user text the
    fail-open surfaces read (an adapter's query and turns), where the turn must go on. Explicit engine calls
    refuse such text instead (:func:`check_text`)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return value


def repair_turns(query: Any, context: Any) -> tuple[Any, Any]:
    """An adapter's ``query`` and ``context`` (one turn, or a list or tuple of them) with each text repaired
    (:func:`repair_text`); anything that is not text is left as it is, for the checks to refuse."""
    if isinstance(context, str):
        context = repair_text(context)
    elif isinstance(context, (list, tuple)):
        context = [repair_text(t) if isinstance(t, str) else t for t in context]
    return (repair_text(query) if isinstance(query, str) else query), context


_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
"""Unicode categories of the characters an entity id may not hold: control characters (``Cc``), format
characters (``Cf``: zero-width space, zero-width joiner and non-joiner, word joiner, BOM, soft hyphen, bidi
marks, embeddings and isolates) and line and paragraph separators: text that shows nothing, so two ids that
look the same would name two entities."""

UNNORMALIZED_IDS_ALLOWED: ContextVar[bool] = ContextVar("memori_unnormalized_entity_ids", default=False)
"""Whether :func:`check_entity_id` accepts unnormalised ids here (set by :func:`unnormalized_entity_ids`); the
captures queued while it is set carry it to the thread that stores them (:data:`memori_core.lanes.CARRIED`)."""


@contextmanager
def unnormalized_entity_ids() -> Iterator[None]:
    """Within the ``with`` block (in this thread or task, and in the background captures an adapter queues in it,
    which are stored on the engine's capture threads later), :func:`check_entity_id` accepts an id that is not in
    Unicode NFC form, holds an invisible character or a space other than U+0020 (a no-break space), as
    memori-recall did before it refused them: to reach the facts an earlier version stored under such an id, and
    move them to the id's NFC form (or the id it should have been).

    >>> with unnormalized_entity_ids():
    ...     records = engine.export(old_id)
    ...     engine.import_(unicodedata.normalize("NFC", old_id), records)
    ...     engine.forget(old_id)

    Blank ids and ids with surrounding whitespace are refused all the same."""
    token = UNNORMALIZED_IDS_ALLOWED.set(True)
    try:
        yield
    finally:
        UNNORMALIZED_IDS_ALLOWED.reset(token)


def _arabic_joining() -> tuple[frozenset[str], frozenset[str]]:
    """The letters of the Arabic script that join the letter after them, and those that join the letter before
    them, read from Unicode's presentation forms (a letter with an initial or medial form joins forward, one with
    a final or medial form backward); the tatweel joins both ways."""
    forward, backward = {"\u0640"}, {"\u0640"}
    for cp in (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00)):
        tag, _, base = unicodedata.decomposition(chr(cp)).partition(" ")
        if not base or " " in base:  # no decomposition, or a ligature of several letters
            continue
        letter = chr(int(base, 16))
        if tag in ("<initial>", "<medial>"):
            forward.add(letter)
        if tag in ("<final>", "<medial>"):
            backward.add(letter)
    return frozenset(forward), frozenset(backward)


_JOINS_FORWARD, _JOINS_BACKWARD = _arabic_joining()
_ZWNJ, _ZWJ = "\u200c", "\u200d"
_VIRAMA = 9
"""The canonical combining class of a virama (Devanagari U+094D, Sinhala U+0DCA ...): a joiner after it picks
the form of the consonant cluster (a half form, a conjunct), so it shows."""

_EMOJI_TRAILERS = frozenset({"\ufe0e", "\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))})
"""What may follow an emoji inside an emoji ZWJ sequence before the joiner: a variation selector, a skin tone."""


def _shown_joiner(text: str, i: int) -> bool:
    """Whether the zero-width (non-)joiner ``text[i]`` changes how ``text`` is shown, so that an id holding it
    does not look like the id without it: after a virama and before a letter (Indic scripts: ``"क्\u200cष"``,
    Sinhala ``"ශ්\u200dරී"``); a non-joiner between two Arabic-script letters that would join without it (Persian
    ``"می\u200cخواهم"``); a joiner between two emoji (``"👩\u200d💻"``, skin tones and variation selectors
    allowed before it). Anywhere else (``"al\u200dice"``, at either end) it shows nothing."""
    before, after = text[:i], text[i + 1:]
    if not before or not after:
        return False
    if unicodedata.combining(before[-1]) == _VIRAMA and unicodedata.category(after[0]).startswith("L"):
        return True
    if text[i] == _ZWNJ:  # the letters it stands between, past their vowel marks
        left = next((ch for ch in reversed(before) if unicodedata.category(ch) != "Mn"), "")
        right = next((ch for ch in after if unicodedata.category(ch) != "Mn"), "")
        return left in _JOINS_FORWARD and right in _JOINS_BACKWARD
    emoji = next((ch for ch in reversed(before) if ch not in _EMOJI_TRAILERS), "")
    return unicodedata.category(emoji or " ") == "So" and unicodedata.category(after[0]) == "So"


def _hidden_at(text: str) -> list[int]:
    """The indexes of the characters of ``text`` in :data:`_INVISIBLE_CATEGORIES` that show nothing (a joiner
    :func:`_shown_joiner` finds shown is not one of them)."""
    if text.isascii():
        return [i for i, ch in enumerate(text) if ch < " " or ch == "\x7f"]
    return [i for i, ch in enumerate(text) if unicodedata.category(ch) in _INVISIBLE_CATEGORIES
            and not (ch in (_ZWNJ, _ZWJ) and _shown_joiner(text, i))]


def _odd_space_at(text: str) -> int | None:
    """The index of the first space of ``text`` other than U+0020 (a no-break space, an en space, an ideographic
    space ...: Unicode category ``Zs``, but :data:`_SHOWN_SPACES`), or ``None``."""
    return next((i for i, ch in enumerate(text) if unicodedata.category(ch) == "Zs" and ch not in _SHOWN_SPACES),
                None)


_SHOWN_SPACES = frozenset({" ", "\u1680"})
"""Spaces an entity id may hold: the plain one, and the Ogham space mark (a stroke, not a blank)."""


def check_entity_id(entity_id: Any, name: str = "entity_id", *, option: str | None = None) -> str:
    """Return ``entity_id`` if it is a non-blank ``str`` without surrounding whitespace, with no invisible
    character, in Unicode NFC form; raise ``TypeError`` / ``ValueError`` naming it (as ``name``: where the id
    came from) otherwise.

    Every entity id of the engine and the adapters is checked here, and the rule is that two ids name one
    entity exactly when they are equal as text after these checks: an id that would look like another one but
    differ from it is refused, never changed, since changing it here but not in a store written earlier would
    split one user in two (and make the facts stored under the original unreachable):

    - ``" alice "`` or ``"alice\n"`` (a form field, a line read from a file): strip it first;
    - ``"alice\u200b"`` (a zero-width space pasted from a chat app, a BOM, a bidi mark, a control character:
      :data:`_INVISIBLE_CATEGORIES`): the error names the character and its position. A zero-width non-joiner or
      joiner is accepted where it changes how the id is shown (:func:`_shown_joiner`: Persian
      ``"می\u200cخواهم"``, an Indic conjunct, an emoji ZWJ sequence ``"dev-👩\u200d💻"``);
    - ``"user\u00a0name"`` (a no-break space, a thin or an ideographic space: any space but U+0020 that looks
      blank): the error gives the id with plain spaces;
    - ``"jose\u0301"`` (NFD, as macOS and some keyboards send "josé"): the error gives the NFC form
      (``unicodedata.normalize("NFC", entity_id)``), which is the one to use.

    Facts an earlier version stored under such an id are reached, and moved, within
    :func:`unnormalized_entity_ids`.

    ``option``: the id was typed on a command line after this option (``"-e"``): the messages leave the name out
    (the command line's parser says which argument) and say what to type instead of what to call."""
    subject = f"{name} " if option is None else ""  # on a command line, the parser names the argument
    if not isinstance(entity_id, str):
        raise TypeError(f"{name} must be a non-empty str, got {type(entity_id).__name__}")
    if not entity_id.strip():
        raise ValueError(f"{subject}must be a non-empty str, got a blank string" if option is None
                         else "must not be blank")
    if entity_id != entity_id.strip():
        fix = "strip it first" if option is None else f"use {option} {entity_id.strip()!r}"
        raise ValueError(f"{subject}{entity_id!r} begins or ends with whitespace, so it would name another entity "
                         f"than {entity_id.strip()!r}; {fix}")
    check_text(entity_id, name)
    if (entity_id.isascii() and entity_id.isprintable()) or UNNORMALIZED_IDS_ALLOWED.get():
        return entity_id  # printable ASCII: nothing invisible, and NFC already
    how_to_move = ("(facts an earlier version stored under it: see memori_core.unnormalized_entity_ids)"
                   if option is None else
                   "(facts an earlier version stored under it: docs/stores.md, \"Ids an earlier version took as "
                   "they came\")")
    hidden = _hidden_at(entity_id)
    if hidden:
        at, char = hidden[0], entity_id[hidden[0]]
        visible = "".join(ch for i, ch in enumerate(entity_id) if i not in hidden)
        raise ValueError(f"{subject}{entity_id!r} holds an invisible character at position {at}, U+{ord(char):04X} "
                         f"({unicodedata.name(char, 'a control character')}), so it would name another entity "
                         f"than {visible!r}; remove it {how_to_move}")
    at = _odd_space_at(entity_id)
    if at is not None:
        char = entity_id[at]
        plain = "".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in entity_id)
        fix = "use a plain space (U+0020)" if option is None else f"use {option} {plain!r}"
        raise ValueError(f"{subject}{entity_id!r} holds U+{ord(char):04X} ({unicodedata.name(char)}) at position "
                         f"{at}, a space that looks like a plain one, so it would name another entity than "
                         f"{plain!r}; {fix} {how_to_move}")
    if not unicodedata.is_normalized("NFC", entity_id):
        nfc = unicodedata.normalize("NFC", entity_id)
        # ``name`` may say where the id came from ("MemoriRetriever: entity_id"): only the argument goes in code.
        argument = name.rpartition(": ")[2]
        fix = (f"use {option} {nfc!r}" if option is not None else
               f"pass unicodedata.normalize('NFC', {argument})" if argument.isidentifier() else
               "pass its NFC form, unicodedata.normalize('NFC', ...)")
        raise ValueError(f"{subject}{ascii(entity_id)} is not in Unicode NFC form, so it would name another entity "
                         f"than the same text in NFC, {ascii(nfc)} ({nfc!r}); {fix} {how_to_move}")
    return entity_id


def check_count(value: Any, name: str, expected: str = "an int >= 0") -> int:
    """``value`` if it is an int >= 0 (a ``bool`` is not one); otherwise ``TypeError`` (not an int) or ``ValueError``
    (negative) saying ``{name} must be {expected}, got ...``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be {expected}, got {value!r}")
    return value


def check_limit(limit: Any, default: int) -> int:
    """``None`` -> ``default``; otherwise an int >= 0 (0 recalls nothing); a negative one raises ``ValueError``
    naming ``limit``, as ``list`` and the adapters' ``k`` do."""
    return default if limit is None else check_count(limit, "limit")


MAX_TURN_CHARS = 8_000
"""The most characters of one message memori reads: a recall's query and each of its ``context`` turns
(:func:`check_query`, :func:`check_context`), and each message capture's extractors read
(:func:`memori_core.extraction.as_messages`). A longer message (a pasted document, a log: an API receives whatever
a client posts) is read as its first and last ``MAX_TURN_CHARS // 2`` characters (:func:`clip_turn`), so its cost
on the request path is bounded (a 1 MB message otherwise costs seconds of CPU in recall and capture). The cosine
side loses nothing: the embedder reads only a query's first 256 tokens (about 1,200 characters of English)."""

_SENTENCE_END = re.compile(r"[.!?\u3002\uff01\uff1f](?=\s)|\n")


def clip_turn(text: str, limit: int = MAX_TURN_CHARS) -> str:
    r"""``text`` if it has at most ``limit`` characters; otherwise its first and last ``limit // 2`` characters,
    joined by a blank line. Each part is cut back to a sentence or line end (else a space) when there is one in
    its last (first) quarter, so that a half sentence is not read as a whole one.

    >>> clip_turn("I live in Lyon. " + "blah " * 8 + "Can I eat peanuts?", limit=40)
    'I live in Lyon.\n\nCan I eat peanuts?'
    """
    n = len(text)
    if n <= limit:
        return text
    half = limit // 2
    slack = max(half // 4, 1)
    head_end = half
    ends = [m.end() for m in _SENTENCE_END.finditer(text, half - slack, half + 1) if m.end() <= half]
    if ends:
        head_end = ends[-1]
    elif (space := text.rfind(" ", half - slack, half)) > 0:
        head_end = space
    tail_start = n - half
    start = _SENTENCE_END.search(text, tail_start - 1, tail_start + slack)
    if start is not None:
        tail_start = start.end()
    elif (space := text.find(" ", tail_start - 1, tail_start + slack)) >= 0:
        tail_start = space + 1
    return f"{text[:head_end].rstrip()}\n\n{text[tail_start:].lstrip()}"


def check_query(query: Any) -> str:
    """A query must be a ``str`` (blank is allowed: it recalls nothing); anything else, ``None`` included (an
    app's missing value, not a blank question), raises ``TypeError`` naming ``query``. Returns what recall reads
    of it: all of it, or for a query longer than :data:`MAX_TURN_CHARS` its :func:`clip_turn`."""
    check_str(query, "query")
    return clip_turn(check_text(query, "query"))


def check_context(context: Any) -> list[str]:
    """Earlier turns of the conversation, oldest first: ``None`` (none), one ``str`` or a list of ``str``; each
    turn as recall reads it (at most :data:`MAX_TURN_CHARS` characters: :func:`clip_turn`)."""
    if context is None:
        return []
    if isinstance(context, str):
        context = [context]
    if isinstance(context, (bytes, bytearray)) or not isinstance(context, (list, tuple)):
        raise TypeError(f"context must be a list of earlier turns (str), got {type(context).__name__}")
    out = []
    for i, turn in enumerate(context):
        if not isinstance(turn, str):
            raise TypeError(f"context[{i}] must be a str, got {type(turn).__name__}")
        out.append(clip_turn(check_text(turn, f"context[{i}]")))
    return out


MAX_FACT_CHARS = 100_000
"""The longest fact (in characters, after stripping) ``add``, ``update`` and ``import_`` store: far above any
chat turn (a 300 KB paste is not a fact about the user), far below what would break a model's context. What one
fact shows in the ``<memori_context>`` block is cut shorter (:data:`memori_core.context.MAX_SHOWN_FACT_CHARS`)."""


def check_fact_length(text: str, name: str) -> str:
    """``text``, unless it is longer than :data:`MAX_FACT_CHARS`: then a ``ValueError`` naming ``name``."""
    if len(text) > MAX_FACT_CHARS:
        raise ValueError(f"{name} is {len(text):,} characters long; at most {MAX_FACT_CHARS:,} are stored (a fact is "
                         "a sentence or a chat turn, not a document): split it, or store a summary")
    return text


def check_facts(facts: Any) -> list[str]:
    """A list of non-blank strings (a single ``str`` counts as one fact), each at most :data:`MAX_FACT_CHARS`
    characters long."""
    if isinstance(facts, str):
        facts = [facts]
    if isinstance(facts, (bytes, bytearray, memoryview)) or not isinstance(facts, Sequence):
        raise TypeError(f"facts must be a str or a list of str, got {type(facts).__name__}")
    out: list[str] = []
    for i, fact in enumerate(facts):
        if not isinstance(fact, str):
            raise TypeError(f"fact #{i} must be a str, got {type(fact).__name__}")
        if not fact.strip():
            raise ValueError(f"fact #{i} is empty")
        if not has_visible_character(fact):
            raise ValueError(f"fact #{i} has no visible character (only spaces, controls or invisible format "
                             "characters)")
        out.append(check_fact_length(check_text(fact.strip(), f"fact #{i}"), f"fact #{i}"))
    return out


def has_visible_character(text: str) -> bool:
    """Whether ``text`` holds a character a reader sees: not a space, a control (Cc) or an invisible format
    character (Cf: zero-width spaces, joiners, bidi marks)."""
    return any(not ch.isspace() and unicodedata.category(ch) not in ("Cc", "Cf", "Zs") for ch in text)


def per_fact(value: Any, n: int, name: str, scalar_types: tuple[type, ...]) -> list[Any]:
    """Broadcast one value to ``n`` facts, or check a list has one value per fact."""
    if value is None or isinstance(value, scalar_types):
        return [value] * n
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        if len(value) != n:
            raise ValueError(f"{name} has {len(value)} entries for {n} facts")
        return list(value)
    # "one value" would read as "chat" being one: name the kind of value meant
    one = " or ".join(t.__name__ for t in scalar_types)
    raise TypeError(f"{name} must be {f'a {one} (for every fact) or ' if one else ''}a list with one per fact, got "
                    f"{type(value).__name__} {reprlib.repr(value)}")


def check_ids(ids: Any, n: int) -> list[str] | None:
    """Caller-given fact ids: one non-blank, unique ``str`` per fact."""
    if ids is None:
        return None
    ids = per_fact(ids, n, "ids", ())
    for i, fid in enumerate(ids):
        if not isinstance(fid, str) or not fid.strip():
            raise TypeError(f"ids[{i}] must be a non-empty str, got {fid!r}")
        check_text(fid, f"ids[{i}]")
    if len(set(ids)) != len(ids):
        raise ValueError("ids must be unique within one add() call")
    return ids


class OutOfRangeError(ValueError):
    """A valid ISO 8601 time that has no UTC equivalent in the years 1-9999 (``0001-01-01T00:00+05:00``): raised by
    :func:`check_time`, naming the argument, and by :func:`parse_utc`, whose callers name it (the ``memori``
    command's time options, a task file's times), told apart from text that is no time at all."""


class NaiveTimeWarning(UserWarning):
    """A time memori was given without a zone (a naive ``datetime``, an ISO 8601 string without an offset, a
    date alone) was read as UTC (:func:`check_time`)."""


_OWN_CODE = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), package, "")
                  for package in ("memori_core", "memori_langchain", "memori_llamaindex"))


def _warn_naive(name: str) -> None:
    """Warn that ``name`` was read as UTC, at the first line outside memori's packages (the app's call), once
    per such line under Python's default filter: the text names the argument but not the value."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_OWN_CODE):
        frame, level = frame.f_back, level + 1
    label = re.sub(r"\[\d+\]", "[i]", name)  # one warning for all the records of an import
    warnings.warn(f"{label} has no time zone, so it is read as UTC; give a timezone-aware datetime or an ISO 8601 "
                  "str with an offset ('...Z', '...+01:00') to mean another zone", NaiveTimeWarning, stacklevel=level)


def check_time(value: Any, name: str, *, warns: bool = True, needs_zone: bool = False) -> datetime | None:
    """The one reading of a time memori is given: a fact's ``created_at`` and ``expires_at``, ``as_of``, a
    ``where`` time, an imported record's times, the time a turn was said (``capture_facts(created_at=...)``, a
    message's ``created_at``). ``None``, or a ``datetime`` / ISO 8601 ``str``, as an aware ``datetime`` that
    keeps its own offset (a turn's "tomorrow" is read in it).

    A time without a zone (``datetime(2026, 10, 20)``, ``"2026-10-20T10:00"``, ``"2026-10-20"``) is read as
    UTC everywhere, and warns :class:`NaiveTimeWarning` naming ``name``: an app's local clock read as UTC
    would shift every time by the user's offset without a word (``warns=False``: a second reading of a time
    already read, warned about there; ``needs_zone=True``: refused, ``ValueError``, for a caller that must say the
    zone, as the MCP server's client does). Another type raises ``TypeError``, a str that is no ISO 8601 time or a
    time outside the years 1-9999 in UTC ``ValueError``, each naming ``name``."""
    if value is None:
        return None
    if not isinstance(value, (str, datetime)):
        raise TypeError(f"{name} must be a datetime or ISO 8601 str, got {type(value).__name__}")
    when = value
    if isinstance(when, str):
        try:
            when = datetime.fromisoformat(when.strip().replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            raise ValueError(f"{name} {value!r} is not an ISO 8601 timestamp") from None
    if when.tzinfo is None or when.utcoffset() is None:
        if needs_zone:
            raise ValueError(f"{name} {value!r} has no offset: add the user's (e.g. +01:00, or Z for UTC)")
        if warns:
            _warn_naive(name)
        when = when.replace(tzinfo=timezone.utc)
    try:
        when.astimezone(timezone.utc)
    except OverflowError:
        raise OutOfRangeError(f"{name} {value!r}: {when.isoformat()} is outside the years 1-9999 in UTC") from None
    return when


def parse_utc(value: datetime | str) -> datetime:
    """An aware UTC datetime from a ``datetime`` or ISO 8601 string, for times memori wrote itself (a stored
    fact's) and the command line's, which documents a time without a zone as UTC: such a time is taken as UTC
    without a warning (a time an app gives is read by :func:`check_time`).

    Raises ``ValueError`` for a string that is not ISO 8601.
    """
    if isinstance(value, str):
        value = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    try:
        return value.astimezone(timezone.utc)
    except OverflowError:
        raise OutOfRangeError(f"{value.isoformat()} is outside the years 1-9999 in UTC") from None


def iso_to_ts(value: str | None) -> float:
    """Seconds since the epoch for a stored ISO 8601 timestamp (0.0 when absent)."""
    return parse_utc(value).timestamp() if value else 0.0


def to_iso_utc(value: Any, name: str = "created_at") -> str | None:
    """A given time (:func:`check_time`: a time without a zone is UTC, with a warning) as a UTC ISO string."""
    when = check_time(value, name)
    return None if when is None else when.astimezone(timezone.utc).isoformat()


FUTURE_SKEW_SECONDS = 86_400.0
"""How far in the future a ``created_at`` may lie (clocks of several writers differ); later is refused."""


def check_created_at(value: Any, name: str = "created_at") -> str | None:
    """A fact's ``created_at`` as a UTC ISO string, read as :func:`check_said_at` reads a turn's time (refused
    more than :data:`FUTURE_SKEW_SECONDS` in the future: a fact said in the year 2999 is a typo, and recall (now)
    and ``recall(as_of=now)`` would disagree on it)."""
    when = check_said_at(value, name)
    return None if when is None else when.astimezone(timezone.utc).isoformat()


def check_said_at(value: Any, name: str = "created_at", *, warns: bool = True) -> datetime | None:
    """When a conversation turn was said: ``None``, a ``datetime`` or an ISO 8601 string, read by
    :func:`check_time` (with a UTC offset, ``"2026-01-12T09:30:00+01:00"`` or ``"...Z"``, the turn's day is read
    in it; without one, in UTC, with a :class:`NaiveTimeWarning`, as when no time is given), as an aware
    ``datetime`` keeping its own offset. ``TypeError`` / ``ValueError`` name ``name``; a time more than
    :data:`FUTURE_SKEW_SECONDS` ahead is refused too (a typo, as for ``created_at``)."""
    when = check_time(value, name, warns=warns)
    if when is not None and when.timestamp() > time.time() + FUTURE_SKEW_SECONDS:
        shown = value.isoformat() if isinstance(value, datetime) else repr(value)
        raise ValueError(f"{name} {shown} is in the future (more than a day from now)")
    return when


LIVE_TURN_SECONDS = 60.0
"""A turn said less than this long ago (or dated ahead: clocks differ) is read at now by the adapters: its own time
would hide a fact written a moment after the message was stamped, by a writer whose clock runs a little ahead."""


def turn_as_of(said_at: datetime | None) -> datetime | None:
    """The ``as_of`` an adapter's recall for a turn said at ``said_at`` reads memory at: that time, for a turn said
    more than :data:`LIVE_TURN_SECONDS` ago (a replayed or imported chat), so that expiry, validity and what was
    stated yet are judged as of that turn, as capture dated its facts; ``None`` (now) for a live turn or none."""
    if said_at is None or said_at.timestamp() > time.time() - LIVE_TURN_SECONDS:
        return None
    return said_at


def check_as_of(value: Any) -> float | None:
    """``as_of`` of recall: ``None``, or a datetime / ISO 8601 str (:func:`check_time`), as epoch seconds."""
    when = check_time(value, "as_of")
    return None if when is None else when.timestamp()


def check_metadata(value: Any, i: int, *, restoring: bool = False) -> dict[str, Any]:
    """User metadata: a dict of JSON-serialisable values, none under a key recall reports itself; a key named like
    a fact's own field (``entity_id``, ``created_at``...) is refused too, except when ``restoring`` an export
    (versions before 2026-12-05 accepted such keys, and a backup must restore whole)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise TypeError(f"metadata #{i} must be a dict with str keys, got {type(value).__name__}")
    reserved = RESERVED_METADATA_KEYS.intersection(value)
    if reserved:
        raise ValueError(
            f"metadata #{i} uses reserved key(s) {sorted(reserved)}: recall reports them for every fact; rename them"
        )
    fields = FACT_FIELD_KEYS.intersection(value)
    if fields and not restoring:
        raise ValueError(
            f"metadata #{i} uses reserved key(s) {sorted(fields)}: the fact has field(s) of that name, which recall "
            "and the adapters report; rename them (e.g. 'source_created_at')"
        )
    try:
        encoded = json.dumps(value, allow_nan=False, ensure_ascii=False)
    except TypeError as exc:
        raise TypeError(f"metadata #{i} is not JSON-serialisable: {exc}") from None
    except ValueError:
        raise ValueError(f"metadata #{i} holds NaN or an infinity, which JSON cannot carry") from None
    check_text(encoded, f"metadata #{i}")
    return dict(value)


def check_session_id(value: Any, i: int) -> str | None:
    """A session id is ``None`` or a non-blank ``str``."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise TypeError(f"session_id #{i} must be a non-empty str or None, got {value!r}")
    return check_text(value, f"session_id #{i}")


def check_id_list(ids: Any, name: str) -> list[str]:
    """One id or a sequence of ids (each a str), repeats removed in order; ``None`` raises ``TypeError``."""
    if ids is None:
        raise TypeError(f"{name} must be a str or a sequence of str, got None")
    if isinstance(ids, str):
        id_list = [ids]
    elif isinstance(ids, Sequence) or isinstance(ids, (set, frozenset)):
        id_list = list(ids)
    else:
        raise TypeError(f"{name} must be a str or a sequence of str, got {type(ids).__name__}")
    for i, fid in enumerate(id_list):
        if not isinstance(fid, str):
            raise TypeError(f"{name}[{i}] must be a str, got {type(fid).__name__}")
        check_text(fid, f"{name}[{i}]")
    return list(dict.fromkeys(id_list))  # a repeated id counts once (Chroma refuses duplicates)


def check_expiry(value: Any) -> str | None:
    """``expires_at``: ``None``, a datetime / ISO 8601 string, or a ``timedelta`` from now; as a UTC ISO string
    (:func:`check_expiry_after` checks it against the fact's ``created_at``)."""
    if isinstance(value, timedelta):
        try:
            return (datetime.now(timezone.utc) + value).isoformat()
        except OverflowError:
            raise ValueError(f"expires_at {value!r} is beyond the year 9999") from None
    return to_iso_utc(value, "expires_at")


def check_expiry_after(expiry: str | None, created_at: str | None, i: int | None = None) -> str | None:
    """``expiry`` of fact ``#i`` of an ``add`` (``None``: the fact an ``update`` edits), refused (``ValueError``
    naming ``expires_at``) at or before its ``created_at``: such a fact was never valid (a negative ``timedelta``,
    a stale date), and an update would unmake its past (``recall(as_of=...)`` would no longer see it when it was
    valid). An expiry in the past but after ``created_at`` is kept (a fact backfilled with its history: listed,
    exported, recalled by ``as_of``)."""
    if expiry is not None and created_at and iso_to_ts(expiry) <= iso_to_ts(created_at):
        named, fix = ("expires_at", "; to stop recalling it from now on, expire it (RecallEngine.expire)") \
            if i is None else (f"expires_at #{i}", " (or an earlier created_at)")
        raise ValueError(f"{named} ({expiry}) is not after the fact's created_at ({created_at}): the fact "
                         f"would never be valid; give a later expires_at{fix}")
    return expiry


def check_valid_from(value: Any, created_at: list[str], expiries: list[str | None]) -> str | None:
    """``valid_from`` of ``add``: when the facts start to hold, for a change that takes effect later ("I start at
    Siemens on January 4"), as a UTC ISO string; ``None`` when not given or not after every fact's ``created_at``
    (then the facts hold from when they were stated, as without it). Refused (``ValueError`` naming
    ``valid_from``) before a fact's ``created_at`` (a fact cannot hold before it was stated: pass an earlier
    ``created_at``) and when a fact's ``expires_at`` is not after it (the fact would never hold). Unlike
    ``created_at`` it may lie any time ahead: it is the day a change starts, not a writer's clock."""
    when = check_time(value, "valid_from")
    if when is None:
        return None
    start = when.astimezone(timezone.utc).isoformat()
    t = iso_to_ts(start)
    for i, stamp in enumerate(created_at):
        if t < iso_to_ts(stamp):
            raise ValueError(f"valid_from ({start}) is before created_at #{i} ({stamp}): a fact cannot hold before it "
                             "was stated; give the created_at it was said at, or a later valid_from")
    for i, expiry in enumerate(expiries):
        if expiry is not None and iso_to_ts(expiry) <= t:
            raise ValueError(f"expires_at #{i} ({expiry}) is not after valid_from ({start}): the fact would never "
                             "hold; give a later expires_at, or none")
    return start if any(t > iso_to_ts(stamp) for stamp in created_at) else None


def check_core(value: Any, n: int) -> list[bool]:
    """``core`` of ``add``: one bool for all ``n`` facts (``None``: ``False``), or a list of one bool per fact."""
    if value is None:
        return [False] * n
    values = per_fact(value, n, "core", (bool,))
    for i, v in enumerate(values):
        if not isinstance(v, bool):
            raise TypeError(f"core[{i}] must be a bool, got {type(v).__name__}")
    return values


def check_core_flag(value: Any) -> bool | None:
    """``core`` of ``update``: ``True`` (mark core), ``False`` (unmark) or ``None`` (leave as it is)."""
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"core must be a bool or None, got {type(value).__name__}")
    return value
