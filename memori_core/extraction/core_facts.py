"""Which extracted facts are core (worth a few tokens on every turn), and the check of a ``core_rule``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from ..ranking.care import is_care_fact, outside_holder
from ..slots import PERSON, slot_keys
from .cues import is_negated
from .diagnoses import is_medicine
from .patterns import rx

__all__ = ["CoreRule", "check_core_rule", "is_core_fact", "keeps_core"]


# What held once and no longer does: "User used to be vegetarian.", "User was formerly on metformin.", "User stopped
# taking warfarin." (not "User stopped eating meat.": a diet that holds now)
_PAST = rx(r"\b(?:used\s+to|no\s+longer|formerly|previously|in\s+the\s+past|as\s+a\s+(?:child|kid|teen)|"
           r"(?:stopped|quit|quitted)\s+taking|came\s+off|come\s+off)\b")
# A diet or a medicine told as ended: "User stopped the keto diet.", "User is off keto.", "User came off the
# statins." (not a food given up, which is the restriction that holds now: "User quit gluten.", "User gave up meat.")
_STOP = (r"(?:stopped|quit|quitted|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|ended|dropped|abandoned|went\s+off|"
         r"(?:came|come|is|was|now)\s+off|(?:is\s+)?done\s+with|finished)")
_OF = r"(?:(?:the|their|a|an|her|his|my|all|being|doing|following|eating|taking|strict)\s+)*"
_ENDED_DIET = rx(
    rf"\b{_STOP}\s+{_OF}(?:keto(?:genic)?|paleo|vegan(?:ism)?|vegetarian(?:ism)?|pescatarian|plant[\s-]based|"
    r"carnivore|whole30|atkins|low[\s-]carb|intermittent\s+fasting|[\w-]+\s+diet|diet(?:ing)?)\b"
)
_ENDED_TAKING = rx(rf"\b{_STOP}\s+{_OF}(?P<what>[\w-]+(?:\s+[\w-]+)?)")


def _ends_diet_or_medicine(text: str) -> bool:
    """Whether ``text`` tells a diet or a medicine of the user's as ended: what no longer holds, never core."""
    taken = _ENDED_TAKING.search(text)
    return bool(_ENDED_DIET.search(text)) or (taken is not None and is_medicine(taken.group("what")))


# A state told in the past tense: "User was pregnant last year.", "User was on metformin until March." (not what
# is told in the past and still holds: "User was diagnosed with diabetes.", "User was told to avoid salt.")
_WAS = rx(
    r"^\W*(?:user(?:'s\s+[\w-]+)?|i|my\s+[\w-]+)\s+(?:(?:also|once|only|still)\s+)?(?:was|were)\s+"
    r"(?!(?:(?:just|recently|first|finally|officially|newly)\s+)?(?:diagnosed|told|prescribed|advised|put|found|"
    r"started|switched|given|born|made|asked|recommended|warned|referred|tested|confirmed|identified)\b)"
)
# Someone else the fact is about, even of the household: "User's boyfriend Tom is vegan.", "User's son has a nut
# allergy." Core is the user's own: on every turn, someone else's diet reads as the user's (a model cooks vegan for
# them); the care gate still brings it to a question that names that person. "User's doctor told them to cut down
# on salt." is advice to the user.
_SOMEONE_ELSES = rx(
    rf"^\W*(?:i\s+(?:think|guess|believe|reckon)\s+)?(?:user's|my|our)\s+(?:[\w-]+\s+){{0,2}}?"
    rf"(?:{PERSON}|sons|daughters|twins|toddlers?|grandchildren|grandkids?|grandsons?|granddaughters?)\b"
)
# A medicine or diet changed for a person of the user's: "User's doctor switched their mum from metformin to
# Ozempic.", "The GP put my dad on statins." (the mum's medicine, not the user's)
_CHANGED_FOR_SOMEONE = rx(
    rf"\b(?:switched|moved|changed|put|started|took|taken)\s+(?:the\s+user's|user's|their|my|our)\s+"
    rf"(?:[\w-]+\s+)?{PERSON}\b"
)
# Taken back: "User lied about being vegan.", "User was joking about the peanut allergy."
_TAKEN_BACK = rx(r"\b(?:lied|lying|kidding|joking)\s+about\b")
# Said to rule the matter out: "User is allergic to nothing.", "User has no known allergies."
_NONE = rx(r"\ballergic\s+to\s+(?:nothing|none|no\b)|\bno\s+(?:known\s+)?(?:food\s+)?allergies\b")
_USER_NOW = r"^\W*user\s+(?:(?:also|now|still)\s+)?"
"""A fact of the user's own, "also", "now" or "still" as may be: what :data:`_TAKES` and :data:`_MANAGED_CONDITION`
open with."""
# A medicine the care rule does not know by name, told as taken: "User takes ferrous sulphate.", "User is on iron
# tablets." (by its form, salt or kind: :func:`~memori_core.extraction.diagnoses.is_medicine`).
_TAKES = rx(_USER_NOW + r"(?:takes|is\s+(?:on|taking)|has\s+been\s+(?:put\s+on|prescribed))\s+"
            r"(?!(?:no|not|any)\b)(?P<what>[^,.;]{2,40})")
