"""Chat filler cut from a user message before the rules read it: "tbh", "lol", "I know I know", a "like" before a
number, "got myself a", an emoji in a list ("I love 🍕 and pasta"), a "too" beside the subject ("I too am vegan"), drawn-out words ("sooo"), emoji.

"i'm a big meat eater tbh, steak like 4 times a week" states "I'm a big meat eater, steak 4 times a week"; the
filler would be kept in the fact, or hide the verb a rule reads ("got myself a used Skoda"). Pure, English only.
"""

from __future__ import annotations

import re

from .patterns import rx

__all__ = ["strip_filler"]

# Pictographs, flags (regional indicators, and tag sequences such as England's), skin tones, keycaps, both variation
# selectors and the joiner of ZWJ sequences ("👩‍🍳").
_EMOJI = r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0E\uFE0F\u200D\u20E3\U000E0020-\U000E007F]"
# Words that say nothing of the user: "tbh", "lol", "I know I know".
_FILLER_WORDS = rx(r"\s*\b(?:tbh|tbf|lol|lmao|haha+|ha(?:\s+ha)+|ngl|imo|fwiw|i\s+know\s+i\s+know)\b")
# "like" before an amount ("steak like 4 times a week", "been here like 6 yrs", "smoke like half a pack a day"); not
# the verb ("I like 2 sugars").
_LIKE = rx(r"(?P<before>\b[\w']+)\s+like\s+(?=\d|(?:a\s+)?(?:few|couple|dozen)\b|(?:half\s+)?a\s+pack\b)")
_LIKE_IS_VERB = frozenset(
    """i we you they he she i'd we'd you'd they'd would 'd really also just don't do does didn't still totally kinda
    actually always never to""".split()
)
# An emoji as an item of a list ("I love 🍕 and pasta", "I love pasta and 🍕"): the item is left out with its "and",
# the rest of the list stays what is loved (not "User loves." and a lost "pasta").
_EMOJI_MIDDLE_ITEM = re.compile(rf"\s*,\s*{_EMOJI}+(?=\s*(?:,|(?:and|or|&)\s))")
_EMOJI_ITEM = re.compile(
    rf"{_EMOJI}+\s*(?:,\s*(?:and\s+|or\s+|&\s*)?|\s+(?:and|or|&)\s+)"
    r"(?!(?:i|i'm|i've|im|we|we're|my|our|it|it's|he|she|they|this|that|so|then)\b)(?=\w)",  # not a clause: "🎉 and I'm"
    re.IGNORECASE,
)
_EMOJI_LAST_ITEM = re.compile(rf"\s*(?:,\s*(?:and\s+|or\s+|&\s*)?|\s+(?:and|or|&)\s+){_EMOJI}+(?=\s*(?:[.!?]|$))")
# An emoji between words ends what was said before it: "just ate too much cake 🎂 it's my 30th today!"; but not
# after a word that needs what follows ("allergic to 🥜 peanuts", "live in 🇫🇷 Paris", "a 🐈 cat", "take 💊
# metformin"), where it is only dropped, unless what follows starts anew ("I love 🍕 so much").
_EMOJI_BETWEEN = re.compile(rf"(?P<before>\b[\w']+)?\s*{_EMOJI}+\s+(?=(?P<after>[\w']+)?)(?=\w)")
_NEEDS_WHAT_FOLLOWS = frozenset(
    """a an the my our your his her their its this these those some any another every no
    to in at on of with for from into onto about by near like as than and or
    take takes taking took have has had love loves like likes hate hates need needs use uses own owns got get
    gets bought buy ordered adopted eat eats drink drinks play plays speak speaks wear wears am i'm is are was
    were be been im""".split()
)
_STARTS_ANEW = frozenset(
    """i i'm im i've i'll we we're it it's he she they this that so then but and or because cos
    though lol haha""".split()
)
_EMOJI_LEFT = re.compile(rf"\s*{_EMOJI}+")
# "I too am vegan", "We, too, have a dog": "too" beside the subject only ties it to someone said before.
_SUBJECT_TOO = re.compile(r"\b(?P<subject>i|we)(?:\s*,\s*too\s*,\s*|\s+too\s+)(?=[a-z])", re.IGNORECASE)
# "sooo", "yesss": a letter typed three times or more at a word's end, in lower case.
_DRAWN_OUT = re.compile(r"\b([a-z]+?)([a-z])\2{2,}\b")


def _like(m: re.Match[str]) -> str:
    before = m.group("before")
    return m.group(0) if before.lower() in _LIKE_IS_VERB else before + " "


def _emoji_between(m: re.Match[str]) -> str:
    before, after = (m.group("before") or "").lower(), (m.group("after") or "").lower()
    joined = before in _NEEDS_WHAT_FOLLOWS and after not in _STARTS_ANEW
    return (m.group("before") or "") + (" " if joined else ". ")


def strip_filler(text: str) -> str:
    """``text`` without chat filler, an emoji between words read as the end of a sentence.

    >>> strip_filler("i'm a big meat eater tbh, steak like 4 times a week"), strip_filler("I like 2 sugars")
    ("i'm a big meat eater, steak 4 times a week", 'I like 2 sugars')
    >>> strip_filler("we did it 💍 officially married"), strip_filler("Got myself a used Skoda, sooo happy")
    ('we did it. officially married', 'Got a used Skoda, so happy')
    >>> strip_filler("I love 🍕 and pasta"), strip_filler("I love pasta and 🍕!")
    ('I love pasta', 'I love pasta!')
    """
    out = _FILLER_WORDS.sub("", text)
    out = _LIKE.sub(_like, out)
    out = _EMOJI_LAST_ITEM.sub("", _EMOJI_ITEM.sub("", _EMOJI_MIDDLE_ITEM.sub("", out)))
    out = _EMOJI_BETWEEN.sub(_emoji_between, out)
    out = _EMOJI_LEFT.sub("", out)
    out = re.sub(r"\b(got|bought|treated)\s+(?:myself|ourselves)\b(?=\s+(?:a|an|some|the|my|our)\b)", r"\1", out,
                 flags=re.IGNORECASE)
    out = _SUBJECT_TOO.sub(lambda m: m.group("subject") + " ", out)
    out = _DRAWN_OUT.sub(lambda m: m.group(1) + m.group(2), out)
    out = re.sub(r"^[\s,]+|[\s,]+$|(?<=[,.!?])[\s,]*,", "", out)  # "lol, we moved" -> "we moved"
    out = re.sub(r"\s+(?=[,.!?])", "", out)
    return re.sub(r"[ \t]{2,}", " ", out).strip()
