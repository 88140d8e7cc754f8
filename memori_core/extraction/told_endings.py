"""An ending told the chat way, as the plain first-person statement the rules read.

"Arjun passed in March" -> "Arjun passed away in March"; "Biscuit went to sleep on sunday and didn't wake up" ->
"Biscuit died on sunday"; "hung up my apron at the tapas place" -> "I quit my job at the tapas place"; "cardiologist
banned caffeine" -> "I gave up caffeine"; "surgeon says no running for 9 months" and "(physio says) my knee can't handle
running" -> "I stopped running"; "keto's over for me" -> "I'm not on keto anymore"; "PASSED!!! driving test on the fourth go" -> "I passed my driving test on
the fourth go"; "scrapped it and picked up a used Kia Niro" -> "I scrapped it", "I picked up a used Kia Niro"; "bike
got nicked" -> "my bike was stolen"; "A levels DONE" -> "I finished my A levels"; "packed up and went to Tromsø" -> "I
moved to Tromsø"; "new contract is fully remote" -> "I work fully remotely now"; "it's rooibos from here on" -> "I
drink rooibos now"; "she's calling it remission" -> "My type 2 diabetes is in remission" (the condition stored); "we
had to say goodbye to Biscuit yesterday" -> "Biscuit died yesterday" (a pet's farewell: :mod:`.farewells`). Each
restatement carries a word of change or ending, so it ends the stored fact of its slot or the one naming what ended,
as the user's own words would (:mod:`.supersede`, :mod:`.state_enders`). Pure: patterns over a clause, English only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..number_words import number_words
from ..calendar_words import ANY_MONTH as _MONTH
from ..slots import PERSON, holder
from .activities import PETS
from .break_ups import as_break_up
from .doses import as_new_dose
from .operations import as_operation_done
from .clauses import split_clauses
from .cues import content_words, is_negated
from .diagnoses import LASTING_CONDITION, is_medicine
from .diets import taken_back
from .health import BODY_PART
from .endings import acquired_slots
from .farewells import farewell
from .leads import CLINICIAN, strip_lead
from .named_endings import bare_named_ending
from .moved_me import as_moved_before, as_moved_me
from .stale_endings import as_gear_hung_up, as_job_cut, as_promotion, as_workplace_now
from .patterns import CAPITAL_WORD, PLACE_NAME, rx
from .slots import slots_of

__all__ = ["as_told_endings", "told_ending"]

# Who died: someone named, "my husband", "our old cat", "he" / "she" (the stored facts say whose: .named).
_WHO = (rf"(?P<who>(?:my|our)\s+(?:(?:old|little|beloved|dear|lovely|sweet)\s+)*(?:{PERSON}|{PETS})"
        rf"(?:\s+{CAPITAL_WORD})?|mum|mom|mam|dad|nan|nana|gran|granny|grandma|grandpa|grandad|"
        rf"granddad|{CAPITAL_WORD}|he|she)")
# When or how a death is told after "passed" ("in March", "last week", "peacefully"), which a test's news never is.
_WHEN_DIED = (
    rf"in\s+(?:(?:early|late|mid)\s+)?(?:{_MONTH}|(?:19|20)\d\d\b|(?:her|his|their)\s+sleep|hospital|the\s+night|"
    r"peace)|"
    rf"on\s+(?:\w+day|the\s+\d|(?:{_MONTH}))|last\s+\w+|this\s+(?:morning|afternoon|evening|week|weekend|month|year|"
    r"\w+day)|yesterday|today|overnight|peacefully|suddenly|unexpectedly|recently|earlier|quietly|at\s+home|"
    rf"(?:a|{number_words('three')}|\d+)\s+(?:days?|weeks?|months?|years?)\s+ago"
)
_STUDIES = (r"a[- ]levels|gcses|finals|degree|master's|masters|msc|phd|thesis|dissertation|apprenticeship|"
            r"sixth\s+form")
_GEAR = (r"apron|scrubs|badge|name\s+badge|stethoscope|uniform|whistle|hard\s+hat|chef's\s+whites|whites|tool\s*belt|"
         r"lanyard|hi-vis|clipboard")

# Each shape read the same way: a pattern over the clause (its lead cut), and the plain statement its groups fill.
_SAID_PLAINLY: tuple[tuple[re.Pattern[str], str], ...] = (
    # "Arjun passed in March", "dad passed last week", "she passed peacefully": a death, told by "passed" and when
    # or how (not "passed his driving test", "passed the salt", "passed out", nor a bare "Mia passed!")
    (rx(rf"^{_WHO}\s+(?:(?:sadly|just|finally|quietly)\s+)?passed(?:\s+on)?(?P<rest>\s+(?:{_WHEN_DIED})\b.*)$"),
     "{who} passed away{rest}"),
    # "Biscuit went to sleep on sunday and didn't wake up": a death told as a sleep (not "... didn't wake up till 9")
    (rx(rf"^{_WHO}\s+(?:went\s+to\s+sleep|fell\s+asleep|went\s+to\s+bed)(?P<when>(?:\s+(?!and\b)[\w'-]+){{0,4}}?)"
        r"\s*,?\s+and\s+(?:just\s+)?(?:didn't|didnt|did\s+not|never)\s+(?:wake|woke)(?:\s+up)?(?:\s+again)?\s*[.!]*$"),
     "{who} died{when}"),
    # "hung up my apron at the tapas place", "handed in my badge", "I'm out of that place, handed my badge in": the
    # gear of a job given up, the job left (not "hung up my coat", "handed in my keys", "hung up my apron to dry")
    (rx(rf"^(?:[^,]*,\s*)?(?:i\s+)?(?:(?:finally|officially|just|have|'ve)\s+)*(?:(?:hung\s+up|handed\s+in|"
        rf"turned\s+in|handed\s+back)\s+(?:my|the)\s+(?:{_GEAR})|(?:hung|handed|turned)\s+(?:my|the)\s+(?:{_GEAR})"
        r"\s+(?:up|in|back))"
        r"(?:\s+(?:for\s+good|for\s+the\s+last\s+time))?"
        r"(?P<rest>(?:\s+(?:at|in|on|last|this|yesterday|today)\b.*)?)[\s.!]*$"),
     "I quit my job{rest}"),
    # "bike got nicked outside the station", "the car got written off": the user's vehicle gone (where is no part)
    (rx(r"^(?:the\s+)?(?P<thing>bike|bicycle|e-?bike|car|motorbike|scooter|moped)\s+(?:got|was|has\s+been)\s+"
        r"(?:just\s+)?(?:nicked|stolen|pinched)\b"), "my {thing} was stolen"),
    (rx(r"^(?:the\s+)?(?P<thing>bike|bicycle|e-?bike|car|motorbike|scooter|moped)\s+(?:got|was|has\s+been)\s+"
        r"(?:just\s+)?(?P<how>written\s+off|totall?ed|scrapped)\b"), "my {thing} was {how}"),
    # "A levels DONE and I got into Sheffield": studies over, and what the user tells after "and"
    (rx(rf"^(?:my\s+)?(?P<what>{_STUDIES})\s+(?:are\s+|is\s+|'s\s+)?(?:all\s+|finally\s+|officially\s+)?"
        r"(?:done|finished|over|complete|completed)\b[\s.!]*(?:,?\s*and\s+(?P<then>\S.*))?$"),
     "I finished my {what}|{then}"),
    # "too late for that, packed up and went to Tromsø last week": a move, told as the leaving
    (rx(rf"^(?:[^,]*,\s*)?(?:(?:i|we)\s+)?(?:(?:just|finally|basically)\s+)?packed\s+up\s+and\s+(?:went|moved|headed|"
        rf"relocated)\s+(?:back\s+)?to\s+(?P<place>{PLACE_NAME})"), "I moved to {place}"),
    # "since the baby arrived I've gone down to three days a week": the user's work cut to part-time (not "the gym's
    # gone down to three days a week": someone else's days)
    (rx(r"^(?:(?:since|after|now\s+that)\s+[^,]+?\s*,?\s+)?(?:i've|i\s+have|i|ive)\s+(?:(?:just|now)\s+)?"
        rf"(?:gone|went|dropped|cut\s+back|come)\s+down\s+to\s+(?P<days>{number_words('four')}|[1-4])\s+days\s+"
        r"(?:a|per)\s+week\b"), "I work part-time now, {days} days a week"),
    # "new contract is fully remote", "my job's remote now": the user works from home
    (rx(r"^(?:(?:my|the)\s+)?(?:new\s+)?(?:job|contract|role|position)(?:'s|\s+is)\s+(?:now\s+)?"
        r"(?P<how>(?:fully|completely|totally|100%)\s+)?remote\b"),
     "I work {how}remotely now"),
)
# "cardiologist banned caffeine", "surgeon says no running for 9 months", "my GP told me to give up booze": what a
# clinician forbade, which the user stops (what follows "so" is a clause of its own: "... so it's the pool now").
_FORBIDDEN = rx(
    rf"^(?:(?:the|my|our)\s+)?(?:new\s+)?(?:{CLINICIAN})\s+(?:has\s+|just\s+)*(?:banned|forbade|forbidden|ruled\s+out|"
    r"says\s+no|said\s+no\s+(?:more\s+)?|told\s+me\s+(?:to\s+)?(?:stop|quit|give\s+up|cut\s+out|no\s+more)|"
    r"wants\s+me\s+off|made\s+me\s+(?:stop|quit|give\s+up))\s+(?:all\s+|any\s+|more\s+)?"
    r"(?P<thing>[a-z][\w-]*(?:\s+(?!(?:for|until|till|so|because|after|and|but|full|at|now|from|completely|"
    r"entirely|altogether)\b)[a-z][\w-]*)?)(?:.*?\bso\s+(?P<then>\S.*))?.*$"
)
# "(physio says) my knee can't handle running for a while": an activity the user's body stops them doing (not a food:
# "my stomach can't handle spicy food" is a care fact as said).
_CANT_HANDLE = rx(rf"^my\s+(?:{BODY_PART})\s+(?:can't|cannot|can\s+not|won't)\s+(?:handle|take|cope\s+with)\s+"
                  r"(?P<thing>[a-z]+ing)\b")
# "keto's over for me", "smoking is over for us": a habit told as over; "so it's rooibos from here on": the one
# drink the user has from now on.
_OVER = rx(r"^(?:(?:nah|nope|yeah|yep|well|ok|okay|so|and|but)\s*,?\s+)?(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
           r"(?:'s|\s+is)\s+(?:so\s+|well\s+and\s+truly\s+|officially\s+)?(?:over|done|finished|history)\s+"
           r"(?:for\s+(?:me|us)|now)\b")
_FROM_NOW_ON = rx(r"^(?:so\s+)?(?:it's|its|it\s+is)\s+(?:just\s+|only\s+)?"
                  r"(?P<thing>[a-z][\w-]*(?:\s+(?!only\b)[a-z][\w-]*)?)(?:\s+only)?\s+"
                  r"(?:from\s+(?:here|now)\s+on|from\s+now|for\s+me\s+now|for\s+good)\b")
_HABIT_SLOTS = frozenset({"diet", "smoking", "alcohol", "hot_drink"})
_DIET_STATE = rx(r"^(?:vegan|vegetarian|veggie|pescatarian|pescetarian|carnivore|teetotal|sober|plant-based)$")
# "PASSED!!!", then "driving test on the fourth go": a test passed, typed in two sentences.
_BARE_PASSED = rx(r"^(?:i\s+)?(?:finally\s+|just\s+)?passed[\s.!]*$")
_TEST_NAMED = rx(r"^(?:my\s+|the\s+)?(?P<test>(?:[\w'-]+\s+){0,2}?(?:test|exam|finals|boards|bar|viva|mot))\b"
                 r"(?P<rest>.*)$")
# "scrapped it and picked up a used Kia Niro", "cancelled the bouldering membership", "dropped out in march", "PASSED MY
# DRIVING TEST": an ending, a test passed or a new car or phone typed without its "I" (.grammar reads the common verbs
# of a change so), a second change after "and" its own clause.
_ENDED_BARE = rx(r"^(?:just\s+|finally\s+|officially\s+)?(?:scrapped|ditched|binned|wrote\s+off|dropped\s+out\b|"
                 rf"(?:finished|completed|defended|submitted|handed\s+in|passed)\s+my\s+(?:[\w']+\s+)?"
                 rf"(?:{_STUDIES}|test)|"
                 r"cancell?ed\s+(?:my|the|our)\s+(?:[\w-]+\s+)?"
                 r"(?:membership|subscription|contract|lessons|classes|plan))\b")
_GOT_BARE = rx(r"^(?:just\s+|finally\s+)?picked\s+up\s+(?:a|an|my\s+(?:first|new))\s")
_NAMED_AFTER = rx(r",\s*(?P<what>(?:a|an)\s+[^,.!?;]*?(?-i:[A-Z])[^,.!?;]*?)\s*[.!]*$")
_AND_THEN = rx(r"\s*,?\s+and\s+(?:then\s+)?(?=(?:picked\s+up|got|bought|switched|swapped|joined|signed\s+up)\b)")


def _said_plainly(clause: str, known: Sequence[str]) -> list[str] | None:
    """The plain statement of the first shape of :data:`_SAID_PLAINLY` that ``clause`` has ("Arjun passed in March"
    -> "Arjun passed away in March"), or ``None``."""
    for pattern, plain in _SAID_PLAINLY:
        m = pattern.match(clause)
        if m is not None:
            said = plain.format(**{name: (value or "").lower() if name == "how" else value or ""
                                   for name, value in m.groupdict().items()})
            return [part for part in said.split("|") if part]
    return None


# "she's calling it remission", "it's in remission", "I'm officially in remission": the user's condition, in remission.
_REMISSION = rx(rf"^(?:(?:she|he|they|(?:the\s+|my\s+)?(?:{CLINICIAN}))(?:'s|'re|\s+is|\s+are)\s+(?:now\s+)?"
                r"calling\s+it|(?:it's|it\s+is|i'm|i\s+am)\s+(?:now\s+|officially\s+)*in)\s+(?:full\s+)?remission\b")
_CONDITION = rx(rf"\b(?P<condition>{LASTING_CONDITION})\b")
# A condition as the user is said to have it ("type 2 diabetic") and as it is named ("type 2 diabetes").
_NAMED_AS = (("diabetic", "diabetes"), ("asthmatic", "asthma"), ("epileptic", "epilepsy"), ("anaemic", "anaemia"),
             ("anemic", "anemia"))


def _remission(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "she's calling it remission" -> "My type 2 diabetes is in remission", of the one lasting condition a stored
    fact of the user's names; ``None`` with none, or more than one."""
    if not _REMISSION.match(clause):
        return None
    found = {m.group("condition").lower() for text in known if holder(text) == "user" and not is_negated(text)
             for m in [_CONDITION.search(text)] if m is not None}
    if len(found) != 1:
        return None
    condition = found.pop()
    for said, named in _NAMED_AS:
        condition = condition.replace(said, named)
    return [f"My {condition} is in remission"]


