"""Life events told the many ways people tell them, as the plain first-person statements the rules read.

"day 40 without a cigarette", "haven't had coffee in a month", "6 months sober" -> "I quit smoking", "I quit
coffee", "I'm sober now"; "I'm officially a retiree" -> "I'm retired now"; "my position got eliminated" -> "I was
laid off from <the stored employer>"; "signed an offer with X" -> "I accepted a new job at X"; "officially married"
-> "<the stored partner> and I got married"; "the divorce went through" -> "<the stored spouse> and I got
divorced"; "not with Sam anymore" (Sam the stored partner) -> "Sam and I broke up"; "we ended up moving to bristol",
"we're settled in Uppsala now" -> "I moved to Bristol"; "pescatarian since new years" -> "I'm pescatarian now"; "vegan as of today" -> "I went vegan today"; "Jake
proposed!!" (Jake the stored partner) -> "Jake and I got engaged"; "Dynatrace withdrew the offer", "I said no to them"
(an offer stored) -> the offer withdrawn or turned down; "Luna has been sick, vet says kidney failure" -> "Luna has
kidney failure". Each
restatement carries a change word, so it ends the stored fact of its slot, and leaves out when the event happened
(the fact's ``created_at`` holds it). A side remark on how things go ("my sleep is so much better", "we got the
keys") is no fact. Pure: patterns over a clause and the user's stored facts, English only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..number_words import number_words
from ..calendar_words import ANY_MONTH, SHORT_MONTHS
from ..slots import PERSON, holder, names_no_home
from .leads import CLINICIAN, strip_lead
from .named import OWN_PREGNANCY, partner_of
from .patterns import I_OR_WE_ARE, rx
from .activities import PETS
from .relationships import relationship_stage
from .cues import is_negated
from .endings import stopped_habit
from .elided_doing import hands_over
from .health import BODY_PART
from .slots import is_job_offer, slots_of

__all__ = ["as_life_events", "restate_event"]

_IM = I_OR_WE_ARE
_NUMBER = (rf"(?:\d+|a|an|{number_words('twelve')}|a\s+few|a\s+couple\s+of|"
           r"several)")
_MONTH = f"(?:{ANY_MONTH})"
_SPAN = rf"{_NUMBER}\s+(?:full\s+)?(?:days?|weeks?|months?|years?)"

# What a habit's word is a habit of: "a cigarette" -> smoking.
_HABIT_OF = (
    (rx(r"^(?:cig\w*|smok\w*|tobacco|nicotine|vap\w*)$"), "I quit smoking"),
    (rx(r"^(?:alcohol|booze|drinks?|drinking|wine|beer|liquor)$"), "I stopped drinking alcohol"),
    (rx(r"^(?:coffee|caffeine|espresso)$"), "I quit coffee"),
)
# "day 40 without a cigarette", "three weeks without booze", "a month off alcohol", "haven't had coffee in a
# month", "haven't touched alcohol since february", "haven't smoked in a year", "it's been 3 weeks since my last
# cigarette".
_WITHOUT = rx(
    rf"^(?:day\s+\d+|{_SPAN})\s+(?:without|with\s+no|free\s+of|off(?:\s+the)?)\s+(?:a\s+(?:single\s+)?|any\s+|one\s+)?"
    r"(?P<thing>[a-z]+)"
    rf"|^(?:(?:it's|its|it\s+is|it\s+has)\s+been\s+)?(?:over\s+|almost\s+|nearly\s+)?{_SPAN}\s+since\s+(?:my|the|a)\s+"
    r"last\s+(?P<thing3>[a-z]+)"
    rf"|^(?:(?:i|we)\s+)?(?:actually\s+|still\s+)?(?:haven't|have\s+not)\s+(?P<verb>had|touched|drunk|smoked|vaped)"
    r"\s+(?:a\s+|any\s+)?(?P<thing2>[a-z]+)?\s*(?:in|since|for)\b"
)
_VERB_HABIT = {"smoked": "smoking", "vaped": "smoking", "drunk": "drinking"}
# "6 months sober", "I'm sober since March": not drinking (a habit of the user's own, not "sober tonight").
_SOBER = rx(rf"^(?:{_SPAN}\s+sober\b|{_IM}\s+(?:now\s+|officially\s+)?sober\s+(?:now|since)\b)")

# "I'm officially a retiree", "officially a pensioner!", "my last day of work ever": retired (a plain "I retired" the
# rules read).
_RETIRED = rx(
    rf"(?:\b{_IM}\s+(?:now\s+|officially\s+|finally\s+)*|^(?:now\s+|officially\s+|finally\s+)+)a\s+"
    r"(?:retiree|pensioner|oap)\b|\b(?:my\s+)?last\s+day\s+(?:at|of)\s+work\s+(?:ever|forever)\b"
)
# "my position got eliminated", "my role was made redundant", "I got let go", "the whole research team got cut in the
# restructure": laid off (not "our team got cut from the league").
_LAID_OFF = rx(
    r"^(?:(?:my\s+(?:position|role|job|post)|(?:my|our|the)\s+(?:whole\s+|entire\s+)?(?:[\w-]+\s+)?(?:team|department|"
    r"dept|unit|division))\s+(?:got|was|has\s+been|is\s+being)\s+(?:eliminated|cut|axed|disbanded|"
    r"made\s+redundant)(?!\s+from\b)|i\s+(?:got|was|have\s+been|'ve\s+been)\s+let\s+go)\b"
)
# "signed an offer w/ a design agency", "accepted the offer from Spotify": a new job (an offer only got is none).
_ORG = (r"(?P<org>(?:(?:a|an|the)\s+)?[\w&.'-]+(?:\s+(?!starting\b|from\b|on\b|next\b|this\b|in\s+(?:the\s+)?"
        rf"{_MONTH}\b)[\w&.'-]+){{0,6}}?)")
_OFFER = rx(
    rf"^(?:(?:i|we)\s+)?(?:just\s+|finally\s+|officially\s+)?(?:signed|accepted|took)\s+(?:an?\s+|the\s+|their\s+)?"
    rf"(?:job\s+)?offer\s+(?:with|w/|from|at)\s+{_ORG}\s*(?:,|[.!]*$|\s+(?:starting|from|on|next|this)\b)"
)
# "officially married as of saturday", "tied the knot", "I'm married now": the user married.
_MARRIED = rx(
    r"^(?:(?:we|i)\s+did\s+it|it's\s+official)?[\s,!.-]*(?:(?:i|we)\s+)?(?:(?:are|'re|am|'m)\s+)?"
    r"(?:(?:just|finally|officially)\s+)*(?:(?:officially|finally|now)\s+married|tied\s+the\s+knot|got\s+hitched)\b"
    rf"|^{_IM}\s+married\s+now\b"
)
# "the divorce went through in june", "my divorce is final", "I'm officially divorced".
_DIVORCED = rx(
    r"^(?:(?:the|my|our)\s+divorce\s+(?:went\s+through|is\s+(?:final|done|through|official)|was\s+finali[sz]ed|"
    r"came\s+through)|(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:now\s+)?(?:officially|finally)\s+divorced)\b"
)
_NAME = r"(?-i:[A-Z])[\w\u00c0-\u017f-]+"
# "Jake proposed!!", "he proposed last night", "my boyfriend popped the question": an engagement (not "Jake proposed a
# toast", "he proposed we split the bill", "he proposed to his girlfriend").
_PROPOSED = rx(
    rf"^(?:(?P<name>{_NAME})|(?P<pronoun>he|she)|my\s+(?P<role>boyfriend|girlfriend|partner|bf|gf))\s+"
    r"(?:(?:just|finally|actually|officially)\s+)*(?:proposed|popped\s+the\s+question)(?:\s+to\s+me)?"
    r"(?:\s+(?:last\s+\w+|yesterday|today|tonight|this\s+(?:morning|afternoon|evening|weekend|week)|on\s+\w+day"
    r"|(?:at|in|on|during|over|while|after)\s+(?!(?:a|the)\s+meeting\b)[^,;:?]+))?[\s.!]*$"
)
# "not with Sam anymore", "no longer with Sam", "my ex Kofi ...": a breakup, of a partner a stored fact names.
_BROKE_UP = rx(
    rf"(?:^|\b{I_OR_WE_ARE}\s+)(?:not|no\s+longer)\s+(?:together\s+)?with\s+(?P<name>{_NAME})"
    rf"(?:\s+(?:anymore|any\s+more))?\b|^my\s+ex\s+(?:\w+\s+)?(?P<ex>{_NAME})"
)
_PLACE = (r"(?P<place>(?-i:[A-Z])[\w\u00c0-\u017f-]+(?:\s+(?-i:[A-Z])[\w\u00c0-\u017f-]+)?"
          r"|(?!(?:in|on|at|last|this|next|the|a|an|my|our|be|live|work|stay)\b)[a-z\u00c0-\u017f-]{3,})")
# "we ended up moving to bristol in march", "finally made the move to Leeds", "we're settled in Uppsala now" (at the
# end of a long story too: "we spent all summer packing, ... but anyway we're settled in Uppsala now").
_MOVED = rx(
    r"(?:(?:^|\b(?:i|we)\s+)(?:(?:ended\s+up|wound\s+up)\s+(?:moving|relocating)|(?:finally\s+)?made\s+the\s+move)"
    rf"\s+(?:back\s+)?to\s+|(?:^|\b){_IM}\s+(?:all\s+|finally\s+|now\s+)?settled\s+in\s+)" + _PLACE
)
# "pescatarian since new years", "I'm vegan as of january": a state said with when it began is what the user is now;
# "doing keto since jan": a diet the user is on since then.
_STATE_SINCE = rx(
    rf"^(?:{_IM}\s+)?(?:now\s+|officially\s+|fully\s+)?(?P<on>(?:doing|on)\s+)?(?P<state>[a-z-]+)\s+"
    rf"(?:since|as\s+of)\s+(?:the\s+)?(?:last\s+)?(?:{_MONTH}|(?:{SHORT_MONTHS})\b\.?|"
    r"new\s+years?|new\s+year's|christmas|spring|summer|autumn|fall|winter|(?:19|20)\d\d|"
    r"(?:last\s+)?(?:week|month|year))\b"
)


def _habit(thing: str | None, verb: str | None) -> str | None:
    """The statement that the habit of ``thing`` ("cigarette", "booze") or ``verb`` ("smoked") stopped; ``None``
    for a word of no known habit ("haven't had a holiday in years")."""
    word = (thing or _VERB_HABIT.get((verb or "").lower(), "")).lower()
    return next((said for pattern, said in _HABIT_OF if pattern.match(word)), None)


def _quit_habit(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "day 40 without a cigarette", "haven't had coffee in a month" -> the habit stopped; "6 months sober" ->
    "I'm sober now"."""
    m = _WITHOUT.match(clause)
    if m is not None:
        said = _habit(m.group("thing") or m.group("thing2") or m.group("thing3"), m.group("verb"))
        if said is not None:
            return [said]
    return ["I'm sober now"] if _SOBER.match(clause) else None


