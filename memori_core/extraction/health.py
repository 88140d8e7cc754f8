"""Health news of a thing the user has, a named pet or person or a part of the body ("Luna has kidney failure",
"my knee is much better"), and which earlier state of the same one's health a new one ends. Pure: keyword rules,
English only.
"""

from __future__ import annotations

import re

from ..slots import holder

__all__ = [
    "BODY_PART",
    "ends_health",
    "health_news",
    "health_state",
]

BODY_PART = (
    r"(?:left\s+|right\s+|lower\s+|upper\s+|bad\s+)?(?:knees?|ankles?|back|shoulders?|wrists?|hips?|elbows?|neck|"
    r"feet|foot|legs?|arms?|hands?|fingers?|thumbs?|toes?|hamstrings?|achilles|acl|mcl|meniscus|calf|calves|shins?|"
    r"ribs?|collarbone|jaw|tooth|teeth|eyes?|ears?|spine|disc|groin|quad|quads|knee\s*cap)"
)
"""A regex alternation of the parts of the body an injury is told of ("knee", "lower back", "ACL")."""
_CONDITION_NOUN = (
    r"(?:[\w'-]+\s+){0,2}?(?:failure|disease|cancer|tumou?r|diabetes|arthritis|infection|dementia|epilepsy|asthma|"
    r"syndrome|disorder|fracture|sprain|injury|virus|flu|covid|pneumonia|bronchitis|thyroid\w*|murmur|leuka?emia|"
    r"lymphoma|ana?emia|seizures?|cataracts?|glaucoma|worms|fleas|mites|ringworm|parvo|lump|cyst|ulcer|stroke|"
    r"heart\s+attack|concussion|hernia|gout|lupus|colitis|crohn's|ibs|copd|migraines?|mastitis|shingles|sepsis|"
    r"kidney\s+stones?|gallstones|cough|cold|ear\s+infection|uti)"
)
_VAGUE_ILL = (
    r"(?:really\s+|very\s+|so\s+|quite\s+|a\s+bit\s+)?(?:sick|ill|unwell|poorly|off\s+(?:her|his|its|their)\s+food|"
    r"not\s+(?:well|great|good|doing\s+(?:well|great|good))|under\s+the\s+weather|in\s+(?:the\s+)?hospital|"
    r"at\s+the\s+vets?(?:'s)?|going\s+downhill|struggling|limping|lame)"
)
_BETTER = (
    r"(?:(?:so\s+|much\s+|a\s+lot\s+|way\s+|loads\s+|a\s+bit\s+|slightly\s+|far\s+)*better|improving|on\s+the\s+mend|"
    r"mending|getting\s+there|recovering|fine|out\s+of\s+(?:the|its|a)\s+(?:cast|sling|splint|boot|brace))"
)
_RECOVERED = (
    r"(?:(?:fully|completely|totally|all)\s+)?(?:healed|recovered|cured|clear)|back\s+to\s+normal|good\s+as\s+new|"
    r"in\s+remission|fine\s+(?:again|now)|all\s+better|100%(?:\s+again)?"
)
_INJURED = (
    r"twisted|sprained|broke|broken|tore|torn|injured|hurt|pulled|strained|fractured|dislocated|bruised|sprain|"
    r"injury|fracture|surgery|operation|replacement|bad|sore|dodgy|weak|swollen|busted|wrecked|knackered"
)
_HEALTH_REST = re.compile(
    rf"^(?:(?:has|'s|have)\s+(?:got\s+|been\s+)?(?:(?:diagnosed|treated)\s+(?:with|for)\s+)?(?:a\s+|an\s+)?"
    rf"(?:{_CONDITION_NOUN}|{_VAGUE_ILL}|{_BETTER}|{_RECOVERED})"
    rf"|(?:was|got|has\s+been|is\s+being)\s+(?:diagnosed|treated)\s+(?:with|for)\s+(?:a\s+|an\s+)?{_CONDITION_NOUN}"
    rf"|(?:is|'s|was|seems|looks|feels)\s+(?:now\s+|still\s+|already\s+)?(?:{_VAGUE_ILL}|{_BETTER}|{_RECOVERED})"
    rf"|(?:(?:has|is)\s+)?(?:{_RECOVERED}|recovering)"
    # an event of their health: "had a heart operation", "is having surgery", "broke his hip"
    rf"|(?:just\s+)?(?:had|has\s+had|is\s+having|'s\s+having|underwent|went\s+in\s+for)\s+(?:a\s+|an\s+|his\s+|her\s+"
    r"|their\s+|its\s+)?(?:[\w'-]+\s+){0,2}?(?:operation|surgery|op|procedure|transplant|bypass|biopsy|stroke|"
    r"heart\s+attack|seizure|bad\s+fall)"
    rf"|(?:just\s+)?(?:broke|fractured|sprained|tore|dislocated|injured)\s+(?:his|her|their|its)\s+{BODY_PART})\b",
    re.IGNORECASE,
)


