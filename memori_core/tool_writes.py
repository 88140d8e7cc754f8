"""What a model-driven write of a fact does besides storing it: the agent tools' ``remember`` and the MCP server's
``add`` (:mod:`memori_core.memory_tools`, :mod:`memori_core.mcp_server`).

A model writes what the user told it as it sees fit, often again and in other words, and tells a change as a
plain new fact ("User lives in Porto." after "User lives in Lisbon.") rather than updating the old one. So a
model's write, unlike ``engine.add`` (the app's own API, which stores what it is given):

- is not stored again when a valid fact of the user's already says it (:func:`same_fact`: the same normalised
  text, "I'm allergic to peanuts." and "The user is allergic to peanuts." alike:
  :func:`~memori_core.text.normalize_fact_text`);
  the answer names that fact's id;
- ends the stored facts it replaces (:func:`ended_by`), with capture's rules
  (:func:`memori_core.extraction.supersede.replaces`): a change told as such ("User works at Meta now.", "User is
  not vegetarian anymore."), a denial, a refinement; and, since a model writes what holds now, a plain statement of
  the user's home, job or age ("User lives in Porto.") ends the stored one of the same form ("User lives in
  Lisbon."), read as capture reads "I live in Porto now". An ended fact is kept as history (``engine.restore``
  makes it valid again), and the answer names it, so the model can undo a wrong replacement;
- is ``core`` (recalled on every turn) when it is a care fact, by the rule capture marks core by
  (:func:`~memori_core.extraction.core_facts.is_core_fact`: an allergy, a medication, a diet), or when it tells
  what holds now in the slot of a core fact it ends ("I'm not vegetarian anymore, I eat fish now.":
  :func:`~memori_core.extraction.core_facts.keeps_core`), unless the call says ``core`` itself;
- stores a change told ahead with its day ("User is starting at Deloitte on Nov 1.") as told, and beside it the
  state it brings, valid from that day (:func:`change_to_come`, as capture does:
  :mod:`memori_core.extraction.changes_to_come`), which ends the facts it replaces then, not now;
- is dated as capture dates the fact it keeps from a turn said then (:func:`~memori_core.extraction.rules.date_stated`,
  the rules :func:`~memori_core.extraction.rules.judge_sentence` dates by): a plan ("User is flying to Tokyo on
  2026-10-20 for a week.") is stored with its day written out ("on Tuesday 2026-10-20") and expires when that day,
  and the stay after it, is over, so a trip taken is no current plan; a fact naming an end ("User is in Rome this
  week.") expires then; a plain fact ("User lives in Berlin.") gets no expiry;
- keeps what of an ended fact still holds, as capture does (:func:`~memori_core.extraction.still_holds.still_holds`:
  "User switched from an insulin pump to injections." ends "User has type 1 diabetes and uses an insulin pump." and
  keeps "User has type 1 diabetes.").

The decisions here are pure; :func:`plan_write` / :func:`aplan_write` read the facts they are made over (the
user's best-ranked facts for the text, and their newest ones), as capture reads the facts it shows an extractor.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any, Protocol

from .capture.repeats import asettle_repeats
from .capture.shown_facts import SLOT_SCAN_LIMIT, held_then
from .capture.statements import STATEMENTS
from .extraction.changes_to_come import ChangeToCome, ends_at_start, state_to_come
from .extraction.core_facts import is_core_fact, keeps_core
from .extraction.dates import anchor_plan
from .extraction.grammar import is_past_statement
from .extraction.rules import date_stated
from .extraction.cues import content_words, is_change, is_negated, is_planned
from .extraction.same_statement import same_fact, statement_frame
from .extraction.still_holds import still_holds
from .extraction.supersede import hangs_on, replaces
from .extraction.verdicts import KEPT_REWRITTEN, SentenceVerdict
from .ranking.core import CORE_KEY
from .slots import slot_keys
from .text import normalize_fact_text
from .validate import turn_as_of

__all__ = ["NEAREST_LIMIT", "ToolWrite", "change_to_come", "Written", "acopies_of", "aheld_instead", "aplan_write", "astore_plan",
           "awrite_facts", "copies_of", "dated_as_told", "edit_dated", "ended_by", "held_instead", "is_core", "is_core_write",
           "plan_write", "said_before_now", "same_fact", "store_plan", "stored_by", "stored_together", "told_late"]

NEAREST_LIMIT = 10
"""How many of the user's best-ranked facts for a written text (``engine.nearest``) a write is checked against,
besides their :data:`~memori_core.capture.shown_facts.SLOT_SCAN_LIMIT` newest."""

# The slots a plain present statement of the user's changes, when a stored fact says the same of another value:
# one home, one job, one age at a time ("User lives in Porto." over "User lives in Lisbon."). Diets, drinks,
# pets and hobbies hold several things ("User eats cheese." leaves "User eats eggs."): only a change told as one
# ends them.
_ONE_VALUE_SLOTS = frozenset({"residence", "job", "age"})


class _Fact(Protocol):
    """A stored or recalled fact: its id, text and metadata."""

    id: str
    content: str
    metadata: dict[str, Any]


@dataclass(frozen=True)
class ToolWrite:
    """What a model's write of ``text`` does: nothing but answer ``same`` (a valid fact that already says it), or
    store ``text`` (``core`` or not), ending the facts of ``ends``; ``instead``: the fact that holds in place of the
    one stored, when another process ended the same facts at the same moment and its fact stayed
    (:func:`held_instead`); ``keeps``: what of the ended facts still holds, to store beside ``text``;
    ``kept_ids``: once stored, the ids of ``keeps``, in their order (:meth:`stored_as`)."""

    text: str
    core: bool
    same: _Fact | None = None
    ends: tuple[_Fact, ...] = ()
    instead: _Fact | None = None
    keeps: tuple[str, ...] = ()
    kept_ids: tuple[str, ...] = ()
    to_come: ChangeToCome | None = None
    """A change the text tells ahead ("User is starting at Deloitte on Nov 1."): the state it brings, stored
    beside the text valid from its start, which ends ``to_come_ends`` then, not now (the text ends nothing)."""
    to_come_ends: tuple[_Fact, ...] = ()
    to_come_id: str | None = None
    expires_at: datetime | None = None
    """When ``text`` stops holding: a plan's day over (:func:`~memori_core.extraction.rules.date_stated`)."""
    session_id: str | None = None
    """The conversation the write was made in (a LangChain run's thread), stored as its facts' session, as capture
    stores the same turn's facts."""

    def stored_as(self, ids: Sequence[str]) -> ToolWrite:
        """This plan once ``engine.add`` stored it (``ids``: what it returned for :func:`stored_by`'s facts, then
        the state to come's id): the ids of what still holds and of the state to come noted, so an answer can
        name them."""
        to_come_id = ids[1 + len(self.keeps)] if self.to_come is not None else None
        return replace(self, kept_ids=tuple(ids[1:1 + len(self.keeps)]), to_come_id=to_come_id)

    def still(self, present: Iterable[str]) -> ToolWrite:
        """This plan with only the ended facts whose ids are in ``present`` (the others were deleted meanwhile),
        and only what of those still holds."""
        here = set(present)
        ends = tuple(f for f in self.ends if f.id in here)
        keeps = tuple(t for t in self.keeps if any(t in still_holds(self.text, f.content) for f in ends))
        return ToolWrite(self.text, self.core, ends=ends, keeps=keeps, expires_at=self.expires_at)


