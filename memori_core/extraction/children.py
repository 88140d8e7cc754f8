"""The user's children named without "my", read as the plain statement of who they are.

After "I have two kids", a parent says "Josh is 14 and Ellie is 12", or "The kids, Josh (14) and Ellie (12), are
with me every other weekend". Both name the user's children: "I have two kids, Josh (14) and Ellie (12)", which the
rules keep as one fact that refines the stored "User has two kids." (:func:`as_children_named`), and when the user
has them holds for good ("I have the kids every other weekend"); a child's new age
("Josh turned 15") is that fact again with it (:func:`same_children` says the new one ends the old). Names with
ages and nothing that says they are the user's children ("Josh is 14" alone, "The kids, Josh and Ellie, loved
it") invent no family. Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..number_words import count_of, number_words
from .patterns import rx
from .rewrite import article

__all__ = ["CHILD_WORDS", "as_child_aged", "as_children_counted", "as_children_named", "child_called", "lists_ages", "same_children"]

CHILD_WORDS = frozenset("kids kid children child sons son daughters daughter boys boy girls girl grandchildren grandkids "
                        "grandsons granddaughters".split())
"""The words the stored facts call the user's children by ("User has two kids.")."""
_CHILDREN = r"(?:kids|children|sons|daughters|boys|girls|grandchildren|grandkids|grandsons|granddaughters)"
_COUNT = rf"(?P<n>a|an|{number_words('six')}|[1-6])"
_COUNTED = (rf"{_COUNT}\s+(?:(?:young|little|grown-up|teenage|adult)\s+)?"
            r"(?P<noun>kids?|children|child|sons?|daughters?|boys?|girls?|grandchild(?:ren)?|grandkids?|grandsons?|"
            r"granddaughters?)\b")
# "User has two kids.", "User has three children, ...": the user's children as a stored fact counts them.
_STORED = re.compile(rf"^User\s+has\s+(?:got\s+)?{_COUNTED}")
# "My husband Emeka and I ...", "my wife and I ...": the other parent, maybe named, with the user.
_SOMEONE_AND_I = r"(?:my|our)\s+(?P<who>[\w-]+)(?:\s+(?P<name>(?-i:[A-Z])[\w-]+))?\s+and\s+i"
# "I have two kids", "we've got 3 children", "My husband Emeka and I have two kids", "mum of two": the same, told
# earlier in the message.
_TOLD = rx(
    rf"^(?:(?:i|we|{_SOMEONE_AND_I})(?:'ve|\s+have)?\s+(?:have|got)\s+(?:got\s+)?"
    rf"{_COUNTED}"
    r"|(?:i'm\s+|i\s+am\s+)?(?:a\s+)?(?:mum|mom|mother|dad|father|parent)\s+of\s+"
    r"(?P<n2>two|three|four|five|six|[2-6])\b)"
)
# "... with her husband and our two grandchildren, Arjun who is 8 and ...": the count alone, as a clause of its own.
_COUNT_ALONE = rx(rf"^(?:(?:and|with)\s+)?(?:my|our)\s+{_COUNTED}\s*[,.!]*$")
# "my two girls from work", "my two boys up front": people of the user's work, course or team, not their children.
_NOT_KIN = (r"\s+(?:from\s+(?:work|uni|university|college|the\s+office|the\s+gym|church|the\s+club|the\s+team)|"
            r"at\s+(?:work|the\s+office|the\s+back)|up\s+front|in\s+(?:defence|defense|midfield|goal|attack|the\s+team|"
            r"the\s+squad|the\s+office)|on\s+(?:the\s+)?(?:team|squad|wing|wings|bench|shift|staff|the\s+line))\b")