def _forbidden(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "cardiologist banned caffeine" -> "I gave up caffeine"; "surgeon says no running for 9 months at least so
    it's the pool for me now" -> "I stopped running", "it's the pool for me now"."""
    m = _FORBIDDEN.match(clause)
    if m is None:
        return None
    thing = m.group("thing")
    said = f"I stopped {thing}" if thing.endswith("ing") else f"I gave up {thing}"
    return [said, m.group("then")] if m.group("then") else [said]


# "HbA1c is down enough that they've taken me off metformin": a medicine a clinician stopped, told after the reason;
# "my psychiatrist switched me off the sertraline" (what it was switched to told apart).
_TAKEN_OFF = rx(rf"\b(?:they|she|he|the\s+clinic|(?:the|my|our)\s+(?:{CLINICIAN}))(?:'ve|'s|\s+have|\s+has)?\s+"
                r"(?:(?:just|finally|now)\s+)?(?:taken|took|switched|moved|weaned|tapered|got)\s+me\s+off\s+(?:the\s+|my\s+)?"
                r"(?P<drug>[\w-]+(?:\s+(?!(?:for|because|since|after|and|but|now|last|this|in|on|at|a|an|the|yesterday|"
                r"today|two|three|few)\b)[\w-]+)?)")


# "got me off the sertraline dose question answered": the medicine names what was dealt with, not what was stopped.
_NOT_THE_DRUG = rx(r"^(?:dose|doses|dosage|question|questions|query|prescription|form|letter|review|refill|repeat|"
                   r"leaflet|side|thing|issue|problem|paperwork)$")
_MORE_OF_IT = rx(r"^\s+(?:dose|dosage|question|query|prescription|review|refill|side\s+effects?|paperwork|"
                 r"(?:thing|issue|problem)\b)")


def _taken_off(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "HbA1c is down enough that they've taken me off metformin" -> "I stopped taking metformin", and what follows
    it ("my doctor took me off warfarin last month" -> "I stopped taking warfarin last month"): a medicine only ("they
    took me off the rota" is none)."""
    m = _TAKEN_OFF.search(clause)
    if m is None or not is_medicine(m.group("drug")) or _NOT_THE_DRUG.match(m.group("drug").split()[-1]) \
            or _MORE_OF_IT.match(clause[m.end():]):
        return None
    return [f"I stopped taking {m.group('drug')}{clause[m.end():]}"]  # when, after it: "... last month"


def _habit_named(thing: str, known: Sequence[str]) -> bool:
    """Whether ``thing`` is a habit of the user's: a diet, smoking, a drink, or a stored habit of theirs naming it."""
    words = content_words(thing)
    return bool(slots_of(f"User is on {thing}.") & _HABIT_SLOTS) or any(
        holder(text) == "user" and not is_negated(text) and words and words <= content_words(text) for text in known)


def _cant_handle(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "my knee can't handle running for a while" -> "I stopped running"."""
    m = _CANT_HANDLE.match(clause)
    return [f"I stopped {m.group('thing')}"] if m is not None else None


def _over(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "keto's over for me" -> "I'm not on keto anymore"; "smoking's over for me" -> "I stopped smoking"; nothing
    of what is no habit of the user's ("the match is over for me"); "so it's rooibos from here on" -> "I drink
    rooibos now" (a drink only: "it's the pool for me now" is none)."""
    m = _FROM_NOW_ON.match(clause)
    if m is not None:
        return [f"I drink {m.group('thing')} now"] if slots_of(m.group("thing")) & {"hot_drink", "alcohol"} else None
    m = _OVER.match(clause)
    if m is None or not _habit_named(m.group("thing"), known):
        return None
    thing = m.group("thing")
    if thing.endswith("ing"):
        return [f"I stopped {thing}"]
    return [f"I'm not {thing} anymore" if _DIET_STATE.match(thing) else f"I'm not on {thing} anymore"]


# "fish and shellfish are back for me", "so meat's back on the menu": a food the user eats again.
_BACK_FOR_ME = rx(r"(?:^|,\s*|\b(?:so|and|but)\s+)(?:(?:ok|okay|so|and|but|well)\s*,?\s+)*(?P<food>[a-z][\w-]*(?:\s+(?:and\s+)?[a-z][\w-]*){0,2}?)"
                  r"(?:'s|\s+is|\s+are|'re)\s+(?:officially\s+)?(?:back\s+(?:for\s+(?:me|us)|on\s+(?:the\s+menu|my\s+plate)|"
                  # "fish is back on from this week": on the menu, told with when
                  r"on(?=\s+(?:from|since|as\s+of|now|again)\b|[\s.!]*$))|"
                  # "fish and shrimp are fine for me too": fine for the user after all (said of a food only)
                  r"(?:fine|ok|okay|allowed)\s+for\s+(?:me|us)\s+(?:too|now|again|after\s+all))\b")


def _back_for_me(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "fish and shellfish are back for me" -> "I eat fish and shellfish again" (a food only: "the pain is back for
    me" is none), which ends the stored diet that left it out."""
    m = _BACK_FOR_ME.search(clause)  # also after what led to it: "... felt amazing, so fish is back for me"
    if m is None or not taken_back(f"User eats {m.group('food')} again."):
        return None
    return [f"I eat {m.group('food')} again"]


# "Thesis defended successfully on Friday!", "The thesis is defended since Friday": the studies it crowns, finished.
_DEFENDED = rx(r"^(?:the\s+|my\s+)?(?P<what>thesis|dissertation|doctorate|phd)\s+(?:is\s+|was\s+|got\s+|has\s+been\s+)?"
               r"(?:(?:successfully|finally|officially)\s+)?defended(?:\s+successfully)?(?P<since>\s+since(?=\s))?(?P<rest>.*)$")
_STUDYING = rx(r"\b(?:doing|studying|student|final\s+year|enrolled)\b")
# The degree a stored fact of the user's studies names, with its field: "User is doing PhD in computational chemistry
# at IISc." -> "PhD in computational chemistry".
_DEGREE_IN = rx(r"\b(?P<degree>phd|doctorate|master's|masters|master|msc|mba|degree)(?P<field>\s+in\s+[^,.]+?)?"
                r"(?=\s+(?:at|from|with)\b|\s*[,.;]|$)")


def _defended(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "Thesis defended successfully on Friday!" -> "I finished my PhD in computational chemistry on Friday!", the
    degree and field the user's one stored studies fact names ("I defended my thesis ..." with none), which ends it."""
    m = _DEFENDED.match(clause)
    if m is None:
        return None
    degrees = {d.group("degree") + (d.group("field") or "") for text in known if holder(text) == "user"
               and _STUDYING.search(text) and not is_negated(text) for d in [_DEGREE_IN.search(text)] if d is not None}
    said = f"I finished my {degrees.pop()}" if len(degrees) == 1 else f"I defended my {m.group('what').lower()}"
    return [said + (" on" if m.group("since") else "") + m.group("rest")]  # "since Friday": on Friday


def _bare_ending(clause: str, known: Sequence[str]) -> list[str] | None:
    """ "scrapped it and picked up a used Kia Niro" -> "I scrapped it", "I picked up a used Kia Niro"; "cancelled
    the bouldering membership" -> "I cancelled the bouldering membership"."""
    if not (_ENDED_BARE.match(clause) or (_GOT_BARE.match(clause) and acquired_slots(f"I {clause}"))):
        return None
    named = _NAMED_AFTER.search(clause) if _GOT_BARE.match(clause) else None
    if named is not None and acquired_slots(f"I {clause[:named.start()]}"):
        return [f"I have {named.group('what')} now"]  # "picked up my first car, a little blue Fiat 500": the car named
    return [said for part in _AND_THEN.split(clause) for said in split_clauses(f"I {part[:1].lower()}{part[1:]}")]


# a pet's death told as the farewell made ("we had to say goodbye to Biscuit yesterday": .farewells)
_RESTATERS: tuple[Callable[[str, Sequence[str]], list[str] | None], ...] = (
    _said_plainly, _defended, _forbidden, _cant_handle, _over, _back_for_me, _bare_ending, _remission, as_moved_me, _taken_off,
    as_break_up, as_new_dose,
    as_operation_done, farewell, bare_named_ending, as_promotion, as_gear_hung_up, as_workplace_now, as_job_cut)


def told_ending(clause: str, known: Sequence[str] = ()) -> list[str] | None:
    """``clause`` restated as the plain first-person statement(s) of the ending or change it tells the chat way (see
    the module), or ``None`` when it tells none. ``known``: the user's stored facts (a habit "over" must be one).

    >>> told_ending("Arjun passed in March."), told_ending("my grandad passed his driving test in 1960")
    (['Arjun passed away in March.'], None)
    """
    said = strip_lead(clause).strip()
    return next((out for restate in _RESTATERS if (out := restate(said, known)) is not None), None)


def as_told_endings(clauses: Sequence[str], known: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with each that tells an ending the chat way restated
    (:func:`told_ending`), and a bare "PASSED!!!" read with the test the next clause names ("driving test on the
    fourth go" -> "I passed my driving test on the fourth go"); any other clause as it is."""
    out: list[str] = []
    i = 0
    while i < len(clauses):
        clause = clauses[i]
        test = _TEST_NAMED.match(strip_lead(clauses[i + 1])) if i + 1 < len(clauses) else None
        if test is not None and _BARE_PASSED.match(strip_lead(clause)):
            out.append(f"I passed my {test.group('test')}{test.group('rest')}")
            i += 2
            continue
        if any(len(lead.split()) > 1 for lead in clauses[:i]) and as_workplace_now(strip_lead(clause).strip(), known):
            out.append(clause)  # "Mum's poorly, I'm at the Royal Infirmary now": after a clause, a visit
        elif i + 1 < len(clauses) and (before := as_moved_before(strip_lead(clause).strip(),
                                                                 strip_lead(clauses[i + 1]))) is not None:
            out += before  # "my manager put me on nights but I'm on days now": a move of the past (.moved_me)
        else:
            out += told_ending(clause, known) or [clause]
        i += 1
    return out

