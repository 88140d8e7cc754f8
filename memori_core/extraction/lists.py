"""A list of what the user is and does, told after one "I" or with no "I" at all, as one statement an item.

People introduce themselves in one breath: "about me: 41, two kids, I work in logistics, and I'm lactose intolerant",
"vegetarian, dont drink, and allergic to shellfish", "I work remote for a company in Austin, live in Valdivia, and
...", "52, type 1 since I was nine, and training for my first half marathon". Read whole, such a sentence was too
long to keep or kept with its first item only. :func:`split_list` gives each item its "I" ("I'm 41", "I have two
kids", "I live in Valdivia", "I'm training for ..."), for the rules to judge one by one. Not a list of someone else's
("my sister lives in Leeds, works at a bank"), not a list after "I'm" (:mod:`.clauses` reads that profile), not a
question, not a list with one item of the user's only ("milk, eggs, and I need bread"). Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from ..slots import PERSON, placed
from .grammar import is_bare_present
from .patterns import OWN_WORDS, rx
from .bio_items import ABOUT_ME_WHY, bio_statement
from .profile_items import MYSELF_NAMED, NOW_LEAD, REASON_TAIL, profile_statement, titled_name

__all__ = ["AGE_ITEM", "KIDS", "PROFILE_ITEM", "split_list", "verb_item"]

KIDS = r"(?:twin\s+)?(?:kids|children|girls|boys|daughters|sons)(?:\s+of\s+\w+)?"
"""The user's children as a list of what they are names them: "kids", "twin boys", "girls of seven"."""
PROFILE_ITEM = rx(
    r"^(?:\d{1,3}(?:\s+years\s+old)?|(?:a|an)\s+[\w-]+(?:\s+[\w-]+){0,3}|married|single|divorced|engaged|widowed|"
    r"separated|retired|unemployed|pregnant|vegan|vegetarian|pescatarian|gluten-free|diabetic|coeliac|celiac|"
    r"left-handed|self-employed|bilingual|(?:(?:originally\s+)?from|based\s+in)\s+[A-Z][\w-]+(?:\s+[A-Z][\w-]+)?|"
    # "married with three kids", "married with two girls", "married with twin boys of seven", "lactose intolerant"
    rf"(?:married|single|divorced|separated|widowed)\s+with\s+(?:(?:two|three|four|five|six|\d)\s+)?{KIDS}|"
    r"(?:lactose|gluten)[\s-]intolerant|allergic\s+to\s+[\w\s-]+)$"
)
"""An item of a list of what the user is ("34", "married", "a nurse", "allergic to nuts")."""
AGE_ITEM = re.compile(r"^\d{1,3}(?:\s+years\s+old)?$")
"""An age in a list ("34", "34 years old")."""

# "I'm vegan, like properly vegan": the filler "like" before how much, not the verb ("..., like dogs" is one).
_FILLER_LIKE = rx(r"^like\s+(?:properly|proper|seriously|really|badly|severely|literally|totally|super|very|so|"
                  r"actually|genuinely|fully|completely|100%)\b")
_PAST_ITEM = frozenset("got started moved bought became".split())  # "I'm 24 and just got my first paycheck"


def verb_item(item: str) -> bool:
    """Whether a listed ``item`` starts with a present verb the rules rewrite ("hate cilantro", "work at a firm") or
    a past of news ("just got my first paycheck"): a clause of the user's told without its "I"."""
    if _FILLER_LIKE.match(item):
        return False
    words = re.sub(r"^(?:just|also|really|still|recently)\s+", "", item, flags=re.IGNORECASE).split(maxsplit=1)
    return len(words) == 2 and (is_bare_present(words[0]) or words[0].lower() in _PAST_ITEM)


