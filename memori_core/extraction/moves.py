"""A move of the user's home told the way people type it in chat, and what ends a home.

- The new home of a move, its place typed in lower case ("new place is in levenshulme", "ok all moved into chorlton
  now", "just got the keys to our new place in leicester!!"), is where the user lives now: "I live in Levenshulme
  now" (:func:`as_new_home`); so is the home the user is back in now ("back home in Ottawa now"). Only the move's own
  wording is read so: a lower-case word elsewhere is never taken for a place.
- So is the new home told as where the move's boxes went ("the movers dropped the last boxes at the new place in
  Denver yesterday"; a place in capitals, beside a word of moving), the place an employer moved the user to ("my
  company shifted me to Hyderabad", "work transferred me to Leeds"; not a team, an office or a shift, nor a transfer
  only thought of), and a home bought told as closed on ("We closed on a house in Orléans last month" is "we bought
  a house in Orléans ...", which the rules read as a change of home).
- Selling the home ("We sold the house!") is no move: the user lives there until the move is told as made
  (:func:`sells_the_home`), so the sale ends no stored home.
- A move told without its place ("We moved!") beside the new home in the same message ("I'm in the new flat in
  Norwood Park now") says nothing that home does not: one home fact is kept (:func:`placeless_move_beside`).
- After such a move, where the user is now ("I moved flats! Now I'm in Verdun, just me and my cat Pisco", "we
  moved house, we're in Leeds now") is the new home, which "I'm in Leeds" alone with a "now" is not (a stay).

Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..slots import holder, names_no_home, slots_of
from .leads import strip_lead
from .patterns import CAPITAL_WORD, I_OR_WE_ARE, rx

__all__ = ["as_new_home", "placeless_move_beside", "sells_the_home"]

_LEAD = r"^\W*(?:(?:ok|okay|so|well|and|yay|finally|anyway|update)\W+)*"
_HOME = r"(?:place|flat|house|home|apartment|flatshare|room|digs|pad)"
# A place typed in lower case: one or two words, then the end of the clause, "now", "at last" or "!".
_PLACE = r"(?P<place>[a-z][\w'-]+(?:\s+(?!(?:now|at|finally)\b)[a-z][\w'-]+)?)"
_PLACE_END = r"(?:\s+(?:now|at\s+last|finally))?\s*(?:[.!,;]|$)"
# "new place is in levenshulme", "my new flat's in Didsbury", "the new house is in chorlton now".
_NEW_HOME_IN = rx(_LEAD + rf"(?:(?:my|our|the)\s+)?new\s+{_HOME}\s*(?:is|'s|\u2019s)\s+(?:now\s+)?in\s+{_PLACE}"
                  + _PLACE_END)
# "all moved into chorlton now", "we're all moved in to chorlton", "finally moved into didsbury".
_MOVED_INTO = rx(
    _LEAD + r"(?:(?:i|we)(?:'ve|\u2019ve|'re|\u2019re|'m|\u2019m|\s+have|\s+are|\s+am)?\s+)?"
    rf"(?:(?:all|finally|now|officially|properly|just)\s+)*moved\s+in(?:\s*to)\s+{_PLACE}" + _PLACE_END
)
# "just got the keys to our new place in leicester!!": a home moved into (the keys alone say no place: .events).
_KEYS_TO = rx(_LEAD + r"(?:(?:i|we)(?:'ve|\u2019ve|\s+have)?\s+)?(?:(?:just|finally|officially)\s+)*got\s+"
              rf"(?:the\s+)?keys\s+(?:to|for)\s+(?:(?:my|our|the)\s+)?new\s+{_HOME}\s+in\s+{_PLACE}" + _PLACE_END)
# "back home in Ottawa now", "I'm back home in leeds now": where the user lives, told on coming back to it (not "Back
# home in India, we ...", where they come from, nor "I'm back home in Boulder!", which may be a visit to where they
# grew up: without "now" it says no home).
_BACK_HOME = rx(
    _LEAD + r"(?:(?:(?:i|we)(?:'m|\u2019m|'re|\u2019re|\s+am|\s+are)|im)\s+)?(?:just\s+|finally\s+|safely\s+)?"
    rf"back\s+home\s+(?:in|to)\s+{_PLACE}\s+now\s*(?:[.!,;]|\s+-\s|$)"
)
_CAPITALS = rf"(?P<place>{CAPITAL_WORD}(?:\s+{CAPITAL_WORD})?)"
# "the movers dropped the last boxes at the new place in Denver": the new home named inside news of the move.
_NEW_HOME_NAMED = rx(rf"\b(?:my|our|the)\s+new\s+{_HOME}\s+(?:in|over\s+in|out\s+in)\s+{_CAPITALS}")
_MOVING = rx(r"\b(?:movers?|removal\s+van|boxes|unpack\w*|moved|keys|flitting|settl\w+\s+in)\b")
# "my company shifted me to Hyderabad", "work transferred me to Leeds": a move the employer made.
_POSTED = rx(
    r"\b(?:(?:my|our|the)\s+(?:company|employer|firm|bank|boss|work|office|agency)|work|they)\s+(?:has\s+|have\s+|just\s+)?"
    rf"(?:shifted|transferred|relocated|posted)\s+(?:me|us)\s+(?:over\s+|up\s+|down\s+)?to\s+{_CAPITALS}"
    r"\b(?!\s+(?:team|office|branch|department|desk|shift|site|ward|unit|division|project|account)\b)"
)
# "I took a 1BHK in Indiranagar, alone", "we've rented a flat in Leith": a home taken, where the user lives now (not a
# room, which may be a night's; not "for the week": a stay).
_TOOK_HOME = rx(r"^(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:(?:just|finally|now)\s+)?(?:took|taken|rented|leased)\s+(?:a|an)\s+"
                r"(?:[\w-]+\s+){0,2}?(?:[1-5]\s?bhk|flat|apartment|studio|house|bedsit|maisonette|condo)\s+in\s+"
                rf"{_CAPITALS}(?P<alone>\s*,?\s+(?:alone|on\s+my\s+own|by\s+myself))?\s*[.!]*$")
# "got the keys to a wee place in Inverness on Friday", "got the keys to a flat on Huntly Street": a home moved into,
# named in capitals, whatever follows it.
_KEYS_TO_NAMED = rx(r"\bgot\s+(?:the\s+)?keys\s+(?:to|for)\s+(?:a|an|my|our|the)\s+(?:[\w-]+\s+){0,2}?"
                    rf"{_HOME}\s+(?P<prep>in|on)\s+{_CAPITALS}")
# What may stand before the user's own act: a lead, "I", "we" ("my sister got the keys ..." is hers).
_USERS_OWN = rx(_LEAD + r"(?:(?:i|we)(?:'ve|\u2019ve|\s+have)?\s+)?(?:(?:just|finally|officially)\s+)*$")
_THOUGHT_OF = rx(r"\b(?:if|would|might|could|may|wants?\s+to|going\s+to|planning|thinking|next|soon|will)\b")
# "We closed on a house in Orléans last month": a home bought, told as its sale closed.
_CLOSED_ON = rx(r"^(?P<who>(?:i|we)\s+)?(?:(?:just|finally|officially)\s+)*closed\s+on\s+(?P<home>(?:a|an|our|my|the)\s+"
                rf"(?:new\s+)?(?:{_HOME}|condo|townhouse|bungalow)\b.*)$")
# What follows "in" or "into" that is no place: "moved into a flat", "new place is in walking distance".
_NO_PLACE = frozenset("""a an the my our their his her its this that these those it there here town halls
    walking good great bad decent better perfect progress shape order need such much one two some new old
    together with""".split())
# "We sold the house", "we've sold our flat", "just sold the place": the home sold, not left.
_HOME_SOLD = rx(rf"^user\s+(?:and\s+[\w' ]+?\s+)?(?:have\s+|has\s+|just\s+|finally\s+)*sold\s+(?:the|their|our|my)\s+"
                rf"(?:old\s+)?{_HOME}\b")


def _new_home(clause: str) -> str | None:
    """The place ``clause`` names as the new home of a move, capitalised, or ``None``."""
    said = clause.strip()
    m = _NEW_HOME_IN.match(said) or _MOVED_INTO.match(said) or _KEYS_TO.match(said) or _BACK_HOME.match(said)
    if m is None:
        return None
    place = m.group("place").split()
    if place[0].lower() in _NO_PLACE or place[-1].lower() in _NO_PLACE:
        return None
    return " ".join(w[:1].upper() + w[1:] for w in place)


def _home_told_inside(clause: str) -> str | None:
    """The clause a new home told inside news of the move, an employer's move or a home closed on says, or ``None``.
    """
    named = _NEW_HOME_NAMED.search(clause)
    if named is not None and _MOVING.search(clause) and not _THOUGHT_OF.search(clause):
        return f"I live in {named.group('place')} now"
    posted = _POSTED.search(clause)
    if posted is not None and not _THOUGHT_OF.search(clause):
        return f"I live in {posted.group('place')} now"
    keys = _KEYS_TO_NAMED.search(clause)
    if keys is not None and _USERS_OWN.match(clause[: keys.start()]) and not _THOUGHT_OF.search(clause):
        return f"I live {keys.group('prep').lower()} {keys.group('place')} now"
    took = _TOOK_HOME.match(clause.strip())
    if took is not None:
        return f"I live {'alone ' if took.group('alone') else ''}in {took.group('place')} now"
    closed = _CLOSED_ON.match(strip_lead(clause.strip()))  # "nvm we closed on a house ...": after its lead
    if closed is not None:
        return f"{closed.group('who') or 'we '}bought {closed.group('home')}"
    return None


# "I moved flats!", "we just moved house last week", "Moved!": a move whose place the clause does not say.
_MOVE_WITHOUT_PLACE = rx(
    _LEAD + r"(?:(?:i|we)(?:'ve|\u2019ve|\s+have)?\s+)?(?:(?:just|finally|officially|recently)\s+)*moved"
    r"(?:\s+(?:house|home|flats?|apartments?|places?|out))?(?:\s+(?:last\s+\w+|yesterday|today|this\s+\w+|at\s+last))?"
)
# ", now I'm in Verdun": the move's new home told in the same sentence, split off
_NOW_IN_AFTER = rx(r",\s*(?:and\s+)?(?=now\s+" + I_OR_WE_ARE + r"\s+in\s)")
_CAPS_PLACE = rf"(?P<place>{CAPITAL_WORD}(?:\s+{CAPITAL_WORD}){{0,2}})"
# "Now I'm in Verdun, just me and my cat", "we're in Leeds now": where the user is, read as the home after a move.
_IN_NOW = rx(
    r"^\W*(?:(?:and|so)\s+)?(?:now\s+)?" + I_OR_WE_ARE + r"\s+(?:now\s+)?in\s+"
    rf"(?:{_CAPS_PLACE}|(?P<lower>[a-z][\w'-]+))(?:\s+now)?\s*(?:,\s*(?P<rest>.+?))?[.!]*$"
)

_ALONE_WITH = rx(r"^(?:it's\s+|its\s+)?(?:just|only)\s+(?:me|us)\s+(?:and|with)\s+(?P<who>(?:my|our)\s+.+?)\s*[.!]*$")


def _home_after_move(clause: str) -> list[str] | None:
    """``clause``, said after a move without its place, as "I live in <place> now" and what followed it, or
    ``None`` when it names no place the user is in."""
    m = _IN_NOW.match(clause.strip())
    if m is None or (m.group("lower") is not None and not clause.islower()):
        return None
    place = m.group("place") or m.group("lower")
    if place.split()[0].lower() in _NO_PLACE or names_no_home(place):
        return None
    place = " ".join(w[:1].upper() + w[1:] for w in place.split())
    rest = m.group("rest")
    alone_with = _ALONE_WITH.match(rest) if rest else None
    # "just me and my cat Pisco": whom the user lives with there
    rest = f"I live with {alone_with.group('who')}" if alone_with is not None else rest
    return [f"I live in {place} now"] + ([rest] if rest else [])


def _split_after_move(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with a move and where the user is now told in one ("I moved house, now I'm in Verdun") as two."""
    out = []
    for clause in clauses:
        cut = _NOW_IN_AFTER.search(clause) if _MOVE_WITHOUT_PLACE.match(clause.strip()) else None
        out.extend([clause[: cut.start()], clause[cut.end():]] if cut is not None else [clause])
    return out
