"""Questions about what is coming up for the asker, and the facts that are plans in force when they are asked.

"Any outdoor plans coming up?", "Do I have any travel coming up?", "What should I pack?" and "What are my plans for
this weekend?" are near no plan in meaning: MiniLM puts "User is hiking in the Alps next weekend." at a cosine of
about 0.1 from the first. What answers them is a fact's time, not its words: a fact that ends or expires later
(a plan stored with its end, a change told ahead), a fact telling an event on a day still ahead ("on 2026-10-20",
"on Nov 1", "next month" said last week), or a plan called off lately (so the model does not offer the plan).
The gate keeps those (docs/ranking.md item 50; ``passed_by``: ``upcoming``). English rules, pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timezone

import numpy as np

from ..calendar_words import ANY_MONTH, ANY_WEEKDAY, SHORT_MONTHS, month_number
from ..number_words import count_of, number_words
from ..validate import check_str

__all__ = ["CHANGE_DAYS", "HORIZON_DAYS", "UPCOMING_MOST", "asks_about_travel", "asks_what_is_coming",
           "plans_in_force", "still_ahead", "tells_a_dated_plan", "tells_a_plan"]

DAY = 86400.0
HORIZON_DAYS = 120
"""How far ahead an event told with a day may lie and still be "coming up"."""
CHANGE_DAYS = 31
"""How long a plan called off, postponed or moved stays news a question about what is coming up is shown."""
UPCOMING_MOST = 3
"""The most plans in force the gate keeps for one question (the best ranked): a memory full of dated plans must not
crowd out the facts the question's words are near."""

_PERSONAL = re.compile(r"\b(?:i|i'm|i've|i'll|me|my|mine|we|we're|us|our)\b", re.IGNORECASE)
# What fills someone's schedule: asked of with no asker named ("Any outdoor plans coming up?", "Anything planned
# for the holidays?"), it is the asker's; a question of nothing of the kind is of the world ("Anything good coming up
# on Netflix?", "What's coming up in the Premier League?").
_SCHEDULE = (r"plans?|planned|trips?|travel|travell?ing|events?|appointments?|holidays?|vacations?|getaways?|"
             r"outings?|scheduled|booked|commitments?|deadlines?|meetings?|flights?|visits?|bookings?")
_OWN_SCHEDULE = re.compile(rf"\b(?:{_SCHEDULE})\b|\banything\s+on\s*(?:this|next|tonight|tomorrow|today|[?.!]|$)",
                           re.IGNORECASE)
# Asking what is ahead: "Any outdoor plans coming up?", "What's coming up for me?", "any upcoming trips", "my plans
# for the weekend", "anything planned", "what's on my calendar"; not news told ("My mum's birthday is coming up"),
# nor the world's ("What upcoming movies should I watch?", "Any upcoming elections?").
_AHEAD = re.compile(rf"\b(?:any|anything|something|what(?:'s|\s+is|\s+are)?)\b[^.?!]{{0,40}}\bcoming\s+up\b"
                    rf"|\b(?:my|our)\s+upcoming\b|\b(?:any|what)\s+upcoming\s+(?:\w+\s+)?(?:{_SCHEDULE})\b"
                    r"|\bon\s+(?:my|our)\s+(?:calendar|schedule|agenda)\b"
                    r"|\banything\s+(?:planned|on|scheduled|booked)\b|\bgot\s+(?:anything|something)\s+on\b",
                    re.IGNORECASE)
_PLANS = re.compile(r"\b(?:any|my|our)\s+(?:\w+\s+)?plans\b|\bplans\s+for\s+(?:this|next|the)\s+"
                    r"(?:weekend|week|month|holidays?|summer)\b|\bwhat\s+am\s+i\s+(?:doing|up\s+to)\b(?!\s+wrong)", re.IGNORECASE)