# "so about me:", "ok, some context -": what says a list of the user's follows.
_ABOUT_ME = rx(
    r"^(?:(?:ok|okay|so|right|well|alright)\s*,?\s+)*(?:a\s+bit\s+(?:of\s+)?|quick\s+|some\s+|for\s+)?"
    r"(?:about\s+me|context|background|role|profile|bio)(?:\s+for\s+(?:the|my|a)\s+[\w\s-]{1,30}?)?" + ABOUT_ME_WHY
    + r"\s*(?::|\s-|\u2014)\s*"
)
# "Quick catch-up:", "Big few weeks -", "news from here:": a round of news follows, an item each (a tester's finding:
# "Quick catch-up: got a puppy, started pilates, and my sister moved to Cork" stored one fact of three).
_NEWS_ROUND = rx(
    r"^(?:(?:ok|okay|so|right|well)\s*,?\s+)*(?:a\s+)?(?:(?:quick|little|small|big|life|some|lots\s+of|a\s+few)\s+)?"
    r"(?:catch[\s-]?up|catching\s+you\s+up|updates?|news|recap|(?:few\s+)?weeks?|months?)(?:\s+from\s+here)?"
    r"\s*(?::|\s-|\u2014|\u2013)\s*"
)
# A piece of news told without its "I": a change just made ("got a puppy", "started pilates", "took up the cello").
_NEWS_PAST = rx(r"^(?:just\s+|finally\s+|also\s+)?(?:got|started|adopted|joined|moved|bought|took\s+up|quit|"
                r"signed\s+up|passed|finished|switched|sold|retired|changed)\s+\S")
# "sister moved to Cork", "new puppy": the user's own people and things, told without "my" (the words for them and
# the words placing them, memori_core.slots' PERSON and placed()).
_KIN_NEWS = rx(rf"^{placed('baby')}{PERSON}\s+(?:just\s+)?[a-z]+(?:ed|ot|ew|ent|ade|ook|old|ought)\b")
_NEW_THING = rx(r"^(?:a\s+)?new\s+(?P<thing>puppy|kitten|dog|cat|car|job|flat|house|home|bike|baby|boyfriend|"
                r"girlfriend|partner)\b")


def _news_statement(item: str) -> str | None:
    """A ``item`` of a round of news as the user's statement ("got a puppy" -> "I got a puppy", "sister moved to
    Cork" -> "my sister moved to Cork", "new puppy" -> "I have a new puppy"); ``None`` when it is no such piece."""
    said = _with_subject(item, _NEWS_SUBJECTS)
    if said is not None:
        return said
    thing = _NEW_THING.match(item)
    return f"I have a new {thing.group('thing')}" if thing is not None and thing.end() == len(item) else None


# The user as subject: the item is a clause of its own.
_FIRST_PERSON = rx(rf"^(?:{OWN_WORDS}|ive)\b")
# A list after one "I" starts with "I" and a verb other than "am" (a list after "I'm" is a profile: .clauses).
_I_VERB = rx(r"^(?:i|we)\s+(?:also\s+|still\s+|currently\s+)?(?!(?:am|m|was|were|had|did)\b)[a-z]+\b")
# "dont drink", "can't stand coriander": a negated present of the user's ("never got my licence" is a past).
_NEGATED = rx(r"^(?P<neg>don't|dont|do\s+not|can't|cant|cannot)\s+(?P<rest>[a-z].*)$")
# "did my national service", "studied civil engineering": a past of the user's life after one "I".
_LIFE_PAST = frozenset("studied trained worked lived grew spent taught".split())
# "did my national service", "did a PhD": a course of the user's life, not a chore ("did the dishes").
_DID_A_COURSE = rx(r"^did\s+(?:my|a|an|our)\s+(?:[\w-]+\s+)?(?:service|degree|masters?|phd|training|apprenticeship|"
                   r"residency|internship|placement|diploma)\b")
# "apparently now training for ...", "doing an art foundation": an -ing of the user's life (not "running on 3
# hours' sleep").
_DOING = rx(
    r"^(?:(?:also|now|currently|apparently|still|just)\s+)*(?P<doing>(?:training|doing|studying|working|learning|"
    r"teaching|raising|renting|living)\s+\S.*)$"
)
# "Vegan six years", "gluten-free since my coeliac diagnosis": what the user is, with how long.
_BEING = rx(r"^(?P<what>vegan|vegetarian|pescatarian|gluten-free|dairy-free|diabetic|sober|teetotal|female|male|"
            r"non-binary)\b(?P<rest>.*)$")