# "took a job in Minneapolis and flew up last weekend": a job taken in a city, and the journey there, a move to it (not
# "... and flew up for the interview": a trip's reason said).
_JOB_AND_WENT = rx(r"^(?:(?:i|we)\s+)?(?:(?:just|finally)\s+)?(?:took|got|accepted|landed)\s+(?:a|an|the)\s+(?:new\s+)?"
                   rf"(?:[\w-]+\s+)?(?:job|position|role)\s+in\s+{_CAPITALS}\s*,?\s+and\s+(?:(?:i|we)\s+)?"
                   r"(?:flew|moved|drove|relocated|headed|went)\s+(?:up|down|over|out|across|there)\b"
                   r"(?!.*\bfor\s+(?:the|an|a)\s+(?:interview|visit|weekend|week|trip|day)\b)")
# "we moved out to Boise in the fall", "I moved over to Belfast": a move to the place named (a team or a role is in
# lower case: "moved up to manager").
_MOVED_OUT_TO = rx(r"\bmoved\s+(?:out|over|down|up|across)\s+to\s+(?=(?-i:[A-Z]))")


def as_new_home(clauses: Sequence[str]) -> list[str]:
    """``clauses`` with the new home of a move ("new place is in levenshulme", "all moved into chorlton now") as
    where the user lives now; any other clause as it is.

    >>> as_new_home(["moved out of the fallowfield flat today", "new place is in levenshulme"])
    ['moved out of the fallowfield flat today', 'I live in Levenshulme now']
    >>> as_new_home(["ok all moved into chorlton now"]), as_new_home(["moved into a flat"])
    (['I live in Chorlton now'], ['moved into a flat'])
    """
    out: list[str] = []
    moved = False
    for clause in _split_after_move(clauses):
        place = _new_home(clause)
        went = _JOB_AND_WENT.match(clause.strip())
        if went is not None:
            out += [f"I took a job in {went.group('place')}", f"I moved to {went.group('place')}"]
            continue
        said = _MOVED_OUT_TO.sub("moved to ", clause)
        after_move = _home_after_move(said) if moved and place is None else None
        if after_move is not None:
            out.extend(after_move)
        else:
            out.append(_home_told_inside(said) or said if place is None else f"I live in {place} now")
        moved = moved or _MOVE_WITHOUT_PLACE.fullmatch(clause.strip().rstrip(".!,; ")) is not None
    return out