# Plans for a thing, not a time: "Any plans for the new stadium?", "my plans for retirement savings" (a time, or
# an occasion of the asker's, is a plan ahead: "plans for the weekend", "plans for Saturday", "plans for my birthday")
_PLANS_FOR_A_THING = re.compile(
    r"\bplans?\s+for\s+(?!(?:my|our)\b|(?:(?:this|next|the|that)\s+)?(?:weekend|week|month|year|summer|winter|"
    r"spring|autumn|fall|holidays?|evening|morning|afternoon|night|day|break|half[\s-]term|rest\s+of)\b|"
    rf"(?:tonight|tomorrow|today|christmas|easter|new\s+year|{ANY_WEEKDAY})\b)", re.IGNORECASE)
# "Am I busy next week?", "Am I free this weekend?", "Do I have anything tomorrow?"
_WHEN_AHEAD = re.compile(r"\b(?:am\s+i|are\s+we)\s+(?:busy|free|away|travell?ing|going\s+anywhere)\b"
                         r"|\b(?:do|have)\s+(?:i|we)\s+(?:got\s+)?(?:anything|something)\b", re.IGNORECASE)
# Packing as the asker's verb, with no meal: "What should I pack?", "What do I need to pack for my trip?", not
# "pack for lunch", nor a thing called a pack ("How do I get a six-pack?").
_PACK = re.compile(r"\b(?:i|we|to)\s+(?:\w+\s+)?pack(?:ing)?\b(?:\s+for\s+(?:my|our|the)\s+(?:\w+\s+)?"
                   r"(?:trip|holiday|vacation|journey|flight|travels?))?\s*[?.!]*\s*$"
                   r"|(?<![\w-])pack(?:ing)?\s+(?:(?:my|our|a|the)\s+(?:\w+\s+)?(?:bags?|suitcases?|luggage)|for\s+"
                   r"(?:my|our)\s+(?:\w+\s+)?(?:trip|holiday|vacation|journey|flight|travels?))\b", re.IGNORECASE)
# "my trip" with no place after it: "before my trip", "my upcoming trip!"; "my trip to Tokyo" names its own, and
# "my holiday home" is a house.
_MY_TRIP = re.compile(r"\b(?:my|our)\s+(?:\w+\s+)?(?:trip|travels?|vacation|holiday|journey|flight)\b"
                      r"(?!\s+(?:to|in|at|around|through|homes?|house|cottage|flat|let|pay|allowance|entitlement|"
                      r"insurance)\b)", re.IGNORECASE)
_TRAVEL = re.compile(r"\b(?:any|my)\s+(?:\w+\s+)?travel\b", re.IGNORECASE)
_PAST = re.compile(r"\b(?:did|was|were|had|last|ago|yesterday|used\s+to)\b", re.IGNORECASE)
_LEADS_WITH_ANY = re.compile(r"^\W*(?:any|anything|what's|whats|what\s+is|what\s+are)\b", re.IGNORECASE)


def asks_what_is_coming(query: str) -> bool:
    """Whether ``query`` asks about the asker's plans ahead: "Any outdoor plans coming up?", "Do I have any travel
    coming up?", "What are my plans for this weekend?", "Am I busy next week?", "What should I pack?", "Any tips for
    my trip?" (a trip with no place). Not a question about the past ("What did I do last weekend?"), nor one with no
    asker ("What films are coming up?", "Are there plans for a new stadium?", "Anything good coming up on
    Netflix?"), nor one of plans for a thing ("What are my plans for retirement savings?")."""
    check_str(query, "query")
    text = query.replace("\u2019", "'")
    if _PAST.search(text) or _PLANS_FOR_A_THING.search(text):
        return False
    personal = _PERSONAL.search(text) is not None
    if not text.rstrip().endswith("?") and not _LEADS_WITH_ANY.match(text):
        return False  # a question asks what is coming up; a turn telling a plan is news (item 50)
    if _AHEAD.search(text) or _PLANS.search(text):
        return personal or (_LEADS_WITH_ANY.match(text) is not None and _OWN_SCHEDULE.search(text) is not None
                            and not re.search(r"\b(?:there|they|he|she)\b", text, re.IGNORECASE))
    if not personal:
        return False
    return bool(_WHEN_AHEAD.search(text) or _PACK.search(text) or _MY_TRIP.search(text) or _TRAVEL.search(text))