def health_news(rest: str) -> bool:
    """Whether ``rest``, what a clause says of someone or something named first ("Luna has kidney failure": "has
    kidney failure"), is news of their health: an illness or a diagnosis, being sick, better or recovered, an operation
    or an injury ("had a heart operation yesterday", "broke his hip")."""
    return bool(_HEALTH_REST.match(rest.strip()))


_NAMED_ONE = re.compile(r"^User's\s+(?:[\w-]+\s+){0,2}?(?P<name>[A-Z][a-z\u00e0-\u00ff]+)\s+(?P<rest>(?-i:[a-z']).*)$")
_BODY_OF_USER = re.compile(
    rf"^User(?:'s\s+(?P<part>{BODY_PART})\b"
    # "User fell off their bike and broke their left wrist.": the part hurt after what happened
    rf"|\s+(?:(?:\w+\s+){{1,4}}?and\s+)?(?:\w+\s+){{0,2}}?(?:their|a|an)\s+(?:[\w-]+\s+)?(?P<part2>{BODY_PART})\b)",
    re.IGNORECASE,
)
_KINDS = (
    ("recovered", re.compile(rf"\b(?:{_RECOVERED})(?!\w)", re.IGNORECASE)),
    ("better", re.compile(rf"\b(?:{_BETTER})\b", re.IGNORECASE)),
    ("injury", re.compile(rf"\b(?:{_INJURED})\b", re.IGNORECASE)),
    ("condition", re.compile(rf"\b(?:{_CONDITION_NOUN})\b", re.IGNORECASE)),
    ("ill", re.compile(rf"\b(?:{_VAGUE_ILL})\b", re.IGNORECASE)),
)
# Which earlier state of a thing's health a new one ends: a recovery all before it; being better an injury, being
# ill or better before; an illness or an injury being ill or well before (an earlier diagnosis stays: a cat may have
# two illnesses); being ill again a recovery.
_ENDS_HEALTH = {
    "recovered": frozenset({"recovered", "better", "injury", "condition", "ill"}),
    "better": frozenset({"better", "injury", "ill"}),
    "injury": frozenset({"better", "recovered", "ill"}),
    "condition": frozenset({"better", "recovered", "ill"}),
    "ill": frozenset({"better", "recovered"}),
}


def health_state(fact: str) -> tuple[str, str] | None:
    """``(whose health, how it is)`` when ``fact`` tells of the health of a named one of the user's ("User's cat
    Luna has kidney failure." -> ``("luna", "condition")``) or of a part of the user's body ("User twisted their
    knee at the park." -> ``("knee", "injury")``, "User's knee is much better." -> ``("knee", "better")``): how
    is ``"recovered"``, ``"better"``, ``"injury"``, ``"condition"`` or ``"ill"``; ``None`` for any other fact."""
    named = _NAMED_ONE.match(fact)
    if named is not None and health_news(named.group("rest")):
        whose, said = named.group("name").lower(), named.group("rest")
    else:
        body = _BODY_OF_USER.match(fact)
        if body is None:
            return None
        part = (body.group("part") or body.group("part2")).lower().split()[-1]
        whose, said = part.removesuffix("s") if part not in ("achilles", "calves") else part, fact[body.end():]
        said = fact  # how the part is may be told before it ("User twisted their knee")
    for kind, rx in _KINDS:
        if rx.search(said):
            return whose, kind
    return None


def ends_health(new: str, old: str) -> bool:
    """Whether the fact ``new`` of a thing's health ends the stored ``old`` of the same thing's (:func:`health_state`;
    "User's knee is much better." ends "User twisted their knee at the park."; "User's cat Luna has kidney failure."
    ends "User's cat Luna has been sick.", not "User has a cat named Luna.")."""
    now, before = health_state(new), health_state(old)
    if now is None or before is None or now[0] != before[0] or holder(new) != holder(old):
        return False
    return before[1] in _ENDS_HEALTH[now[1]]