# A named chronic condition of the user's, beyond those the care rule knows, that limits food, drink or activity or is
# managed every day (a daily tablet, a diet, a device): "User is anaemic.", "User has high cholesterol.", "User has an
# underactive thyroid.", "User has hypothyroidism.", "User lives with COPD." Not what is treated and over, nor a
# condition that asks nothing of each day's food or plans (eczema, tinnitus), nor the mind's (kept, never core).
_MANAGED_CONDITION = rx(
    _USER_NOW + r"(?:is|has|has\s+got|has\s+been\s+diagnosed\s+with|"
    r"was\s+(?:just\s+|recently\s+)?diagnosed\s+with|lives\s+with|suffers\s+from|manages)\s+"
    r"(?:(?:an?|mild|severe|mildly|severely|quite|slightly|very)\s+)*"
    r"(?:ana?emi(?:a|c)|iron[\s-]deficien(?:t|cy)|high\s+cholesterol|(?:chronic\s+)?kidney\s+disease|ckd|fatty\s+liver|"
    r"heart\s+failure|atrial\s+fibrillation|pre-?eclampsia|"
    r"(?:under|over)active\s+thyroid|hypo-?thyroid(?:ism)?|hyper-?thyroid(?:ism)?|hashimoto'?s|graves'?\s+disease|"
    r"angina|copd|parkinson'?s|multiple\s+sclerosis|lupus|rheumatoid\s+arthritis|osteoporosis|(?:sleep\s+)?apno?ea|"
    r"pcos|polycystic\s+ovar(?:y|ies)|addison'?s|cystic\s+fibrosis|ha?emophilia)\b"
)


def is_core_fact(text: str) -> bool:
    """Whether a fact is worth injecting on every turn: the user's own allergy or intolerance, medication (named,
    or by its drug-name stem), condition that limits food or activity or is managed every day
    (pregnancy, diabetes, asthma, epilepsy, high blood pressure, an underactive thyroid, a doctor's dietary
    advice), or dietary
    restriction (vegetarian, vegan, halal, kosher, gluten-free, coeliac, lactose-free, no alcohol...).

    >>> is_core_fact("User is allergic to peanuts."), is_core_fact("User lives in Leeds.")
    (True, False)

    A term right after a negation does not count ("User is not vegan.", "User has no allergies.", "User is
    allergic to nothing."), nor what held only in the past ("User used to be vegetarian.", "User was pregnant
    last year.", "User was on metformin until March."; "User was diagnosed with ..." still holds), nor the end of
    a diet or a medicine ("User stopped the keto diet.", "User came off the statins."; a food given up, "User
    quit gluten.", is the restriction that holds now), nor what the
    user took back ("User lied about being vegan."), nor someone else's, even of the household (a partner's, a
    child's, a friend's, a pet's: only the user's own count): each would be injected on every turn, and someone
    else's diet would read as the user's.

    >>> is_core_fact("User's friend is allergic to cats."), is_core_fact("User's boyfriend Tom is vegan.")
    (False, False)

    The rule reads words, not meaning: pass your own ``core_rule`` to an extractor to change it. Its terms are
    the relevance gate's care-fact rule (:func:`memori_core.ranking.care.is_care_fact`), and who is outside the
    household is the gate's rule too (:func:`memori_core.ranking.care.outside_holder`): the gate reads such a
    fact of someone else only when the question names them (:func:`memori_core.ranking.care.named_by`).
    """
    if outside_holder(text) is not None or _SOMEONE_ELSES.match(text) or _PAST.search(text) or _WAS.search(text) \
            or _NONE.search(text) or _TAKEN_BACK.search(text) or _ends_diet_or_medicine(text) \
            or _CHANGED_FOR_SOMEONE.search(text):
        return False  # "User's friend...", "User's sister...", "User's dog..."
    if _MANAGED_CONDITION.match(text):
        return True
    taken = _TAKES.match(text)
    return is_care_fact(text) or (taken is not None and is_medicine(taken.group("what")))


CoreRule = Callable[[str], bool]
"""``rule(fact_text) -> bool``: whether an extracted fact is core."""


_CLAUSES = re.compile(r"\s*(?:[,;]|\band\b|\bbut\b)\s*")


def keeps_core(text: str, ended: Iterable[tuple[str, bool]]) -> bool:
    """Whether ``text``, which ends the stored facts ``ended`` (their text and core mark each), is core as the
    fact it replaces was: a clause of it tells what holds now in the slot of a core fact it ends ("I'm not
    vegetarian anymore, I eat fish now." over the core "User is vegetarian."), so a diet changed stays recalled on
    every turn. Not a fact that only ends one ("User is not vegetarian anymore.": what no longer holds is never
    core, :func:`is_core_fact`), nor one of another slot.

    >>> keeps_core("I'm not vegetarian anymore, I eat fish now.", [("User is vegetarian.", True)])
    True
    >>> keeps_core("User is not vegetarian anymore.", [("User is vegetarian.", True)])
    False
    """
    slots = {key for old, core in ended if core for key in slot_keys(old)}
    return bool(slots) and any(slot_keys(clause) & slots and not is_negated(clause) and not
                               _ends_diet_or_medicine(clause) for clause in _CLAUSES.split(text) if clause.strip())


def check_core_rule(rule: Any) -> CoreRule | None:
    """``core_rule`` of an extractor: a callable ``(text) -> bool``, or ``None`` (no fact is marked core)."""
    if rule is not None and not callable(rule):
        raise TypeError(f"core_rule must be a callable(text) -> bool or None, got {type(rule).__name__}")
    return rule