# "with my partner Sam and our three kids", "my two boys attend Corona School", "midwife and mom of three boys": the
# user's children counted in passing, in a clause about something else. Not right after "with" ("I live in Leeds
# with my two sons": the fact kept says the count), nor before a "who" aside ("My wife and our two grandchildren,
# who we adore.": a fragment, kept as nothing), nor named ("my two girls Kayla and Brooke are 16 and 14": kept with
# their names), nor "mom of three" with no noun (kept as said).
_COUNTED_IN_PASSING = rx(
    rf"(?<!with\s)\b(?:my|our)\s+{_COUNTED}(?!\s*,\s*who\b)(?!\s+(?-i:[A-Z])[a-z])(?!{_NOT_KIN})"
    r"|\b(?:mum|mom|mother|dad|father)\s+of\s+(?P<n2>two|three|four|five|six|[2-6])\s+(?P<noun2>kids|children|boys|"
    r"girls|sons|daughters)\b"
)
# What else is told with an age: a thing or a pet ("my 5 year old laptop", "my 3 year old lab"), no child.
_THING_AGED = (r"(?:laptops?|computer|pc|mac|macbook|ipad|tablet|phone|iphone|android|car|van|truck|bike|motorbike|"
               r"scooter|tv|telly|house|flat|boiler|fridge|freezer|washer|dishwasher|oven|sofa|couch|mattress|bed|roof|"
               r"kitchen|boiler|printer|camera|console|xbox|playstation|ps5|watch|boots|shoes|trainers|tyres|tires|"
               r"battery|guitar|piano|boat|mower|lawnmower|carpet|account|business|company|startup|blog|channel|"
               r"garden|plants?|tree|dog|cat|puppy|kitten|pup|lab|labrador|retriever|spaniel|terrier|collie|poodle|"
               r"husky|beagle|pug|dachshund|greyhound|lurcher|whippet|shepherd|gsd|rabbit|bunny|horse|pony|hamster|"
               r"guinea\s+pig|tortoise|parrot|budgie|fish|sourdough|starter|shirt|jacket|coat)")
# "is it ok to give my 4 year old melatonin?", "my son, he is 7 years and very shy", "My son is 4 and starts
# kindergarten": a child of the user's with their age, told in passing (a question's too).
_AGED_CHILD = rx(
    r"\bmy\s+(?:(?P<age>\d{1,2})(?:-|\s)(?:year|yr)s?(?:-|\s)old(?:\s+(?P<noun>son|daughter|boy|girl))?\b"
    rf"(?!\s+(?:[\w-]+\s+)?{_THING_AGED}\b)"
    r"|(?P<noun2>son|daughter|boy|girl)\s*,?\s+(?:(?:he|she)\s+)?(?:is|'s)\s+(?:only\s+|just\s+)?(?P<age2>\d{1,2})"
    r"(?!\s*(?:%|kg|lbs?|cm|am|pm|:|st\b|nd\b|rd\b|th\b|months?|weeks?|days?)))"
)
# A sentence or clause that opens with "she" or "he" (the child just told of, when no one else is named between).
_SENTENCE_START = rx(r"(?:^|[.!?;,]\s+|\s+and\s+)(she|he)(?='s|\s+is|\s+has|\s+was|\s+keeps|\s+won't|\s+can't|\s+gets|"
                     r"\s+hates|\s+loves|\s+'s|\s+been|'ll|\s+always|\s+never)")
_CHILD_NOUN = {"boy": "son", "girl": "daughter", "son": "son", "daughter": "daughter"}
# How the stored facts say the children counted: boys are sons, girls daughters.
_AS_STORED = {"boys": "sons", "girls": "daughters"}
_NAME = r"(?!(?:I|It|He|She|They|We|This|That|Mum|Mom|Dad|Nan|Gran)\b)(?-i:[A-Z])[a-z\u00e0-\u00ff]+"
_AGE = r"(?:[1-9]|[1-4]\d)"
_AND = r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)"
# "Josh is 14 and Ellie is 12", "Josh's 14, Ellie's 12", "Sam is 6": names, each with an age.
_NAME_IS = rf"{_NAME}(?:\s+(?:who\s+)?is|'s)\s+{_AGE}"
_NAMES_ARE = rx(rf"^(?P<list>{_NAME_IS}(?:{_AND}{_NAME_IS})*)\s*[.!]*$")
# "The kids, Josh (14) and Ellie (12), are with me every other weekend": the children, named with their ages.
_NAME_AGED = rf"{_NAME}\s*\({_AGE}\)"
_THE_CHILDREN_NAMED = rx(rf"^(?P<whose>the|my|our)\s+(?P<noun>{_CHILDREN}),?\s+"
                         rf"(?P<list>{_NAME_AGED}(?:{_AND}{_NAME_AGED})+),?\s+(?P<rest>(?:are|were|stay|live|come)\b.*)$")