# A question about the asker's travel: "Do I have any travel coming up?", "Any trips planned?", "What should I pack?",
# "Am I going anywhere next month?", "Am I away next week?", "Any flights booked?". Holidays, a flight or going away
# only as the trip asked about: "Any plans for the holidays?" and "Anything I need to do before my flight?" ask about
# the time around it, "Am I free this weekend or away?" about the whole schedule; packing only for a trip (_PACK:
# not "pack for my daughter's school lunch").
_ASKS_TRAVEL = re.compile(r"\b(?:travel\w*|trips?|flights?|fly(?:ing)?|vacations?|holidays?|getaways?|journeys?|"
                          r"going\s+anywhere)\b"
                          r"|\b(?:am\s+i|are\s+we|(?:i|we)\s+be|(?:i|we)\s+(?:\w+\s+)?(?:be\s+)?going)\s+away\b",
                          re.IGNORECASE)
# The time around a holiday, a flight or going away, not the trip: "for the holidays", "over Christmas holidays",
# "before my flight", "until I go away".
_AROUND_A_TRIP = re.compile(r"\b(?:for|over|during|through|across|before|after|until|till|ahead\s+of|by)\s+"
                            r"(?:(?:the|this|these|my|our|i|we)\s+)?(?:\w+\s+)?(?:holidays?|flights?|go(?:ing)?\s+away)\b",
                            re.IGNORECASE)
# A fact that tells travel: going somewhere ("flying to Tokyo", "going to Denver", "hiking in the Alps", "a trip to
# Lisbon", "visiting their mum", "visiting Lisbon"), not a day at home ("User's mum's birthday is on November 3.",
# "User has a dentist appointment on Monday.", "User has a GP visit on Tuesday.").
_KIN = (r"mum|mom|mother|dad|father|parents?|family|grand\w*|gran|nan|sisters?|brothers?|siblings?|aunts?|uncles?|"
        r"cousins?|sons?|daughters?|kids|children|friends?|relatives|in-laws|folks|partner|boyfriend|girlfriend")
_TELLS_TRAVEL = re.compile(r"\b(?:fl(?:y|ying|ight|ights|ew)|trips?|travel\w*|vacation\w*|holidays?|getaways?|journeys?|"
                           r"cruise|abroad|camping|hik\w+|backpacking|road\s+trip)\b"
                           rf"|\bvisit(?:ing|s)?\s+(?:(?:to|in)\s+)?(?:(?:(?:my|his|her|their|our)\s+)?(?:\w+\s+)?(?:{_KIN})\b"
                           r"|(?!(?:Dr|Doctor|The|A|An)\b)(?-i:[A-Z]))"
                           r"|\b(?:going|heading|driving|moving|returning|off)\s+(?:back\s+)?(?:to|home)\b", re.IGNORECASE)


def asks_about_travel(query: str) -> bool:
    """Whether ``query``, a question about what is coming up (:func:`asks_what_is_coming`), asks about travel ("Do
    I have any travel coming up?", "What should I pack?"): only a plan that goes somewhere answers it, not a birthday
    or an appointment at home. Not the time around a trip ("Any plans for the holidays?", "Anything I need to do
    before my flight?"), nor a schedule that may hold one ("Am I free this weekend or away?")."""
    text = query.replace("\u2019", "'")
    return _ASKS_TRAVEL.search(_AROUND_A_TRIP.sub(" ", text)) is not None or _PACK.search(text) is not None