def _holder(found: Sequence[Any]) -> str | None:
    """The id of the fact that superseded the fact read back (``found``: it, or nothing when it went)."""
    return next((f.superseded_by for f in found if f.valid_to is not None), None)


def held_instead(engine: Any, entity_id: str, fact_id: str) -> Any:
    """After a supersede written as ``fact_id``: the fact that holds instead of it, read back, else ``None``: a
    racing supersede of the same facts by another process that stayed (:mod:`memori_core.engine.successors`), or
    one of the facts it was to end, when that fact was stated after the write's time (a write told late lands in
    its past, already superseded by it: :mod:`memori_core.engine.late_facts`; :func:`told_late` tells the two
    apart). The answer says what was stored, never a replacement the store did not make."""
    holder = _holder(engine.get(entity_id, [fact_id]))
    return next(iter(engine.get(entity_id, [holder])), None) if holder else None


async def aheld_instead(engine: Any, entity_id: str, fact_id: str) -> Any:
    """Async :func:`held_instead`."""
    holder = _holder(await engine.aget(entity_id, [fact_id]))
    return next(iter(await engine.aget(entity_id, [holder])), None) if holder else None


def told_late(ends: Iterable[_Fact], instead: _Fact | None) -> bool:
    """Whether the fact holding instead of a write (:func:`held_instead`) is one the write was to end: stated
    after the write's time, so the write landed in its past (not a racing writer's fact)."""
    return instead is not None and instead.id in {f.id for f in ends}