# The top-level commas between items ("two kids (Elif 9, Deniz 6)" is one item), with an "and" after the last.
_SEPARATOR = re.compile(r",\s*(?:and\s+)?")


def _items(text: str) -> list[str]:
    """``text`` cut at its commas outside brackets, each item stripped of the punctuation around it; at its
    semicolons alone when it has any ("Born and raised in Birmingham, Alabama; eight years in the Army")."""
    cut = ";" if ";" in text else ","
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch == cut:
            items.append(text[start:i])
            start = i
    items.append(text[start:])
    items = [_SEPARATOR.sub("", item.lstrip(";"), count=1).strip(" .!") if n else item.strip(" .!")
             for n, item in enumerate(items)]
    return [NOW_LEAD.sub("now ", item) for item in items]


# "two kids (Elif 9 and Deniz 6)", "3 kids under 10": children or pets counted.
_COUNTED = rx(rf"^(?:{number_words('six')}|\d)\s+(?:kids?|children|sons?|daughters?|boys|girls|grandkids|"
              r"grandchildren|cats?|dogs?)\b")


def _with_subject(item: str, subjects: tuple[tuple[re.Pattern[str], str], ...]) -> str | None:
    """``item`` said with the words of the first of ``subjects`` whose pattern it opens with ("41" -> "I'm 41"; ""
    for an item with its own subject), ``None`` when it opens with none of them."""
    return next((f"{words}{item}" for pattern, words in subjects if pattern.match(item)), None)


# A listed item and the subject it was typed without: "41" -> "I'm 41", "two kids" -> "I have two kids".
_ITEM_SUBJECTS = ((_FIRST_PERSON, ""), (AGE_ITEM, "I'm "), (_COUNTED, "I have "))
# A piece of news and the subject it was typed without: "got a puppy" -> "I got a puppy", "sister moved to Cork" ->
# "my sister moved to Cork".
_NEWS_SUBJECTS = ((_FIRST_PERSON, ""), (_NEWS_PAST, "I "), (_KIN_NEWS, "my "))


def _as_statement(item: str, *, after_i: bool) -> str | None:
    """A listed ``item`` as the user's statement ("41" -> "I'm 41"), ``None`` when it says no part of the user's
    life the way a list does. ``after_i``: the list began with "I" and a verb, so a bare past is the user's too."""
    said = _with_subject(item, _ITEM_SUBJECTS)
    if said is not None:
        return said
    negated = _NEGATED.match(item)
    if negated is not None:
        neg = negated.group("neg").lower().replace(" ", "")
        return f"I {_NEGATIONS.get(neg, neg)} {negated.group('rest')}"
    if _lifelong(item, after_i=after_i) or (not after_i and verb_item(item)):
        return f"I {item}"
    doing = _DOING.match(item)
    if doing is not None:  # "training for the marathon because i lost a bet": the reason is no item
        return f"I'm {REASON_TAIL.sub('', doing.group('doing'))}"
    bare = _ASIDE.sub("", item)  # "allergic to shellfish (yes i know ...)": the aside in brackets left out
    being = _BEING.match(bare)
    if being is not None:  # "Vegan six years" -> "I'm vegan": how long is left out
        return f"I'm {being.group('what').lower()}"
    if PROFILE_ITEM.match(bare):  # "Single, no kids": "single" is no name
        return f"I'm {bare[:1].lower()}{bare[1:]}" if not AGE_ITEM.match(bare) else f"I'm {bare}"
    # after "I got a new job," a bare role names what was just said ("..., nursing assistant"), no item of its own
    return profile_statement(item) if not after_i else None


_ASIDE = re.compile(r"\s*\([^)]*\)$")
_ARTICLE = rx(r"^(?:a|an)\s")