def sells_the_home(fact: str) -> bool:
    """Whether ``fact`` tells the user's home sold ("User sold the house."), which ends no home: the user lives there
    until they move.

    >>> sells_the_home("User sold the house."), sells_the_home("User sold the car.")
    (True, False)
    """
    return bool(_HOME_SOLD.match(fact.strip()))


# "User moved to a new home.": a move whose place was not said (:mod:`.holds_now` writes it so).
_PLACELESS_MOVE = rx(r"^(?P<who>user|user's\s+[\w' -]+?)\s+moved\s+to\s+a\s+new\s+home\.$")


def placeless_move_beside(fact: str, others: Sequence[str]) -> bool:
    """Whether ``fact`` tells a move without its place ("User moved to a new home.") while another fact of the same
    message (``others``) says where the same person lives now ("User is in the new flat in Norwood Park."): that
    fact holds all the move says.

    >>> placeless_move_beside("User moved to a new home.", ["User is in the new flat in Norwood Park."])
    True
    >>> placeless_move_beside("User moved to a new home.", ["User's sister lives in Leeds."])
    False
    """
    if _PLACELESS_MOVE.match(fact.strip()) is None:
        return False
    who = holder(fact, "residence")
    return any(other != fact and "residence" in slots_of(other) and holder(other, "residence") == who
               and _PLACELESS_MOVE.match(other.strip()) is None for other in others)
