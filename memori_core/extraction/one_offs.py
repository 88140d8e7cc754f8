"""A one-off act of the user's everyday, told as done: "I took the bus.", "I did the laundry", "We walked the dog".

Each is true of one moment and says nothing memory needs later: nobody keeps "User took the bus." :func:`one_off_act`
tells them; the rules drop them as passing moments (:func:`~memori_core.extraction.moments.moment`). A habit ("I
took the bus every day"), a first ("I took the train for the first time") and what the caller reads as a change or
a care fact are not one-offs. Pure: English patterns.
"""

from __future__ import annotations

from .patterns import rx

__all__ = ["moved_about_the_home", "one_off_act"]

_ADVERBS = r"(?:(?:just|finally|also|then|only|quickly|eventually)\s+)*"
_THE = r"(?:(?:the|a|an|my|our|some)\s+)?"
# What may follow the act and keep it one: where, when, why ("I took the bus home because it rained").
_AFTER = (r"(?=\s*(?:[.!,;]|$|(?:to|into|from|home|back|in|out|there|here|instead|again|today|yesterday|tonight|"
          r"this|last|earlier|because|since|as|and|but|so|with|after|before|for|at|on)\b))")
# "I took the bus", "we caught a taxi", "I got an uber home": a way of getting somewhere once.
_RIDE = (r"(?:took|caught|got|grabbed|hopped\s+on|jumped\s+on|rode)\s+" + _THE
         + r"(?:bus|train|tube|tram|metro|subway|taxi|cab|uber|lyft|ferry|coach|night\s+bus|last\s+train|stairs|lift|"
           r"elevator)")
# "I did the laundry", "we walked the dog", "I took out the bins": a chore.
_CHORE = (r"(?:did|finished)\s+" + _THE + r"(?:laundry|washing(?:\s+up)?|dishes|ironing|hoovering|vacuuming|"
          r"shopping|food\s+shop|big\s+shop|cleaning|gardening|weeding|school\s+run|recycling)"
          r"|(?:walked|fed)\s+the\s+(?:dog|dogs|cat|cats)"
          r"|(?:took|put)\s+(?:out\s+the\s+(?:bins|trash|rubbish|recycling)|"
          r"the\s+(?:bins|trash|rubbish|recycling)\s+out)|mowed\s+the\s+(?:lawn|grass)"
          r"|(?:cleaned|tidied|hoovered|vacuumed)\s+(?:up\s+)?(?:the|my|our)\s+(?:house|flat|kitchen|bathroom|room|"
          r"bedroom|car|fridge|oven)")
# "I had a shower", "I took a nap", "we went for a walk": a break of the day.
_BREAK = (r"(?:had|took)\s+(?:a|an)\s+(?:quick\s+|long\s+|hot\s+|short\s+)?(?:shower|bath|nap|snooze|power\s+nap|"
          r"break|breather|coffee|cup\s+of\s+(?:tea|coffee)|cuppa|snack)"
          r"|went\s+for\s+(?:a|an)\s+(?:quick\s+|long\s+|short\s+|little\s+)?(?:walk|stroll|wander|drive|coffee|"
          r"drink|pint|bite|ride)")
# "i was in levenshulme today", "we were at the Trafford Centre earlier": a place passed through that day (not
# "in hospital": care news).
_PASSED = (r"(?:was|were)\s+(?:(?:over|down|up|out|round)\s+)?(?:in|at)\s+(?!(?:the\s+)?(?:hospital|a&e|er|icu|"
           r"hospice|court|jail|prison)\b)(?:[\w'&-]+\s+){1,4}?(?:today|this\s+(?:morning|afternoon)|"
           r"earlier(?:\s+today)?|yesterday|last\s+night)")
# "I stayed inside", "we stayed in all day": a day spent indoors (not "stayed in Lisbon", "stayed home with the kids
# for five years": a place, or a span that says more).
_STAYED_IN = (r"(?:stayed|stopped)\s+(?:in|inside|indoors|home|at\s+home|in\s+bed)(?:\s+all\s+(?:day|evening|night))?"
              r"(?=\s*(?:[.!,;]|$|(?:today|tonight|yesterday|this|because|as|and|but|so|instead|again|lol)\b))")
_ONE_OFF = rx(rf"^(?:i|we)\s+{_ADVERBS}(?:(?:{_RIDE}|{_CHORE}|{_BREAK}|{_PASSED}){_AFTER}|{_STAYED_IN})")
# A habit or a first makes it worth keeping: "every day", "usually", "for the first time", "these days".
_NOT_ONCE = rx(r"\b(?:every|each|always|usually|normally|often|daily|nightly|weekly|most\s+days|these\s+days|"
               r"nowadays|now\s+(?:that|i|we)|first|anymore|any\s+more)\b")


def one_off_act(body: str) -> bool:
    """Whether ``body`` (a clause of the user's) tells a one-off act of their everyday: a ride ("I took the bus"), a
    chore ("I did the laundry"), a break ("I had a shower"), a day indoors ("I stayed inside") or a place passed
    through that day ("i was in levenshulme today"), with no habit or first said of it.

    >>> one_off_act("I took the bus."), one_off_act("We walked the dog this morning")
    (True, True)
    >>> one_off_act("I take the bus to work"), one_off_act("I took the bus every day"), one_off_act("I took the job")
    (False, False, False)
    """
    said = body.strip()
    return bool(_ONE_OFF.match(said)) and not _NOT_ONCE.search(said)


# Furniture, and furniture moved about the home: "moved the sofa into the lounge now", "we put the desk in the spare
# room", a chore though "moved" and "now" read as a change (not "moved into the flat", "moved the business to Leeds").
_FURNITURE = (r"(?:sofa|couch|settee|bed|table|desk|wardrobe|chairs?|armchair|bookcase|shelves|telly|tv|boxes|"
              r"furniture|rug|mattress|dresser|drawers|piano)")
_FURNITURE_MOVED = rx(rf"^(?:(?:i|we)\s+)?{_ADVERBS}(?:moved|shifted|carried|dragged|lugged|put|got)\s+"
                      rf"(?:the|my|our|a|an|all\s+the)\s+(?:[\w-]+\s+)?{_FURNITURE}\s+(?:(?:up|down|back|over|out)\s+)?"
                      r"(?:in|into|to|upstairs|downstairs|round|through)\b")


def moved_about_the_home(body: str) -> bool:
    """Whether ``body`` tells furniture moved about the home ("moved the sofa into the lounge now"): a chore done,
    though its "moved" and "now" read as a change.

    >>> moved_about_the_home("moved the sofa into the lounge now"), moved_about_the_home("moved into the flat now")
    (True, False)
    """
    return bool(_FURNITURE_MOVED.match(body.strip())) and not _NOT_ONCE.search(body)
