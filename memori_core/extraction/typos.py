"""What users type in a hurry, read as they meant it: apostrophes left out ("dont", "im"), a care word
misspelt by one letter ("alergic to shelfish"), texting shorthand ("my gf", "bday"), a name typed in lower case
after who the person is ("my brother kieran just got a job"), and shouting ("WE GOT A PUPPY"). Pure, English only.

The rules that follow read words: "I dont eat pork" has no verb they know, and "User is alergic to peanuts."
is no allergy to the core rule nor to recall. An allergy typed in lower case on a phone is as real as one
spelt right, so the sentence is read with the words restored before any rule sees it.
"""

from __future__ import annotations

import re
import unicodedata

from ..slots import placed

__all__ = ["CARE_WORDS", "as_seen", "calm_shouting", "capitalise_names", "expand_shorthand", "read_as_meant", "restore_apostrophes",
           "respell_care_words"]

# A contraction typed without its apostrophe, and what it is: "dont" -> "don't", "im" -> "i'm". Only forms that
# are no other English word ("cant", "wont", "ill", "id", "were", "well", "lets", "its" are left alone).
_CONTRACTIONS = {
    "dont": "don't", "doesnt": "doesn't", "didnt": "didn't", "isnt": "isn't", "wasnt": "wasn't", "arent": "aren't",
    "werent": "weren't", "havent": "haven't", "hasnt": "hasn't", "hadnt": "hadn't", "wouldnt": "wouldn't",
    "couldnt": "couldn't", "shouldnt": "shouldn't", "im": "i'm", "ive": "i've", "thats": "that's",
    "whats": "what's", "theyre": "they're", "youre": "you're", "hes": "he's", "shes": "she's",
}
_BARE_CONTRACTION = re.compile(r"\b(?:" + "|".join(sorted(_CONTRACTIONS, key=len, reverse=True)) + r")\b",
                               re.IGNORECASE)

CARE_WORDS: frozenset[str] = frozenset(
    """allergic allergy allergies intolerant intolerance intolerances shellfish peanut peanuts penicillin
    vegetarian vegetarians pescatarian pescatarians coeliac celiac anaphylactic anaphylaxis lactose gluten sesame
    diabetic diabetes asthma asthmatic epipen epilepsy epileptic pregnant pregnancy""".split()
)
"""The words of a care fact (an allergy, an intolerance, a diet, a pregnancy) that :func:`respell_care_words` puts
right when typed one letter off. Each is six letters or more: a shorter one is one letter from too many other words
("vegan" / "began", "dairy" / "diary")."""

# English words one letter from a care word, which mean what they say: "I train my glutes", "lactase tablets".
_REAL_WORDS = frozenset("glutes lactase diabetics allergen allergens".split())
_WORD = re.compile(r"[A-Za-z]{6,}")


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter added, dropped, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1:]


def _care_word(word: str) -> str | None:
    """The care word ``word`` is one letter off from (its first letter kept, as typing keeps it), or ``None``
    when it is none, is spelt right, or is as near to two of them."""
    low = word.lower()
    if low in CARE_WORDS or low in _REAL_WORDS:
        return None
    near = {w for w in CARE_WORDS if w[0] == low[0] and _one_edit(low, w)}
    return near.pop() if len(near) == 1 else None


def respell_care_words(text: str) -> str:
    """``text`` with every care word (:data:`CARE_WORDS`) typed one letter off spelt right.

    >>> respell_care_words("Im alergic to shelfish and penuts"), respell_care_words("I train my glutes")
    ('Im allergic to shellfish and peanuts', 'I train my glutes')
    """

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        right = _care_word(word)
        if right is None:
            return word
        return right.upper() if word.isupper() else right.capitalize() if word[0].isupper() else right

    return _WORD.sub(fix, text)


