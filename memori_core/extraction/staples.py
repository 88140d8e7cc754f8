"""What the user lives on, told as a figure of speech, read as the habit it means.

"On night shifts I live on coffee, like five cups" says the user drinks a lot of coffee on night shifts; kept as
said it was a fact nobody would write ("On night shifts User lives on coffee, like five cups."). :func:`as_staple`
reads it as "I drink a lot of coffee on night shifts" (a food: "I eat a lot of toast"), with the schedule it is tied
to and without the count said in passing. Only a drink or a food of the lists below is read so: "I live on a boat",
"we live on Elm Street", "I live on benefits" are where or how the user lives. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from .patterns import I_OR_WE_ARE, rx

__all__ = ["as_staple"]

_DRINK = (
    r"(?:iced\s+|black\s+|instant\s+|strong\s+|filter\s+)?coffee|tea|espresso(?:s|es)?|lattes?|cappuccinos?|"
    r"flat\s+whites?|"
    r"caffeine|energy\s+drinks?|red\s+bull|monster|coke|diet\s+coke|coke\s+zero|pepsi|cola|fizzy\s+drinks?|soda|"
    r"diet\s+soda|pop|protein\s+shakes?|smoothies|matcha"
)
_FOOD = (
    r"toast|(?:instant\s+)?noodles|ramen|pasta|cereal|crisps|chips|sandwiches|pizza|takeaways?|takeout|ready\s+meals|"
    r"microwave\s+meals|beans\s+on\s+toast|biscuits|chocolate|snacks|junk\s+food|fast\s+food|rice|porridge|oats|"
    r"eggs|bananas|protein\s+bars|cheese\s+sandwiches|sugar"
)
# When the habit holds, said first: "On night shifts", "During exams", "At work", "Over deadline week".
_WHEN = r"(?:on|during|at|in|over|before)\s+(?:[\w'-]+\s+){0,3}?[\w'-]+"
# How much, said in passing: "like five cups", "about 6 cans a day".
_AMOUNT = (r"(?:\s*,?\s*(?:like|about|around|maybe|easily|probably|at\s+least|literally)?\s*"
           rf"(?:\d+|{number_words('ten')}|a\s+few|several|a\s+dozen)\s+"
           r"(?:cups|mugs|cans|bottles|glasses|shots|pots|slices|packets|bowls|a\s+day)"
           r"(?:\s+(?:a|per|each)\s+(?:day|night|shift))?)")
_LIVE_ON = rx(
    rf"^(?:(?P<when>{_WHEN})\s*,?\s+)?(?:i|we)\s+(?:basically\s+|pretty\s+much\s+|practically\s+|just\s+|mostly\s+|"
    rf"literally\s+)*(?:live|survive|run|exist)\s+on\s+(?P<what>(?:{_DRINK}|{_FOOD})(?:\s+and\s+(?:{_DRINK}|{_FOOD}))?)"
    rf"{_AMOUNT}?(?:\s+(?:(?:when|while)\s+{I_OR_WE_ARE}\s+)?(?P<when_after>{_WHEN}))?{_AMOUNT}?"
    r"\s*[.!]*$"
)
_A_DRINK = rx(rf"^(?:{_DRINK})$")
_A_FOOD = rx(rf"^(?:{_FOOD})$")


def as_staple(clause: str) -> list[str] | None:
    """``clause`` (its lead cut) when it tells what the user lives on ("On night shifts I live on coffee, like five
    cups"), as the habit it means (``["I drink a lot of coffee on night shifts"]``); ``None`` for any other clause.

    >>> as_staple("On night shifts I live on coffee, like five cups"), as_staple("I live on toast during exams")
    (['I drink a lot of coffee on night shifts'], ['I eat a lot of toast during exams'])
    >>> as_staple("I live on a boat"), as_staple("We live on Elm Street")
    (None, None)
    """
    m = _LIVE_ON.match(clause.strip())
    if m is None:
        return None
    what = re.sub(r"\s+", " ", m.group("what")).lower()
    when = m.group("when") or m.group("when_after")
    items = what.split(" and ")
    verb = "drink" if all(map(_A_DRINK.match, items)) else "eat" if all(map(_A_FOOD.match, items)) else "have"
    return [f"I {verb} a lot of {what}{f' {when[:1].lower()}{when[1:]}' if when else ''}"]
