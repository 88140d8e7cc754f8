"""A sibling or a child of the user's, named in passing in a sentence the rules keep nothing of.

"feeling really anxious tonight, my sister Lotte's flight from Oslo is delayed" is a moment, dropped; that the user
has a sister named Lotte lasts. "not to be confused wi my brother Callum, who's useless", "a question about my son
Jonas": the same. :func:`kin_named` finds "my <sibling / child> <Name>" in such a sentence and gives "I have a sister
named Lotte", which capture keeps only when the message and the stored facts say nothing of that name yet.

Not a partner or a parent (the gold facts of the read sets say "User is married.", "User's mother ...": other
shapes), not someone gone ("my late brother Tom", "RIP ..."), not "my ex". Not a pet: a pet named in passing is
most often named in a worry about its health ("my dog Bingo has been scratching his ears ... the vet"), and the end
that follows is told in words the rules do not read as one ("Bingo did not survive the tick fever"): kept, it was a
stale fact (dev10), for one right one (dev18). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..calendar_words import CALENDAR_NAMES
from .patterns import rx

__all__ = ["kin_named"]

_KIN = r"sister|brother|son|daughter"
_AGE_WORD = r"(?:little|baby|big|older|younger|elder|eldest|youngest|twin|kid|step|half)[\s-]+"
_NAMED = rx(
    rf"\b(?:my|our)\s+(?:{_AGE_WORD})?(?P<kin>{_KIN})\s+(?P<name>(?-i:[A-Z][a-z\u00e0-\u00ff]+))\b(?!\s+(?-i:[A-Z]))"
)
# Someone gone or no longer the user's: the name is a memory, not who the user has.
_GONE = rx(
    r"\b(?:late|died|dies|dead|passed|passing|put\s+(?:down|to\s+sleep)|let\s+(?:him|her|them)\s+go|rip|r\.i\.p|"
    r"funeral|lost\s+(?:my|our)|miss(?:ing)?\s+(?:him|her)|rehomed?|gave\s+(?:him|her)\s+away|ex)\b"
)
# A brand, an app or a service is no name, nor a verb made of one: "watching a movie with my son Netflix
# recommended", "my son Facetimed me from uni" (rev39a).
_BRAND = rx(r"^(?:netflix|google|youtube|spotify|amazon|alexa|siri|facebook|instagram|insta|tiktok|whatsapp|facetime|"
            r"snapchat|twitter|uber|zoom|skype|disney|apple|iphone|ipad|xbox|playstation|nintendo|roblox|minecraft|"
            r"fortnite|duolingo|chatgpt|hulu|prime|kindle|lego|pokemon)")
# The word after the kin is the subject of a verb that needs an object and has none: it is the object, left
# before ("the movie my son Netflix recommended", "the show my son Crunchyroll recommended was great"), and the word
# a thing that did something, no name of the kin.
_SUBJECT_OF = rx(r"^\s+(?:recommended|suggested|showed|sent|made|posted|found|bought|picked|chose|mentioned|"
                 r"ordered|used|searched|liked|shared)(?:\s*$|\s*[,.!?;]|\s+(?:was|is|were|are)\b)")
_NOT_A_NAME = frozenset((*CALENDAR_NAMES, "I", "The", "And", "But", "So", "Is", "Has", "Was", "Who", "Just", "Lol",
                         "Then", "Too", "Also", "Still", "Now", "Mum", "Mom", "Dad"))


def kin_named(clause: str, said: Sequence[str]) -> list[str]:
    """"I have a <kin> named <Name>" for each sibling or child ``clause`` names with "my" whose name none of
    ``said`` (the stored facts and those kept so far from this message) mentions.

    >>> kin_named("feeling really anxious tonight, my sister Lotte's flight from Oslo is delayed", [])
    ['I have a sister named Lotte']
    >>> kin_named("my late brother Tom loved this song", [])
    []
    >>> kin_named("watching a movie with my son Netflix recommended", [])
    []
    """
    if _GONE.search(clause):
        return []
    out: list[str] = []
    for m in _NAMED.finditer(clause):
        name = m.group("name")
        if name in _NOT_A_NAME or _BRAND.match(name) or _SUBJECT_OF.match(clause[m.end():]) \
                or any(re.search(rf"\b{re.escape(name)}\b", fact) for fact in said):
            continue
        fact = f"I have a {m.group('kin').lower()} named {name}"
        if fact not in out:
            out.append(fact)
    return out