# "... with me", "... to us": the user's. When the user has them holds for good: "every other weekend".
_TO_ME = r"(?:with|to|at)\s+(?:me|us|mine|ours)\b"
_MINE = rx(rf"\b{_TO_ME}")
_CUSTODY_TIMES = (r"every\s+other\s+(?:weekend|week)|(?:at|on)\s+weekends|every\s+weekend|half\s+the\s+(?:week|time)|"
                  r"during\s+the\s+week|(?:two|three|four|\d)\s+nights\s+a\s+week|"
                  r"(?:in|during)\s+the\s+(?:school\s+)?holidays")
_WITH_ME = rx(rf"^(?:the|my|our)\s+(?P<noun>{_CHILDREN})\s+(?:are|stay|live|come)\s+{_TO_ME}\s+"
              rf"(?P<when>{_CUSTODY_TIMES})\s*[.!]*$")
_PAIR = re.compile(rf"(?P<name>{_NAME})(?:\s+(?:who\s+)?is\s+|'s\s+|\s*\()(?P<age>{_AGE})\b")
# "Josh turned 15", "Ellie is 13 now": a new age of one child named.
_NEW_AGE = rx(rf"^(?P<name>{_NAME})\s+(?:just\s+)?(?:turned|is\s+now|is|'s)\s+(?P<age>{_AGE})(?:\s+(?:now|today))?"
              r"\s*[.!]*$")
# "User has two kids, Josh (14) and Ellie (12).": the stored fact that names them.
_NAMED_FACT = re.compile(rf"^User\s+has\s+(?:got\s+)?\w+\s+(?:[a-z-]+\s+)?(?P<noun>{_CHILDREN}),\s+(?P<list>.+?)\.$")
# One of them, by the word that counts them: "kids" -> "child".
_ONE = {"kids": "child", "children": "child", "sons": "son", "daughters": "daughter", "boys": "son", "girls": "daughter",
        "grandchildren": "grandchild", "grandkids": "grandchild", "grandsons": "grandson",
        "granddaughters": "granddaughter"}
_WORDS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _pairs(text: str) -> list[tuple[str, str]]:
    """The (name, age) pairs ``text`` lists ("Josh is 14 and Ellie is 12", "Josh (14) and Ellie (12)")."""
    return [(m.group("name"), m.group("age")) for m in _PAIR.finditer(text)]


def _listed(pairs: Sequence[tuple[str, str]]) -> str:
    """``pairs`` as a fact lists them: "Josh (14) and Ellie (12)"; "A (9), B (6) and C (3)"."""
    said = [f"{name} ({age})" for name, age in pairs]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} and {said[-1]}"


def _children_told(known: Sequence[str], before: Sequence[str]) -> tuple[int, str, int | None] | None:
    """How many children the user has, the word they are called by, and which clause of the message ``before``
    this one said so (``None``: a stored fact, of ``known``, did); the latest first; ``None`` when nothing says the
    user has any."""
    for i in range(len(before) - 1, -1, -1):
        m = _TOLD.match(before[i].strip()) or _COUNT_ALONE.match(before[i].strip())
        if m is not None:
            n = m.group("n") or m.groupdict().get("n2")
            return count_of(n), (m.group("noun") or "children").lower(), i
    for text in reversed(known):
        m = _STORED.match(text)
        if m is not None:
            n = m.group("n")
            return count_of(n), m.group("noun"), None
    return None


def _named_again(said: str, known: Sequence[str]) -> str | None:
    """A stored fact naming the user's children with their ages, told again with the new age of one ("Josh
    turned 15" after "User has two kids, Josh (14) and Ellie (12)." -> "I have two kids, Josh (15) and Ellie
    (12)"); ``None`` when ``said`` tells no such age."""
    m = _NEW_AGE.match(said)
    if m is None:
        return None
    for text in reversed(known):
        named = _NAMED_FACT.match(text)
        pairs = _pairs(named.group("list")) if named is not None else []
        if any(name == m.group("name") for name, _ in pairs):
            new = [(name, m.group("age") if name == m.group("name") else age) for name, age in pairs]
            return re.sub(r"^User\s+has", "I have", text[: named.start("list")]) + _listed(new)
    return None


