"""Whether a fact says what a stored one says, in other words: the same normalised text, or the same statement told
the same way ("User's band rehearses every tuesday at 7." and "... every Tuesday at 7pm."). A model's write is not
stored again over such a fact (:mod:`memori_core.tool_writes`), nor is a fact capture extracted
(:func:`~memori_core.capture.capture_facts`); a related fact is no such statement ("User has two cats." and "User has
three cats.", "User lives in Porto." and "User lived in Porto."). A shift pattern told alone ("User is on days now.")
says what a stored fact of the user's working that pattern says ("User works day shifts at the hospital.")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeVar

from ..calendar_words import ANY_MONTH
from ..slots import slot_keys
from ..text import normalize_fact_text
from .cues import content_words, is_negated, words_within
from .shifts import is_only_a_shift, users_shift_now

__all__ = ["JOB_FRAME", "same_fact", "statement_frame"]

F = TypeVar("F")

_LINKS = frozenset("in at with as a an for from to the on near by".split())

# A job stated the usual ways: "works as/at/for", "drives ... for <employer>", "is a <role> at/for <employer>",
# and "is a <role>" when the role is a job the slot rules know ("User is a school principal."). Studies are no
# job said this way: "User is a PhD student at TU Berlin." holds beside a job at a café.
_NOT_STUDIES = r"(?!.*\b(?:student|undergrad\w*|phd|postdoc|intern|volunteer)\b)"
_JOB_SAID = re.compile(
    rf"^user (?:works (?:as|at|for)\b|drives \S.* for \S|is (?:a|an) {_NOT_STUDIES}\S.* (?:at|for) \S)")
_IS_A_ROLE = re.compile(rf"^user is (?:now |also |still |currently )?(?:a|an) {_NOT_STUDIES}")
JOB_FRAME = ("user", "<job>")
"""The frame (:func:`statement_frame`) of a job said the usual ways: "User works as ...", "User is a <title> at ..."."""


# A state the user reached, told as the change ("User has gone vegetarian in November 2026.", "User became a
# nurse."), says what the state says ("User is vegetarian.", "User is a nurse."), the time it began left out. Not a
# move or an outing ("User has gone to Paris.", "User went back home.", "User went off meat.", "User went hiking
# yesterday.", "User went overseas last year."), nor an age ("User turned 30 last year." is no "User is 30." a year
# on): a preposition, an adverb of where, an "-ing" word or a number after the verb is no state.
_TIME_TAIL = (
    rf" (?:(?:(?:in|since|as of|from|during|around|back in) (?:(?:early|late|mid)[- ])?(?:{ANY_MONTH})(?: \d{{4}})?)"
    rf"|(?:in|since|as of|back in) \d{{4}}|(?:this|last|earlier this) (?:week|month|year|spring|summer|autumn|fall|"
    rf"winter|{ANY_MONTH})|recently|lately|today|yesterday|(?:on|since) \d{{4}}-\d{{2}}(?:-\d{{2}})?)")
_BECAME = re.compile(
    r"^user (?:has (?:now |just |recently |finally )?(?:gone|become|turned)|'s (?:gone|become)|went|became|turned) "
    r"(?!(?:to|into|back|off|out|through|from|for|on|with|in|at|home|abroad|away|up|down|over|missing|ahead|by|after|"
    r"and|but|not|no|there|here|quiet|viral|live|overseas|downtown|uptown|upstate|upstairs|downstairs|inside|outside|"
    r"indoors|outdoors|\w+ing|\d+)\b)"
    rf"(?P<state>(?:(?:a|an) )?[\w-]+(?: [\w-]+){{0,2}}?)(?:{_TIME_TAIL})?$")


def _as_state(text: str) -> str:
    """``text`` said as the state it tells the user reached ("user is vegetarian" for "User has gone vegetarian in
    November 2026."), or ``text`` itself when it tells no such change."""
    m = _BECAME.match(normalize_fact_text(text))
    return f"user is {m.group('state')}" if m else text


def statement_frame(text: str) -> tuple[str, ...]:
    """How ``text`` says what it says: its subject and verb, and the word after them when that is a preposition
    or an article ("user lives in", "user is a", "user is"): "User lives with Rui." is not said as a home is. A
    job said the usual ways is one frame ("User works as a driver for X.", "User drives long-haul for Y." and
    "User is a school principal.")."""
    said = normalize_fact_text(text)
    if _JOB_SAID.match(said) or (_IS_A_ROLE.match(said) and "user:job" in slot_keys(text)):
        return JOB_FRAME
    words = said.split()
    return tuple(words[:3]) if len(words) > 2 and words[2] in _LINKS else tuple(words[:2])


# How strongly, said in any of these words: "super allergic" and "deathly allergic" say one allergy ("mildly" says
# another, and no such word says less).
_STRONGLY = frozenset(content_words(
    "very super really so extremely severely seriously deathly highly incredibly massively crazy insanely "
    "dangerously badly terribly properly majorly hugely wildly mega"))
_STRONG = "<strongly>"


def _graded(words: frozenset[str]) -> frozenset[str]:
    """``words`` with every word of how strongly as one."""
    strong = words & _STRONGLY
    return words - strong | {_STRONG} if strong else words


def same_fact(text: str, facts: Iterable[F]) -> F | None:
    """The first of ``facts`` (anything with a ``content``) whose text says ``text``: the same
    :func:`~memori_core.text.normalize_fact_text` key; else told the same way (:func:`statement_frame`), negated
    alike, with the same content words (any word of how strongly as one: "super allergic", "deathly allergic"), an
    hour bare or with its "pm" ("User's band rehearses every tuesday at 7." for "... every Tuesday at 7pm.");
    ``None`` when none does."""
    key = normalize_fact_text(text)
    facts = list(facts)
    exact = next((f for f in facts if normalize_fact_text(_content(f)) == key), None)
    if exact is not None:
        return exact
    shift = _shift_alone(text)
    if shift is not None:  # "User is on days now." after "User works day shifts at the hospital.": one pattern
        same = next((f for f in facts if users_shift_now(_content(f)) == shift), None)
        if same is not None:
            return same
    text = _as_state(text)
    words, frame, negated = _graded(content_words(text)), statement_frame(text), is_negated(text)
    return next((f for f in facts if statement_frame(said := _as_state(_content(f))) == frame
                 and is_negated(said) == negated
                 and words_within(words, old := _graded(content_words(said))) and words_within(old, words)),
                None)


def _shift_alone(text: str) -> str | None:
    """The shift pattern ``text`` tells and nothing else of the user's job ("day" for "User is on days now."), or
    ``None``: said by a stored fact of that pattern, whatever else the stored one names (the job, the ward)."""
    return users_shift_now(text) if is_only_a_shift(text) else None


def _content(fact: Any) -> str:
    return fact.content
