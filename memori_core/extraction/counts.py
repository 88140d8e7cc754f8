"""How many of a thing the user has, and the newer count of the same thing in its place.

A beekeeper says "I've got three hives at the bottom of the garden", then "Lost two hives over winter, down to one
now": both counts were kept, and the old one read as true. :func:`count_held` reads a fact's count ("User has got
three hives ..." -> ``("hive", 3)``), :func:`recounts` says a newer count of the same thing of the user's replaces
the older, :func:`as_count_now` reads "down to one" and "lost two of my three hives" as the count they leave ("I have
one hive"), and :func:`count_left` a loss told against the stored count ("User lost two hives." after "User has
three hives." -> "User has one hive."). Only a number said as one counts ("two", "3"; not "a dog", which may name
one dog of several), and only a thing counted bare (not "2 coffees a day", a rate). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..number_words import NUMBER_WORDS, count_of, number_words
from .grammar import third_person
from .patterns import I_OR_WE_ARE, rx

__all__ = ["as_count_now", "count_held", "count_left", "recounts", "singular"]

_NUMBER_WORDS = ("no", *NUMBER_WORDS)  # a count as written, by its value: "no" for none
_NUMBER = rf"(?:\d{{1,4}}|{number_words('twelve')})"
_IRREGULAR = {"children": "child", "people": "person", "mice": "mouse", "geese": "goose", "teeth": "tooth",
              "feet": "foot", "women": "woman", "men": "man"}
# A word before the thing counted ("2 rescue dogs"), never one that ends the count ("2 coffees a day").
_MODIFIER = r"(?:(?!(?:a|an|the|per|each|every|of|at|in|on|to|for|with|from|by|and|or)\b)[a-z'-]+\s+)"
_NOUN = r"(?!(?:now|left|more|less|of|a|an|the)\b)(?-i:[a-z])[a-z'-]+"
_THING = rf"(?P<thing>{_NOUN})"
# A count the user holds: "User has got three hives at the bottom of the garden.", "User keeps 2 rescue dogs.",
# "User is down to one hive."; after the thing only where it is, what it is called, "now" ("..., Tom and Jerry"),
# not another thing ("and a dog") nor a rate ("a day"). Not "User's sister has two kids.".
_HELD = re.compile(
    rf"^User\s+(?:(?:now|still|only|currently)\s+)*(?:(?:has(?:\s+got)?|keeps|owns|looks\s+after|runs)\s+"
    rf"(?:only\s+|just\s+)?(?P<n>{_NUMBER})\s+{_MODIFIER}{{0,2}}?{_THING}"
    r"(?=\s*[.!]*$|\s*,|\s+(?:at|in|on|with|called|named|left|now|up|down|out|of\s+(?:my|their|our)\s+own)\b)"
    rf"|is\s+(?:now\s+)?(?:down\s+to|left\s+with)\s+(?:only\s+|just\s+)?(?P<left>{_NUMBER})\s+"
    rf"{_MODIFIER}{{0,2}}?(?P<left_thing>{_NOUN})(?:\s+(?:left|now))*\s*[.!]*$)",
    re.IGNORECASE,
)
# "I'm down to one hive (now)", "we're down to 2 chickens": the count a loss left.
_DOWN_TO = rx(
    rf"^{I_OR_WE_ARE}\s+(?:now\s+)?down\s+to\s+(?:just\s+|only\s+)?(?P<left>{_NUMBER})\s+{_THING}"
    r"(?:\s+(?:left|now))*\s*[.!]*$"
)
# "Lost two hives over winter, down to one now", "I lost two of my three hives", "we lost 3 chickens to a fox": a loss
# and the count it left.
_LOST = rx(
    rf"^(?P<i>(?:i|we)\s+)?(?:(?:just|recently|sadly)\s+)?lost\s+(?P<lost>{_NUMBER})\s+"
    rf"(?:of\s+(?:my|our|the)\s+(?P<had>{_NUMBER})\s+)?{_THING}(?:\s+[^,]*?)?"
    rf"(?:\s*,\s*(?:so\s+)?(?:{I_OR_WE_ARE}\s+)?(?:now\s+)?down\s+to\s+(?:just\s+|only\s+)?"
    rf"(?P<left>{_NUMBER})(?:\s+(?P=thing)|\s+[a-z'-]+)?(?:\s+(?:left|now))*)?\s*[.!]*$"
)
# "User lost two hives over winter.": a loss the stored count is read with.
_LOST_FACT = re.compile(rf"^User\s+(?:(?:just|recently|sadly)\s+)?lost\s+(?P<lost>{_NUMBER})\s+{_THING}\b",
                        re.IGNORECASE)
# "User is down to one.": a count left, the thing not named.
_DOWN_BARE = re.compile(
    rf"^User\s+is\s+(?:now\s+)?down\s+to\s+(?:just\s+|only\s+)?(?P<left>{_NUMBER})(?:\s+now)?\s*[.!]*$", re.IGNORECASE)


def _value(number: str) -> int:
    """A count said in words or digits ("three", "3") as a number."""
    return count_of(number)


def _said(value: int) -> str:
    """A number as a count is written: in words up to twelve, else in digits."""
    return _NUMBER_WORDS[value] if value < len(_NUMBER_WORDS) else str(value)


def singular(thing: str) -> str:
    """A counted noun in the singular ("hives" -> "hive", "puppies" -> "puppy", "children" -> "child")."""
    word = thing.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _counted(value: int, thing: str) -> str:
    """``value`` of ``thing`` as a fact says them ("one hive", "three hives", "no hives")."""
    one = singular(thing)
    plural = next((many for many, single in _IRREGULAR.items() if single == one), None) or third_person(one)
    return f"{_said(value)} {one if value == 1 else plural}"  # a noun's plural is spelt as a verb's third person


def count_held(fact: str) -> tuple[str, int] | None:
    """``(the thing counted, in the singular; how many)`` when ``fact`` says how many of a thing the user has ("User
    has got three hives at the bottom of the garden." -> ``("hive", 3)``, "User is down to one hive." -> ``("hive",
    1)``); ``None`` for any other fact."""
    m = _HELD.match(fact.strip())
    if m is None:
        return None
    return singular(m.group("thing") or m.group("left_thing")), _value(m.group("n") or m.group("left"))


def recounts(fact: str, stored: str) -> bool:
    """Whether ``fact``, a count of a thing of the user's, replaces ``stored``, a count of the same thing ("User has
    one hive." replaces "User has got three hives at the bottom of the garden."; not "User has two cats.")."""
    new, old = count_held(fact), count_held(stored)
    return new is not None and old is not None and new[0] == old[0]