def _plain(said: str, known: Sequence[str], before: Sequence[str]) -> tuple[list[str], int | None] | None:
    """The plain statements of the user's children named in ``said`` (the module docstring), and the clause
    ``before`` it that only counted them, which they say again (``None``: none); ``None`` when it names none."""
    again = _named_again(said, known)
    if again is not None:
        return [again], None
    custody = _WITH_ME.match(said)
    if custody is not None:
        return [f"I have the {custody.group('noun').lower()} {custody.group('when')}"], None
    told = _children_told(known, before)
    m = _THE_CHILDREN_NAMED.match(said)
    if m is not None:
        pairs = _pairs(m.group("list"))
        if told is None and m.group("whose").lower() == "the" and not _MINE.search(m.group("rest")):
            return None  # "The kids, Josh (9) and Ellie (7), loved it": maybe not the user's
        if told is not None and told[0] != len(pairs):
            return None
        noun = told[1] if told is not None else m.group("noun").lower()
        rest = _plain(f"The {noun} {m.group('rest')}", known, before)  # "..., are with me every other weekend"
        return [f"I have {_WORDS[len(pairs)]} {noun}, {_listed(pairs)}", *(rest[0] if rest else []),
                *_co_parent(before, told[2] if told is not None else None)], told[2] if told is not None else None
    m = _NAMES_ARE.match(said)
    if m is None or told is None or told[0] != len(_pairs(said)):
        return None
    return [f"I have {_WORDS[told[0]]} {told[1]}, {_listed(_pairs(said))}", *_co_parent(before, told[2])], told[2]


# "My husband Emeka and I have two kids": the other parent named in the clause that counted the children.
_CO_PARENT = rx(rf"^{_SOMEONE_AND_I}\b")


def _co_parent(before: Sequence[str], told: int | None) -> list[str]:
    """Who the clause of ``before`` that counted the children (``told``) names with the user, as a statement of its
    own ("My husband Emeka and I have two kids" -> ``["My husband is Emeka"]``, "My wife and I ..." -> ``["I have a
    wife"]``), so they are not lost when the children's names take that clause's place; ``[]`` when it names no one.
    """
    m = _CO_PARENT.match(before[told].strip()) if told is not None else None
    if m is None:
        return []
    who = m.group("who").lower()
    return [f"My {who} is {m.group('name')}" if m.group("name") else f"I have {article(who)} {who}"]


def as_children_named(clauses: Sequence[str], known: Sequence[str] = ()) -> list[str]:
    """``clauses`` (one user message, split; each read as :mod:`.family` reads it) with each that names the
    user's children replaced by the plain statement of who they are, when a stored fact (``known``) or an earlier
    clause says the user has that many children (which the statement then says again, so it goes), or the clause
    says they are with the user; any other clause as it is.

    >>> as_children_named(["Josh is 14 and Ellie is 12"], ["User has two kids."])
    ['I have two kids, Josh (14) and Ellie (12)']
    >>> as_children_named(["I have two kids", "Josh is 14 and Ellie is 12"])
    ['I have two kids, Josh (14) and Ellie (12)']
    >>> as_children_named(["Josh is 14"])
    ['Josh is 14']
    """
    out: list[list[str]] = []
    for n, clause in enumerate(clauses):
        read = _plain(clause.strip().rstrip(" .!"), known, clauses[:n])
        if read is not None and read[1] is not None:
            out[read[1]] = []  # "I have two kids. Josh is 14 and Ellie is 12": the count is said again
        out.append(read[0] if read is not None else [clause])
    return [said for plain in out for said in plain]


def lists_ages(said: str) -> bool:
    """Whether ``said`` (a clause) names people with their ages ("Josh is 14 and Ellie is 12", "The kids, Josh (14)
    and Ellie (12), ..."): the user's children, when a stored fact says the user has that many, which capture then
    shows the rules (:data:`CHILD_WORDS`)."""
    said = said.strip().rstrip(" .!")
    named = bool(_pairs(said)) and re.search(rf"\b{_CHILDREN}\b", said, re.IGNORECASE) is not None
    return bool(named or _NAMES_ARE.match(said))


