"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), and whose fact it is.

English keyword rules, pure. Capture (``extraction/``) supersedes the stored fact of a slot on a change;
the ranking (``ranking/recency.py``) lets the newer of two facts of one slot win a near-tie.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["SLOTS", "fold", "holder", "slot_keys", "slots_of"]

# Occupations and workplaces: "User is a paralegal.", "User is a junior designer at an ad agency.".
_OCCUPATIONS = (
    r"barista|nurse|paramedic|developer|engineer|teacher|lecturer|professor|tutor|chef|cook|baker|pilot|vet|"
    r"doctor|surgeon|dentist|pharmacist|therapist|lawyer|attorney|paralegal|solicitor|accountant|auditor|"
    r"bookkeeper|designer|analyst|programmer|student|cashier|manager|consultant|architect|scientist|researcher|"
    r"biologist|chemist|physicist|electrician|plumber|carpenter|mechanic|waiter|waitress|bartender|"
    r"receptionist|secretary|assistant|clerk|librarian|journalist|writer|editor|translator|photographer|"
    r"firefighter|police\s+officer|officer|soldier|driver|farmer|cleaner|caretaker|carer|"
    r"salesperson|recruiter|intern|ceo|cto|founder|entrepreneur|director|administrator|technician|"
    r"social\s+worker|midwife|psychologist|physiotherapist|optician|hairdresser|butcher|"
    r"realtor|estate\s+agent|banker|trader|economist|actuary|data\s+scientist"
)
_WORKPLACES = (
    r"company|firm|agency|startup|start-up|bank|hospital|clinic|school|factory|warehouse|restaurant|cafe|"
    r"café|shop|store|office|studio|lab|laboratory|charity|ngo|council|ministry|university"
)

SLOTS: dict[str, re.Pattern[str]] = {
    "residence": re.compile(
        r"\b(?:live|lives|living|lived|moved|move|moving|relocated|relocating|reside|resides|settled\s+in|based\s+in|"
        r"rent|rents|renting|rented|apartment|condo|homeowner|landlord|tenant|"
        r"(?:a|an|the|my|our|their|shared|rented|own)\s+(?:\w+\s+)?(?:flat|house|home)\b(?!\s+white))\b"
    ),
    "job": re.compile(
        r"\b(?:(?:work|works|working|worked)\b(?!\s+(?:out|from\s+home|remotely|hard|on\s+(?:my|it|that)))|"
        r"job|jobs|employed|teach|teaches|teaching|hired|laid\s+off|fired|made\s+redundant|redundant|"
        r"retired|retiring|unemployed|resigned|promoted|promotion|career|employer|freelance|freelancer|"
        r"self-employed|notice|studying|studies|degree|graduated|internship|"
        rf"{_OCCUPATIONS}|(?:start|starts|started|starting)\s+at|(?:at|for)\s+(?:a|an|the)\s+(?:[\w-]+\s+)?"
        rf"(?:{_WORKPLACES}))\b"
    ),
    "diet": re.compile(
        r"\b(?:vegetarian|vegan|pescatarian|carnivore|omnivore|meat|fish|eggs|dairy|cheese|diet|keto|paleo|"
        r"gluten|gluten-free|coeliac|celiac|halal|kosher|plant-based|picky\s+eater|"
        r"(?:eat|eats|eating)\b(?!\s+(?:lunch|breakfast|dinner|out|in|at|together|alone|late|early)\b))\b"
    ),
    "relationship": re.compile(
        r"\b(?:single|engaged|married|divorced|girlfriend|boyfriend|fianc[ée]e?|partner|broke\s+up|dating|"
        r"separated|split\s+up|wife|husband|spouse|widowed|widow|widower|ex|ex-\w+|relationship)\b"
    ),
    "smoking": re.compile(r"\b(?:smoke|smokes|smoking|smoked|smoker|cigarettes?|cigars?|vape|vapes|vaping|nicotine)\b"),
    "hot_drink": re.compile(r"\b(?:coffee|coffees|tea|espresso|decaf|caffeine|latte|cappuccino)\b"),
    "alcohol": re.compile(
        r"\b(?:alcohol|alcoholic|wine|beer|beers|booze|sober|sobriety|teetotal|teetotaler|cocktails?|whisky|whiskey)\b"
    ),
    "commute": re.compile(
        r"\b(?:commute|commutes|commuting|commuter|(?:work|works|working)\s+(?:from\s+home|remotely)|remote|wfh|"
        r"(?:to|into)\s+(?:work|the\s+office))\b"
    ),
    "phone": re.compile(r"\b(?:iphone|android|phone|pixel|samsung)\b"),
    "car": re.compile(r"\b(?:drive|drives|driving|car|corolla|bike\s+to\s+work)\b"),
}
"""Slot name -> the words (casefolded text) that put a fact in it."""

# Whose fact it is: "My sister moved to Paris" is not the user's move. A possessive of a person names
# someone else; any other fact (the user's, or "my job", "my car") is the user's.
_PERSON = (
    r"(?:sister|brother|mother|mom|mum|father|dad|parents?|son|daughter|kids?|children|child|baby|wife|husband|"
    r"partner|girlfriend|boyfriend|fianc[ée]e?|spouse|friend|best\s+friend|boss|colleague|coworker|co-worker|"
    r"roommate|flatmate|housemate|neighbou?r|grandma|grandpa|grandmother|grandfather|grandparents|aunt|uncle|"
    r"cousin|niece|nephew|in-laws|step\w+|ex)"
)
_OTHER_HOLDER = re.compile(rf"^(?:user's|my|our)\s+(?:(?:older|younger|little|big|eldest|oldest|youngest|twin)\s+)?"
                           rf"(?P<who>{_PERSON})\b")
_PARTNERS = frozenset("wife husband partner girlfriend boyfriend fiance fiancé fiancee fiancée spouse ex".split())
def fold(text: str) -> str:
    """``text`` NFKC-normalised, casefolded, with curly apostrophes straight."""
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


def slots_of(text: str) -> frozenset[str]:
    """The slots ``text`` (a fact or a user message) speaks of (empty when none)."""
    folded = fold(text)
    return frozenset(name for name, rx in SLOTS.items() if rx.search(folded))


def holder(text: str, slot: str | None = None) -> str:
    """Whose fact ``text`` is: ``"user"``, or the person a leading possessive names ("sister" for "User's
    sister moved to Paris."). In the ``relationship`` slot a partner's fact is the user's relationship."""
    m = _OTHER_HOLDER.match(fold(text).strip())
    if m is None:
        return "user"
    who = m.group("who")
    if slot == "relationship" and who in _PARTNERS:
        return "user"
    return re.sub(r"\s+", " ", who)


def slot_keys(text: str) -> frozenset[str]:
    """``"<holder>:<slot>"`` for every slot ``text`` speaks of ("user:residence" for "User lives in Porto.");
    two facts sharing a key say something of the same person's same slot."""
    return frozenset(f"{holder(text, slot)}:{slot}" for slot in slots_of(text))
