"""Capture benchmark: which facts capture leaves valid at the end of a scripted conversation.

A file (``evals/capture/dev.json``, documented in ``evals/capture/README.md``) holds
conversations, each with a ``category``, its turns and the facts a careful person
would keep valid at the end::

    {"name": "capture-dev", "version": 1,
     "conversations": [{"id": "chg-01", "category": "change",
                        "turns": [{"role": "user", "text": "I live in Lisbon.",
                                   "facts": [{"fact": "User lives in Lisbon."}]},
                                  {"role": "assistant", "text": "Lovely city!"},
                                  {"role": "user", "text": "I moved to Porto last month.",
                                   "facts": [{"fact": "User lives in Porto.",
                                              "replaces": ["User lives in Lisbon."]}]}],
                        "gold": [["User lives in Porto.", "User moved to Porto."]],
                        "stale": ["User lives in Lisbon."]}]}

``gold`` items are a fact or a list of equivalent wordings; ``stale`` facts must not
be valid at the end. A user turn's ``facts`` is the script of the scripted LLM
(:class:`ScriptedFactExtractor`): what a careful model answers for that turn, and
the facts it replaces, named by text (the model can name only those it is shown), and,
for a fact that ends, ``"expires_in_days"``: the scripted model answers an ``expires_at``
that many days after the day the prompt says the turn was said (0: that day).

:func:`evaluate_capture` captures every user turn (with the assistant messages
that follow it) through :func:`memori_core.capture.capture_facts` into a real
in-memory Chroma store, then reads the valid facts with ``engine.list`` and
scores them (:func:`score_conversation`):

- **precision**: stored durable valid facts that match a gold fact / stored durable valid facts;
- **recall**: gold facts covered by a stored durable valid fact / gold facts;
- **stale valid**: stale facts that a stored valid fact still matches, and matches at least as
  closely as any gold fact (so "sister lives in Dublin" does not keep "sister lives in Glasgow") / stale facts;
  **stale held** counts the same with a stored fact that need only hold the stale fact's words (a longer
  sentence that still says it: "User smokes a pack a day, I know I know." holds "User smokes a pack a day."),
  so that shortening stored facts cannot raise "stale valid" while memory holds the same.

Facts with an ``expires_at`` are counted apart (``expiring``): they stop being
recalled on their own, so they are not durable facts.

Matching is by content tokens (:func:`content_tokens`: casefolded words, English
Snowball stems, function words, "User", and time words dropped (so are the times capture writes out from the
day a turn was said: "on Thursday 2026-08-06", "in July 2026", "in 2025"), negations
folded to ``not``), not by embeddings: an embedder puts "User lives in Lisbon."
and "User lives in Porto." close together, which is exactly the difference the
benchmark must see, and token matching is deterministic, instant and explainable.
A stored fact *matches* a gold fact when each covers at least
:data:`MATCH_CUTOFF` of the other's tokens; it *covers* a gold fact (recall) when
it holds at least :data:`COVER_CUTOFF` of the gold's tokens, so a compound fact
left unsplit still counts for recall but not for precision. Neither holds of a pair that says opposite things
(:func:`_opposed`): most of the words they share are denied by one (what follows a negation in its clause) and said
by the other, so the ending "User stopped taking sertraline." is not the stale "User takes sertraline 50mg.". Such
an ending of a stale fact is a true fact, not a wrong one (:func:`_ends`; it counts for no gold fact). A fact of
someone in the user's life does not match the user's own that names no such person ("User's partner works at the
bank." is not "User works in retail banking."), and a day shift is not a night shift.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from ..calendar_words import ANY_MONTH, ANY_WEEKDAY
from ..capture import capture_facts
from ..embedders import default_embedder
from ..engine import RecallEngine
from ..extraction.prompted import PromptedFactExtractor
from ..extraction.provenance import FACT_PATHS, FACT_TOPICS, CapturePolicy, check_policy, fact_topic
from ..extraction.rule_based import RuleBasedFactExtractor
from ..number_words import NUMBER_WORDS
from ..slots import PERSON, PLACED
from ..extraction.types import ExtractedFact, FactExtractor, KnownFact, Message, MessageLike
from ..store.chroma import ChromaStore
from ..text import STEM_FOLDS, get_stemmer, normalize_fact_text
from ..validate import iso_to_ts
from .data import NamedFile, expect_list, expect_object, expect_text, read_named_file, unique_ids
from .embedding import CachingEmbedder
from .runner import Progress

__all__ = [
    "CATEGORIES",
    "COVER_CUTOFF",
    "DEFAULT_SAID_AT",
    "MATCH_CUTOFF",
    "CaptureConversation",
    "CaptureSet",
    "CaptureTurn",
    "ScriptedFact",
    "ScriptedFactExtractor",
    "content_tokens",
    "covers",
    "evaluate_capture",
    "facts_match",
    "load_capture",
    "path_table",
    "rules_extractor_with",
    "score_conversation",
    "scripted_reply",
]

CATEGORIES = (
    "change", "ephemeral", "question", "small_talk", "introduction", "repeat", "compound", "non_english",
)
"""Conversation categories, in report order."""
MATCH_CUTOFF = 0.6
"""A stored fact matches a gold (or stale) fact when each holds at least this share of the other's tokens."""
COVER_CUTOFF = 0.75
"""A stored fact covers a gold fact (for recall) when it holds at least this share of the gold's tokens."""
DEFAULT_SAID_AT = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
"""When ``memori eval capture`` says the first user turn of each conversation was said unless ``--said-at`` says
otherwise (a Monday, 09:00 UTC): the rules read "tonight", "on Friday" and "tomorrow" from the day said, so a run
at the wall clock's time would score differently by the time of day and the day of the week."""

