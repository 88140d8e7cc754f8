"""An event that ends a state the stored fact never names: "User's bike was stolen." ends "User cycles to the
office."; "User passed their driving test." ends "User doesn't have a driving licence."; "User finished their A
levels." ends "User is in year 12 at a sixth form college."; "User's type 2 diabetes is in remission." ends "User is
type 2 diabetic."; "User is lactose intolerant." ends "User drinks a glass of milk every night."; "User's dad passed away." ends "User's dad lives in Leeds." (:func:`ends_state`). Pure: patterns
over the two facts, English only.
"""

from __future__ import annotations

import re

from ..ranking.concerns import fact_concerns, question_concerns
from ..slots import holder
from .cues import content_words, is_negated
from .grammar import is_past, is_verb_form
from .patterns import rx

__all__ = ["ends_state"]

# A vehicle of the user's gone ("User's bike was stolen.", "User scrapped the car.", "User sold their motorbike."),
# and the use of it a stored fact tells ("User cycles to the office.", "User drives to work.").
_GONE = r"(?:stolen|nicked|scrapped|sold|written\s+off|totall?ed|wrote\s+off|got\s+rid\s+of|retired)"
_VEHICLES = {
    "bike": (r"(?:bike|bicycle|e-?bike)", r"cycles?|cycling|bikes?\s+to|biking"),
    "car": (r"(?:car|motor)", r"drives?|driving"),
    "motorbike": (r"(?:motorbike|motorcycle|scooter|moped)", r"rides?\s+(?:to|into)"),
}
# ... or the vehicle named with a use: "User commutes on a 2009 Peugeot moped.", "User rides a bike to work."
_USE = r"commutes?|commuting|rides?|riding|uses?|gets\s+around|travels?|goes\s+to\s+work"
_USES = {kind: (rx(rf"\b{thing}\b(?:\s+\w+){{0,2}}?\s+(?:was|got|has\s+been|is)\s+(?:just\s+)?{_GONE}\b|"
                   rf"\b{_GONE}\s+(?:the|their|my|our)\s+(?:old\s+)?{thing}\b"),
                rx(rf"\b(?:{use})\b|\b(?:{_USE})\b.*\b{thing}\b"))
         for kind, (thing, use) in _VEHICLES.items()}
# A driving test passed (not the theory test alone), and what it ends: no licence, lessons, a test failed.
_TEST_PASSED = rx(r"\bpassed\s+(?:their|my|the|a)\s+(?!theory\b)(?:driving|driver's|drivers|road)\s+test\b")
_NO_LICENCE = rx(r"\b(?:licen[cs]e|learning\s+to\s+drive|driving\s+lessons|failed\s+(?:their|my|the)\s+(?:\w+\s+)?"
                 r"driving\s+test|can't\s+drive|cannot\s+drive|doesn't\s+drive)\b")
_FAILED = rx(r"\b(?:learning\s+to\s+drive|driving\s+lessons|failed)\b")
# Studies finished ("User finished their A levels.", "User defended their thesis.", "User graduated.") and the
# studies a stored fact says go on ("User is in year 12 ...", "User is doing a master's ...", "User is a PhD student.");
# each of school or university, so one of them ends only the same kind.
_FINISHED = rx(r"\b(?:finished|completed|defended|graduated|done\s+with|handed\s+in|dropped\s+out)\b")
_SCHOOL = r"a[- ]levels?|gcses?|sixth\s+form|high\s+school|year\s+1[0-3]|secondary\s+school"
_UNIVERSITY = r"degree|master's|masters|master|msc|phd|doctorate|thesis|dissertation|uni|university|finals|undergrad\w*"
_STUDIES = rx(rf"\b(?P<school>{_SCHOOL})\b|\b(?P<university>{_UNIVERSITY})\b")
_STUDYING = rx(rf"^user\s+(?:is|'s)\s+(?:now\s+|currently\s+|still\s+)?(?:in\s+(?:{_SCHOOL})|studying\b|doing\s+"
               rf"(?:(?:a|an|their|my|her|his)\s+)?(?:\w+\s+)?(?:{_SCHOOL}|{_UNIVERSITY})\b|(?:a|an)\s+(?:[\w-]+\s+){{0,2}}?"
               r"student\b)")


# A condition of the user's in remission ("User's type 2 diabetes is in remission."), which ends having it.
_IN_REMISSION = rx(r"^user's\s+(?P<condition>.+?)\s+is\s+(?:now\s+)?in\s+(?:full\s+)?remission\b")


def _in_remission(new: str, old: str) -> bool:
    """Whether ``new`` tells the user's condition in remission and ``old`` that the user has it (every word of the
    condition, "diabetic" as "diabetes")."""
    m = _IN_REMISSION.match(new.strip())
    return m is not None and not is_negated(old) and not _IN_REMISSION.match(old.strip()) \
        and content_words(m.group("condition")) <= content_words(old)


def _kinds(text: str) -> set[str]:
    """The kinds of study ``text`` names (``"school"``, ``"university"``)."""
    return {kind for m in _STUDIES.finditer(text) for kind, said in m.groupdict().items() if said}


