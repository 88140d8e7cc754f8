"""Which rule path of :class:`~memori_core.extraction.RuleBasedFactExtractor` produced a fact, what part of the
user's life it speaks of, and the storing policy that reads both.

Every fact the rules keep carries its :data:`FactPath` (:attr:`~memori_core.extraction.ExtractedFact.path`), so
capture can be measured path by path (``memori eval capture --by-path``). The ``"strict"`` :data:`CapturePolicy`
keeps only the paths whose facts held up on chats the rules were not written for; ``"broad"`` (the default) keeps
every fact the rules find. Pure: no model, no I/O.
"""

from __future__ import annotations

import re
from typing import Any, Literal, get_args

from ..ranking.care import is_care_fact
from ..slots import PERSON, placed
from .slots import slots_of
from .types import ExtractedFact

__all__ = [
    "CAPTURE_POLICIES",
    "DEFAULT_CAPTURE_POLICY",
    "FACT_PATHS",
    "FACT_TOPICS",
    "GENERIC_PATHS",
    "STRICT_TOPICS",
    "CapturePolicy",
    "FactPath",
    "FactTopic",
    "check_policy",
    "fact_topic",
    "policy_keeps",
]

FactPath = Literal[
    "rewrite", "as_said", "name", "plan", "family", "retold", "bare_plan", "job_change", "life_event", "label", "restated",
    "correction", "named", "trip_taken", "update", "plan_names",
]
"""The rule path a kept fact came through:

- ``"rewrite"``: the user's own sentence, its "I" / "my" / "we" rewritten as "User" ("I work at a bakery" ->
  "User works at a bakery."), or a sentence template of the rules ("Retired teacher here", "As a vegan, ...");
- ``"as_said"``: the user's words kept as said, in the third person ("I think I'm allergic to cats" -> "User
  thinks they're allergic to cats."): a short sentence of a known slot, a care fact or a dated event;
- ``"name"``: the user's name ("I'm Maya, by the way" -> "User's name is Maya.");
- ``"plan"``: a plan or a passing mood, kept with an expiry ("I have a dentist appointment on Friday");
- ``"family"``: what the user tells of their family the way people say it, read as the plain statement it means
  (:mod:`.family`: "Mum's settled into Oakwood care home" -> "User's mum lives in Oakwood care home.");
- ``"retold"``: a sentence told in the user's own words, read as the plain statement it means
  (:mod:`.retold`: "met someone! his name is Marco" -> "User is seeing Marco.");
- ``"bare_plan"``: a plan or a job begun typed the short way (:mod:`.bare_plans`);
- ``"job_change"``: a change of employer in the user's words (:mod:`.job_change`);
- ``"life_event"``: a life event told in other words (:mod:`.events`: "day 40 without a cigarette");
- ``"label"``: a profile typed as labels (:mod:`.labels`: "Job: ER doctor.");
- ``"restated"``: a treatment, a denial or a trip called off, restated (:mod:`.restated`, :mod:`.trips`);
- ``"correction"``: a correction of a stored fact ("I meant Porto, not Lisbon", "*Katherine");
- ``"named"``: news of someone or something the stored facts name, read as the user's ("Max passed away");
- ``"trip_taken"``: a planned trip told as taken ("Lisbon was amazing!!");
- ``"update"``: a fact read with the stored ones (:mod:`.updates`: "..., not penicillin", "30 weeks now");
- ``"plan_names"``: who a plan names, kept for good ("User's sister is Eva.").
"""
FACT_PATHS: tuple[FactPath, ...] = get_args(FactPath)
"""Every :data:`FactPath`, in the order above."""

FactTopic = Literal["name", "care", "slot", "person", "someone", "other"]
"""What part of the user's life a fact speaks of (:func:`fact_topic`)."""
FACT_TOPICS: tuple[FactTopic, ...] = get_args(FactTopic)
"""Every :data:`FactTopic`."""

CapturePolicy = Literal["broad", "strict"]
"""Which of the facts the rules find are stored (:func:`policy_keeps`): ``"broad"`` all of them; ``"strict"``
those of a recognised path (a name, a plan, a life event, a change read against a stored fact...), and of the
generic rewrite of a first-person sentence (``"rewrite"``, ``"as_said"``) only a fact that lands in a
recognised slot (:data:`STRICT_TOPICS`) or ends a stored fact it replaces."""
CAPTURE_POLICIES: tuple[CapturePolicy, ...] = get_args(CapturePolicy)
"""Every :data:`CapturePolicy`."""
DEFAULT_CAPTURE_POLICY: CapturePolicy = "broad"
"""The policy :class:`~memori_core.extraction.RuleBasedFactExtractor` stores by unless told otherwise."""

