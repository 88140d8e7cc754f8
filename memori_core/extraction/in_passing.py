"""A lasting fact told in passing, around a request or a moment, as the plain statement the rules read.

People tell what lasts on the way to asking something: "my hypothyroidism is acting up, what can I eat?" (the
user has hypothyroidism, besides the flare-up of the moment), "i refuse to fly, planes terrify me" (afraid of planes), "lol my cat Biscuit just ate my
halloumi, is cheese bad for cats?" (a cat named Biscuit), "my mum lives in Leicester and wants us up for her
birthday" (where mum lives), "Can I take ibuprofen with my warfarin?" (the user takes warfarin), "signed up for the half marathon in april, am I mad?" (told without its "I"), "can you plan meals for my dad, he's
diabetic now" (the dad's condition, after the request), "My
name's Priya btw, you always call me 'you'" (the name, then a remark to the assistant). Each clause keeps the
lasting part only; the request and the moment are left to the rules, which drop them. Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..slots import PERSON
from .activities import PETS
from .diagnoses import LASTING_CONDITION, MEDICINE_FORMS, is_lasting_condition, is_medicine
from .patterns import rx

__all__ = ["as_told_in_passing"]

# "my hypothyroidism is acting up", "my asthma's been playing up": the condition, whatever it does today.
_CONDITION_ACTING_UP = rx(
    rf"^(?:ugh+\s+|so\s+)?(?:my|the)\s+(?P<condition>{LASTING_CONDITION})\s+(?:is|'s|has\s+been|'s\s+been)\s+"
    r"(?:really\s+|totally\s+|a\s+bit\s+)?(?:acting\s+up|flaring(?:\s+up)?|playing\s+up|bad|worse|awful)\b"
)
# "planes terrify me", "heights scare me": what the user is afraid of (a plural or an -ing word, not "it", "that").
_FEAR = rx(
    r"(?:^|,\s*|\s+and\s+)(?P<what>(?!(?:it|that|this|things|they|you|people)\b)[a-z]+(?:s|ing))\s+"
    r"(?:really\s+|honestly\s+|absolutely\s+)?(?:terrify|scare|frighten)\s+me\b(?:\s+to\s+death)?\s*[.!]*$"
)
# "my cat Biscuit just ate ...": a pet of the user's, named while telling a moment of its day.
_PET_MOMENT = rx(
    rf"^(?:my|our)\s+(?P<pet>{PETS})\s+(?P<name>(?-i:[A-Z])[\w-]+)\s+"
    r"(?:just\s+|literally\s+)?(?!(?:is|was|has|had|'s|turned|died|passed|got)\b)(?:\w+ed|ate|bit|threw|ran|stole)\b"
)
# "my mum lives in Leicester and wants us up ...": where someone lives, then what they want of the user.
_LIVES_THEN_WANTS = rx(
    r"^(?P<head>(?:my|our)\s+[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?\s+lives\s+in\s+[^,]+?)\s+and\s+"
    r"(?:wants|asked|is\s+asking|needs|would\s+like|invited|expects)\b.*$"
)
# "signed up for the Manchester half marathon in april": an entry the user made, typed without its "I".
_SIGNED_UP = rx(r"^(?:just\s+|finally\s+)?(?:signed\s+up|registered|entered)\s+(?:for|in)\s+\S")
# "My name's Priya btw, you always call me 'you'": a remark to the assistant after the statement.
_REMARK_TO_YOU = rx(
    r"^(?P<head>(?:i|i'm|i've|my|we|we're|our)\b[^,]+?),\s+(?P<remark>you\s+(?:always|never|keep|kept|forgot|"
    r"forget|still|call|called|said|say)\b.*)$"
)

# "can you plan meals for my dad this week, he's diabetic now", "could you help me plan a menu, I'm vegan now": a
# request, then a statement of the user's or of the one person the request names ("he" / "she" is them).
_AFTER_REQUEST = rx(
    rf"^(?P<request>(?:(?:can|could|would|will)\s+you|please|pls)\b[^,]*?(?:\b(?P<who>(?:my|our)\s+(?:[\w-]+\s+)?"
    rf"(?:{PERSON}))\b[^,]*?)?),\s+(?:(?P<own>i'm|i\s+am|i've|i\s+have)|(?P<pron>he's|she's|he\s+is|she\s+is))"
    r"(?P<rest>\s.+)$"
)
_SOMEONE = rx(rf"\b(?:{PERSON})\b")
# "Can I take ibuprofen with my warfarin?", "does grapefruit clash with my sertraline?": a medicine the user calls
# theirs inside a question is one they take (a tester's finding). One word, a drug's name (not "my tablets", "my
# jab"), after "my" alone ("my mum's warfarin" is hers); not in a question about stopping or switching it.
_MY_MEDICINE = rx(r"(?<![\w'])my\s+(?:daily\s+|usual\s+|morning\s+|evening\s+|night(?:ly)?\s+)?"
                  r"(?P<drug>[a-z][a-z-]{3,})\b(?!\s*'s)")
_GENERIC_MEDICINE = rx(rf"^(?:{MEDICINE_FORMS}|meds|"
                       r"medicines?|medications?|prescriptions?|vitamins?|supplements?|antibiotics?|steroids?|"
                       r"painkillers?|iron|sodium|potassium|"
                       # what the care rule knows beside drugs: "my allergy", "my pregnancy" name no medicine
                       r"allerg(?:y|ies)|intolerances?|pregnancy|condition|symptoms?|diagnosis)$")
_STOP_OR_SWAP = rx(r"\b(?:stop|stopped|stopping|quit|off|come\s+off|coming\s+off|switch\w*|swap\w*|change\w*|"
                   r"instead|replace\w*|no\s+longer|without)\b")


def _medicine_asked_about(clause: str) -> str | None:
    """The drug ``clause``, a question, names as the user's ("... with my warfarin?" -> "warfarin"), or ``None``."""
    if "?" not in clause or _STOP_OR_SWAP.search(clause):
        return None
    m = _MY_MEDICINE.search(clause)
    if m is None or _GENERIC_MEDICINE.match(m.group("drug")) or is_lasting_condition(m.group("drug")) \
            or not is_medicine(m.group("drug")):
        return None
    return m.group("drug").lower()