def child_called(name: str, known: Sequence[str]) -> str | None:
    """The word for one of the user's children or grandchildren a stored fact lists by ``name`` ("grandchild" for
    "Meera" after "User has two grandchildren, Arjun (8) and Meera (5)."); ``None`` when none lists them."""
    for text in reversed(known):
        m = _NAMED_FACT.match(text)
        if m is not None and any(listed == name for listed, _ in _pairs(m.group("list"))):
            return _ONE[m.group("noun").lower()]
    return None


def same_children(new: str, old: str) -> bool:
    """Whether the fact ``new`` names the same children of the user's as the stored ``old``, with another age
    ("User has two kids, Josh (15) and Ellie (12)." after "... Josh (14) and Ellie (12)."): it ends ``old``."""
    now, before = _NAMED_FACT.match(new), _NAMED_FACT.match(old)
    if now is None or before is None:
        return False
    names, old_names = [n for n, _ in _pairs(now.group("list"))], [n for n, _ in _pairs(before.group("list"))]
    return bool(names) and sorted(names) == sorted(old_names) and new != old


def as_children_counted(clauses: Sequence[str], known: Sequence[str] = ()) -> list[str]:
    """``clauses`` (one user message, split) with "I have <n> <children>" after the first clause that counts the
    user's children in passing ("I live in Bendigo with my partner Sam and our three kids", "My two boys attend Corona
    School", "midwife and mom of three boys"), two or more, when neither a stored fact (``known``) nor a clause of the
    message counts them already ("I have two kids", "we've got 3 children"); any other clause as it is.

    >>> as_children_counted(["I live in Bendigo with my partner Sam and our three kids"])
    ['I live in Bendigo with my partner Sam and our three kids', 'I have three kids']
    >>> as_children_counted(["my two boys attend Corona School"], ["User has two sons."])
    ['my two boys attend Corona School']
    """
    if any(_STORED.match(text) for text in known) or any(_TOLD.match(c.strip()) for c in clauses):
        return list(clauses)
    out: list[str] = []
    counted = False
    for clause in clauses:
        out.append(clause)
        m = None if counted else _COUNTED_IN_PASSING.search(clause)
        if m is None:
            continue
        n = count_of(m.group("n") or m.group("n2"))
        noun = (m.group("noun") or m.group("noun2") or "children").lower()
        if n < 2 or noun not in _ONE:
            continue
        out.append(f"I have {_WORDS[n]} {_AS_STORED.get(noun, noun)}")
        counted = True
    return out


def as_child_aged(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with "I have a <n>-year-old <son|daughter>" after the first question that
    tells a child of the user's with their age in passing ("is it ok to give my 4 year old melatonin?", "my son, he
    is 7 years and very shy, the football club or swimming?"), a child's age (under 18) only; any other clause as it
    is. A statement ("My son is 5, he has a nut allergy.") is kept by the rules as said.

    >>> as_child_aged(["is it ok to give my 4 year old melatonin?"])
    ['is it ok to give my 4 year old melatonin?', 'I have a 4-year-old']
    >>> as_child_aged(["Is it safe to give my 2-year-old ibuprofen? She's allergic to penicillin."])[1]
    'I have a 2-year-old daughter'
    >>> as_child_aged(["my son is 30 and lives in Leeds"])
    ['my son is 30 and lives in Leeds']
    """
    out: list[str] = []
    told = False
    for n, clause in enumerate(clauses):
        out.append(clause)
        m = None if told or "?" not in clause else _AGED_CHILD.search(clause)
        if m is None or not 0 < int(m.group("age") or m.group("age2")) < 18:
            continue
        noun = m.group("noun") or m.group("noun2")
        if noun is None:  # "my 2-year-old ... She's allergic to penicillin": the next sentence's "she" says who
            after = _SENTENCE_START.findall(" ".join([clause[m.end():], *clauses[n + 1:n + 2]]))
            noun = {"she": "girl", "he": "boy"}.get(after[0].lower()) if after else None
        out.append(f"I have a {int(m.group('age') or m.group('age2'))}-year-old"
                   + (f" {_CHILD_NOUN[noun.lower()]}" if noun else ""))
        told = True
    return out
