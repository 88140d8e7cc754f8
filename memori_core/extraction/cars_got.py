"""A car the user got, told as the car they drive now.

"picked up a secondhand Ranger off gumtree" -> "I drive a secondhand Ranger now"; "we moved to Cebu and got a Mitsubishi
Xpander" -> "we moved to Cebu", "I drive a Mitsubishi Xpander now"; "ended up leasing
a Kia Niro EV, first electric car ever" -> "I drive a Kia Niro EV". Told this way the act of buying is news of a
day; the car driven is what stays true, and the fact of the car slot that ends the one stored before it. Only a car
the slots know by its make or model (:data:`~memori_core.slots.SLOTS`), got for the user (not "for my son"), said as
done (not in a question or an "if"). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..slots import PERSON, SLOTS
from .patterns import MY_PERSON, rx
from .speech_acts import CONDITIONAL

__all__ = ["as_car_got", "car_got"]

# Where the getting starts: the clause's start or a clause joined on ("..., picked up ...", "... and got ...").
_GOT = rx(
    r"(?:^|[,;]\s*|\s+-\s+|\s+(?:and|so|then|but)\s+)"
    r"(?P<who>(?:i|we)(?:'ve|\s+have)?\s+)?(?:(?:just|finally|recently|eventually|then|now|also)\s+)?"
    r"(?:got|bought|purchased|picked\s+up|leased|upgraded\s+to|traded\s+up\s+to|"
    r"ended\s+up\s+(?:buying|leasing|getting|with)|treated\s+(?:myself|ourselves)\s+to)\s+"
    r"(?P<thing>(?:a|an)\s+[\w.-]+(?:\s+[\w.-]+){0,3})"
)
# What a car's name may end with after its make or model ("a Kia Niro EV", "a Toyota Corolla hybrid").
_CAR_TAIL = rx(r"^(?:ev|hybrid|phev|plug-in|electric|diesel|estate|wagon|ute|sedan|hatchback|suv|automatic|auto)$")
# Got for someone else: "for my son", "for her" (not "for the family", "for myself", "for us").
_FOR_SOMEONE = rx(rf"^\s*for\s+(?:{MY_PERSON}|him|her|them)\b")
_CAR = SLOTS["car"]
# A thing sold or got rid of before the car got: "sold the Vios to my tito", "flogged the hilux".
_SOLD = rx(r"\b(?:sold|flogged|traded\s+in|part-exchanged|scrapped|got\s+rid\s+of|gave\s+away|wrote\s+off)\b")
# Someone other than the user doing what is said before the getting: "my sister (sold her Civic and got ...)",
# "our son's wife", "he", "Tom" (a name, capitalised, then a verb). Not "I", "we", "my husband and I".
_SOMEONE = rx(rf"^(?:{MY_PERSON}(?:'s\s+(?:{PERSON}))?|he|she)\b(?!\s+and\s+(?:i|we)\b)")
_NAMED = re.compile(r"^(?!(?:We|Just|Finally|Then|So|And|But|Also|Recently|Eventually)\b)[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+(?:(?:just|finally|recently|then|also)\s+)?"
                    r"(?:sold|flogged|traded|part-exchanged|scrapped|got|gave|wrote|moved|crashed|totalled)\b")
# The car slot's words that name no car ("drives", "a car", "a truck"): a car got is named by its make or model.
_ANY_CAR = rx(r"(?:^|\s)(?:drive|drives|driving|cars?|vehicle|truck|suv|motorbike|motorcycle)$")


def car_got(clause: str) -> tuple[str, str] | None:
    """``(before, car)`` when ``clause`` tells of a car the user got ("..., picked up a secondhand Ranger off
    gumtree" -> ``("...", "a secondhand Ranger")``); ``None`` otherwise."""
    if clause.rstrip(" )\"'").endswith("?") or CONDITIONAL.match(clause.strip()):
        return None
    for m in _GOT.finditer(clause):
        before = clause[: m.start()].strip(" ,;-")
        if m.group("who") is None and (_SOMEONE.match(before) or _NAMED.match(before)):
            return None  # "my sister sold her Civic and got a Mazda 3": her car, not the user's
        thing = m.group("thing")
        car = _CAR.search(thing.lower())
        if car is None or not re.fullmatch(r"(?:an?\s+)?", thing.lower()[: car.start()]) \
                or _ANY_CAR.search(car.group(0)):
            continue  # no make or model named ("a car seat", "a new car"), or a car in what follows the thing
        words = thing[car.end():].split()
        name = thing[: car.end()]  # from the article
        for word in words[:2]:  # the model after the make, and what kind ("a Kia Niro EV")
            bare = word.rstrip(".,!;:")
            if not (bare[:1].isupper() or re.search(r"\d", bare) or _CAR_TAIL.match(bare)
                    or _CAR.fullmatch(f"a {bare.lower()}") or _CAR.fullmatch(f"used {bare.lower()}")):
                break
            name += " " + bare
            if bare != word:
                break
        rest = clause[m.start("thing") + len(name):]
        if _FOR_SOMEONE.match(rest):
            return None
        return before, name
    return None


def as_car_got(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with each car the user got told as the car they drive ("I drive a secondhand Ranger now"),
    after what the clause said before it, kept as a clause of its own ("we moved to Cebu"). A car sold for it
    ("sold the Vios and got an Xpander") is said no more: the car got ends it. Any other swap ("sold the Ninja
    and bought a Skoda", "... instead") is left whole, for :mod:`.endings` to read."""
    out: list[str] = []
    for clause in clauses:
        got = car_got(clause)
        if got is None:
            out.append(clause)
            continue
        before, name = got
        if re.search(r"\binstead\b", clause[len(before):], re.IGNORECASE):
            out.append(clause)  # "sold the Ninja last weekend, got a Skoda instead": the swap, read by .endings
            continue
        if _SOLD.search(before):
            # "sold the Vios to my tito and got an Xpander": the car got ends the car sold, of the same slot; any
            # other thing sold ("sold the Ninja and bought a Skoda") is left to .endings, the clause whole
            out.append(f"I drive {name} now" if _CAR.search(before.lower()) else clause)
            continue
        if re.search(r"\w", before):
            out.append(before)
        out.append(f"I drive {name} now")  # "now": a change, which ends the car stored before
    return out
