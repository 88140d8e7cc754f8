"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), and the English cues of a change.

A new fact that announces a change ("I moved to Porto", "I switched to tea", "I'm no longer
vegetarian") replaces the stored fact of the same slot. Pure: keyword rules, English only.

Two kinds of slot. The slots of :data:`memori_core.slots.SLOTS` hold one value at a time (a home, a
job, a diet): a change replaces whatever the slot held. The :data:`ACTIVITY_SLOTS` (pets, exercise)
hold several at once (a cat and a dog, running and yoga): a change there replaces only the stored fact
about the same animal or activity (:func:`same_activity`), or a stored "none" ("User has no pets.").
Capture alone uses the activity slots; the ranking's newest-of-a-slot tie-break does not.
"""

from __future__ import annotations

import re

from ..slots import PERSON, SEEING_NAME, SLOTS, holder
from ..slots import fold as _fold
from ..slots import slots_of as _single_value_slots_of
from ..text import get_stemmer

__all__ = [
    "ACTIVITY_SLOTS",
    "BODY_PART",
    "CONSUMPTION_SLOTS",
    "JOB_OFFER",
    "MONTH_NAMES",
    "PETS",
    "POSSESSION_SLOTS",
    "SLOTS",
    "acquired_slots",
    "bare_correction",
    "content_words",
    "corrected_words",
    "denies",
    "disposed_thing",
    "disposed_words",
    "ends_habit",
    "ends_ownership",
    "ends_health",
    "health_news",
    "health_state",
    "holder",
    "is_change",
    "is_ended",
    "is_exclusive",
    "is_job_offer",
    "is_loss",
    "is_negated",
    "is_planned",
    "is_relationship_status",
    "left_out",
    "named_change",
    "named_subject",
    "names_in",
    "relationship_stage",
    "same_activity",
    "says_how_often",
    "slots_of",
    "stopped_words",
    "taken_back",
    "without_correction",
]

PETS = (
    r"pets?|dogs?|pupp(?:y|ies)|cats?|kittens?|parrots?|hamsters?|rabbits?|bunn(?:y|ies)|guinea\s+pigs?|"
    r"tortoises?|turtles?|goldfish|horses?|lizards?|snakes?|budgies?"
)
"""A regex alternation of the words for a pet (dog, cat, parrot...)."""

ACTIVITY_SLOTS: dict[str, re.Pattern[str]] = {
    "pets": re.compile(rf"\b(?:{PETS})\b"),
    "exercise": re.compile(
        r"\b(?:(?:run|runs|running)\b(?!\s+(?:a|an|the|my|our|their|his|her|out|late|errands|into)\b)|"
        r"jog|jogs|jogging|gym|work\s+out|works\s+out|working\s+out|workouts?|exercise|exercises|exercising|"
        r"yoga|pilates|crossfit|marathons?|half-marathons?|5k|10k|weightlifting|lift\s+weights|"
        r"swim|swims|swimming|cycling|boulder|boulders|bouldering|climb|climbs|hike|hikes|boxing|sports?|football|"
        r"soccer|tennis|basketball|volleyball|"
        r"rugby|cricket|golf|hockey|badminton|netball|baseball|softball|climbing|hiking|skiing|snowboarding|"
        r"surfing|rowing|kayaking|karate|judo|taekwondo|jiu-jitsu|kickboxing|martial\s+arts|zumba|"
        r"triathlons?|ultramarathons?|parkrun)\b"
    ),
}
"""Slot name -> its words, for the slots that hold several things at once."""

# Words that name the whole activity slot: "User has no pets." is replaced by any new pet.
_WHOLE_SLOT = frozenset({"pet", "exercis", "sport", "work out", "workout", "gym"})  # stemmed

_CHANGE = re.compile(
    r"\b(?:moved|relocated|switched|switching|changed|quit|no\s+longer|anymore|any\s+more|no\s+more|now|"
    r"became|got\s+(?:engaged|married|divorced|separated|together)|broke\s+up|split\s+up|separated|"
    r"(?:are|'re)\s+(?:over|through)|ended\s+(?:it|things)|started\s+(?:dating|seeing)|sold|"
    r"started\s+(?:working|teaching|eating|drinking)|new\s+job|these\s+days|nowadays|instead|"
    r"(?:got|was|been|just\s+got)\s+(?:hired|laid\s+off|fired|promoted)|lost\s+(?:my|our|the)\s+job|"
    r"retired|resigned|left\s+(?:my|the|our)\s+(?:job|company|position|firm|lab|bank|agency|hospital|clinic|"
    r"practice|school|studio|startup|start-up)|"
    r"(?:got|took|landed|accepted|started)\s+(?:a|an|the|my)\s+(?:new\s+)?(?:(?:full|part)-?time\s+|permanent\s+|"
    r"temporary\s+|remote\s+|in-?office\s+|hybrid\s+|teaching\s+|nursing\s+)*(?:job|position|role)|"
    # studies begun ("started a PhD", "began an apprenticeship") and a job begun as ("I start as a dispatcher")
    r"(?:started|starting|began|begun)\s+(?:a|an|my|the)\s+(?:new\s+)?(?:phd|doctorate|master's|masters|degree|"
    r"course|apprenticeship|internship|residency|traineeship)|(?:start|starts|started|starting)\s+as\s+(?:a|an)\b|"
    # a marriage or relationship ended ("Karim and I divorced", "she left me", "we're separating")
    r"divorced|divorcing|separating|getting\s+(?:divorced|separated|a\s+divorce)|filed\s+for\s+divorce|"
    r"filing\s+for\s+divorce|tied\s+the\s+knot|dumped\s+me|"
    r"left\s+me(?!\s+(?:a|an|the|some|his|her|their|its|with|alone|in\s+charge|out|\w+ing)\b)|"
    # a thing given up or swapped ("I swapped coffee for tea", "I traded in the Golf")
    r"swapped|swapping|cut\s+down|traded\s+in|got\s+rid\s+of|upgraded|"
    r"kicked\s+(?:the\s+habit|it)|(?:smoke|nicotine|alcohol|booze|caffeine)-free|given\s+up|giving\s+up|"
    r"called\s+it\s+(?:quits|off)|broke\s+it\s+off|parted\s+ways|separate\s+ways|met\s+(?:someone|somebody)|"
    r"dropped\s+out|accepted\s+(?:an|a|the|their)\s+(?:job\s+)?offer|turned\s+\d{1,3}|freelancing|"
    r"(?:got|bought|found|moved\s+into)\s+(?:my|our|their)\s+own\s+place|(?:started|begun|began)\s+\w+ing|"
    r"(?:went|gone|going|go|got)\s+back\s+to\s+(?:work|school|uni|university|college|the\s+office)|"
    r"(?:went|gone|going|go)\s+(?:(?:fully|full|completely|totally|100%|strictly)\s+)?"
    r"(?:vegan|vegetarian|pescatarian|keto|paleo|gluten-free|plant-based|sober|"
    r"teetotal|freelance|part-time|full-time|remote)|"
    r"gave\s+up|stopped(?!\s+by\b)|took\s+up|back\s+together|"
    # a job ended or begun
    r"made\s+redundant|let\s+go|(?:handed|gave|put)\s+in\s+(?:my|their|our)\s+notice|"
    r"(?:start|starts|started|starting)\s+at|joined|graduated|"
    # a home bought, a habit cut, something taken up again
    r"bought\s+(?:a|an|our|my|the)\s+(?:[\w-]+\s+)?(?:house|flat|home|place|apartment|condo)|"
    r"cut\s+out|cut\s+back|adopted|again|back\s+(?:on|to\s+\w+ing)|"
    r"(?:got|bought|have|'ve\s+got)\s+(?:a|an|my|our|the)\s+new|"
    r"(?:am|'m|is|are|'re|been)\s+(?:now\s+)?(?:retired|divorced|separated|widowed|sober|unemployed))\b"
)
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")
"""The months, in order (lower case), as the rules read them in dates and plans."""
_MONTH = "|".join(MONTH_NAMES)
# A change only thought of or planned: "I'm thinking of switching", "I might move", "planning to quit".
_INTENT = re.compile(
    r"\b(?:thinking\s+(?:about|of)|considering|contemplating|planning\s+(?:to|on)|plan\s+to|might|"
    r"(?:i|we)\s+may|"
    r"would\s+like\s+to|'d\s+like\s+to|want\s+to|wanna|hoping\s+to|hope\s+to|debating|toying\s+with|"
    r"not\s+sure\s+(?:if|whether)|wondering\s+(?:if|whether|about)|"
    # a change still to come: "We're moving to Bath next month", "I'm starting at Google next week"
    r"(?:\bi\s+am|\bwe\s+are|'m|'re)\s+(?:just\s+|finally\s+|actually\s+|also\s+)?\w+ing\b[^.;]*\b"
    r"(?:next\s+(?:week|month|year|spring|summer|autumn|fall|winter|term)|soon|tomorrow|"
    rf"in\s+(?:a\s+(?:few\s+|couple\s+of\s+)?(?:days?|weeks?|months?)|{_MONTH})))\b"
)
# An event that happened once more: "My car broke down again", "I lost my keys again" ("again" is no change
# there); "I eat meat again", "I'm single again", "I started running again" are.
_REPEATED_EVENT = re.compile(
    r"\b(?:broke|fell|lost|forgot|missed|left|dropped|crashed|burned|burnt|spilled|spilt|overslept|forgot|"
    r"happened|failed|cried|(?!(?:start|stopp|quitt|switch|mov|relocat|return|reti|graduat|adopt|divorc|"
    r"separat|marri|engag|promot|hir|fir|join)\w*ed\b)\w+ed)\b.*\bagain\b"
)
# Something is over. "used to" is not a change cue (_CHANGE): said of the past, it ends the stored fact
# holding its words but no other fact of the slot ("I used to live in Lisbon" ends "lives in Lisbon", not
# "lives in Porto").
_ENDED = re.compile(
    r"\b(?:used\s+to|no\s+longer|anymore|any\s+more|no\s+more|quit|stopped(?!\s+by\b)|gave\s+up|cut\s+out|"
    r"passed\s+away|"
    r"died|rehomed|had\s+to\s+rehome|given\s+up|kicked\s+(?:the\s+habit|it)|(?:smoke|nicotine|alcohol|booze)-free|"
    r"dropped\s+out|called\s+it\s+(?:quits|off)|cancell?ed)\b"
)
# Where a relationship stands; the bare partner words ("wife", "boyfriend") only say one exists.
_REL_STATUS = re.compile(
    r"\b(?:single|engaged|engagement|married|marriage|divorced?|divorcing|fianc[ée]e?|broke\s+up|breaking\s+up|"
    r"dating|separated|separating|split\s+up|splitting\s+up|widowed|widow|widower|ex|ex-\w+|relationship|"
    r"tied\s+the\s+knot|seeing\s+(?:someone|somebody|each\s+other|a\s+(?:guy|girl|man|woman|boy|lady))|"
    r"moved\s+in\s+(?:together|with)|moving\s+in\s+(?:together|with)|left\s+me|dumped\s+me|"
    r"(?:not|no\s+longer)\s+together|back\s+together|"
    r"ended\s+(?:it|things)|(?:are|'re)\s+(?:over|through)|called\s+it\s+(?:quits|off)|broke\s+it\s+off|"
    r"parted\s+ways|separate\s+ways|met\s+(?:someone|somebody)|"
    r"new\s+(?:boyfriend|girlfriend|partner|husband|wife|fianc[ée]e?))\b"
)
# The stages of a relationship, the first found wins ("User and their wife divorced" is "divorced").
_STAGES = (
    ("widowed", re.compile(r"\b(?:widowed|widow|widower)\b")),
    ("divorced", re.compile(r"\b(?:divorced?|divorcing|separated|separating)\b")),
    ("single", re.compile(r"\b(?:single|broke\s+up|split\s+up|called\s+it\s+(?:quits|off)|broke\s+it\s+off|"
                          r"parted\s+ways|dumped)\b")),
    ("engaged", re.compile(r"\b(?:engaged|fianc[ée]e?)\b")),
    ("married", re.compile(r"\b(?:married|wife|husband|spouse|tied\s+the\s+knot)\b")),
    ("dating", re.compile(r"\b(?:dating|girlfriend|boyfriend|back\s+together|seeing\s+(?:someone|somebody|each\s+other|"
                          r"a\s+(?:guy|girl|man|woman|boy|lady))|in\s+a\s+relationship|met\s+(?:someone|somebody))\b")),
)
# A wedding still to come: "I'm getting married next summer", "we'll be married in June". Who says so is engaged now.
_WEDDING_TO_COME = re.compile(r"\b(?:getting|get|will\s+be|'ll\s+be|to\s+be)\s+married\b")
# A stage said of the past: "I was married before", "used to be engaged".
_PAST_STAGE = re.compile(r"\b(?:was|were|used\s+to\s+be|previously|before|first|ex|ex-\w+|late)\b")
# "I only drink decaf", "I just eat fish": one thing to the exclusion of the others. In a slot of what the
# user eats, drinks or smokes it replaces the stored habit without a change cue; elsewhere "only" is no
# change ("I only work weekends" says nothing against "User works as a nurse.").
_EXCLUSIVE = re.compile(
    r"\b(?:only|just|exclusively)\s+(?:ever\s+)?(?:drink|drinks|eat|eats|have|has|smoke|smokes|vape|vapes)\b"
)
CONSUMPTION_SLOTS = frozenset({"diet", "hot_drink", "alcohol", "smoking"})
"""The slots of what the user eats, drinks or smokes, where an exclusive habit ("only") is a change."""
# "I got a Pixel", "We bought a Toyota", "I upgraded to an iPhone 15": a new phone or car replaces the
# stored one (a "second car", a "work phone" or a gift for someone else does not).
_ACQUIRED = re.compile(
    r"\b(?:got|bought|purchased|picked\s+up|upgraded\s+to|switched\s+to|treated\s+(?:myself|ourselves)\s+to|"
    r"leased|now\s+(?:have|has|drive|drives|use|uses))\s+(?:myself\s+|ourselves\s+)?"
    rf"(?P<thing>(?:a|an|the|my|our|their)\s+(?!(?:second|another|spare|extra|work|company|rental|hire|courtesy|"
    rf"{PERSON})\b)(?:[\w-]+\s*){{1,4}})"
)
POSSESSION_SLOTS = frozenset({"phone", "car"})
"""The slots of a thing the user has one of (a phone, a car), where getting a new one is a change."""
# "I sold the Civic", "We got rid of our old Vespa", "I traded in my Golf": the thing disposed of, whose
# stored ownership fact ends ("User drives an old Honda Civic.") even when no slot knows the word.
_DISPOSED = re.compile(
    r"\b(?:sold|got\s+rid\s+of|gave\s+away|given\s+away|traded\s+in|scrapped|returned|wrote\s+off|"
    r"written\s+off|totaled|totalled|donated)\s+(?:(?:my|our|the|that|this|their|his|her)\s+)?(?:(?:old|trusty|beloved|"
    r"little|beat-up|battered|first)\s+)?(?P<thing>[\w-]+(?:\s+(?!(?:and|for|to|in|on|at|last|this|after|"
    r"because|since|when|so|but|yesterday|today|finally)\b)[\w-]+){0,2})"
)
# "the mazda's totaled", "My bike got stolen": the thing disposed of, told as what happened to it.
_DISPOSED_PASSIVE = re.compile(
    r"\b(?:my|our|the|user's)\s+(?:(?:old|trusty|beloved|little|first)\s+)?(?P<thing>[\w-]+(?:\s+[\w-]+)?)"
    r"(?:'s|\s+is|\s+was|\s+got|\s+has\s+been|\s+just\s+got)\s+(?:been\s+|just\s+)?"
    r"(?P<end>totaled|totalled|written\s+off|stolen|scrapped|nicked)\b"
)
# "I gave up on Spanish", "I quit the choir", "I dropped out of college": what the user stopped, whose stored
# habit ends ("User is learning Spanish.", "User sings in a choir.") even when no slot knows the word.
_STOPPED = re.compile(
    r"\b(?:quit|stopped(?!\s+by\b)|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|dropped\s+out\s+of|kicked|"
    r"cancell?ed|cut\s+out|(?:switched|changed|moved)\s+(?:\w+\s+)?from|instead\s+of)\s+"
    r"(?:(?:my|our|the|that|this|their|his|her)\s+)?(?P<thing>[\w-]+(?:\s+(?!(?:and|for|in|on|at|last|this|"
    r"after|because|since|when|so|but|yesterday|today|finally|ago|years?|months?|weeks?)\b)[\w-]+){0,2})"
)
# Words too general to tell one habit from another ("stopped drinking" does not end "drinks coffee").
_GENERAL = frozenset("""go goe do doe play use take have has get make work drink eat job thing habit it
    everyth someth anyth all membership subscript contract plan""".split())
# A stored habit or pastime of the user: "User is learning Spanish.", "User sings in a choir.".
_HABIT = re.compile(
    r"^(?:user|i)\s+(?:\w+\s+)?(?:(?:started|began|has\s+started|took\s+up|has\s+taken\s+up)\s+(?:learning|playing|"
    r"practi[cs]ing|taking|doing|studying|attending|going\s+to)|"
    r"is\s+learning|am\s+learning|learns?|stud(?:y|ies)|is\s+studying|plays?|goes|go|"
    r"does|do|practi[cs]es?|attends?|takes?|eats?|drinks?|smokes?|vapes?|uses?|sings?|volunteers?|trains?|"
    r"is\s+training|coach(?:es)?|collects?|teach(?:es)?|works?|is\s+taking|is\s+doing|belongs?|is\s+a\s+member|"
    r"is\s+on|am\s+on|'m\s+on)\b"
)
# A stored fact that says the user has, got or uses a thing: "User drives an old Honda Civic.", "User got a Pixel.",
# "User's bike is red."
_OWNERSHIP = re.compile(
    r"^(?:user(?:'s\s|\s+(?:\w+\s+)?(?:has|owns|drives|rides|uses|has\s+got|'s\s+got|got|bought)\b)"
    r"|my\s|i\s+(?:\w+\s+)?(?:have|own|drive|ride|use|'ve\s+got|got|bought)\b)"
)
_NEGATED = re.compile(
    r"\b(?:no\s+longer|not|never|no\s+more|anymore|any\s+more|used\s+to)\b|n't\b|\bno\b(?!\s*(?:[,.!;:]|$))"
)
_FUNCTION = frozenset(
    """user i me my their they is are was were am be been the a an of in at on to for with by from as and or
    that this it its has have had do does did not no longer anymore more never now again since last month
    week year day today s t don doesn didn isn aren wasn""".split()
)
# "Max passed away", "Sadly, Ana moved out": a named someone as the subject of a clause (not "I", "My"...).
_NAMED_SUBJECT = re.compile(
    r"^(?:(?:so|and|but|oh|well|sadly|unfortunately|anyway|update|news|bad\s+news|sad\s+news)\s*[,:!-]*\s+)*"
    r"(?P<name>(?-i:(?!(?:I|My|We|Our|The|This|That|It|He|She|They|There|Here|What|When|Just|Got|Had)\b)"
    r"[A-Z][a-z\u00e0-\u00ff]+))\s+(?P<rest>(?-i:[a-z]).*)$",
    re.IGNORECASE,
)
# Someone died: it ends a relationship, and a pet's fact (never a phone's: "my phone died" is no loss).
_LOSS = re.compile(
    r"\b(?:passed\s+away|died|crossed\s+(?:over\s+)?the\s+rainbow\s+bridge|put\s+(?:\w+\s+)?to\s+sleep|"
    rf"had\s+to\s+put\s+\w+\s+down|lost\s+(?:my|our)\s+(?:wife|husband|partner|spouse|fianc[ée]e?|{PETS}|mum|mom|"
    r"mother|dad|father|grandma|grandpa|grandmother|grandfather|son|daughter|brother|sister))\b"
)
# "We lost Mochi last week": a loss of someone named (read with capitals; "lost to Liverpool" is a match).
_LOST_NAMED = re.compile(
    r"\blost\s+(?!(?:I|My|Our|The|It|This|That)\b)[A-Z][a-z\u00e0-\u00ff]+\b(?!\s+(?:to|at|in|on)\b)"
)
# A name in a fact: a capitalised word after the first ("User has a cat called Mochi."), not a day or month.
_NAME = re.compile(
    r"(?<!^)(?<![.!?]\s)\b(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|"
    r"April|May|June|July|August|September|October|November|December)s?\b)[A-Z][a-z\u00e0-\u00ff]+\b"
)


JOB_OFFER = "job_offer"
"""The slot of a job offered to the user ("User got a job offer as a designer at Dynatrace."): not their job."""

# "a job offer", "an offer from Stripe", "I was offered a role at Spotify": a job offered, told by its words ...
_OFFER = re.compile(
    r"\b(?:(?:job|work|employment)\s+offers?|offers?\s+(?:from|at|of\s+(?:a|an)\s+(?:job|position|role|post))|"
    r"offered\s+(?:me\s+|us\s+)?(?:a|an|the|my)\s+(?:[\w-]+\s+){0,3}?(?:job|position|role|post|contract|"
    r"internship|placement)s?)\b"
)
# ... or an offer told of beside the job it is for ("I got an offer as a designer at Dynatrace").
_AN_OFFER = re.compile(r"\b(?:a|an|the|another|two|three|\d+)\s+(?:[\w-]+\s+){0,2}?offers?\b")
# An offer taken is the job begun or to come: "I accepted an offer from Microsoft" is a change of job.
_OFFER_TAKEN = re.compile(r"\b(?:accept(?:ed|ing|s)?|took|taking|signed|signing)\b")


def is_job_offer(text: str) -> bool:
    """Whether ``text`` tells of a job offered to the user, not taken ("I got a job offer as a junior UX designer
    at Dynatrace", "I've been offered a role at Spotify", "User has an offer from Stripe."; not "I accepted an offer
    from Microsoft", nor "a special offer on my phone plan"): the offer is no job of theirs yet.

    >>> is_job_offer("I got a job offer at Dynatrace"), is_job_offer("I accepted the job offer at Dynatrace")
    (True, False)
    """
    folded = _fold(text)
    if _OFFER_TAKEN.search(folded):
        return False
    return bool(_OFFER.search(folded)) or bool(_AN_OFFER.search(folded) and "job" in _single_value_slots_of(text))


def slots_of(text: str) -> frozenset[str]:
    """The slots ``text`` (a fact or a user message) speaks of: those of :data:`memori_core.slots.SLOTS`
    and the :data:`ACTIVITY_SLOTS` (empty when none); a job offered is in the :data:`JOB_OFFER` slot, not the
    job's (:func:`is_job_offer`)."""
    folded = _fold(text)
    found = _single_value_slots_of(text) | frozenset(n for n, rx in ACTIVITY_SLOTS.items() if rx.search(folded))
    return found - {"job"} | {JOB_OFFER} if is_job_offer(text) else found


def _activity_words(text: str, slot: str) -> frozenset[str]:
    """The words of ``slot`` in ``text``, stemmed ("running" -> "run", "working out" -> "work out")."""
    stem = get_stemmer("english")
    return frozenset(" ".join(stem(w) for w in m.group(0).split()) for m in ACTIVITY_SLOTS[slot].finditer(_fold(text)))


# How often: "3 times a week", "twice a month", "every day", "daily", "most mornings".
_HOW_OFTEN = re.compile(
    r"\b(?:(?:\d+|one|two|three|four|five|six|seven|a\s+couple\s+of|a\s+few)\s+(?:times|days|nights|mornings|evenings)|"
    r"once|twice)\s+(?:a|per|every)\s+(?:day|week|month|year|fortnight)\b|\b(?:every\s+(?:day|night|morning|evening|"
    r"week|weekend|other\s+day)|daily|weekly|most\s+(?:days|mornings|evenings|weekends))\b",
    re.IGNORECASE,
)


def says_how_often(text: str) -> bool:
    """Whether ``text`` says how often a thing is done ("User boulders 3 times a week.", "User runs every day.")."""
    return bool(_HOW_OFTEN.search(text))


def same_activity(new: str, old: str, slot: str) -> bool:
    """Whether the facts ``new`` and ``old`` of the activity slot ``slot`` are about the same animal or
    activity: they share a word of the slot ("running" / "runs"), and a name ``old`` gives ("Mochi") is in
    ``new`` too; or ``old`` says the user has none of the slot's kind ("User has no pets.") and ``new``
    says otherwise."""
    old_words = _activity_words(old, slot)
    if is_negated(old) and not is_negated(new) and old_words & _WHOLE_SLOT:
        return True
    if not _activity_words(new, slot) & old_words:
        return False
    names = names_in(old)
    return not names or bool(names & names_in(new))


def relationship_stage(text: str) -> str | None:
    """The stage of a relationship ``text`` states ("single", "dating", "engaged", "married", "divorced",
    "widowed"), or ``None`` when it states none, or only in the past or negated ("I was married before", "I've
    never been married"). A wedding to come is the engagement it says holds now ("I'm getting married in June").
    """
    folded = _fold(text)
    if _NEGATED.search(folded) or _PAST_STAGE.search(folded):
        return None
    if _WEDDING_TO_COME.search(folded):
        return "engaged"
    found = [stage for stage, rx in _STAGES if rx.search(folded)]
    return found[0] if found else (("dating" if SEEING_NAME.search(text) else None))


def is_relationship_status(text: str) -> bool:
    """Whether ``text`` says where a relationship stands ("married", "single", "broke up", "engaged", "seeing
    someone", "moved in with", "a new girlfriend", "left me"), not only that a partner exists ("my wife and
    I moved to Berlin" does not): a change of the relationship slot needs one of these."""
    folded = _fold(text)
    return bool(_REL_STATUS.search(folded) or SEEING_NAME.search(text))


def is_exclusive(text: str) -> bool:
    """Whether ``text`` says the user eats, drinks or smokes only one thing ("I only drink decaf")."""
    return bool(_EXCLUSIVE.search(_fold(text)))


def acquired_slots(text: str) -> frozenset[str]:
    """The possession slots (:data:`POSSESSION_SLOTS`) of what ``text`` says the user got for themselves ("I
    got a Pixel" -> ``{"phone"}``, "We bought a Toyota" -> ``{"car"}``; not "a second car", "a work phone",
    "my son a Pixel", nor "a ride in a Tesla")."""
    return frozenset(slot for m in _ACQUIRED.finditer(_fold(text))
                     for slot in _single_value_slots_of(m.group("thing")) if slot in POSSESSION_SLOTS
                     and not re.match(r"\S+\s+(?:ride|lift|trip|test\s+drive|go)\b", m.group("thing")))


def disposed_words(text: str) -> frozenset[str]:
    """The stemmed content words of what ``text`` says was sold, given away, traded in, written off or stolen
    ("I finally sold the Civic" -> ``{"civic"}``, "the mazda's totaled" -> ``{"mazda"}``); empty when it says
    no such thing."""
    return _thing_words(_DISPOSED, text) | _thing_words(_DISPOSED_PASSIVE, text)


def disposed_thing(text: str) -> tuple[str, str] | None:
    """``(thing, what happened)`` when ``text`` tells a thing's end as what happened to it ("the mazda's
    totaled" -> ``("mazda", "totaled")``, "my bike got stolen" -> ``("bike", "stolen")``); else ``None``."""
    m = _DISPOSED_PASSIVE.search(_fold(text))
    if m is None:
        return None
    return m.group("thing"), " ".join(m.group("end").split())


def ends_ownership(new: str, old: str) -> bool:
    """Whether the fact ``new`` disposes of the thing the stored fact ``old`` says the user has or uses ("User
    sold the Civic." ends "User drives an old Honda Civic."): ``old`` is an ownership fact holding a word of
    the thing (:func:`disposed_words`), and both are the same person's."""
    return _ends(disposed_words(new), _OWNERSHIP, new, old)


def stopped_words(text: str) -> frozenset[str]:
    """The stemmed content words of what ``text`` says the user stopped, quit or gave up ("I gave up on
    Spanish" -> ``{"spanish"}``), without the words too general to tell habits apart ("drinking")."""
    return _thing_words(_STOPPED, text) - _GENERAL


def ends_habit(new: str, old: str) -> bool:
    """Whether the fact ``new`` says the user stopped the habit the stored fact ``old`` states ("User gave up on
    Spanish." ends "User is learning Spanish."): ``old`` is a habit or pastime holding a word of what stopped
    (:func:`stopped_words`), and both are the same person's."""
    return _ends(stopped_words(new), _HABIT, new, old)


def _thing_words(rx: re.Pattern[str], text: str) -> frozenset[str]:
    """The stemmed content words of every ``thing`` group ``rx`` finds in ``text``."""
    return frozenset(w for m in rx.finditer(_fold(text)) for w in content_words(m.group("thing")))


def _ends(thing: frozenset[str], kind: re.Pattern[str], new: str, old: str) -> bool:
    """Whether ``new``, which ends ``thing``, ends the stored fact ``old``: ``old`` is of ``kind`` (an ownership
    or a habit), holds a word of ``thing``, and both are the same person's."""
    return bool(thing) and bool(kind.match(_fold(old).strip())) and bool(thing & content_words(old)) \
        and holder(new) == holder(old)


# What a diet leaves out, by the words a user names the food with ("bread" is a carb; "eggs" no meat).
_MEAT = "meat chicken beef pork bacon steak ham lamb turkey sausage burger".split()
_FISH = "fish seafood salmon tuna shellfish prawn shrimp sushi".split()
_DAIRY = "dairy milk cheese butter yoghurt yogurt cream".split()
_CARBS = "carb bread pasta rice potato sugar grain noodle pizza toast sweet dessert".split()
_GLUTEN = "gluten wheat bread pasta pizza toast".split()
_DIET_LEAVES_OUT: dict[str, frozenset[str]] = {
    "vegetarian": frozenset(_MEAT + _FISH),
    "pescatarian": frozenset(_MEAT),
    "vegan": frozenset(_MEAT + _FISH + _DAIRY + ["egg", "honey"]),
    "plant-based": frozenset(_MEAT + _FISH + _DAIRY + ["egg"]),
    "keto": frozenset(_CARBS),
    "low-carb": frozenset(_CARBS),
    "paleo": frozenset(_CARBS + _DAIRY),
    "gluten-free": frozenset(_GLUTEN),
    "dairy-free": frozenset(_DAIRY),
    "lactose-free": frozenset(_DAIRY),
    "sugar-free": frozenset(["sugar", "sweet", "dessert"]),
}
_FOODS = frozenset().union(*_DIET_LEAVES_OUT.values())
_DIET_NAMED = re.compile(r"\b(?P<diet>vegetarian|pescatarian|vegan|plant-based|keto|low-carb|low\s+carb|paleo|"
                         r"gluten-free|dairy-free|lactose-free|sugar-free)\b")
# A stored fact that the user keeps a food out: "User doesn't eat meat.", "User cut out sugar.", "User avoids dairy."
_KEEPS_OUT = re.compile(
    r"\b(?:(?:don't|doesn't|do\s+not|does\s+not|never|no\s+longer|can't|cannot)\s+(?:eat|eats|have|has|touch|touches)|"
    r"avoids?|cut\s+out|gave\s+up|given\s+up|(?:is|am|'m)\s+off|no)\s+(?P<food>[\w-]+(?:\s+[\w-]+)?)"
)
# A food taken back: "User is back on carbs.", "User eats bread again.", "User has started eating meat again.",
# "User is eating dairy again.", "User reintroduced gluten." (what follows the verb, up to four words).
_TAKEN_BACK = re.compile(
    r"\b(?:back\s+(?:on|to(?:\s+eating)?)\s+(?P<on>[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3})"
    r"|(?:eat|eats|eating|ate|have|has|having|started\s+eating|start\s+eating|began\s+eating)\s+"
    r"(?P<again>[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3}?)\s+again\b"
    r"|(?:started|start|began)\s+eating\s+(?P<started>[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3})"
    r"|reintroduc\w*\s+(?P<re>[\w-]+(?:\s+(?:and\s+)?[\w-]+){0,3}))"
)


def _foods(words: str) -> frozenset[str]:
    """The foods of the diet table that ``words`` names, singular ("carbs and bread" -> ``{"carb", "bread"}``)."""
    said = re.findall(r"[\w-]+", words)
    singular = {w[:-3] + "y" if w.endswith("ies") else w[:-2] if w.endswith("oes") else w.rstrip("s") for w in said}
    return frozenset((singular | set(said)) & _FOODS)


def taken_back(fact: str) -> frozenset[str]:
    """The foods ``fact`` says the user eats again ("User is back on carbs." -> ``{"carb"}``, "User has started
    eating meat again." -> ``{"meat"}``); empty when it says no such thing, or denies it.

    >>> sorted(taken_back("User eats bread and pasta again.")), taken_back("User is not back on carbs.")
    (['bread', 'pasta'], frozenset())
    """
    folded = _fold(fact)
    if is_negated(folded):
        return frozenset()
    return frozenset(food for m in _TAKEN_BACK.finditer(folded) for group in m.groupdict().values() if group
                     for food in _foods(group))


def left_out(fact: str) -> frozenset[str] | None:
    """The foods the diet ``fact`` states leaves out ("User is on keto." -> the carbs, "User is vegetarian." -> meat
    and fish, "User doesn't eat pork." -> ``{"pork"}``); ``None`` when ``fact`` states no such diet, or one that
    ended ("User is no longer vegan.")."""
    folded = _fold(fact)
    kept_out = {food for m in _KEEPS_OUT.finditer(folded) for food in _foods(m.group("food"))}
    if kept_out:
        return frozenset(kept_out)
    diets = [_DIET_LEAVES_OUT[re.sub(r"\s+", "-", m.group("diet"))] for m in _DIET_NAMED.finditer(folded)]
    if not diets or is_negated(folded):
        return None
    return frozenset().union(*diets)


def named_subject(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` is said of someone it names first ("Sadly, Ana moved out" ->
    ``("Ana", "moved out")``; not "I ...", "My ...", "The ..."); ``None`` otherwise."""
    m = _NAMED_SUBJECT.match(clause.strip())
    return (m.group("name"), m.group("rest")) if m is not None else None


def named_change(clause: str) -> tuple[str, str] | None:
    """``(name, the rest)`` when ``clause`` tells a change, an ending or a loss of someone it names first ("Max
    passed away last week" -> ``("Max", "passed away last week")``; "Sadly, Ana moved out"); ``None``
    otherwise."""
    if not (is_change(clause) or is_ended(clause) or is_loss(clause)):
        return None
    return named_subject(clause)


def is_loss(text: str) -> bool:
    """Whether ``text`` says someone died ("passed away", "died", "lost my husband", "we lost Mochi")."""
    return bool(_LOSS.search(_fold(text)) or _LOST_NAMED.search(text))


def names_in(text: str) -> frozenset[str]:
    """The names ``text`` gives (capitalised words after the first, not days or months): ``{"Mochi"}`` for
    "User has a cat called Mochi."."""
    return frozenset(_NAME.findall(text))


def is_change(text: str) -> bool:
    """Whether ``text`` announces a change ("moved", "switched", "no longer", "now", "quit", "passed away",
    "started at", "again"...). Not a change only thought of ("I'm thinking of switching to decaf", "I might
    move"), nor "again" after an event ("My car broke down again": it happened once more)."""
    folded = _fold(text)
    if _INTENT.search(folded):
        return False
    if _REPEATED_EVENT.search(folded):
        folded = re.sub(r"\bagain\b", " ", folded)
    return bool(_CHANGE.search(folded))


# "I live in Porto, not Lisbon", "I meant Porto not Lisbon": what the user says was wrong, after what is right.
_CORRECTED = re.compile(
    r"(?:,|\b(?:meant|it's|its|it\s+is|it\s+was|make\s+that)\b.*?)\s+not\s+(?!(?:far|only|just|yet|always|too|so|very|much|bad|sure|really|quite|that|"
    r"exactly|anymore|any|for|because|since|though|ever|even|counting|including)\b)"
    r"(?P<wrong>(?:(?:in|at|a|an|the|as|to)\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?)\s*[.!]*$"
)


def corrected_words(text: str) -> frozenset[str]:
    """The stemmed content words of what ``text`` corrects ("I live in Porto, not Lisbon" -> ``{"lisbon"}``,
    "I meant Porto, not Lisbon" and "its march 3rd not may" too); empty when it corrects nothing."""
    m = _CORRECTED.search(_fold(text).strip())
    return content_words(m.group("wrong")) if m is not None else frozenset()


def without_correction(fact: str) -> str:
    """``fact`` without the ", not ..." that corrects a stored fact ("User lives in Porto, not Lisbon." -> "User
    lives in Porto."): what holds is the fact; the correction ends the stored one it names."""
    m = _CORRECTED.search(fact.rstrip()) if fact.count(",") else None
    if m is None or not m.group(0).startswith(","):
        return fact
    return fact[: m.start()].rstrip() + "."


# "User is allergic to amoxicillin not penicillin.": a correction typed without its comma, the wrong words last (not
# after an auxiliary or a verb it negates: "User does not eat pork.", "User has decided not to drink.").
_BARE_CORRECTED = re.compile(
    r"(?<=[\w')])\s+not\s+(?!(?:to|far|only|just|yet|always|too|so|very|much|bad|sure|really|quite|that|exactly|"
    r"anymore|any|for|because|since|though|ever|even|counting|including|a\s+lot|at\s+all)\b)"
    r"(?P<wrong>(?:(?:in|at|a|an|the|as)\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}?)\s*[.!]*$",
    re.IGNORECASE,
)
_NEGATED_VERB = re.compile(
    r"\b(?:is|am|are|was|were|be|been|do|does|did|has|have|had|can|could|will|would|should|must|may|might|shall|"
    r"but|and|or|if|why|whether|still|just|also|decided|chose|prefers?|tries|tried|promised|agreed|learned|"
    r"learnt|hopes?|wants?|plans?|asked|told|[a-z]+ing|\w+'(?:m|re|s|ve|d|ll))$",
    re.IGNORECASE,
)


def bare_correction(fact: str) -> tuple[str, frozenset[str]] | None:
    """``(fact without it, the stemmed wrong words)`` when ``fact`` ends in a correction typed without its comma
    ("User is allergic to amoxicillin not penicillin." -> ``("User is allergic to amoxicillin.", {"penicillin"})``);
    ``None`` otherwise, and when the "not" denies a verb ("User does not eat pork.", "User has decided not to
    drink."). Whether it corrects anything is for the stored facts to say: the caller keeps it only when one of
    them holds the wrong words."""
    m = _BARE_CORRECTED.search(fact.rstrip())
    if m is None or _NEGATED_VERB.search(fact[: m.start()].rstrip()):
        return None
    wrong = content_words(m.group("wrong"))
    head = fact[: m.start()].rstrip(" ,")
    if not wrong or not content_words(head) - content_words("User") or wrong & content_words(head):
        return None
    return head + ".", wrong


# The name a fact gives what it speaks of ("User has a cat named Mochi."): a detail a denial of the thing needn't say.
_GIVEN_NAME = re.compile(r"\b(?:called|named)\s+[A-Z][\w-]*|\b[A-Z][a-z\u00e0-\u00ff]+\b")


def denies(new: str, old: str) -> bool:
    """Whether the negated ``new`` denies the stored ``old`` of the same person ("User is not vegan." denies
    "User is vegan."; "User doesn't have a cat anymore." denies "User has a cat named Mochi."): ``old`` is not
    negated itself, ``new`` speaks of nothing ``old`` does not, and says all ``old`` says but the name it gives.
    A denial of a part only ("User doesn't work on Fridays." of "User works on Fridays at the bakery.") is none.

    >>> denies("User is not allergic to peanuts.", "User is allergic to peanuts."), denies(
    ...     "User's sister is not vegan.", "User is vegan.")
    (True, False)
    """
    if not is_negated(new) or is_negated(old) or holder(new) != holder(old):
        return False
    words, said = content_words(new), content_words(old)
    whole = content_words(_GIVEN_NAME.sub(" ", old.split(None, 1)[-1]))  # the first word is the holder
    return bool(words) and words <= said and whole <= words


def is_planned(text: str) -> bool:
    """Whether ``text`` tells a change only thought of or still to come ("I'm thinking of switching", "I'm
    leaving Google next month")."""
    return bool(_INTENT.search(_fold(text)))


def is_negated(text: str) -> bool:
    """Whether ``text`` says something stopped or is not so ("no longer", "not", "n't", "no", "anymore")."""
    return bool(_NEGATED.search(_fold(text)))


def is_ended(text: str) -> bool:
    """Whether ``text`` says something is over ("used to", "no longer", "stopped", "gave up", "quit", "died"),
    not only thought of ("I'm planning to quit")."""
    folded = _fold(text)
    return bool(_ENDED.search(folded)) and not _INTENT.search(folded)


def content_words(text: str) -> frozenset[str]:
    """The stemmed content words of ``text`` (function words, "user" and negations left out)."""
    stem = get_stemmer("english")
    words = re.findall(r"\w+", _fold(text).replace("'", " "))
    return frozenset(stem(w) for w in words if w not in _FUNCTION)


# -- health news of a thing the user has: a named pet or person, a part of the body --------------------------------

BODY_PART = (
    r"(?:left\s+|right\s+|lower\s+|upper\s+|bad\s+)?(?:knees?|ankles?|back|shoulders?|wrists?|hips?|elbows?|neck|"
    r"feet|foot|legs?|arms?|hands?|fingers?|thumbs?|toes?|hamstrings?|achilles|acl|mcl|meniscus|calf|calves|shins?|"
    r"ribs?|collarbone|jaw|tooth|teeth|eyes?|ears?|spine|disc|groin|quad|quads|knee\s*cap)"
)
"""A regex alternation of the parts of the body an injury is told of ("knee", "lower back", "ACL")."""
_CONDITION_NOUN = (
    r"(?:[\w'-]+\s+){0,2}?(?:failure|disease|cancer|tumou?r|diabetes|arthritis|infection|dementia|epilepsy|asthma|"
    r"syndrome|disorder|fracture|sprain|injury|virus|flu|covid|pneumonia|bronchitis|thyroid\w*|murmur|leuka?emia|"
    r"lymphoma|ana?emia|seizures?|cataracts?|glaucoma|worms|fleas|mites|ringworm|parvo|lump|cyst|ulcer|stroke|"
    r"heart\s+attack|concussion|hernia|gout|lupus|colitis|crohn's|ibs|copd|migraines?|mastitis|shingles|sepsis|"
    r"kidney\s+stones?|gallstones|cough|cold|ear\s+infection|uti)"
)
_VAGUE_ILL = (
    r"(?:really\s+|very\s+|so\s+|quite\s+|a\s+bit\s+)?(?:sick|ill|unwell|poorly|off\s+(?:her|his|its|their)\s+food|"
    r"not\s+(?:well|great|good|doing\s+(?:well|great|good))|under\s+the\s+weather|in\s+(?:the\s+)?hospital|"
    r"at\s+the\s+vets?(?:'s)?|going\s+downhill|struggling|limping|lame)"
)
_BETTER = (
    r"(?:(?:so\s+|much\s+|a\s+lot\s+|way\s+|loads\s+|a\s+bit\s+|slightly\s+|far\s+)*better|improving|on\s+the\s+mend|"
    r"mending|getting\s+there|recovering|fine)"
)
_RECOVERED = (
    r"(?:(?:fully|completely|totally|all)\s+)?(?:healed|recovered|cured|clear)|back\s+to\s+normal|good\s+as\s+new|"
    r"in\s+remission|fine\s+(?:again|now)|all\s+better|100%(?:\s+again)?"
)
_INJURED = (
    r"twisted|sprained|broke|broken|tore|torn|injured|hurt|pulled|strained|fractured|dislocated|bruised|sprain|"
    r"injury|fracture|surgery|operation|replacement|bad|sore|dodgy|weak|swollen|busted|wrecked|knackered"
)
_HEALTH_REST = re.compile(
    rf"^(?:(?:has|'s|have)\s+(?:got\s+|been\s+)?(?:(?:diagnosed|treated)\s+(?:with|for)\s+)?(?:a\s+|an\s+)?"
    rf"(?:{_CONDITION_NOUN}|{_VAGUE_ILL}|{_BETTER}|{_RECOVERED})"
    rf"|(?:was|got|has\s+been|is\s+being)\s+(?:diagnosed|treated)\s+(?:with|for)\s+(?:a\s+|an\s+)?{_CONDITION_NOUN}"
    rf"|(?:is|'s|was|seems|looks|feels)\s+(?:now\s+|still\s+|already\s+)?(?:{_VAGUE_ILL}|{_BETTER}|{_RECOVERED})"
    rf"|(?:(?:has|is)\s+)?(?:{_RECOVERED}|recovering))\b",
    re.IGNORECASE,
)


def health_news(rest: str) -> bool:
    """Whether ``rest``, what a clause says of someone or something named first ("Luna has kidney failure": "has
    kidney failure"), is news of their health: an illness or a diagnosis, being sick, better or recovered."""
    return bool(_HEALTH_REST.match(rest.strip()))


_NAMED_ONE = re.compile(r"^User's\s+(?:[\w-]+\s+){0,2}?(?P<name>[A-Z][a-z\u00e0-\u00ff]+)\s+(?P<rest>(?-i:[a-z']).*)$")
_BODY_OF_USER = re.compile(
    rf"^User(?:'s\s+(?P<part>{BODY_PART})\b"
    rf"|\s+(?:\w+\s+){{0,2}}?(?:their|a|an)\s+(?:[\w-]+\s+)?(?P<part2>{BODY_PART})\b)",
    re.IGNORECASE,
)
_KINDS = (
    ("recovered", re.compile(rf"\b(?:{_RECOVERED})(?!\w)", re.IGNORECASE)),
    ("better", re.compile(rf"\b(?:{_BETTER})\b", re.IGNORECASE)),
    ("injury", re.compile(rf"\b(?:{_INJURED})\b", re.IGNORECASE)),
    ("condition", re.compile(rf"\b(?:{_CONDITION_NOUN})\b", re.IGNORECASE)),
    ("ill", re.compile(rf"\b(?:{_VAGUE_ILL})\b", re.IGNORECASE)),
)
# Which earlier state of a thing's health a new one ends: a recovery all before it; being better an injury, being
# ill or better before; an illness or an injury being ill or well before (an earlier diagnosis stays: a cat may have
# two illnesses); being ill again a recovery.
_ENDS_HEALTH = {
    "recovered": frozenset({"recovered", "better", "injury", "condition", "ill"}),
    "better": frozenset({"better", "injury", "ill"}),
    "injury": frozenset({"better", "recovered", "ill"}),
    "condition": frozenset({"better", "recovered", "ill"}),
    "ill": frozenset({"better", "recovered"}),
}


def health_state(fact: str) -> tuple[str, str] | None:
    """``(whose health, how it is)`` when ``fact`` tells of the health of a named one of the user's ("User's cat
    Luna has kidney failure." -> ``("luna", "condition")``) or of a part of the user's body ("User twisted their
    knee at the park." -> ``("knee", "injury")``, "User's knee is much better." -> ``("knee", "better")``): how
    is ``"recovered"``, ``"better"``, ``"injury"``, ``"condition"`` or ``"ill"``; ``None`` for any other fact."""
    named = _NAMED_ONE.match(fact)
    if named is not None and health_news(named.group("rest")):
        whose, said = named.group("name").lower(), named.group("rest")
    else:
        body = _BODY_OF_USER.match(fact)
        if body is None:
            return None
        part = (body.group("part") or body.group("part2")).lower().split()[-1]
        whose, said = part.removesuffix("s") if part not in ("achilles", "calves") else part, fact[body.end():]
        said = fact  # how the part is may be told before it ("User twisted their knee")
    for kind, rx in _KINDS:
        if rx.search(said):
            return whose, kind
    return None


def ends_health(new: str, old: str) -> bool:
    """Whether the fact ``new`` of a thing's health ends the stored ``old`` of the same thing's (:func:`health_state`;
    "User's knee is much better." ends "User twisted their knee at the park."; "User's cat Luna has kidney failure."
    ends "User's cat Luna has been sick.", not "User has a cat named Luna.")."""
    now, before = health_state(new), health_state(old)
    if now is None or before is None or now[0] != before[0] or holder(new) != holder(old):
        return False
    return before[1] in _ENDS_HEALTH[now[1]]