def restore_apostrophes(text: str) -> str:
    """``text`` with the contractions typed without their apostrophe restored ("i dont eat pork" -> "i don't eat
    pork", "Im vegan" -> "I'm vegan").

    >>> restore_apostrophes("Im sure i dont eat pork, cant say more")
    "I'm sure i don't eat pork, cant say more"
    """

    def fix(m: re.Match[str]) -> str:
        word = m.group(0)
        said = _CONTRACTIONS[word.lower()]
        if said.startswith("i'"):
            return "I" + said[1:] if word[0].isupper() else said
        return said[:1].upper() + said[1:] if word[0].isupper() else said

    return _BARE_CONTRACTION.sub(fix, text)


# Texting shorthand for a partner, a husband, a birthday: "my gf ana says hi" is the user's girlfriend, whom a
# breakup ends. "gf" / "bf" only after "my", "her"... ("gf bread" is gluten-free); "rn" and "atm" only in lower case
# ("ATM" is a cash machine).
_SHORTHAND = {"hubby": "husband", "bday": "birthday", "b-day": "birthday", "rn": "right now", "atm": "at the moment"}
_BARE_SHORTHAND = re.compile(r"(?<![\w-])(?<!\ban\s)(?:hubby|bday|b-day|(?-i:rn|atm))(?![\w-])", re.IGNORECASE)
_PARTNER_SHORTHAND = re.compile(r"\b(?P<whose>my|our|his|her|their|your|a|the|new|ex)\s+(?P<word>gf|bf)\b",
                                re.IGNORECASE)


# "I've a dentist appointment on Thursday", "we've two kids": British and Irish "have" as the main verb,
# contracted before what is had (a determiner or a number), which the rules read in its plain form.
_HAVE_MAIN = re.compile(
    r"\b(?P<who>I|we|they)['\u2019]ve\s+(?=(?:a|an|no|two|three|four|five|six|some|loads|lots|plenty|my|our|their)\b)",
    re.IGNORECASE,
)


def expand_shorthand(text: str) -> str:
    """``text`` with texting shorthand written out ("my gf" -> "my girlfriend", "bday" -> "birthday", "rn" ->
    "right now"), and "I've a ..." (have as the main verb) as "I have a ...".

    >>> expand_shorthand("my gf ana says hi, her bday is rn"), expand_shorthand("gf bread")
    ('my girlfriend ana says hi, her birthday is right now', 'gf bread')
    >>> expand_shorthand("I've a dentist appointment on Thursday"), expand_shorthand("I've been to Rome")
    ('I have a dentist appointment on Thursday', "I've been to Rome")
    """
    text = _HAVE_MAIN.sub(lambda m: f"{m.group('who')} have ", text)
    text = _PARTNER_SHORTHAND.sub(
        lambda m: f"{m.group('whose')} {'girlfriend' if m.group('word').lower() == 'gf' else 'boyfriend'}", text)
    return _BARE_SHORTHAND.sub(lambda m: _SHORTHAND[m.group(0).lower()], text)


# Two or more words in capitals, with enough letters not to be acronyms ("WE GOT A PUPPY", "WE'RE ENGAGED"; not
# "NHS GP").
_SHOUTED = re.compile(r"\b[A-Z][A-Z']*(?:[\s,!.?]+[A-Z][A-Z']*)+\b")


def calm_shouting(text: str) -> str:
    """``text`` with words shouted in capitals in lower case ("WE GOT A PUPPY" -> "we got a puppy"; "I" stays):
    a fact is stored as said, not as shouted. A run of short capitals (acronyms: "NHS GP") is left alone.

    >>> calm_shouting("WE GOT A PUPPY. a cockapoo"), calm_shouting("I work for the NHS")
    ('we got a puppy. a cockapoo', 'I work for the NHS')
    """

    def calm(m: re.Match[str]) -> str:
        said = m.group(0)
        if sum(c.isalpha() for c in said) < 8:
            return said
        return re.sub(r"\bi\b", "I", said.lower())

    return _SHOUTED.sub(calm, text)