def _lifelong(item: str, *, after_i: bool) -> bool:
    """Whether ``item`` is a verb of the user's life told after one "I": a present the rules rewrite ("live in
    Valdivia"), or a past of studies and work ("studied law", "did my national service"); not news of the day
    ("bought milk")."""
    words = re.sub(r"^(?:also|still|really)\s+", "", item, flags=re.IGNORECASE).split()
    if not after_i or len(words) < 2 or words[0].lower() in _NOT_LISTED or words[1].lower() in _POINTERS:
        return False  # "..., like salmon and tuna", "..., keep that in mind": an example, a word to the chat
    return is_bare_present(words[0]) or words[0].lower() in _LIFE_PAST or bool(_DID_A_COURSE.match(item))


_NOT_LISTED = frozenset("like keep know see let make get take go come feel try want need mind".split())
_POINTERS = frozenset("me you that it this them".split())
_NEGATIONS = {"dont": "don't", "donot": "don't", "cant": "can't", "cannot": "can't"}


def split_list(sentence: str) -> list[str] | None:
    """The items of a list of the user's (see the module's doc) as one statement each, an item that says no part of
    the user's life kept as it is; ``None`` when ``sentence`` is no such list.

    >>> split_list("so about me: 41, two kids, I work in logistics, and I'm lactose intolerant")
    ["I'm 41", 'I have two kids', 'I work in logistics', "I'm lactose intolerant"]
    >>> split_list("I work remote for a company in Austin, live in Valdivia, and surf at weekends")
    ['I work remote for a company in Austin', 'I live in Valdivia', 'I surf at weekends']
    >>> split_list("my sister lives in Leeds, works at a bank") is None
    True
    """
    text = sentence.strip()
    if text.endswith("?"):
        return None
    myself = MYSELF_NAMED.match(text)
    if myself is not None:  # "Myself Rohan Mehta, working as a CA in Ahmedabad"
        rest = text[myself.end():]
        items = _items(rest)
        said = [_as_statement(item, after_i=False) for item in items]
        return [f"My name is {myself.group('name')}", *(s if s is not None else item for s, item in zip(said, items))]
    news = _NEWS_ROUND.match(text)
    if news is not None:
        items = _items(text[news.end():])
        told = [_news_statement(item) for item in items]
        # two pieces at least, each the user's news, one told without its "I" ("we got a puppy, I started pilates"
        # is split by .clauses already)
        if len(items) >= 2 and all(told) and any(t != item for t, item in zip(told, items)):
            return [t for t in told if t]
    lead = _ABOUT_ME.match(text)
    body = text[lead.end():] if lead is not None else text
    items = _items(body)
    if len(items) < 2 or not all(items):
        return None
    name = titled_name(items[0]) if lead is None else None
    if name is not None:  # "Dr. Ingrid Solberg, consultant anaesthetist, Haukeland."
        said = [_as_statement(item, after_i=False) for item in items[1:]]
        if said[0] is not None and not _FIRST_PERSON.match(items[1]):  # "Dr. Anita Patel, my GP, ...": not the user
            return [f"My name is {name}", *(s if s is not None else item for s, item in zip(said, items[1:]))]
        return None
    after_i = bool(_I_VERB.match(items[0]))
    if after_i and any(_ARTICLE.match(item) for item in items[1:]):
        return None  # "I got a new phone, a Pixel": a name for what was just said, not what the user is
    if lead is None and not after_i and _FIRST_PERSON.match(items[0]):
        return None  # "I'm 34, married, a nurse", "my sister ...": read by .clauses as before
    said = [_as_statement(item, after_i=after_i) for item in items]
    if lead is not None:  # under "about me:" a name, a place, teenagers alone are the user's too (.bio_items)
        said = [s if s is not None else bio_statement(item, first=n == 0, next_item=(items[n + 1:] or [None])[0])
                for n, (s, item) in enumerate(zip(said, items))]
    told = [s for s, item in zip(said, items) if s is not None and not _FIRST_PERSON.match(item)]
    if after_i and not told:
        return None  # "I live in Leeds, I work at a bank": the clauses split as before
    if not after_i and lead is None and (len(told) < 2 or said[0] is None):
        return None  # a bare list says who the user is only when it opens with an item of theirs, and has two
    return [s if s is not None else item for s, item in zip(said, items)]