def said_before_now(said_at: datetime | None) -> datetime | None:
    """``said_at``, the time of the turn a write runs in, when it is no later than now (a turn dated ahead, which
    capture refuses, is written at now: ``None``)."""
    if said_at is None or said_at.tzinfo is None or said_at > datetime.now(timezone.utc):
        return None
    return said_at


def dated_as_told(text: str, said_at: datetime | None = None) -> tuple[str, datetime | None]:
    """A model's text as it is stored, and when it expires, told at ``said_at`` (``None``: now): a plan with its
    day written out, expiring when that day is over; a plain fact with no expiry
    (:func:`~memori_core.extraction.rules.date_stated`). One rule for a new fact (``remember``, MCP ``add``) and a
    fact's new text (``update_memory``, MCP ``update``)."""
    return date_stated(text, said_at if said_at is not None else datetime.now(timezone.utc))


def edit_dated(text: str, said_at: datetime | None = None) -> tuple[str, dict[str, Any]]:
    """A fact's new text (``update_memory``, MCP ``update``) as it is stored, and the expiry to give
    ``engine.update``: a plan's, set to its day (:func:`dated_as_told`); none for a plain text, so the fact keeps
    the expiry it had (a typo fixed in a stay of three days stays a stay of three days)."""
    new, expires = dated_as_told(text, said_at)
    return new, ({} if expires is None else {"expires_at": expires})


def is_core_write(text: str, core: bool | None = None) -> bool:
    """Whether a model's write of ``text`` is core: ``core`` when the call gives it, else capture's rule
    (:func:`~memori_core.extraction.core_facts.is_core_fact`)."""
    return is_core_fact(text) if core is None else core


# A state decided on and then told as held: "User has decided to go vegan." then "User is vegan.".
_DECIDED = re.compile(r"^user (?:has )?(?:decided|chosen) to (?:go|become|be) (?:a |an )?(?P<state>[\w-]+)$")
_HOLDS = re.compile(r"^user is (?:now )?(?:a |an )?(?P<state>[\w-]+)$")


def _carries_out(text: str, old: str) -> bool:
    """Whether ``text`` ("User is vegan.") is the decision ``old`` told ("User has decided to go vegan.") carried
    out: the state held now says what the decision did, and ends it."""
    now, decided = _HOLDS.match(normalize_fact_text(text)), _DECIDED.match(normalize_fact_text(old))
    return now is not None and decided is not None and now.group("state") == decided.group("state")


def _plain_present(text: str) -> bool:
    """Whether ``text`` states what holds now, without a change word: "User lives in Porto." (not "User lived in
    Porto.", "User is moving to Porto next month.", "User doesn't live in Porto.", "User moved to Porto.")."""
    return not (is_past_statement(text) or is_planned(text) or is_negated(text) or is_change(text))


# A move told as done says where the user lives: "User moved to Hamburg." is said as "User lives in Hamburg." is,
# but only when the place ends it: "moved to Hamburg from Lisbon with Sam", "to Berlin for the summer", "to the US
# in 2010", "to a new flat in Hamburg" tell more than a home (whom, how long, when, which flat), or a stay.
_MOVED_TO = re.compile(r"^user (?:has |had |just |recently |finally )*(?:moved|relocated) (?:from .+? )?to "
                       r"(?P<place>.+)$")
_NOT_JUST_A_PLACE = frozenset(
    "from with for in on at since after before until till during when while because temporarily ago last this next "
    "and a an my his her their our some".split())
_LIVES_IN = re.compile(r"^user (?:now )?lives in (?P<place>.+)$")
_HOME_FRAME = ("user", "lives", "in")


def _moved_home(text: str) -> str | None:
    """The place a move told as done names as the user's home ("User moved to Hamburg." -> "hamburg"); ``None``
    for any other text, or a move that says more than the place ("... with Sam", "... for the summer", "... in
    2010", "to a new flat") or has a digit in it."""
    m = _MOVED_TO.match(normalize_fact_text(text))
    if m is None:
        return None
    place = m.group("place")
    words = place.split()
    if any(ch.isdigit() for ch in place) or _NOT_JUST_A_PLACE.intersection(words) or len(words) > 4:
        return None
    return place