# -- the data ---------------------------------------------------------------------


@dataclass(frozen=True)
class ScriptedFact:
    """What the scripted model answers for a turn: a fact, the texts of the facts it replaces, and for a fact
    that ends (an appointment, a trip) how many days after the day the turn was said it still holds."""

    text: str
    replaces: tuple[str, ...] = ()
    expires_in_days: int | None = None
    """The scripted model answers ``"expires_at"``: the prompt's day of the turn plus this many days (the last
    day the fact holds; 0: that day). ``None``: a lasting fact, no expiry."""


@dataclass(frozen=True)
class CaptureTurn:
    """One message; a user message carries the scripted model's answer for it (``facts``)."""

    role: str
    text: str
    facts: tuple[ScriptedFact, ...] = ()


@dataclass(frozen=True)
class CaptureConversation:
    """A scripted conversation and what should be valid at its end."""

    id: str
    category: str
    turns: tuple[CaptureTurn, ...]
    gold: tuple[tuple[str, ...], ...]
    """Facts to keep, each as one or more equivalent wordings."""
    stale: tuple[str, ...] = ()
    """Facts that were true once and must not be valid at the end."""

    def user_turns(self) -> list[list[Message]]:
        """Each user message with the assistant messages that follow it: the unit capture sees."""
        out: list[list[Message]] = []
        for turn in self.turns:
            if turn.role == "user":
                out.append([Message("user", turn.text)])
            elif out:
                out[-1].append(Message(turn.role, turn.text))
        return out

    def scripts(self) -> list[tuple[ScriptedFact, ...]]:
        """The scripted model's answer for each user turn, in order."""
        return [t.facts for t in self.turns if t.role == "user"]


@dataclass
class CaptureSet(NamedFile):
    """A whole capture-benchmark file."""

    conversations: list[CaptureConversation] = field(default_factory=list)

    def count(self) -> dict[str, Any]:
        """Conversations, user turns, gold and stale facts, and conversations per category."""
        cs = self.conversations
        return {
            "conversations": len(cs),
            "user_turns": sum(len(c.user_turns()) for c in cs),
            "gold": sum(len(c.gold) for c in cs),
            "stale": sum(len(c.stale) for c in cs),
            "categories": {k: sum(1 for c in cs if c.category == k) for k in CATEGORIES},
        }


def _wordings(value: Any, where: str) -> tuple[str, ...]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and v.strip() for v in items):
        raise ValueError(f"{where}: a gold fact is a non-empty string or a non-empty list of them, got {value!r}")
    return tuple(items)


def _scripted(item: Any, where: str) -> ScriptedFact:
    obj = expect_object(item, where)
    replaces = obj.get("replaces", [])
    if not isinstance(replaces, list) or not all(isinstance(r, str) and r.strip() for r in replaces):
        raise ValueError(f"{where}: 'replaces' must be a list of fact texts, got {replaces!r}")
    days = obj.get("expires_in_days")
    if days is not None and (isinstance(days, bool) or not isinstance(days, int) or days < 0):
        raise ValueError(f"{where}: 'expires_in_days' must be an int >= 0, got {days!r}")
    return ScriptedFact(expect_text(obj, "fact", where), tuple(replaces), days)


def _turn(item: Any, where: str) -> CaptureTurn:
    obj = expect_object(item, where)
    role = obj.get("role")
    if role not in ("user", "assistant"):
        raise ValueError(f"{where}: 'role' must be 'user' or 'assistant', got {role!r}")
    facts = obj.get("facts", [])
    if role == "assistant" and facts:
        raise ValueError(f"{where}: only a user turn has scripted 'facts'")
    facts = expect_list(facts, where, "facts")
    return CaptureTurn(role, expect_text(obj, "text", where),
                       tuple(_scripted(f, f"{where} fact #{i}") for i, f in enumerate(facts)))