# a month whole or short ("September", "Sept", "Sep"); a whole name is tried before the short name it starts with
_MONTH = f"{ANY_MONTH}|{SHORT_MONTHS}"
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_DAY = re.compile(rf"\b(?:({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?(?!\d)|(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
                        rf"({_MONTH})\b)(?:,?\s+(\d{{4}}))?", re.IGNORECASE)
_YEARLY = re.compile(r"\b(?:birthday|anniversary|every\s+year|annual)\b", re.IGNORECASE)
# Words that put a told event ahead of the day it was said, and how many days after that day it may still be ahead.
_RELATIVE: tuple[tuple[re.Pattern[str], float], ...] = tuple(
    (re.compile(p, re.IGNORECASE), days) for p, days in (
        (r"\b(?:tonight|today|this\s+(?:evening|afternoon|morning))\b", 1),
        (r"\btomorrow\b", 2),
        (r"\bthis\s+(?:weekend|week|saturday|sunday)\b", 7),
        (rf"\b(?:next\s+(?:weekend|week|{ANY_WEEKDAY})|in\s+(?:a|one|two|"
         r"a\s+couple\s+of|\d)\s+(?:days?|weeks?))\b", 14),
        (r"\b(?:this|later\s+this)\s+month\b|\bin\s+(?:three|four|\d)\s+weeks\b", 31),
        (r"\b(?:next\s+month|in\s+(?:a|one|two|\d)\s+months?)\b", 62),
    ))
# A fact that tells a plan, not a fact about an ended one: "User is flying to Tokyo on ...", "User has a dentist
# appointment on ...", "User is going to Denver next month", "User will start ...".
_PLAN_WORDS = re.compile(r"\b(?:is|are|am|'s|'m|'re)\s+(?:\w+\s+)?(?:going|flying|travell?ing|driving|heading|moving|"
                         r"visiting|attending|hiking|starting|leaving|getting|having|hosting|running|taking|meeting|"
                         r"seeing|doing|planning|booked|scheduled|due)\b|\bwill\b|\bplans?\s+to\b|\b(?:has|have)\s+(?:a|an"
                         r"|the|her|his|their)\s+(?:\w+\s+)?(?:appointment|meeting|interview|exam|flight|trip|wedding|"
                         r"party|conference|surgery|concert|match|race|holiday|vacation)\b|\bupcoming\b|\bsoon\b",
                         re.IGNORECASE)
_CHANGED = re.compile(r"\b(?:cancell?ed|called\s+off|postponed|rescheduled|pushed\s+back|is\s+off|"
                      r"no\s+longer\s+(?:going|flying|travell?ing|attending))\b", re.IGNORECASE)
_DURATION = re.compile(rf"\bfor\s+(?:a|{number_words('three')}|\d+)\s+(days?|weeks?|nights?)\b", re.IGNORECASE)


def tells_a_plan(text: str) -> bool:
    """Whether the stated fact ``text`` tells a plan of its own ("User is flying to Tokyo on ...", "User has a
    dentist appointment on ...", "User will start ..."), not a yearly day ("User's birthday is November 3.") nor a
    plan called off or moved."""
    return bool(_PLAN_WORDS.search(text)) and not _YEARLY.search(text) and not _CHANGED.search(text)


def tells_a_dated_plan(text: str) -> bool:
    """Whether ``text`` tells a plan of its own (:func:`tells_a_plan`) on a day it names ("User is flying to Tokyo on
    2026-10-20.", "... on Nov 1"): whether it bears on a question is a matter of that day, which only
    :func:`plans_in_force` reads.

    >>> tells_a_dated_plan("User is flying to Tokyo on 2026-10-20 for a week."), tells_a_dated_plan("User flies often.")
    (True, False)
    """
    return tells_a_plan(text) and (_ISO_DAY.search(text) is not None or _MONTH_DAY.search(text) is not None)


def _day_end(year: int, month: int, day: int) -> float | None:
    try:
        return datetime(year, month, day, tzinfo=timezone.utc).timestamp() + 1.5 * DAY  # any offset's day
    except ValueError:
        return None