def _frame(text: str, other: str) -> tuple[str, ...]:
    """:func:`statement_frame` of ``text``, a move told as done read as the home it says (:func:`_moved_home`)
    when ``other`` tells a home elsewhere ("User lives in Lisbon." for "User moved to Hamburg."): the same place
    is both facts holding, not a change."""
    place = _moved_home(text)
    if place is None:
        return statement_frame(text)
    home = _LIVES_IN.match(normalize_fact_text(other))
    same = home is not None and (home.group("place") + " ").startswith(place + " ")  # "hamburg with sam"
    return statement_frame(text) if same else _HOME_FRAME


def _ends_as_news(text: str, words: frozenset[str], old: str, old_words: frozenset[str]) -> bool:
    """Whether the plain present ``text`` ends ``old`` read as news ("... now"): only in a one-value slot of the
    same person, when both say it the same way (:func:`statement_frame`: "User lives in ...", a move told as done
    said as the home it tells: "User moved to Hamburg."), and then as capture's rules read the change (a home
    with whom leaves where, a goal, what held once...)."""
    shared = {key.split(":", 1)[1] for key in slot_keys(text) & slot_keys(old)}
    if not shared & _ONE_VALUE_SLOTS or _frame(text, old) != _frame(old, text):
        return False
    news = SentenceVerdict(sentence=f"{text.rstrip(' .!')} now.", fact=text, reason=KEPT_REWRITTEN)
    return replaces(news, words, old, old_words)


def ended_by(text: str, facts: Iterable[_Fact]) -> list[_Fact]:
    """The facts of ``facts`` (the user's valid facts) that a model's write of ``text`` ends: those capture's rules
    say it replaces (:func:`~memori_core.extraction.supersede.replaces`, ``text`` read as said), those of a
    one-value slot it restates with another value (module docstring), and what hung on a state it ends
    (:func:`~memori_core.extraction.supersede.hangs_on`). Never one saying the same as ``text``."""
    key, words = normalize_fact_text(text), content_words(text)
    said = SentenceVerdict(sentence=text, fact=text, reason=KEPT_REWRITTEN)
    plain = _plain_present(text)
    candidates = [f for f in dict((f.id, f) for f in facts).values() if normalize_fact_text(f.content) != key]
    ended = []
    for fact in candidates:
        old = content_words(fact.content)
        if replaces(said, words, fact.content, old) or (plain and _ends_as_news(text, words, fact.content, old)) \
                or _carries_out(text, fact.content):
            ended.append(fact)
    gone = {f.id for f in ended}
    ended += [f for f in candidates if f.id not in gone and hangs_on(text, f.content, state_ended=bool(ended))]
    return ended


def change_to_come(text: str, said_at: datetime | None = None) -> ChangeToCome | None:
    """The change ``text`` tells ahead, with its day ("User is starting a new job at Deloitte on Nov 1." -> "User
    works at Deloitte." from 2026-11-01), read as capture reads a plan it keeps
    (:func:`~memori_core.extraction.dates.anchor_plan`, then
    :func:`~memori_core.extraction.changes_to_come.state_to_come`) at ``said_at`` (``None``: now, in UTC); ``None``
    when it tells none or its day is not after then."""
    now = said_at if said_at is not None else datetime.now(timezone.utc)
    anchored = anchor_plan(text, now)
    return None if anchored is None else state_to_come(anchored.text, now)


def _ended_at_start(change: ChangeToCome, held: Sequence[_Fact]) -> tuple[_Fact, ...]:
    """The facts of ``held`` that ``change`` ends at its start."""
    ends = ended_by(change.fact, held)
    gone = {f.id for f in ends}
    ends += [f for f in held if f.id not in gone and ends_at_start(change, f.content)]
    return tuple(dict((f.id, f) for f in ends).values())


def _decide(text: str, core: bool | None, facts: Sequence[_Fact], said_at: datetime | None = None) -> ToolWrite:
    """The plan over ``facts``, judged as capture judges a turn said at ``said_at``: a replay (said over a minute
    ago: :func:`~memori_core.validate.turn_as_of`) is a repeat only of a fact stated by then and not expired then,
    and ends only facts not expired then (:func:`~memori_core.capture.shown_facts.held_then`)."""
    dated, expires = dated_as_told(text, said_at)
    # the change told ahead is read from the words as told: a day written out ("on Sunday 2026-11-01") would be
    # read again from its weekday
    return replace(_decided(dated, core, facts, said_at, change_to_come(text, said_at)), expires_at=expires)