def _conversation(item: Any, where: str) -> CaptureConversation:
    obj = expect_object(item, where)
    cid = expect_text(obj, "id", where)
    where = f"{where} ({cid})"
    category = obj.get("category")
    if category not in CATEGORIES:
        raise ValueError(f"{where}: unknown category {category!r} (expected one of {', '.join(CATEGORIES)})")
    turns = tuple(_turn(t, f"{where} turn #{i}") for i, t in enumerate(expect_list(obj.get("turns"), where, "turns")))
    if not any(t.role == "user" for t in turns):
        raise ValueError(f"{where}: a conversation needs at least one user turn")
    gold = tuple(_wordings(g, f"{where} gold #{i}") for i, g in enumerate(expect_list(obj.get("gold"), where, "gold")))
    stale = expect_list(obj.get("stale", []), where, "stale")
    if not all(isinstance(s, str) and s.strip() for s in stale):
        raise ValueError(f"{where}: 'stale' must be a list of fact texts")
    return CaptureConversation(cid, category, turns, gold, tuple(stale))


def load_capture(path: str | Path) -> CaptureSet:
    """Read a capture-benchmark file; ``ValueError`` naming the file and the conversation when it is malformed
    (an unknown category or role, no user turn, an empty gold wording, facts on an assistant turn, a repeated id)."""
    obj, name, version = read_named_file(path)
    items = expect_list(obj.get("conversations"), str(path), "conversations")
    conversations = [_conversation(c, f"{path}: conversation #{k}") for k, c in enumerate(items)]
    unique_ids((c.id for c in conversations), str(path), "conversation id")
    return CaptureSet(name, version, conversations)


# -- matching ---------------------------------------------------------------------

_STOP = frozenset(
    """user users a an the is are was were be been being am i me my their they them its it of in at on to for
    with by from as and or that this these those has have had do does did 's s t which who whom also very
    really again now currently originally these days last next this past ago since month months week weeks year years
    day days today recently lately just still""".split()
)
_NEGATIONS = (r"\bno\s+longer\b", r"\bnot\b", r"n't\b", r"\bnever\b", r"\bno\s+more\b", r"\banymore\b",
              r"\bany\s+more\b", r"\bquit\b", r"\bstopped\b")
_NEGATION = re.compile("|".join(_NEGATIONS))
_WORD = re.compile(r"\w+")
# A time written out from the day it was said ("on Thursday 2026-08-06", "in the week of Monday 2026-07-20", "in
# July 2026", "in 2025"), as capture writes "yesterday", "last week", "last month" or "last year": a time word too.
_WRITTEN_TIME = re.compile(
    rf"\b(?:(?:the\s+week(?:end)?\s+of\s+)?(?:{ANY_WEEKDAY})\s+"
    rf"\d{{4}}-\d{{2}}-\d{{2}}|(?:(?:{ANY_MONTH})\s+)?(?:19|20)\d{{2}})\b"
)


# Two words of one meaning that gold and the rules both use, folded to one token (after stemming): "User has three
# kids." says what "User has three children." says. Kept to plain synonyms of everyday English, so the matching stays
# strict ("is on ramipril" / "takes ramipril" and "seeing" / "dating" are not folded).
_SAME_WORD = {"kid": "child", "children": "child", "grandkid": "grandchild", "grandchildren": "grandchild",
              # the everyday short words for a parent, a husband, a university, a department (stemmed)
              **{get_stemmer("english")(short): get_stemmer("english")(word) for short, word in (
                  ("mum", "mother"), ("mom", "mother"), ("mam", "mother"), ("dad", "father"), ("hubby", "husband"),
                  ("uni", "university"), ("dept", "department"))},
              # a small number written in digits is the number written in words: "4 days" is "four days"
              **{str(n): get_stemmer("english")(word) for word, n in NUMBER_WORDS.items()}}
# The word families the stemmer leaves apart that recall's analyzer folds too ("allergy" / "allergic",
# "pregnancy" / "pregnant", "injury" / "injured"): one token, as a reader takes them.
_FOLDS = STEM_FOLDS["english"]
# "a cat called Fado" says "a cat named Fado" (a name follows; "called it quits" names no one).
_CALLED_BY_NAME = re.compile(r"\bcalled(?=\s+[A-Z])")


# "day" names a shift, not a time, in "day shifts", "works days", "moved onto days": "User works day shifts." is not
# "User works nights." (dropped as a time word, "day" left the two facts one word apart).
_DAY_SHIFT = re.compile(r"\b(?P<on>(?:on|onto|work|works|worked|working)\s+)?days?(?=\s+shifts?\b)|"
                        r"\b(?P<on2>(?:on|onto|work|works|worked|working)\s+)days\b(?!\s+off\b)", re.IGNORECASE)
