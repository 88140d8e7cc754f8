"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), and whose fact it is.

English keyword rules, pure. Capture (``extraction/``) supersedes the stored fact of a slot on a change;
the ranking (``ranking/recency.py``) lets the newer of two facts of one slot win a near-tie.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["SLOTS", "fold", "holder", "slot_keys", "slots_of"]

SLOTS: dict[str, re.Pattern[str]] = {
    "residence": re.compile(
        r"\b(?:live|lives|living|lived|moved|move|moving|relocated|relocating|reside|resides|settled\s+in|based\s+in)\b"
    ),
    "job": re.compile(
        r"\b(?:work|works|working|worked|job|employed|teach|teaches|teaching|barista|nurse|developer|engineer|"
        r"teacher|chef|pilot|vet|doctor|lawyer|accountant|designer|analyst|programmer|student|cashier|"
        r"manager|consultant|architect|scientist|electrician|plumber|waiter|waitress|hired|laid\s+off|fired|"
        r"retired|unemployed|resigned|promoted|career|employer|freelance|freelancer|self-employed)\b"
    ),
    "diet": re.compile(r"\b(?:vegetarian|vegan|pescatarian|carnivore|meat|fish|eggs|dairy|cheese|diet|keto)\b"),
    "relationship": re.compile(
        r"\b(?:single|engaged|married|divorced|girlfriend|boyfriend|fianc[ée]e?|partner|broke\s+up|dating|"
        r"separated|split\s+up|wife|husband|spouse|widowed|ex|ex-\w+|relationship)\b"
    ),
    "smoking": re.compile(r"\b(?:smoke|smokes|smoking|smoked|smoker|cigarettes?|vape|vapes|vaping)\b"),
    "hot_drink": re.compile(r"\b(?:coffee|tea|espresso|decaf)\b"),
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