GENERIC_PATHS: frozenset[FactPath] = frozenset({"rewrite", "as_said", "family"})
"""The paths that keep any first-person sentence the rules can say of the user (``"family"``: the same sentences,
of a relative named the way people say it): ``"strict"`` keeps their facts only in a :data:`STRICT_TOPICS` topic. On the capture sets written blind (``evals/capture/dev6.json``) they stored
the facts that were wrong: a passing state ("User is sleeping like a baby."), someone else's doings ("User's
sister Dana's over in Regina."), an aside kept with the fact."""
STRICT_TOPICS: frozenset[FactTopic] = frozenset({"name", "care", "slot", "person"})
"""The topics a fact of a :data:`GENERIC_PATHS` path must speak of for ``"strict"`` to keep it."""

_ROLE = rf"{placed('best', 'late')}{PERSON}"
# "User's sister is Eva.", "User's husband is called Rui.": who someone in the user's life is.
_WHO_IS = re.compile(rf"^User's\s+{_ROLE}\s+(?:is|'s)\s+(?:called\s+|named\s+)?[A-Z][\w'-]*\.?$")
# "User's sister Eva is over in Regina.", "User's mum drops them at the station.": someone else's doings.
_SOMEONE = re.compile(rf"^User's\s+{_ROLE}\b", re.IGNORECASE)
_NAME_FACT = re.compile(r"^User(?:'s\s+name\s+is|\s+goes\s+by)\b")


def fact_topic(text: str) -> FactTopic:
    """What ``text`` (a kept fact) speaks of, the first that holds: ``"name"`` the user's name, ``"care"`` an
    allergy, a medication, a diet or a condition (:func:`~memori_core.ranking.care.is_care_fact`), ``"slot"`` a
    slot of the user's life (home, job, relationship, age, pets, exercise...:
    :func:`~memori_core.extraction.slots.slots_of`), ``"person"`` who someone in the user's life is ("User's
    sister is Eva."), ``"someone"`` anything else said of someone in the user's life ("User's sister Dana's over
    in Regina."), else ``"other"``.

    >>> fact_topic("User lives in Porto."), fact_topic("User's sister is Eva."), fact_topic("User is sleeping well.")
    ('slot', 'person', 'other')
    """
    if _NAME_FACT.match(text):
        return "name"
    if is_care_fact(text):
        return "care"
    if slots_of(text):
        return "slot"
    if _WHO_IS.match(text):
        return "person"
    if _SOMEONE.match(text):
        return "someone"
    return "other"


def check_policy(value: Any, name: str = "policy") -> CapturePolicy:
    """``value`` checked as a :data:`CapturePolicy` (``ValueError`` naming ``name`` otherwise)."""
    if isinstance(value, str) and value in CAPTURE_POLICIES:
        return value  # type: ignore[return-value]
    raise ValueError(f"{name} must be one of {', '.join(repr(p) for p in CAPTURE_POLICIES)}, got {value!r}")


def policy_keeps(policy: CapturePolicy, fact: ExtractedFact) -> bool:
    """Whether ``policy`` stores ``fact``, one the rules kept: ``"broad"`` stores every fact; ``"strict"`` a fact
    of a recognised path (any but :data:`GENERIC_PATHS`), and of a generic one a fact in a :data:`STRICT_TOPICS`
    topic (:func:`fact_topic`) or a rewrite that ends stored facts it replaces (``supersedes``: the rules read it
    as a change of what they held). A fact no path is given for (``path`` ``None``) is stored by ``"broad"``
    only.

    >>> strict = [ExtractedFact("User lives in Porto.", path="rewrite"), ExtractedFact("User is a bus person.", path="rewrite")]
    >>> [f.text for f in strict if policy_keeps("strict", f)]
    ['User lives in Porto.']
    """
    if policy == "broad":
        return True
    if fact.path is None:
        return False
    if fact.path not in GENERIC_PATHS:
        return True
    return fact_topic(fact.text) in STRICT_TOPICS or (fact.path == "rewrite" and bool(fact.supersedes))