def _decided(text: str, core: bool | None, facts: Sequence[_Fact], said_at: datetime | None,
             change: ChangeToCome | None) -> ToolWrite:
    replayed = turn_as_of(said_at)
    same = same_fact(text, held_then(facts, replayed))
    held = held_then(facts, replayed, stated=False)
    if same is not None:
        if change is None or same_fact(change.fact, facts) is not None:
            return ToolWrite(text, is_core_write(text, core), same=same)
        # the plan's text is stored but the state it tells ahead is not (a failure between the two adds):
        # a retry stores that state now
        return ToolWrite(text, is_core_write(text, core), same=same, to_come=change,
                         to_come_ends=_ended_at_start(change, [f for f in held if f.id != same.id]))
    if change is not None:  # ends what it replaces from its start, as capture stores a change told ahead
        return ToolWrite(text, is_core_write(text, core), to_come=change, to_come_ends=_ended_at_start(change, held))
    ends = tuple(ended_by(text, held))
    held = [f for f in facts if f.id not in {e.id for e in ends}]
    keeps = dict.fromkeys(t for f in ends for t in still_holds(text, f.content) if same_fact(t, held) is None)
    # a change of a core fact's slot stays core unless the call says otherwise ("User eats fish now." over
    # "User is vegetarian."): the diet changed, and is still recalled on every turn
    core_now = is_core_write(text, core) or (core is None and keeps_core(text, [(f.content, is_core(f))
                                                                                 for f in ends]))
    return ToolWrite(text, core_now, ends=ends, keeps=tuple(keeps))


def stored_by(plan: ToolWrite) -> dict[str, Any]:
    """``engine.add``'s ``facts`` and ``core`` for ``plan``: its text first (the id the answer names; the first new
    fact is the one the ended facts are superseded by), then what of those facts still holds ("User has type 1
    diabetes."), in one write, so a failure never leaves one stored without the other."""
    stored = {"facts": [plan.text, *plan.keeps], "core": [plan.core, *(is_core_write(t) for t in plan.keeps)]}
    if plan.expires_at is not None:  # a plan ends when its day is over; what of an ended fact still holds does not
        stored["expires_at"] = [plan.expires_at, *(None for _ in plan.keeps)]
    if plan.session_id is not None:
        stored["session_id"] = plan.session_id
    return stored


def stored_together(plans: Sequence[ToolWrite]) -> dict[str, Any]:
    """``engine.add``'s ``facts``, ``core`` and ``expires_at`` for several ``plans`` in one write, each as
    :func:`stored_by` stores it, in order (an ``expires_at`` only when one of them expires)."""
    each = [stored_by(p) for p in plans]
    stored: dict[str, Any] = {"facts": [t for s in each for t in s["facts"]],
                              "core": [c for s in each for c in s["core"]]}
    if any("expires_at" in s for s in each):
        stored["expires_at"] = [e for s in each for e in s.get("expires_at", [None] * len(s["facts"]))]
    return stored


def _superseding(ends: Sequence[_Fact]) -> dict[str, Any]:
    """``engine.add``'s ``supersedes`` for the facts a write ends (none: no argument)."""
    return {"supersedes": [f.id for f in ends]} if ends else {}


def _ending(plan: ToolWrite) -> dict[str, Any]:
    return _superseding(plan.ends)


def _coming(plan: ToolWrite) -> dict[str, Any]:
    """``engine.add``'s arguments for the state ``plan`` tells ahead: valid from its start, ending then what it
    replaces (a second write: the text itself is valid now)."""
    assert plan.to_come is not None
    return {"facts": [plan.to_come.fact], "core": [is_core_write(plan.to_come.fact)],
            "valid_from": plan.to_come.start, **_superseding(plan.to_come_ends),
            **({"session_id": plan.session_id} if plan.session_id is not None else {})}


