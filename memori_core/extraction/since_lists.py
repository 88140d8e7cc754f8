"""Changes listed after the time they began: "since new year I've given up dairy and alcohol, started swimming at the
lido three mornings a week, and I've already lost 2kg", "as of January I've cut out sugar, joined a gym".

With the "since" in front, the sentence was judged whole (too long to keep) and the clauses of the list were never
split. :func:`as_since_list` leaves the time out, so that each change of the list is read as the user's "I've ...";
the time is when they began, which the facts' own time stands for. Only a perfect ("I've", "I have") and a list (a
comma after the first clause): "since Monday I am Senior QA ..." is read by :mod:`.begun_since`, and "yesterday I
went to a gig, ..." (no "since") keeps its day. Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..calendar_words import ANY_MONTH
from .patterns import rx

__all__ = ["as_since_list"]

# A time long enough for a change to have lasted: a month, a season, a year, new year ("since Monday I've been off
# sick, ..." is the week's news, left as said).
_LONG_AGO = (r"(?:(?:early\s+|late\s+|mid[\s-]?)?(?:" + ANY_MONTH + r")|new\s+year(?:'s)?|christmas|easter"
             r"|(?:last|this)\s+(?:year|summer|winter|spring|autumn|fall)|the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+year"
             r"|(?:19|20)\d\d)")
# The first item must be a change begun then ("given up", "cut out", "started", "joined", "quit", "lost"): "since
# January I've read four books, watched ..., and been to two gigs" is a tally, whose time belongs with it.
_CHANGE = (r"(?:(?:already|finally|completely|totally|also)\s+)?(?:given\s+up|gave\s+up|cut\s+(?:out|down|back)|"
           r"started|joined|quit|lost|gained|stopped|dropped|ditched|switched|swapped|taken\s+up|took\s+up|"
           r"picked\s+up|moved|become|changed|signed\s+up|gone\s+(?:vegan|vegetarian|veggie|sober|part-time|freelance))\b")
_SINCE_LIST = rx(rf"^(?:since|as\s+of)\s+{_LONG_AGO}\s*,?\s+(?P<rest>(?:i've|ive|i\s+have)\s+{_CHANGE}[^,]+,.+)$")


def as_since_list(sentences: Sequence[str]) -> list[str]:
    """``sentences`` with a list of changes led by the time they began said without it; any other as it is.

    >>> as_since_list(["since January I've cut out sugar, joined a gym, and I sleep better"])
    ["I've cut out sugar, joined a gym, and I sleep better"]
    >>> as_since_list(["since January I've cut out sugar"])
    ["since January I've cut out sugar"]
    """
    out = []
    for sentence in sentences:
        m = _SINCE_LIST.match(sentence.strip())
        out.append(m.group("rest") if m is not None else sentence)
    return out