def _told_in_passing(clause: str) -> list[str]:
    """The plain statements ``clause`` tells in passing (see the module's doc), or ``[clause]``."""
    acting_up = _CONDITION_ACTING_UP.match(clause)
    if acting_up is not None and clause.rstrip().endswith("?"):  # a flare-up told alone stays the moment it is
        return [f"I have {acting_up.group('condition')}", clause]
    fear = _FEAR.search(clause)
    if fear is not None:
        rest = clause[: fear.start()].strip(" ,")
        return ([rest] if rest else []) + [f"I'm afraid of {fear.group('what').lower()}"]
    pet = _PET_MOMENT.match(clause)
    if pet is not None:
        return [f"I have a {pet.group('pet').lower()} named {pet.group('name')}", clause]
    wants = _LIVES_THEN_WANTS.match(clause)
    if wants is not None:
        return [wants.group("head")]
    if _SIGNED_UP.match(clause):
        return [f"I {clause[:1].lower()}{clause[1:]}"]
    asked = _AFTER_REQUEST.match(clause)
    if asked is not None and (asked.group("own") or (asked.group("who")
                                                     and len(_SOMEONE.findall(asked.group("request"))) == 1)):
        subject = asked.group("own") or f"{asked.group('who')} is"
        return [asked.group("request"), subject + asked.group("rest")]
    remark = _REMARK_TO_YOU.match(clause)
    if remark is not None:
        return [remark.group("head"), remark.group("remark")]
    drug = _medicine_asked_about(clause)
    if drug is not None:
        return [f"I take {drug}", clause]
    return [clause]


def as_told_in_passing(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with a lasting fact told in passing as the plain statement it is (see
    the module's doc); any other clause as it is.

    >>> as_told_in_passing(["my hypothyroidism is acting up, what can I eat?"])
    ['I have hypothyroidism', 'my hypothyroidism is acting up, what can I eat?']
    >>> as_told_in_passing(["i refuse to fly, planes terrify me."])
    ['i refuse to fly', "I'm afraid of planes"]
    """
    return [said for clause in clauses for said in _told_in_passing(clause)]