def store_plan(engine: Any, entity_id: str, plan: ToolWrite, said_at: datetime | None = None,
               landed: list[str] | None = None) -> tuple[ToolWrite, list[str]]:
    """Store ``plan`` (:func:`stored_by`, ending its ``ends``) for ``entity_id``, created at ``said_at``: the plan
    as stored and the ids ``engine.add`` returned. When a fact it ends was deleted meanwhile by another writer
    (the store refuses the supersede), it ends those left (:meth:`ToolWrite.still`) and stores again.

    A change told ahead takes two adds (the text, then the state valid from its start): ``landed`` (when given)
    gets the ids of each as it lands, so a failure between them reports the text stored; written again, the
    stored text's plan stores only the state to come (:func:`plan_write`)."""
    sink = [] if landed is None else landed
    if plan.to_come is not None:
        if plan.same is not None:
            ids = [plan.same.id]
        else:
            ids = engine.add(entity_id, **stored_by(plan), created_at=said_at)
            sink.extend(ids)
        coming = engine.add(entity_id, **_coming(plan), created_at=said_at)
        sink.extend(coming)
        return plan, ids + coming
    try:
        ids = engine.add(entity_id, **stored_by(plan), created_at=said_at, **_ending(plan))
    except KeyError:
        if not plan.ends:
            raise
        plan = plan.still(f.id for f in engine.get(entity_id, [f.id for f in plan.ends]))
        ids = engine.add(entity_id, **stored_by(plan), created_at=said_at, **_ending(plan))
    sink.extend(ids)
    return plan, ids


async def astore_plan(engine: Any, entity_id: str, plan: ToolWrite, said_at: datetime | None = None,
                      landed: list[str] | None = None) -> tuple[ToolWrite, list[str]]:
    """Async :func:`store_plan`."""
    sink = [] if landed is None else landed
    if plan.to_come is not None:
        if plan.same is not None:
            ids = [plan.same.id]
        else:
            ids = await engine.aadd(entity_id, **stored_by(plan), created_at=said_at)
            sink.extend(ids)
        coming = await engine.aadd(entity_id, **_coming(plan), created_at=said_at)
        sink.extend(coming)
        return plan, ids + coming
    try:
        ids = await engine.aadd(entity_id, **stored_by(plan), created_at=said_at, **_ending(plan))
    except KeyError:
        if not plan.ends:
            raise
        plan = plan.still(f.id for f in await engine.aget(entity_id, [f.id for f in plan.ends]))
        ids = await engine.aadd(entity_id, **stored_by(plan), created_at=said_at, **_ending(plan))
    sink.extend(ids)
    return plan, ids


def plan_write(engine: Any, entity_id: str, text: str, core: bool | None = None,
               said_at: datetime | None = None) -> ToolWrite:
    """What a model's write of ``text`` for ``entity_id`` does (:class:`ToolWrite`), over the user's
    :data:`NEAREST_LIMIT` best-ranked facts for it and their newest ones; ``said_at``: when the turn it runs in was
    said (a replay is judged at its time: :func:`_decide`)."""
    facts = [*engine.nearest(text, entity_id, NEAREST_LIMIT), *engine.list(entity_id, limit=SLOT_SCAN_LIMIT)]
    return _decide(text, core, facts, said_at)


async def aplan_write(engine: Any, entity_id: str, text: str, core: bool | None = None,
                      said_at: datetime | None = None) -> ToolWrite:
    """Async :func:`plan_write`."""
    facts = [*await engine.anearest(text, entity_id, NEAREST_LIMIT),
             *await engine.alist(entity_id, limit=SLOT_SCAN_LIMIT)]
    return _decide(text, core, facts, said_at)


@dataclass(frozen=True)
class Written:
    """What :func:`awrite_facts` did for one text: the id that holds it, whether that fact was ``already`` stored,
    and the facts it ended (``ended``); ``instead``: the fact that holds in its place (:class:`ToolWrite`)."""

    id: str
    already: bool
    ended: tuple[_Fact, ...] = ()
    instead: _Fact | None = None
    kept: tuple[tuple[str, str], ...] = ()  # what of the ended facts still holds: (id, text) each
    to_come: tuple[str, ChangeToCome, tuple[_Fact, ...]] | None = None
    """The state the text tells ahead: its fact's id, the change, and the facts it ends at its start."""


