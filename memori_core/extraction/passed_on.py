"""News of the user's household passed on by someone in it: "my wife says we're moving to Bristol in June", "my
husband told me we're getting a dog".

Someone's view of the user is not the user's fact ("my wife says I work too much": :mod:`.speech_acts`), but a
change or plan of "we" that someone of the user's tells is the household's news, the user's too. :func:`as_passed_on`
reads it as the user's own "we ..." clause, which the rules read as any plan or change of theirs. Only a change or
plan ("moving", "getting", "have bought", "are expecting"): "my wife says we're too old for this" stays a view.
Pure: patterns, English only.
"""

from __future__ import annotations

from .patterns import rx

__all__ = ["as_passed_on"]

# Who tells the household's news: a partner or family, not a boss, a colleague or a neighbour ("my boss says we're
# moving to Teams" is the office's news).
_HOUSEHOLD = (
    r"wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse|other\s+half|mum|mom|mam|mother|dad|father|"
    r"parents|son|daughter|kids?|children|sister|brother|grandma|grandpa|gran|nan|grandmother|grandfather|"
    r"grandparents|mum-in-law|mother-in-law|father-in-law|in-laws"
)
# Where a move goes: "moving to Bristol", "moving house", "moving in together", "moving!"; not "moving too fast".
_WHERE = r"(?=\s*(?:[.!,]|$)|\s+(?:to|into|in|out|back|abroad|away|house|home|up\s+north|down\s+south)\b)"
# "we're moving", "we are getting", "we'll be moving", "we've bought": a change of the household, made or to come;
# "having" only a baby ("we're having a street party" is an event).
_WE_CHANGE = (
    r"we(?:'re|\s+are)\s+(?:(?:finally|definitely|probably|actually|officially)\s+)?"
    rf"(?:(?:moving|relocating){_WHERE}|getting|buying|selling|expecting|adopting|"
    r"having\s+(?:a\s+|another\s+)?(?:baby|babies|twins|boy|girl)\b)"
    rf"|we(?:'ll|\s+will)\s+be\s+(?:moving|relocating){_WHERE}"
    r"|we(?:'ve|\s+have)\s+(?:finally\s+|just\s+)?(?:bought|sold|adopted|moved|got|been\s+offered)\b"
)
_PASSED_ON = rx(
    rf"^(?:my|our)\s+(?:[\w-]+\s+)?(?:{_HOUSEHOLD})(?:\s+(?-i:[A-Z])[\w-]+)?\s+"
    r"(?:(?:just|finally)\s+)?(?:says|said|told\s+me|tells\s+me|reckons\s+(?=we'?(?:re|ll|ve)?\s))\s*,?\s*(?:that\s+)?"
    rf"(?P<news>(?:{_WE_CHANGE}).*)$"
)

def as_passed_on(clause: str) -> list[str] | None:
    """``clause`` (a user's clause, its lead cut) as the household's news it passes on (``["we're moving to Bristol
    in June"]``); ``None`` when it passes on none.

    >>> as_passed_on("my wife says we're moving to Bristol in June")
    ["we're moving to Bristol in June"]
    >>> as_passed_on("my wife says we're too old for this") is None
    True
    """
    m = _PASSED_ON.match(clause.strip())
    return [m.group("news")] if m is not None else None