# A name typed in lower case after who the person is, and before what they do: "my brother kieran just got a job",
# "my roommate dev has a peanut allergy", "my girlfriend ana says hi". The word after the role is a name only when a
# verb (or "just", "and") follows it, and it is no word a role is followed by itself ("my sister just ...").
_ROLES = (
    r"sister|brother|mum|mom|mother|dad|father|son|daughter|wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|"
    r"friend|best\s+friend|mate|boss|colleague|coworker|roommate|flatmate|housemate|neighbou?r|cousin|aunt|uncle|"
    r"niece|nephew|grandma|grandpa|nan|gran|ex"
)
_NOT_NAMES = frozenset(
    """is was has had just and or but so who that which also still really always never now then here there too
    lol haha and got gets says said can will would could should might may must did does do didn't doesn't don't
    isn't wasn't won't can't went came left made took ran told thinks lives works loves likes hates wants needs
    moved started finally recently already actually literally basically apparently i i'm me my you your he she
    they we it its his her their our the a an in at on for with to from of by as is are were be been being not
    no yes today yesterday tomorrow tonight back home away out up down over off again first last next new old
    sometimes usually often every each all both one two three four five six seven eight nine ten group
    circle chat""".split()
)
_VERB_AFTER = (
    r"is|was|has|had|says|said|just|and|got|gets|will|can|can't|doesn't|does|did|didn't|isn't|wasn't|moved|lives|"
    r"works|thinks|loves|likes|started|also|always|never|still|reckons|wants|texted|called|messaged|sent|made|"
    r"took|went|came|left|proposed|passed|died|turned|turns|starts|quit|joined"
)
_LOWER_NAME = re.compile(
    rf"\b(?P<role>(?:my|our)\s+{placed('best')}(?:{_ROLES}))"
    rf"\s+(?P<name>[a-z][a-z'-]{{1,14}})(?=\s+(?:(?P<verb>{_VERB_AFTER})|[a-z]+ed|[a-z]+s)\b)",
    re.IGNORECASE,
)


def capitalise_names(text: str) -> str:
    """``text`` with a name typed in lower case after a role capitalised ("my brother kieran just got a job" ->
    "my brother Kieran just got a job"): the rules read names by their capital.

    >>> capitalise_names("my roommate dev has a peanut allergy"), capitalise_names("my sister just moved")
    ('my roommate Dev has a peanut allergy', 'my sister just moved')
    """

    def cap(m: re.Match[str]) -> str:
        name = m.group("name")
        if name.lower() in _NOT_NAMES or name.lower().endswith(("ed", "ing", "ly")) or not name.islower():
            return m.group(0)
        if name.endswith("s") and m.group("verb") is None:  # "my son plays games": a verb, not a name
            return m.group(0)
        return f"{m.group('role')} {name.capitalize()}"

    return _LOWER_NAME.sub(cap, text)


def as_seen(text: str) -> str:
    r"""``text`` as the user saw it: without the invisible characters a paste or a keyboard slips in (a zero-width
    space or joiner, a word joiner, a byte-order mark, a soft hyphen, direction marks: Unicode format characters)
    and without control characters (a NUL) other than whitespace. "I\u200b live in Bergen" is "I live in Bergen",
    and a NUL never reaches a stored fact.

    >>> as_seen("I\u200b live in Ber\u00adgen now."), as_seen("I have a\x00 cat.")
    ('I live in Bergen now.', 'I have a cat.')
    """
    return "".join(c for c in text if c.isspace() or unicodedata.category(c) not in ("Cf", "Cc"))


def read_as_meant(text: str) -> str:
    """``text`` as seen (:func:`as_seen`), with shouting calmed (:func:`calm_shouting`), its apostrophes restored
    (:func:`restore_apostrophes`), its shorthand written out (:func:`expand_shorthand`), a name after a role
    capitalised (:func:`capitalise_names`) and its care words spelt right (:func:`respell_care_words`)."""
    return respell_care_words(capitalise_names(expand_shorthand(restore_apostrophes(calm_shouting(as_seen(text))))))