async def awrite_facts(engine: Any, entity_id: str, texts: Sequence[str], core: bool | None = None,
                       landed: list[str] | None = None, said_at: datetime | None = None) -> list[Written]:
    """Write ``texts`` for ``entity_id`` as a model's writes (module docstring), one :class:`Written` per text, in
    order: those that end nothing in one ``add``, each that ends stored facts in an ``add`` of its own (a
    supersede links the facts it ends to the one new fact). Texts saying the same as one before them in
    ``texts`` are that one. ``landed`` (when given) gets the ids of each write as it lands: a failure part-way
    leaves in it what was stored before it. ``said_at``: when the turn was said, the facts' ``created_at``
    (:func:`said_before_now`; ``None``: now). One writer of the user's statements at a time: a capture of the same
    fact, running meanwhile, is seen by the plans or sees these writes (:mod:`memori_core.capture.statements`)."""
    async with STATEMENTS.aheld(entity_id):
        began = time.time_ns()
        written = await _awrite_facts(engine, entity_id, texts, core, [] if landed is None else landed,
                                      said_before_now(said_at))
        # Another process's writer may have stored one of these in other words meanwhile: one of them stays.
        gone = await asettle_repeats(engine, entity_id, [w.id for w in written if not w.already], began)
        return [Written(gone[w.id].id, True) if w.id in gone else w for w in written]


async def _awrite_facts(engine: Any, entity_id: str, texts: Sequence[str], core: bool | None,
                        landed: list[str], said_at: datetime | None) -> list[Written]:
    newest = await engine.alist(entity_id, limit=SLOT_SCAN_LIMIT)
    plans: dict[str, ToolWrite] = {}  # by normalised text: a repeat in the call is its first
    for text in texts:
        key = normalize_fact_text(text)
        if key not in plans:
            plans[key] = _decide(text, core, [*await engine.anearest(text, entity_id, NEAREST_LIMIT), *newest],
                                 said_at)
    out: dict[str, Written] = {}
    for key, plan in plans.items():
        if plan.same is not None and plan.to_come is None:
            now = is_core(plan.same)
            if (core is not None and now != core) or (core is None and plan.core and not now):
                await engine.aupdate(entity_id, plan.same.id, core=plan.core)
                landed.append(plan.same.id)
            out[key] = Written(plan.same.id, True)
    plain = [(key, p) for key, p in plans.items() if key not in out and not p.ends and p.to_come is None]
    if plain:
        # a plain plan ends nothing, so keeps nothing: one fact, one id each
        ids = await engine.aadd(entity_id, **stored_together([p for _, p in plain]), created_at=said_at)
        landed.extend(ids)
        out.update({key: Written(fid, False) for (key, _), fid in zip(plain, ids)})
    for key, plan in plans.items():
        if key not in out:
            plan, ids = await astore_plan(engine, entity_id, plan, said_at, landed)
            fid = ids[0]
            plan = plan.stored_as(ids)
            if plan.to_come is not None and plan.to_come_id is not None:
                out[key] = Written(fid, plan.same is not None,
                                   to_come=(plan.to_come_id, plan.to_come, plan.to_come_ends))
                continue
            out[key] = Written(fid, False, plan.ends, await aheld_instead(engine, entity_id, fid),
                               tuple(zip(ids[1:], plan.keeps)))
    return [out[normalize_fact_text(text)] for text in texts]


def _copies(text: str, fact_id: str, facts: Iterable[_Fact]) -> list[str]:
    key = normalize_fact_text(text)
    return list(dict.fromkeys(f.id for f in facts if f.id != fact_id and normalize_fact_text(f.content) == key))


def copies_of(engine: Any, entity_id: str, fact_id: str, text: str) -> list[str]:
    """The ids of ``entity_id``'s valid facts other than ``fact_id`` that say ``text`` (its text) too: written
    twice in other words, or under another id ("I'm allergic to peanuts." and "User is allergic to peanuts."),
    which recall shows as one (``RecallConfig.one_per_text``), so a model forgetting the one it was shown must
    erase them all. Read as :func:`plan_write` reads."""
    return _copies(text, fact_id, [*engine.nearest(text, entity_id, NEAREST_LIMIT),
                                   *engine.list(entity_id, limit=SLOT_SCAN_LIMIT)])


async def acopies_of(engine: Any, entity_id: str, fact_id: str, text: str) -> list[str]:
    """Async :func:`copies_of`."""
    return _copies(text, fact_id, [*await engine.anearest(text, entity_id, NEAREST_LIMIT),
                                   *await engine.alist(entity_id, limit=SLOT_SCAN_LIMIT)])


def is_core(fact: _Fact) -> bool:
    """Whether ``fact`` is marked core."""
    return fact.metadata.get(CORE_KEY) is True