def as_count_now(clause: str) -> list[str] | None:
    """``clause`` (its lead cut) when it tells the count a loss left ("Lost two hives over winter, down to one now",
    "I lost two of my three hives", "I'm down to one hive") as that count (``["I have one hive"]``); a loss told with
    no count left, typed without its "I" ("Lost two hives over winter"), as the user's ("I lost two hives over
    winter"); ``None`` for any other clause.

    >>> as_count_now("Lost two hives over winter, down to one now"), as_count_now("I lost two of my three hives")
    (['I have one hive'], ['I have one hive'])
    >>> as_count_now("I'm down to 2 coffees a day") is None
    True
    """
    said = clause.strip()
    down = _DOWN_TO.match(said)
    if down is not None:
        return [f"I have {_counted(_value(down.group('left')), down.group('thing'))}"]
    lost = _LOST.match(said)
    if lost is None:
        return None
    thing = lost.group("thing")
    if lost.group("left"):
        return [f"I have {_counted(_value(lost.group('left')), thing)}"]
    if lost.group("had") and _value(lost.group("had")) >= _value(lost.group("lost")):
        return [f"I have {_counted(_value(lost.group('had')) - _value(lost.group('lost')), thing)}"]
    return None if lost.group("i") else [f"I {said[0].lower()}{said[1:]}".rstrip(" .!")]


def count_left(fact: str, told: Sequence[str]) -> str | None:
    """``fact``, a loss of a counted thing ("User lost two hives over winter.") or a count left with no thing named
    ("User is down to one."), read with the user's count of that thing among ``told`` (the stored facts and those
    of the message so far: "User has three hives."), as the count now ("User has one hive."); ``None`` when
    ``fact`` is neither or no such count is told (of a thing not named: when not exactly one count is)."""
    lost, bare = _LOST_FACT.match(fact), _DOWN_BARE.match(fact)
    if lost is None and bare is None:
        return None
    counts = [held for held in map(count_held, told) if held is not None]
    if bare is not None:
        things = {thing for thing, _ in counts}
        return f"User has {_counted(_value(bare.group('left')), things.pop())}." if len(things) == 1 else None
    thing = singular(lost.group("thing"))
    had = next((n for counted, n in reversed(counts) if counted == thing), None)
    if had is None or had < _value(lost.group("lost")):
        return None
    return f"User has {_counted(had - _value(lost.group('lost')), thing)}."