def _lasting(text: str) -> float:
    """How long a told event lasts past its day ("for a week": 7 days), in seconds."""
    m = _DURATION.search(text)
    if m is None:
        return 0.0
    n = count_of(m.group(0).split()[1])
    unit = m.group(1).lower()
    return n * (7 if unit.startswith("week") else 1) * DAY


def still_ahead(text: str, said: float, now: float) -> bool:
    """Whether ``text`` (said at ``said``, epoch seconds) tells an event still ahead at ``now``, within
    :data:`HORIZON_DAYS`: a day ("on 2026-10-20", "on Nov 1", "November 3rd"; a birthday comes back every year) or
    words that count from the day it was said ("next weekend", "next month"), in a fact that tells a plan."""
    if said > now or not _PLAN_WORDS.search(text) and not _YEARLY.search(text):
        return False
    horizon = now + HORIZON_DAYS * DAY
    told = datetime.fromtimestamp(said, tz=timezone.utc)
    lasting = _lasting(text)
    for m in _ISO_DAY.finditer(text):
        end = _day_end(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        if end is not None and now <= end + lasting and end - 1.5 * DAY <= horizon:
            return True
    for m in _MONTH_DAY.finditer(text):
        month = month_number(m.group(1) or m.group(4))
        day = int(m.group(2) or m.group(3))
        yearly = not m.group(5) and _YEARLY.search(text) is not None
        if m.group(5):
            years = [int(m.group(5))]
        elif yearly:
            first = datetime.fromtimestamp(now, tz=timezone.utc).year
            years = [first, first + 1]
        else:  # the next such day after it was said
            years = [told.year, told.year + 1]
        for year in years:
            end = _day_end(year, month, day)
            if end is None or end < said or (yearly and end + lasting < now):
                continue  # a yearly day: its next time on or after now (on December 28, January 5 next year)
            if now <= end + lasting and end - 1.5 * DAY <= horizon:
                return True
            break
    for pattern, days in _RELATIVE:
        if pattern.search(text) and now <= said + days * DAY + lasting:
            return True
    return False


def plans_in_force(texts: Sequence[str], said: np.ndarray, ends: np.ndarray, now: float, *,
                   travel: bool = False) -> np.ndarray:
    """Per fact, whether it is a plan in force at ``now`` (epoch seconds): said by then (``said``, epoch seconds;
    0: unknown), and ending or expiring later (``ends``: the earlier of its expiry and its ``valid_to``, ``inf`` for
    none: a plan stored with its end, a change told ahead), or telling an event still ahead (:func:`still_ahead`),
    or telling lately (within :data:`CHANGE_DAYS`) that a plan was called off, postponed or moved. ``travel``: the
    question asks about travel (:func:`asks_about_travel`), and only a fact telling travel is one (a birthday
    coming up is no trip), or a plan called off lately."""
    said = np.asarray(said, dtype=np.float64)
    ends = np.asarray(ends, dtype=np.float64)
    if said.shape != ends.shape or said.shape[0] != len(texts):
        raise ValueError(f"texts, said and ends must be as long: {len(texts)}, {said.shape[0]}, {ends.shape[0]}")
    told = said <= now
    out = told & np.isfinite(ends) & (ends > now)
    recent = told & (said >= now - CHANGE_DAYS * DAY)
    changed = np.zeros_like(out)
    for i in np.flatnonzero(told & ~out).tolist():
        text = texts[i]
        changed[i] = bool(recent[i]) and _CHANGED.search(text) is not None
        out[i] = changed[i] or still_ahead(text, float(said[i]), now)
    if travel:  # a plan called off lately is news of the plan, whatever it names ("The Denver conference is off.")
        for i in np.flatnonzero(out & ~changed).tolist():
            out[i] = _TELLS_TRAVEL.search(texts[i]) is not None
    return out

