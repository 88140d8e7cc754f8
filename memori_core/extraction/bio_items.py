"""Items of a list the user labels as about themselves ("About me: 34, software tester, Tallinn, two cats", "quick
bio: Henrik, 41, arborist, Bergen, two teenagers") that :mod:`.lists` kept as they were: the name that opens it, a
place named alone, teenagers counted, a role typed alone.

Under such a label every item is the user's, so a capitalised place alone is where they live and a capitalised word
first, before an age, is their name. Without the label none of this holds ("Bergen, two days, rain" is a trip).
:func:`bio_statement` reads one item. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from ..calendar_words import CALENDAR_NAMES
from ..number_words import number_words
from ..slots import OCCUPATIONS, PERSON, slots_of


__all__ = ["ABOUT_ME_WHY", "bio_statement"]

ABOUT_ME_WHY = r"(?:\s+(?:so\s+you\s+know\s+who\s+(?:you(?:'re|\s+are)\s+talking\s+to|i\s+am)|for\s+context))?"
"""What may follow the label ("quick bio so you know who you're talking to:"), read by :mod:`.lists`."""
_NAME = re.compile(r"^[A-Z][a-z\u00e0-\u00ff'-]+(?:\s+[A-Z][a-z\u00e0-\u00ff'-]+)?$")
_AGE = re.compile(r"^\d{1,2}(?:\s+years\s+old)?$")
# A place named alone: one to three capitalised words ("Bergen", "Cape Town", "Stoke on Trent" is left out).
_PLACE = re.compile(r"^[A-Z][a-z\u00e0-\u00ff'-]+(?:\s+[A-Z][a-z\u00e0-\u00ff'-]+){0,2}$")
# A nationality or a faith told alone is no place ("British", "Muslim", "Catholic"): named, not guessed from an
# ending, which also took real places ("Mumbai", "Nairobi", "Milan", "Munich", "Tehran").
_NOT_A_PLACE = frozenset("""
    muslim christian catholic protestant anglican orthodox jewish hindu sikh buddhist jain atheist agnostic pagan
    mormon quaker methodist baptist evangelical spiritual religious secular
    british english scottish welsh irish northern american canadian mexican brazilian argentinian chilean colombian
    peruvian venezuelan cuban jamaican french german dutch belgian swiss austrian italian spanish portuguese greek
    danish swedish norwegian finnish icelandic polish czech slovak hungarian romanian bulgarian serbian croatian
    bosnian slovenian ukrainian russian belarusian lithuanian latvian estonian turkish kurdish armenian georgian
    israeli palestinian lebanese syrian iraqi iranian persian saudi emirati egyptian moroccan algerian tunisian
    libyan nigerian ghanaian kenyan ugandan tanzanian ethiopian somali sudanese rwandan zimbabwean zambian
    south african cameroonian senegalese indian pakistani bangladeshi sri lankan nepali afghan chinese japanese
    korean taiwanese vietnamese thai filipino filipina indonesian malaysian singaporean australian kiwi zealander
    aussie yankee european asian african latina latino latinx arab black white mixed
""".split())
# A family word told alone is who the user is, not where ("Dad", "Mum of two", "Grandma").
_FAMILY = re.compile(rf"^(?:{PERSON})\b", re.IGNORECASE)
_NOT_PLACES = frozenset((*CALENDAR_NAMES, "single", "married",
                         "vegan", "vegetarian", "leo", "virgo", "libra", "aries", "taurus", "gemini", "cancer",
                         "scorpio", "sagittarius", "capricorn", "aquarius", "pisces", "retired", "divorced", "widowed"))
# A role typed alone in lower case ("welder", "arborist", "software tester"): a known occupation, a trade in -ist the
# vocabulary lacks, or a tester; at most three words, no article, no "my" (a label vouches it is the user's). Not any
# -ist word: most name a trait or a belief ("perfectionist", "optimist", "atheist", "minimalist"), no job (rev39a).
_TRADES_IN_IST = (r"arborist|florist|stylist|hairstylist|artist|pianist|guitarist|violinist|cellist|organist|"
                  r"machinist|hygienist|optometrist|physiotherapist|psychotherapist|radiologist|anaesthetist|"
                  r"anesthetist|podiatrist|orthodontist|geologist|ecologist|archaeologist|meteorologist|economist|"
                  r"botanist|zoologist|copywriter|typist|cartoonist|columnist|novelist|lyricist|illustrator")
_ROLE_ALONE = re.compile(rf"^(?:[a-z][a-z-]*\s+){{0,2}}(?:(?:{OCCUPATIONS})|{_TRADES_IN_IST}|tester)$")
_NOT_A_ROLE_WORD = frozenset({"a", "an", "the", "my", "our", "no", "ex", "former", "retired", "wannabe", "aspiring"})
_TEENS = re.compile(rf"^(?P<n>{number_words('five')}|\d)\s+(?:teens|teenagers)$", re.IGNORECASE)


def bio_statement(item: str, *, first: bool, next_item: str | None) -> str | None:
    """One ``item`` of a list labelled as the user's as the statement it stands for: the name (``first``, before an
    age), a place ("Bergen" -> "I live in Bergen"), teenagers ("two teenagers" -> "I have two teenage children");
    ``None`` when it is none of these.

    >>> bio_statement("Henrik", first=True, next_item="41"), bio_statement("Bergen", first=False, next_item=None)
    ('My name is Henrik', 'I live in Bergen')
    >>> bio_statement("British", first=False, next_item=None) is None
    True
    """
    text = item.strip()
    if first and _NAME.match(text) and next_item is not None and _AGE.match(next_item.strip()):
        return f"My name is {text}"
    teens = _TEENS.match(text)
    if teens is not None:
        return f"I have {teens.group('n')} teenage children"
    words = text.lower().split()
    if not first and _ROLE_ALONE.match(text) and words[0] not in _NOT_A_ROLE_WORD:
        return f"I'm {'an' if text[:1] in 'aeiou' else 'a'} {text}"
    if not first and _PLACE.match(text) and words[0] not in _NOT_PLACES and not _NOT_A_PLACE.intersection(words) \
            and not _FAMILY.match(text) and not slots_of(f"User is a {text}."):
        return f"I live in {text}"
    return None