def _vehicle_gone(new: str, old: str) -> bool:
    """Whether ``new`` tells the user's vehicle gone and ``old`` the use of that kind of vehicle."""
    return any(gone.search(new) and use.search(old) for gone, use in _USES.values())


def _licence_got(new: str, old: str) -> bool:
    """Whether ``new`` tells a driving test passed and ``old`` the user without a licence, learning or failing."""
    return bool(_TEST_PASSED.search(new)) and bool(_NO_LICENCE.search(old)) \
        and (is_negated(old) or bool(_FAILED.search(old)))


def _studies_done(new: str, old: str) -> bool:
    """Whether ``new`` tells studies finished and ``old`` the same kind of studies going on."""
    done = _kinds(new) if _FINISHED.search(new) else set()
    if not done and re.search(r"\b(?:graduated|dropped\s+out)\b", new, re.IGNORECASE):
        done = {"school", "university"}
    going = _kinds(old) or {"school", "university"}
    return bool(done & going) and bool(_STUDYING.match(old.strip())) and not is_negated(old)


# Someone of the user's died, told as the fact's own verb: "User's dad passed away.", "User's husband Arjun died in
# March." (not "User's dad's dog died.", "User's dad passed his driving test").
_DIED = rx(
    r"^user's\s+(?:[\w-]+\s+){1,3}?(?:(?:has|had|sadly|suddenly|peacefully|just|recently|finally)\s+)*"
    r"(?:passed\s+away|died|passed(?=\s+(?:in|on|last|this|yesterday|earlier|recently)\b|\s*[.!]*$))"
)
# Who someone is, which their death leaves true: "User's dad is called Tom.", "User's mum's birthday is May 3.".
_WHO_THEY_ARE = rx(r"\b(?:called|named|name|birthday|born)\b")
_PAST_AUX = frozenset("was were had did used".split())


def _died(new: str, old: str) -> bool:
    """Whether ``new`` tells the death of someone of the user's and ``old`` what was stated of them as holding now
    (their home, their work, their age or health: its verb in the present), not a past event of theirs ("User's dad
    retired in 2019.") nor who they are."""
    who = holder(new)
    if who == "user" or holder(old) != who or not _DIED.match(new.strip()) or _DIED.match(old.strip()) \
            or _WHO_THEY_ARE.search(old):
        return False
    verb = next((word for word in old.split()[2:] if is_verb_form(word)), None)  # after "User's <who>"
    return verb is not None and verb.lower() not in _PAST_AUX and not is_past(verb)


# A food the user's body rules out, told as a condition of theirs: "User is lactose intolerant.", "User is coeliac.",
# "User has been diagnosed with a peanut allergy.".
_RULES_OUT = rx(r"^user\s+(?:is|has|was|'s)\b.*\b(?:intoleran\w*|allerg\w*|coeliac|celiac)\b")
# A habit of eating or drinking something, at a rate: "User drinks a big glass of milk every night.", "User bakes
# sourdough every weekend." (not what the user cannot have: "User drinks oat milk", "User bakes gluten-free bread").
_FOOD_HABIT = rx(r"^user\s+(?:\w+\s+)?(?:drinks|eats|bakes|has|makes|loves|enjoys)\b.*\b(?:every|each|daily|nightly|"
                 r"a\s+(?:day|night|week)|most\s+\w+|twice|always)\b")
_SUBSTITUTE = rx(r"\b(?:[\w-]*-?free|oat|soy|soya|almond|rice|coconut|plant|vegan|alternative|substitute)\b")
_FOODS = frozenset({"dairy", "gluten", "peanut", "tree nut", "shellfish", "fish", "egg", "sesame", "soy"})


def _food_ruled_out(new: str, old: str) -> bool:
    """Whether ``new`` tells a condition that rules a food out ("User is lactose intolerant.") and ``old`` a habit of
    eating or drinking it ("User drinks a big glass of milk every night.")."""
    if not _RULES_OUT.match(new.strip()) or is_negated(new) or not _FOOD_HABIT.match(old.strip()) \
            or _SUBSTITUTE.search(old) or is_negated(old):
        return False
    return bool(fact_concerns(new) & _FOODS & question_concerns(old))


def ends_state(new: str, old: str) -> bool:
    """Whether the new fact ``new`` ends the stored state ``old`` it never names: of the user's, a vehicle gone ends
    its use, a driving test passed ends having no licence, studies finished end those studies, a condition in
    remission ends having it; a death of someone of the user's ends what was stated of them as holding now.

    >>> ends_state("User's bike was stolen.", "User cycles to the office, rain or shine.")
    True
    >>> ends_state("User's bike was stolen.", "User drives to work.")
    False
    """
    if _died(new, old):
        return True
    if holder(new) != "user" or holder(old) != "user":
        return False
    return _vehicle_gone(new, old) or _licence_got(new, old) or _studies_done(new, old) or _in_remission(new, old) \
        or _food_ruled_out(new, old)