# Shifts of one job that exclude each other: a fact of day shifts is not the fact of nights, whatever else they share.
_EXCLUSIVE_SHIFTS = ("daytim", "night")


def _shifts_clash(a: frozenset[str], b: frozenset[str]) -> bool:
    day, night = _EXCLUSIVE_SHIFTS
    return any(day in x and night not in x and night in y and day not in y for x, y in ((a, b), (b, a)))


def content_tokens(text: str) -> frozenset[str]:
    """The words of ``text`` that carry its content: casefolded, stemmed (English Snowball); function
    words, "user", time words and times written out ("in the week of Monday 2026-07-20", "in July 2026") dropped; every negation ("not", "n't", "no longer", "anymore", "quit") folded to
    one ``not`` token, so "User is vegetarian." and "User is no longer vegetarian." differ; "kids" and "children" are one
    token, as are "4" and "four" (:data:`_SAME_WORD`), "allergy" and "allergic" (recall's :data:`STEM_FOLDS`), and
    "called" before a name and "named"."""
    folded = _CALLED_BY_NAME.sub("named", unicodedata.normalize("NFKC", text))
    folded = _DAY_SHIFT.sub(lambda m: (m.group("on") or m.group("on2") or "") + "daytime", folded)
    folded = folded.casefold().replace("\u2019", "'")
    folded = _WRITTEN_TIME.sub(" ", folded)
    negated = bool(_NEGATION.search(folded))
    folded = _NEGATION.sub(" ", folded)
    stem = get_stemmer("english")
    tokens = {stem(w) for w in _WORD.findall(folded.replace("'", " ")) if w not in _STOP}
    tokens = {_SAME_WORD.get(t, t) for t in (_FOLDS.get(t, t) for t in tokens)}
    tokens.discard("")
    if negated:
        tokens.add("not")
    return frozenset(tokens)


# Where a negation's reach ends: a clause break ("User stopped taking sertraline and now takes escitalopram." denies
# sertraline, not escitalopram; "User is a Texan who has never owned a coat." denies no Texan).
_CLAUSE_BREAK = re.compile(r"[,;:.!?()]|\b(?:and|but|so|while|whereas|because|now|instead|who|which|whose)\b")
# What a negation denies is what follows it in its clause ("User's sister doesn't live in Glasgow": live, Glasgow; the
# sister is said); "no" and "without" before a noun deny it too ("a microwave but no stove"); "anymore" after the
# verb denies the whole clause.
_DENIAL = re.compile(r"\bno\s+longer\b|\bnot\b|n't\b|\bnever\b|\bno\s+more\b|\bquit\b|\bno\b|\bwithout\b|"
                     r"\bstopped\b(?!\s+(?:by|in|at|off|for|over|on|round|briefly|to)\b)")
_AFTER_ALL = re.compile(r"\bany\s*more\b")
# A negation's reach ends before a purpose, a time or a reason after the first word it denies ("User quit their job
# to start a bakery" denies the job, not the bakery; "not to run" still denies running).
_REACH_END = re.compile(r"(?<=\w)\s+(?:to|after|before|because|since|when|until|till)\b")
# Words of a negation that deny nothing: "never misses a Sunday run", "never forgets to take metformin", "hasn't
# missed a session", "can't wait to move", "couldn't be happier", "no stranger to marathons".
_NOT_A_DENIAL = re.compile(r"(?:\bnever|\bnot|n't)(?=\s+(?:\w+\s+)?(?:miss|forget|fail)\w*\b)|"
                           r"n't(?=\s+(?:wait|be\s+happier|be\s+prouder|recommend\s+\w+\s+enough)\b)|"
                           r"\bno(?=\s+stranger\b)")

# Words a denial and an assertion share in other forms: a job quit is work stopped ("User quit their job at Google."
# denies "User works at Google."); "any" in "not ... any pets" denies nothing of its own.
_POLAR_SAME = {"job": "work"}
_POLAR_EMPTY = frozenset({"ani"})