def _retired(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "34 years and I'm officially a retiree!" -> "I'm retired now"."""
    return ["I'm retired now"] if _RETIRED.search(clause) else None


# The employer a stored job fact of the user's names: "User is a UX designer at Spotify." -> "Spotify".
_AT_EMPLOYER = re.compile(rf"\b(?:at|for)\s+(?P<org>{_NAME}(?:\s+{_NAME})*)")


def _employer(known: Sequence[str]) -> str | None:
    """The one employer the user's stored job facts name ("Spotify"), or ``None``."""
    found = {m.group("org") for text in known if "job" in slots_of(text) and holder(text, "job") == "user"
             and not is_negated(text) for m in [_AT_EMPLOYER.search(text)] if m is not None}
    return found.pop() if len(found) == 1 else None


def _laid_off(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "my position got eliminated", "I got let go" -> "I was laid off (from <the stored employer>)"."""
    if not _LAID_OFF.match(clause):
        return None
    org = _employer(known)
    return [f"I was laid off from {org}" if org else "I was laid off"]


def _new_job(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "signed an offer w/ a small design agency in Malmö" -> "I accepted a new job at a small design agency in
    Malmö"."""
    m = _OFFER.match(clause)
    return [f"I accepted a new job at {m.group('org').strip()}"] if m is not None else None


# A clause and the user's stored facts -> the event restated in the user's words, or None when it tells none.
_Restater = Callable[[str, Sequence[str]], list[str] | None]


def _relationship_told(known: Sequence[str]) -> bool:
    """Whether a stored fact tells of the user's own relationship (a partner, a stage, a breakup)."""
    return any("relationship" in slots_of(text) and holder(text, "relationship") == "user" for text in known)


def _proposed(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "Jake proposed!!", "he proposed last night" -> "Jake and I got engaged" (the partner a stored fact names, or
    the one named when no relationship of the user's is stored; "he" / "she" / "my boyfriend" only when one partner
    is stored, else "I got engaged" for "my boyfriend"). A name that is not the stored partner's, or a pronoun with
    no partner stored, tells no engagement of the user's."""
    m = _PROPOSED.match(clause)
    if m is None:
        return None
    partner = partner_of(known, (m.group("pronoun") or "").lower())
    if m.group("name"):
        if m.group("name") == partner or not _relationship_told(known):  # no partner stored: the one named
            return [f"{m.group('name')} and I got engaged"]
        return None
    if partner is not None:
        return [f"{partner} and I got engaged"]
    return ["I got engaged"] if m.group("role") else None


# The employer a stored offer names: "User got a job offer as a designer at Dynatrace in Linz." -> "Dynatrace".
_OFFER_FROM = re.compile(rf"\b(?:at|from|with|by)\s+(?P<org>{_NAME}(?:\s+{_NAME})*?)(?=\s+(?:in|as|for|to|on|and|but)\b"
                         r"|\s*[,.!]|$)")
# An offer that no longer stands, told by the one who made it ("Dynatrace withdrew the offer"), or of the offer ("the
# offer fell through", "the Dynatrace offer got pulled"), or a bare decline right after it ("I turned it down", "I
# said no to them").
_OFFER_WITHDRAWN = rx(
    rf"^(?P<org>{_NAME}(?:\s+{_NAME})*?)\s+(?:(?:just|actually|suddenly)\s+)?(?:withdrew|rescinded|pulled|retracted|"
    r"took\s+back|cancell?ed)\s+(?:the|their|its|my|our)\s+(?:job\s+)?offer\b"
    rf"|^(?:the|my|their)\s+(?:(?P<org2>{_NAME})\s+)?(?:job\s+)?offer(?:\s+from\s+(?P<org3>{_NAME}))?\s+"
    r"(?:(?:was|got|has\s+been)\s+(?:withdrawn|rescinded|pulled|retracted|cancell?ed)|fell\s+through|"
    r"didn't\s+work\s+out)\b"
)
_OFFER_DECLINED = rx(
    r"^(?:i|we)\s+(?:(?:just|finally|ended\s+up|actually|politely)\s+)*(?:turned\s+(?:it|them|that)\s+down|"
    r"declined(?:\s+(?:it|them|that))?|said\s+no(?:\s+to\s+(?:it|them|that))?|passed(?:\s+on\s+(?:it|them|that))?|"
    r"rejected\s+(?:it|them|that))(?:\s+(?:today|yesterday|last\s+\w+|this\s+morning|in\s+the\s+end))?[\s.!]*$"
)
# A stored offer that already ended: "User turned down the job offer from Dynatrace."
_OFFER_GONE = rx(r"\b(?:turned\s+down|declined|rejected|withdrawn|rescinded|fell\s+through|didn't\s+work\s+out|"
                 r"lost|pulled)\b")


def _offers(known: Sequence[str]) -> list[str]:
    """The employers of the user's stored offers that still stand ("Dynatrace"), in order, without repeats."""
    found = [m.group("org") for text in known if is_job_offer(text) and holder(text) == "user"
             and not _OFFER_GONE.search(text) for m in [_OFFER_FROM.search(text)] if m is not None]
    return list(dict.fromkeys(found))


def _offer_ended(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "Dynatrace withdrew the offer", "the offer fell through" -> "My job offer from Dynatrace was withdrawn" /
    "... fell through"; "I turned it down", "I said no to them" -> "I turned down the job offer from Dynatrace",
    each only when a stored offer of the user's still stands (the one it names, or the only one). What it ends is
    the offer, never the user's job."""
    offers = _offers(known)
    m = _OFFER_WITHDRAWN.match(clause)
    if m is not None and offers:
        named = m.group("org") or m.group("org2") or m.group("org3")
        org = next((o for o in offers if o.casefold() == named.casefold()), None) if named else \
            (offers[0] if len(offers) == 1 else None)
        if org is None:
            return None
        how = "fell through" if re.search(r"fell\s+through|didn't\s+work", clause, re.IGNORECASE) else "was withdrawn"
        return [f"My job offer from {org} {how}"]
    if _OFFER_DECLINED.match(clause) and len(offers) == 1:
        return [f"I turned down the job offer from {offers[0]}"]
    return None


def _with_partner(event: re.Pattern[str], done: str) -> _Restater:
    """A restater of a clause ``event`` matches at its start: "<partner> and I <done>", the partner a stored fact
    names, or "I <done>" when none does."""

    def restate(clause: str, known: Sequence[str]) -> list[str] | None:
        if not event.match(clause):
            return None
        name = partner_of(known, "")
        return [f"{name} and I {done}" if name else f"I {done}"]

    return restate


# "officially married as of saturday" -> "Tomás and I got married"; "the divorce went through in june" -> "Derek
# and I got divorced".
_married = _with_partner(_MARRIED, "got married")
# "ok wedding's done", "the wedding is over": the user's own, while a stored fact says they are engaged.
_WEDDING_DONE = rx(r"^(?:the\s+|our\s+|my\s+)?wedding(?:'s|\s+is)\s+(?:done|over|done\s+and\s+dusted)\b")


# "I'm officially Mrs Nowak-Reyes", "I'm now Mrs Patel": the name taken with a marriage (not "Mrs Patel is my
# neighbour", a plain "I'm Mrs Patel", a name given).
_MARRIED_NAME = rx(rf"^{_IM}\s+(?:(?:now|officially|finally)\s+)+mrs\.?\s+(?P<name>{_NAME})")


def _married_name(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "I'm officially Mrs Nowak-Reyes lol, still practising the signature" -> "My surname is Nowak-Reyes"."""
    m = _MARRIED_NAME.match(clause)
    return [f"My surname is {m.group('name')}"] if m is not None else None


def _wedding_done(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "ok wedding's done" (a stored "User is engaged to Tomasz.") -> "Tomasz and I got married"; ``None`` with no
    engagement of the user's stored (a friend's wedding is over too)."""
    if not _WEDDING_DONE.match(clause) or not any(
            relationship_stage(text) == "engaged" and holder(text, "relationship") == "user" for text in known):
        return None
    name = partner_of(known, "")
    return [f"{name} and I got married" if name else "I got married"]
_divorced = _with_partner(_DIVORCED, "got divorced")


def _broke_up(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "not with Sam anymore", "my ex Kofi still has my Switch" -> "Sam and I broke up", when a stored fact names
    Sam the user's partner (not "no longer with Google")."""
    m = _BROKE_UP.search(clause)
    if m is None:
        return None
    name = m.group("name") or m.group("ex")
    return [f"{name} and I broke up"] if name == partner_of(known, "") else None


def _moved(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "we ended up moving to bristol in march", "we're settled in Uppsala now" -> "I moved to Bristol"."""
    m = _MOVED.search(clause)
    if m is None:
        return None
    place = m.group("place")
    if names_no_home(place):
        return None  # "we ended up moving to Thursdays for choir": a day, not a home
    return [f"I moved to {place if place[:1].isupper() else place.title()}"]


# "I'm vegan as of today", "vegetarian from today", "starting today I'm off dairy", "from today on I'm gluten-free": a
# diet begun today, which lasts (not a passing "today").
_FROM_TODAY = r"(?:as\s+of|from|starting|since|beginning)\s+(?:today|this\s+morning|now)(?:\s+on(?:wards?)?)?"
# "officially a registered nurse as of this morning": what the user is from now on, a role named with its article
_AS_ROLE = r"(?:a|an)\s+[a-z-]+(?:\s+[a-z-]+){0,2}"


def _state_begun(group: str) -> str:
    """The state begun today, as the group named ``group``, "now", "officially" or "fully" before it as may be:
    "vegan", "off dairy", "a registered nurse"."""
    return rf"(?:now\s+|officially\s+|fully\s+)?(?P<{group}>off\s+[a-z-]+|{_AS_ROLE}|[a-z-]+)"


_DIET_TODAY = rx(
    rf"^(?:{_IM}\s+)?{_state_begun('state')}\s*,?\s+{_FROM_TODAY}\b[\s.!]*$"
    rf"|^{_FROM_TODAY}\s*,?\s+{_IM}\s+{_state_begun('state2')}[\s.!]*$"
)


def _diet_today(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "I'm vegan as of today", "starting today I'm off dairy" -> "I went vegan today" / "I went off dairy today":
    a lasting diet change, written with its day; any other state begun today ("single as of today") -> "I'm single
    now"."""
    m = _DIET_TODAY.match(clause)
    if m is None:
        return None
    state = (m.group("state") or m.group("state2")).lower()
    slots = slots_of(f"User is {state}.")
    if re.match(r"(?:a|an)\s", state):  # a role begun today: the user's job now, when it names one
        return [f"I'm {state}"] if "job" in slots else None
    if "diet" in slots:
        return [f"I went {state} today"]
    return [f"I'm {state} now"] if slots and not state.startswith("off ") else None


def _state_since(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "pescatarian since new years" -> "I'm pescatarian now": a state of a slot of the user's life (a diet, a
    relationship, work) or a care fact, and when it began."""
    m = _STATE_SINCE.match(clause)
    if m is None:
        return None
    state = m.group("state").lower()
    if m.group("on"):  # "doing keto since jan" -> "I'm on keto now": a diet only
        return [f"I'm on {state} now"] if "diet" in slots_of(f"User is on {state}.") else None
    return [f"I'm {state} now"] if slots_of(f"User is {state}.") else None


# When a change told without its "I" happened, at its end: "this week", "today", ", finally!!".
_WHEN_END = (r"(?:\s+(?:this\s+(?:week|month|morning|year)|today|yesterday|last\s+\w+|on\s+\w+day))?"
             r"(?:\s*,?\s*(?:finally|at\s+last))?[\s.!]*$")
# "promoted to senior accountant this week": the user's promotion.
_PROMOTED_TO = rx(r"^(?:just\s+|finally\s+|officially\s+)?promoted\s+to\s+(?P<role>\S.*?)" + _WHEN_END)
# "doing carpentry full time now", "working from home now": what the user does now.
_DOING_NOW = rx(r"^(?P<said>(?:doing|working|studying|teaching|living)\s+\S.*?\bnow)" + _WHEN_END)
# "working full time at the aquarium now and weirdly happier", "doing deliveries now, way less soul destroying": how
# it feels, said after it (not another statement of the user's: "... now and I love it" is cut into clauses first).
_DOING_NOW_REMARK = rx(r"^(?P<said>(?:doing|working|studying|teaching|living)\s+\S.*?\bnow)"
                       r"(?:\s*,\s*|\s+and\s+)(?!(?:i|i'm|we|my|our)\b)(?:[\w'-]+\s+){0,4}[\w'-]+[\s.!]*$")
# "I've been in Cork about ten years now", "we've been in Leeds for six months": how long the user has lived there.
_BEEN_IN = rx(
    r"^(?P<who>i've|i\s+have|we've|we\s+have)\s+been\s+in\s+(?P<place>(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)"
    r"\s+(?:for\s+)?(?P<span>(?:about\s+|around\s+|nearly\s+|almost\s+|over\s+|roughly\s+)?"
    rf"(?:\d+|a|an|{number_words('ten')}|a\s+few|a\s+couple\s+of|several|many)\s+"
    r"(?:years?|months?))(?:\s+now)?[\s.!]*$"
)
# Too short a time in a place to say the user lives there: "a week", "a few months".
_SHORT_STAY = rx(rf"^(?:about\s+|around\s+|nearly\s+|almost\s+|over\s+|roughly\s+)?(?:a|an|{number_words('five')}|"
                 r"a\s+few|a\s+couple\s+of|several)\s+months?$")


def _been_in(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "I've been in Cork about ten years now" -> "I've lived in Cork for about ten years"; ``None`` for any other
    clause ("I've been in hospital for two weeks" names no place; "I've been in Rome for a week" is a stay)."""
    m = _BEEN_IN.match(clause)
    if m is None or _SHORT_STAY.match(m.group("span")) or re.search(r"\bweeks?\b", m.group("span")):
        return None
    return [f"{m.group('who')} lived in {m.group('place')} for {m.group('span')}"]


def _is_doing_now(clause: str) -> bool:
    """Whether ``clause`` is a doing of now typed without its subject ("working nights every week now")."""
    said = strip_lead(clause).strip()
    return bool(_DOING_NOW.match(said) or _DOING_NOW_REMARK.match(said))


def _without_i(clause: str, known: Sequence[str]) -> list[str] | None:
    """A change typed without its "I": "promoted to senior accountant this week" -> "I got promoted to senior
    accountant"; "doing carpentry full time now, finally!!" -> "I'm doing carpentry full time now"."""
    m = _PROMOTED_TO.match(clause)
    if m is not None:
        return [f"I got promoted to {m.group('role')}"]
    m = _DOING_NOW.match(clause) or _DOING_NOW_REMARK.match(clause)
    return [f"I'm {m.group('said')[:1].lower()}{m.group('said')[1:]}"] if m is not None else None


# A birthday told in passing: "30 as of yesterday", "it's my 30th today!", "it's my birthday, 40 today".
_ITS_MY = r"^(?:it's|its|it\s+is)\s+my\s+"
_AGE = rx(
    r"^(?P<n>\d{1,3})\s+(?:as\s+of|since)\s+(?:yesterday|today|last\s+\w+|this\s+\w+|\w+day)\b"
    rf"|{_ITS_MY}(?P<n2>\d{{1,3}})(?:st|nd|rd|th)\b(?:\s+(?:birthday|bday))?\s*(?:today|yesterday)?[\s.!]*$"
    rf"|{_ITS_MY}(?:birthday|bday)\s*[,!.-]*\s*(?P<n3>\d{{1,3}})\s+today\b"
)


def _age(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "30 as of yesterday", "it's my 30th today!" -> "I turned 30"."""
    m = _AGE.match(clause)
    return [f"I turned {m.group('n') or m.group('n2') or m.group('n3')}"] if m is not None else None


# A birth: "Ada arrived tuesday", "the baby was born on Tuesday" (a pregnancy of the user's stored), "our baby girl
# is here", "we had the baby".
_BORN = rx(
    r"^(?:(?P<own>our|my)\s+|the\s+)?(?:(?:new\s+|little\s+)?baby(?:\s+(?P<kind>girl|boy))?|(?P<name>(?-i:[A-Z])"
    r"[\w\u00c0-\u017f-]+))\s+(?:was\s+born|arrived|is\s+here|came)\b"
    r"|^(?:we|i)\s+had\s+(?:the|our)\s+baby\b"
)
_NO_NAME = frozenset("she he it they everyone everybody someone nobody spring summer autumn winter".split())


def _born(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "Ada arrived tuesday, 3.2 kg" (a pregnancy stored) -> "I had a baby named Ada"; "our baby girl is here" ->
    "I had a baby daughter" (someone else's baby, "the baby was born" with no pregnancy stored, is none)."""
    m = _BORN.match(clause)
    if m is None or (m.group("name") or "").lower() in _NO_NAME:
        return None
    if not m.group("own") and not clause.lower().startswith(("we", "i ")) \
            and not any(OWN_PREGNANCY.match(text) for text in known):
        return None
    kind = {"girl": " daughter", "boy": " son"}[m.group("kind").lower()] if m.group("kind") else ""
    return [f"I had a baby{kind} named {m.group('name')}" if m.group("name") else f"I had a baby{kind}"]


# "no more glasses!!!", "had laser eye surgery and no more glasses", "no more coffee for me": a habit over, told
# without "I" or a verb: the stored habit of the user's that names the thing ends (nothing is read without one: "no
# more excuses", "no more than two coffees").
_NO_MORE = rx(
    r"^(?:(?P<head>.+?)\s*,?\s+(?:and|so|but)\s+)?no\s+more\s+(?!than\b)(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    r"(?:\s+(?:for\s+me|for\s+us|now|ever|either|anymore|at\s+all))*[\s.!]*$"
)


def _no_more(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "had laser eye surgery and no more glasses" (after "User wears glasses.") -> "had laser eye surgery", "I
    stopped wearing glasses"; ``None`` when no stored habit of the user's names the thing."""
    m = _NO_MORE.match(clause)
    if m is None:
        return None
    said = next((out for text in reversed(known) if (out := stopped_habit(m.group("thing"), text)) is not None), None)
    if said is None:
        return None
    return [m.group("head"), said] if m.group("head") else [said]


_RESTATERS: tuple[_Restater, ...] = (
    _no_more, _quit_habit, _retired, _laid_off, _new_job, _offer_ended, _divorced, _married, _wedding_done,
    _married_name, _proposed, _broke_up, _moved,
    _diet_today, _state_since, _without_i, _been_in,
    _age, _born,
)
# Not the user's own event: someone else's ("my brother moved to Halifax"), a plan or a wish ("might move to
# Boise"), a question.
_NOT_OWN = rx(
    r"^(?:(?:my|our)\s+(?!ex\b|position\b|role\b|job\b|offer\b|post\b|divorce\b|last\b|"
    r"(?:new\s+|little\s+)?baby(?:\s+(?:girl|boy))?\s+(?:was|arrived|is|came)\b)\w+|his|her|their|they|he|she)\b"
    r"(?!\s+(?:(?:just|finally|actually|officially)\s+)*(?:proposed|popped\s+the\s+question)\b)"
    r"|\b(?:might|(?-i:may)|could|would|should|thinking\s+(?:of|about)|planning\s+to|want\s+to|hope\s+to|if)\b|\?"
)
# A side remark on how things go, or that the event came off, not what holds: "my sleep is so much better", "we
# got the keys", "it's official".
_SIDE_REMARK = rx(
    r"^(?:my|our|the)\s+\w+\s+(?:is|are|'s|feels?|has\s+been)\s+(?:(?:so|much|way|a\s+lot|loads|heaps|already|even|"
    r"actually)\s+){1,3}(?:better|worse|easier|harder)[\s.!]*$"
    r"|^(?:(?:we|i)\s+(?:finally\s+|just\s+)?)?(?:got\s+the\s+keys|it's\s+official)[\s.!]*$"
)


# Health news is no side remark: "my knee is much better" ends the injury, "my dog is much better" is the dog's.
_SOMEONES_HEALTH = rx(rf"\b(?:{BODY_PART}|{PETS}|{PERSON})\b")


# "My cat Luna has been sick, vet says kidney failure", "my dad's been unwell - the doctor thinks it's pneumonia": what
# the clinician found is the news (who said it, and that they were ill, no part of it).
_TOLD_DIAGNOSIS = rx(
    r"^(?P<who>(?:my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+|(?-i:[A-Z])[\w-]+)(?:'s|\s+has|\s+is|\s+was)\s+(?:been\s+)?"
    r"(?:(?:really|so|very|quite|pretty|a\s+bit|super)\s+)?(?:sick|ill|unwell|poorly|off\s+colou?r|not\s+(?:well|great|good|"
    r"eating)|struggling|limping|off\s+(?:her|his|their)\s+food)(?:\s+(?:lately|recently|for\s+a\s+while|this\s+week))?"
    rf"\s*(?:,|;|-|\u2014|\u2013|\.|and)\s*(?:(?:the|my|our|her|his|their)\s+)?(?:{CLINICIAN})\s+"
    r"(?:says|said|thinks|reckons|confirmed|diagnosed|found)(?:\s+(?:it's|its|it\s+is|it\s+was|(?:she|he)\s+has|"
    r"(?:she|he)'s\s+got))?\s+(?P<what>(?:an?\s+)?[\w' -]+?)[\s.!]*$"
)


def _told_diagnosis(clause: str) -> list[str] | None:
    """ "My cat Luna has been sick, vet says kidney failure" -> "My cat Luna has kidney failure": what the
    clinician said they have; ``None`` for any other clause."""
    m = _TOLD_DIAGNOSIS.match(clause)
    if m is None or m.group("who").lower() in _NO_NAME \
            or re.match(r"(?:just|only|nothing|fine|ok|okay|probably|maybe)\b", m.group("what"), re.IGNORECASE):
        return None  # "doctor says it's just a cold": nothing found that lasts, or nothing sure
    return [f"{m.group('who')} has {m.group('what')}"]


def restate_event(clause: str, known: Sequence[str] = ()) -> list[str] | None:
    """``clause`` restated as the plain first-person statement(s) of the life event it tells (see the module),
    ``[]`` for a side remark that holds no fact, or ``None`` when it tells none of them. ``known``: the user's
    stored facts (for the employer, the partner).

    >>> restate_event("day 40 without a cigarette!!!"), restate_event("might move to Boise next year")
    (['I quit smoking'], None)
    """
    said = strip_lead(clause).strip()
    if _SIDE_REMARK.match(said) and not _SOMEONES_HEALTH.search(said):
        return []
    diagnosis = _told_diagnosis(said)
    if diagnosis is not None:  # of the user's own, before the check that it is the user's: "my cat Luna ..."
        return diagnosis
    if _NOT_OWN.search(said):
        return None
    return next((out for restate in _RESTATERS if (out := restate(said, known)) is not None), None)


def as_life_events(clauses: Sequence[str], known: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with each that tells a life event in other words replaced by the
    plain statements it means (:func:`restate_event`), a side remark left out, any other clause as it is."""
    out: list[str] = []
    for i, clause in enumerate(clauses):
        if _is_doing_now(clause) and hands_over(clauses, i):
            out.append(clause)  # "My sister started a new job. Working nights now.": hers (.elided_doing)
            continue
        said = restate_event(clause, known)
        if said is None:
            out.append(clause)
            continue
        if said and _BABY.match(said[-1]):  # "the baby was born. her name is Asha": a daughter named Asha
            own_tail = [clause.split(",", 1)[1]] if "," in clause else []  # "the baby arrived, a boy called Sam"
            said[-1] = _baby_named(said[-1], clauses[i - 1: i] + own_tail + clauses[i + 1: i + 2])
        out += said
    return out


_BABY = re.compile(r"^I had a baby(?: (?P<kind>daughter|son))?(?: named (?P<name>\S+))?$")
# What a clause beside a birth tells of the baby: "she's here!!", "her name is Asha", "we named him Leo", "a girl
# named Mina" (also after the birth's own comma: "the baby arrived, a little boy called Sam"); a child so named only
# last in its clause ("a girl named Mina!", "a boy named Leo, 3.2kg"; not "a girl named Mina from next door brought
# flowers": someone else, issue 21, rev41a).
_HER = rx(r"^(?:(?P<she>she|he)(?:'s|\s+is)\s+here\b|(?P<her>her|his)\s+name(?:'s|\s+is)\s+(?P<name>(?-i:[A-Z])[\w-]+)"
          r"|(?:we\s+)?(?:named|called)\s+(?P<them>her|him)\s+(?P<name2>(?-i:[A-Z])[\w-]+)"
          r"|(?:an?\s+)?(?:(?:little|baby|healthy|beautiful|gorgeous|tiny)\s+)?(?P<child>girl|boy|daughter|son)\s+"
          r"(?:named|called)\s+(?P<name3>(?-i:[A-Z])[\w-]+)(?=\s*(?:$|[^\w\s]|\d)))")


def _baby_named(said: str, beside: Sequence[str]) -> str:
    """``said`` ("I had a baby") with what the clauses ``beside`` it tell: whether a girl or a boy ("she's here"),
    the name ("her name is Asha") -> "I had a baby daughter named Asha"."""
    m = _BABY.match(said)
    assert m is not None
    kind, name = m.group("kind"), m.group("name")
    for clause in beside:
        her = _HER.match(strip_lead(clause).strip())
        if her is None:
            continue
        pronoun = (her.group("she") or her.group("her") or her.group("them") or her.group("child")).lower()
        kind = kind or ("daughter" if pronoun in ("she", "her", "girl", "daughter") else "son")
        name = name or her.group("name") or her.group("name2") or her.group("name3")
    return f"I had a baby{f' {kind}' if kind else ''}{f' named {name}' if name else ''}"