def _polar_tokens(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The content tokens of ``text`` that a negation denies and those it says with none: "User no longer takes
    sertraline and now takes escitalopram." -> ({sertralin}, {take, escitalopram}) (a token said anywhere is said)."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    folded = _NOT_A_DENIAL.sub(" ", folded)
    denied: set[str] = set()
    said: set[str] = set()
    for clause in _CLAUSE_BREAK.split(folded):
        m = _DENIAL.search(clause)
        # "anymore" denies its whole clause, its subject too: "Marcus aren't together anymore" says no Marcus
        whole = _AFTER_ALL.search(clause) is not None
        cut = 0 if whole else None if m is None else m.start()
        if cut is None:
            said.update(content_tokens(clause) - {"not"})
            continue
        end = _REACH_END.search(clause, m.end()) if m is not None else None
        stop = end.start() if end is not None else len(clause)
        said.update(content_tokens(clause[:cut] + " " + clause[stop:]) - {"not"})
        denied.update(content_tokens(clause[cut if whole or m is None else m.end():stop]) - {"not"})
    denied = {_POLAR_SAME.get(t, t) for t in denied} - _POLAR_EMPTY
    said = {_POLAR_SAME.get(t, t) for t in said}
    return frozenset(denied - said), frozenset(said)


def _opposed(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` say opposite things: most of what one denies (the words within a negation's reach) the
    other says ("User stopped taking sertraline." and "User takes sertraline 50mg."; "User's son doesn't have
    asthma." and "User's son has asthma."). Such a pair is not the same fact; a compound whose one clause denies a
    word the other's clause says ("User doesn't live in Freo, they're out in Bassendean." and "User lives in
    Bassendean.") is not opposed."""
    denied_a, said_a = _polar_tokens(a)
    denied_b, said_b = _polar_tokens(b)
    return any(denied and len(denied & said) * 2 > len(denied) for denied, said in ((denied_a, said_b), (denied_b, said_a)))


# Whose fact it is: "User's partner works at the bank." is the partner's, "User works in retail banking." the user's.
# The person alone is the subject (with their name, if said): not a list ("User's wife Anjali, their twins ...") nor a
# pair ("User's husband and their two cats are ...").
_SOMEONE_ELSES = re.compile(
    rf"^\s*(?i:user's\s+(?:(?:{'|'.join(PLACED)}|new|late|ex)\s+)?(?P<who>{PERSON}))\b"
    # the name whole or none ("User's wife Anjal" of "User's wife Anjali, their twins" would pass the list guard)
    r"(?:\s+(?P<name>[A-Z][\w-]+)(?![\w-])|(?!\s+[A-Z]))(?!\s*(?:,|and\b|&))")
_THE_USERS = re.compile(r"^\s*User\b(?!'s)")


def _other_subject(a: str, b: str) -> bool:
    """Whether one of ``a`` and ``b`` is a fact of someone in the user's life ("User's partner works at the bank.")
    and the other the user's own that does not name that person ("User works in retail banking."): two facts, however
    many words they share. "User lives with their partner Sam." names the partner of "User's partner is Sam."."""
    for x, y in ((a, b), (b, a)):
        m = _SOMEONE_ELSES.match(x)
        named = content_tokens(f'{m.group("who")} {m.group("name") or ""}') if m is not None else frozenset()
        if m is not None and _THE_USERS.match(y) and not (named & content_tokens(y)):
            return True
    return False


def _share(part: frozenset[str], whole: frozenset[str]) -> float:
    return len(part & whole) / len(whole) if whole else 0.0


def facts_match(stored: str, gold: str) -> bool:
    """Whether ``stored`` and ``gold`` say the same: each holds at least :data:`MATCH_CUTOFF` of the other's
    content tokens (:func:`content_tokens`), and neither denies a word the other asserts (:func:`_opposed`:
    "User stopped taking sertraline." is not "User takes sertraline 50mg.")."""
    a, b = content_tokens(stored), content_tokens(gold)
    return (bool(a and b) and _share(a, b) >= MATCH_CUTOFF and _share(b, a) >= MATCH_CUTOFF
            and not _shifts_clash(a, b) and not _opposed(stored, gold) and not _other_subject(stored, gold))


def covers(stored: str, gold: str) -> bool:
    """Whether ``stored`` holds at least :data:`COVER_CUTOFF` of ``gold``'s content tokens (a compound fact
    covers each of its parts), neither denies a word the other asserts (:func:`_opposed`), and both are of the same
    person ("User's partner works at the bank." is not "User works at the bank.": :func:`_other_subject`)."""
    a, b = content_tokens(stored), content_tokens(gold)
    return (bool(b) and _share(a, b) >= COVER_CUTOFF and not _shifts_clash(a, b) and not _opposed(stored, gold)
            and not _other_subject(stored, gold))


def _closeness(a: str, b: str) -> float:
    x, y = content_tokens(a), content_tokens(b)
    return min(_share(x, y), _share(y, x)) if x and y else 0.0


def _ends(stored: str, stale: str) -> bool:
    """Whether ``stored`` says that ``stale`` ended: it denies what the stale fact asserted (:func:`_opposed`) and holds
    at least half of its words ("User stopped taking sertraline." of "User takes sertraline 50mg."; "User is no
    longer with Marcus." of "User's boyfriend is Marcus."). Such a fact is true, and the history a careful person
    keeps; it is no gold fact's wording, so it counts for precision and not for recall."""
    if not _opposed(stored, stale):
        return False
    a = {_POLAR_SAME.get(t, t) for t in content_tokens(stored)} - {"not"}
    b = {_POLAR_SAME.get(t, t) for t in content_tokens(stale)} - {"not"}
    return bool(b) and len(a & b) * 2 >= len(b)


def _keeps_stale(stored: str, stale: str, gold: Sequence[Sequence[str]], *, loosely: bool = False) -> bool:
    """Whether ``stored`` still says ``stale``: it matches it, and no gold wording more closely.

    "User's sister lives in Dublin." holds two of the three tokens of "User's sister lives in Glasgow.",
    so it matches the stale fact; it is the gold fact word for word, so it does not keep the stale one.
    A tie counts as stale. ``loosely``: ``stored`` need only cover the stale fact (hold
    :data:`COVER_CUTOFF` of its tokens), so a longer sentence holding it counts too."""
    if not (covers(stored, stale) if loosely else facts_match(stored, stale)):
        return False
    to_stale = _closeness(stored, stale)
    return all(_closeness(stored, g) <= to_stale for wordings in gold for g in wordings)


def score_conversation(conversation: CaptureConversation, valid: Sequence[str]) -> dict[str, Any]:
    """Counts for one conversation given the durable valid facts left at its end (``valid``, texts).

    ``stored`` facts, ``correct`` (matching some gold wording and keeping no stale fact), ``gold``, ``found`` (gold facts covered by
    a stored fact), ``stale``, ``stale_valid`` (stale facts some stored fact still matches at least as closely
    as it matches any gold wording, :func:`_keeps_stale`), ``stale_held`` (the same, where the stored fact need
    only hold the stale one's words: a longer sentence that still says it counts, which the match misses), and
    the texts of the ``wrong`` stored facts, ``missed`` gold facts and ``stale_kept`` facts.
    """
    # keeps[i][j]: stored fact i still says stale fact j
    keeps = [[_keeps_stale(s, t, conversation.gold) for t in conversation.stale] for s in valid]
    # A fact that still says a stale one is wrong even when it also matches a gold fact: "User's sister lives
    # in Dublin." matches the gold "... in Glasgow." by two of its three words.
    # A fact that says a stale one ended ("User stopped taking sertraline.") is true: not a wrong one, unless a gold
    # fact says it still holds ("User takes sertraline 100mg.": the dose changed, the medicine did not stop).
    wrong = [s for s, says_stale in zip(valid, keeps)
             if any(says_stale) or not (any(facts_match(s, g) for gold in conversation.gold for g in gold)
                                        or (any(_ends(s, t) for t in conversation.stale)
                                            and not any(_opposed(s, g) for gold in conversation.gold for g in gold)))]
    missed = [gold[0] for gold in conversation.gold if not any(covers(s, g) for s in valid for g in gold)]
    stale_kept = [t for j, t in enumerate(conversation.stale) if any(row[j] for row in keeps)]
    held = [t for t in conversation.stale if any(_keeps_stale(s, t, conversation.gold, loosely=True) for s in valid)]
    return {
        "stored": len(valid), "correct": len(valid) - len(wrong),
        "gold": len(conversation.gold), "found": len(conversation.gold) - len(missed),
        "stale": len(conversation.stale), "stale_valid": len(stale_kept), "stale_held": len(held),
        "wrong": wrong, "missed": missed, "stale_kept": stale_kept,
    }


# -- the scripted LLM ---------------------------------------------------------------

_KNOWN = re.compile(r"<known_facts>\n(?P<body>.*?)\n</known_facts>", re.DOTALL)
_ALIAS_LINE = re.compile(r"^(?P<alias>F\d+):\s*(?P<text>.*)$")
_SAID_ON = re.compile(r"\bwas said on [A-Z][a-z]+ (?P<day>\d{4}-\d{2}-\d{2})\b")


def scripted_reply(prompt: str, facts: Sequence[ScriptedFact]) -> str:
    """What a careful model answers to the extraction ``prompt``: ``facts`` as the prompt's JSON, each
    superseding the known facts (by their ``F<n>`` alias) that match one of its ``replaces`` texts. A
    replaced fact the prompt does not show cannot be named: that is what capture showed the model. A fact
    with ``expires_in_days`` gets an ``"expires_at"`` counted from the day the prompt says the turn was said
    (none when the prompt names no day)."""
    match = _KNOWN.search(prompt)
    known: list[tuple[str, str]] = []
    if match is not None:
        for line in match.group("body").splitlines():
            m = _ALIAS_LINE.match(line.strip())
            if m is not None:
                known.append((m.group("alias"), m.group("text")))
    said = _SAID_ON.search(prompt)
    items = []
    for fact in facts:
        ids = [alias for alias, text in known if any(facts_match(text, r) for r in fact.replaces)]
        item: dict[str, Any] = {"fact": fact.text, "supersedes": ids, "core": False}
        if fact.expires_in_days is not None and said is not None:
            last = date.fromisoformat(said.group("day")) + timedelta(days=fact.expires_in_days)
            item["expires_at"] = last.isoformat()
        items.append(item)
    return json.dumps(items)


class ScriptedFactExtractor(PromptedFactExtractor[Any]):
    """The LLM extractor's pipeline (prompt, reply parser, supersede ids) over a scripted model: each call
    answers the next user turn's script with :func:`scripted_reply`. No framework: the same path
    ``memori_langchain.LLMFactExtractor`` takes once its model has answered."""

    def __init__(self, scripts: Sequence[Sequence[ScriptedFact]]) -> None:
        """``scripts``: the answer for each captured turn, in order."""
        super().__init__(mark_core=False)
        self._scripts = [tuple(s) for s in scripts]
        self.prompts: list[str] = []
        """Every prompt the model was sent."""
        self.replies: list[str] = []
        """Every reply it gave, in order (a chat model scripted with them answers the same)."""

    def ask(self, prompt: str) -> str:
        """The scripted answer for the next turn (``[]`` once the script is used up)."""
        self.prompts.append(prompt)
        script = self._scripts.pop(0) if self._scripts else ()
        self.replies.append(scripted_reply(prompt, script))
        return self.replies[-1]

    async def aask(self, prompt: str) -> str:
        """Async :meth:`ask`."""
        return self.ask(prompt)


# -- the run ------------------------------------------------------------------------

ExtractorFactory = Callable[[CaptureConversation], FactExtractor]
"""Makes the extractor for one conversation (a scripted one needs the conversation's script)."""


def rules_extractor(conversation: CaptureConversation) -> FactExtractor:
    """The default :class:`RuleBasedFactExtractor` (the same for every conversation)."""
    return RuleBasedFactExtractor()


def rules_extractor_with(policy: CapturePolicy) -> ExtractorFactory:
    """Makes a :class:`RuleBasedFactExtractor` storing by ``policy`` (``"broad"`` or ``"strict"``; ``ValueError``
    naming ``policy`` otherwise) for every conversation."""
    chosen = check_policy(policy)
    return lambda conversation: RuleBasedFactExtractor(policy=chosen)


class _PathsSeen:
    """``extractor`` as it is, remembering the path of each fact it returns (by its text's key), when it says."""

    def __init__(self, extractor: FactExtractor, paths: dict[str, str]) -> None:
        self._extractor = extractor
        self._paths = paths
        self.uses_existing_facts = extractor.uses_existing_facts

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        facts = self._extractor.extract(messages, existing)
        for fact in facts:
            path = getattr(fact, "path", None)
            if isinstance(path, str) and isinstance(fact.text, str):
                self._paths[normalize_fact_text(" ".join(fact.text.split()))] = path
        return facts


def scripted_llm_extractor(conversation: CaptureConversation) -> FactExtractor:
    """A :class:`ScriptedFactExtractor` answering ``conversation``'s scripts."""
    return ScriptedFactExtractor(conversation.scripts())


def _rates(t: dict[str, int]) -> dict[str, Any]:
    return {
        "conversations": t["conversations"],
        "stored": t["stored"], "correct": t["correct"], "gold": t["gold"], "found": t["found"],
        "stale": t["stale"], "stale_valid": t["stale_valid"], "stale_held": t["stale_held"], "expiring": t["expiring"],
        "precision": t["correct"] / t["stored"] if t["stored"] else None,
        "recall": t["found"] / t["gold"] if t["gold"] else None,
        "stale_valid_share": t["stale_valid"] / t["stale"] if t["stale"] else None,
        "stale_held_share": t["stale_held"] / t["stale"] if t["stale"] else None,
    }


def evaluate_capture(
    data: CaptureSet | Sequence[CaptureConversation],
    extractor: ExtractorFactory = rules_extractor,
    *,
    embedder: Any = None,
    progress: Progress | None = None,
    said_at: datetime | None = None,
) -> dict[str, Any]:
    """Capture every conversation with ``extractor`` and score what is valid at its end; the metrics dict.

    Each conversation is one entity of one engine over ``ChromaStore.in_memory()`` (with
    ``embedder``, default the local MiniLM, cached). Every user turn, with the
    assistant messages after it, goes through :func:`~memori_core.capture.capture_facts`, said at the
    time of its capture, or with ``said_at`` (a timezone-aware datetime) the n-th user turn of each
    conversation ``n`` seconds after it: two runs then send an LLM extractor the same prompts.
    ``overall`` and ``categories`` hold micro-averaged precision, recall and stale-valid
    share with their counts; ``conversations`` what each left valid and how it scored.
    """
    conversations = list(data.conversations if isinstance(data, CaptureSet) else data)
    name = data.name if isinstance(data, CaptureSet) else "capture"
    cached = CachingEmbedder(embedder if embedder is not None else default_embedder())
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=cached)
    keys = ("conversations", "stored", "correct", "gold", "found", "stale", "stale_valid", "stale_held", "expiring")
    overall = dict.fromkeys(keys, 0)
    per_category = {k: dict.fromkeys(keys, 0) for k in CATEGORIES}
    details: list[dict[str, Any]] = []
    by_path: dict[tuple[str, str], dict[str, int]] = {}
    for n, conversation in enumerate(conversations):
        entity = f"capture-{n}-{conversation.id}"
        seen: dict[str, str] = {}
        chosen = _PathsSeen(extractor(conversation), seen)
        for i, turn in enumerate(conversation.user_turns()):
            when = said_at + timedelta(seconds=i) if said_at is not None else None
            capture_facts(engine, entity, turn, chosen, created_at=when)
        # What holds when the conversation ends (its last turn's time, else now): a change told ahead is not yet
        # valid then, and the fact it replaces still is, though the wall clock may be past its start.
        turns = len(conversation.user_turns())
        end = said_at + timedelta(seconds=max(turns - 1, 0)) if said_at is not None else datetime.now(timezone.utc)
        facts = [f for f in engine.list(entity, limit=10_000, newest_first=False, include_invalid=True)
                 if _holds_at(f, end.timestamp())]
        durable = [f.content for f in facts if f.expires_at is None]
        expiring = [f.content for f in facts if f.expires_at is not None]
        score = score_conversation(conversation, durable)
        for tally in (overall, per_category[conversation.category]):
            tally["conversations"] += 1
            tally["expiring"] += len(expiring)
            for k in ("stored", "correct", "gold", "found", "stale", "stale_valid", "stale_held"):
                tally[k] += score[k]
        wrong = set(score["wrong"])
        paths = {text: seen.get(normalize_fact_text(text), "?") for text in durable}
        for text in durable:
            tally = by_path.setdefault((paths[text], fact_topic(text)), {"stored": 0, "correct": 0})
            tally["stored"] += 1
            tally["correct"] += text not in wrong
        details.append({"id": conversation.id, "category": conversation.category, "valid": durable,
                        "expiring": expiring, "paths": paths, **score})
        if progress is not None:
            progress(n + 1, len(conversations), "conversations")
    return {
        "name": name,
        "embedder": cached.name,
        "match": {"method": "content tokens", "match_cutoff": MATCH_CUTOFF, "cover_cutoff": COVER_CUTOFF},
        "overall": _rates(overall),
        "categories": {k: _rates(v) for k, v in per_category.items() if v["conversations"]},
        "paths": [{"path": path, "topic": topic, **t,
                   "precision": t["correct"] / t["stored"] if t["stored"] else None}
                  for (path, topic), t in sorted(by_path.items(), key=lambda kv: _path_order(*kv[0]))],
        "conversations": details,
    }


def _holds_at(fact: Any, at: float) -> bool:
    """Whether the stored ``fact`` holds at ``at`` (epoch seconds): its period began by then and had not ended."""
    return iso_to_ts(fact.valid_since) <= at and fact.is_valid(at)


def _path_order(path: str, topic: str) -> tuple[int, int]:
    order = {p: i for i, p in enumerate(FACT_PATHS)}
    return order.get(path, len(order)), FACT_TOPICS.index(topic) if topic in FACT_TOPICS else len(FACT_TOPICS)


def path_table(result: dict[str, Any]) -> str:
    """The durable valid facts of an :func:`evaluate_capture` result by the rule path that stored them
    (:attr:`~memori_core.extraction.ExtractedFact.path`; ``?``: the extractor did not say) and the topic they
    speak of (:func:`~memori_core.extraction.provenance.fact_topic`): stored, correct (as the benchmark judges
    them: matching a gold fact and keeping no stale one) and precision, with a total per path."""
    rows = ["| path | topic | stored | correct | precision |", "|---|---|---|---|---|"]

    def line(path: str, topic: str, stored: int, correct: int) -> str:
        share = f"{correct / stored:.3f}" if stored else "n/a"
        return f"| {path} | {topic} | {stored} | {correct} | {share} |"

    totals: dict[str, list[int]] = {}
    for row in result.get("paths", []):
        rows.append(line(row["path"], row["topic"], row["stored"], row["correct"]))
        total = totals.setdefault(row["path"], [0, 0])
        total[0] += row["stored"]
        total[1] += row["correct"]
    for path, (stored, correct) in totals.items():
        rows.append(line(path, "all", stored, correct))
    return "\n".join(rows)
