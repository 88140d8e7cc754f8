"""The rule-based extractor's English rules: which sentence is a statement by the user, and its "User ..." rewrite.

:func:`judge_sentence` decides one sentence (kept as a fact, or dropped, and why: :mod:`.verdicts`), one check
after the other, first match wins. The checks live by what they read: the lead cut before the statement
(:mod:`.leads`) and the tail after it (:mod:`.tails`), what a sentence does when it states nothing of the user's
own (:mod:`.speech_acts`), how the user tells who they are (:mod:`.introductions`), a passing moment or a plan
(:mod:`.moments`), the rewrite (:mod:`.rewrite`), a rewritten fact that keeps nothing (:mod:`.empty_facts`) and
a change as what holds after it (:mod:`.holds_now`). Pure: no model, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from ..number_words import number_words
from ..ranking.care import is_care_fact
from ..ranking.upcoming import tells_a_plan
from ..slots import PERSON
from .dates import DATED, anchor_plan, date_said, date_told
from .lasting_days import with_lasting_day
from .stays import held_until
from .empty_facts import is_vague_remark, judge_rewritten
from .fragments import is_fragment
from .grammar import is_past, is_past_statement, is_subjectless_change
from .holds_now import as_holds_now
from .introductions import being_a, introduction, name_given, role_here, the_one
from .leads import clean, cut_lead
from .moments import CLOCK, NOW_WORDS, SOON, moment, stay_after_day
from .patterns import OWN_WORDS, rx
from .rewrite import FIRST_PERSON_WORD, OTHER_FIRST_PERSON, end_sentence, in_third_person, rewrite
from .cues import is_change
from .slots import slots_of
from .speech_acts import (
    BECAUSE,
    HEDGE,
    HYPOTHETICAL,
    QUESTION_OPENER,
    QUESTION_TAIL,
    SUPPOSED_DUTY,
    leans_on_what_was_said,
    not_a_statement,
    not_what_holds,
    said_in_sarcasm,
    story_or_joke,
)
from .tails import (
    asks_to_confirm, cut_aside, plain, without_empty_tail, without_request, without_tag_question,
)
from .thought_changes import is_thought_of_change
from .this_chat import who_set_it_up
from .verdicts import (
    DROP_EMPTY,
    DROP_EPHEMERAL,
    DROP_HYPOTHETICAL,
    DROP_JOKE,
    DROP_NOT_FIRST_PERSON,
    DROP_OPINION,
    DROP_QUESTION,
    DROP_SMALL_TALK,
    DROP_TOO_LONG,
    DROP_UNCLEAR,
    KEPT_AS_SAID,
    KEPT_EXPIRING,
    KEPT_INTRODUCTION,
    KEPT_REWRITTEN,
    SentenceVerdict,
)

__all__ = ["judge_sentence"]  # statement_before_question serves the extractor only

# The user as the subject: "I ...", "My ...", "We ...", "Our ...", or after an opener ("Last month, I ...", "Due
# to my allergy, I ...").
_FIRST_PERSON_START = rx(rf"^(?:{OWN_WORDS}|ive|me and|mine)\b")
_OPENER_THEN_FIRST_PERSON = rx(
    r"^(?:last|next|this|yesterday|today|tonight|tomorrow|recently|lately|since|in|on|at|for|after|before|when|while|as|"
    r"once|growing up|nowadays|these days|every|each|most|over|during|back|two|three|a few|a couple|"
    r"currently|now|at the moment|right now)\b[^?]{0,60}?,?\s+(?P<subject>(?:i|i'm|i've|my|we|we're|we've|our)\b)"
)
# "As a kid I lived in Rome", "Growing up, I had a dog", "In high school I played football": when in the user's life,
# said after the statement ("User lived in Rome as a kid."), not in front of "User".
_LIFE_STAGE_OPENER = rx(
    r"^(?:as\s+an?\s+(?!(?:result|consequence|matter\s+of\s+fact|side\s+note|reminder|heads\s+up)\b)[^,?!.]{1,40}?"
    r"|growing\s+up|back\s+(?:in|at|then|home)\b[^,?!.]{0,40}?"
    r"|(?:in|at|during)\s+(?:college|high\s+school|middle\s+school|school|uni|university|grad\s+school|"
    r"my\s+(?:teens|twenties|thirties|forties|fifties|youth|childhood|student\s+days)))"
    r",?\s+(?=(?:i|i'm|i've|my|we|we're|we've|our)\b)"
)
# "Due to my allergy, I avoid nuts": a short lead-in, a comma, then the user as subject.
_LEAD_IN_THEN_FIRST_PERSON = rx(r"^[^,?!]{1,60},\s*(?P<subject>(?:i|i'm|i've|i'll|i'd|my|we|we're|we've|our)\b)")

# "Allergic to cats", "Not a fan of spicy food", "Lactose intolerant btw": what the user is, said without "I'm".
_IMPLIED_IM = rx(
    r"^(?:(?:not|never)\s+(?:a|really\s+a)\s+(?:big\s+)?fan\s+of|(?:big|huge|massive|great)\s+fan\s+of|"
    r"(?:severely\s+|very\s+|mildly\s+)?allergic\s+to|(?:lactose|gluten)\s+intolerant|intolerant\s+to|"
    r"(?:strict\s+|full-time\s+)?(?:vegan|vegetarian|pescatarian)|diabetic|coeliac|celiac|pregnant|"
    r"happily\s+married|recently\s+(?:married|divorced|retired|engaged)|newly\s+(?:married|single|engaged)|"
    r"married\s+(?:with|for|to|since)|originally\s+from|"
    # "doing my master's in marine biology at Bergen": studies the user is in; "job hunting": what they look for
    r"(?:job|house|flat)[\s-]hunting|"
    r"doing\s+(?:a|an|my)\s+(?:[\w-]+\s+)?(?:master's|masters|phd|degree|a[- ]levels|gcses|apprenticeship|msc|mba)|"
    # "down to 5 cigarettes a day": a habit's rate now
    rf"(?:now\s+)?down\s+to\s+(?:just\s+|only\s+|about\s+)?(?:\d+|{number_words('ten')}|a|"
    r"half\s+a)\s+(?:[a-z-]+\s+)?[a-z-]+\s+(?:a|per)\s+(?:day|night|week))\b"
    r"(?!\s+(?:food|recipes?|options?|restaurants?|dishes|meals?|places?|here)\b)"
)
# "Work in IT.", "Live in Leeds.", "Have two dogs.": a statement typed without its "I" (not "Have a nice day").
_IMPLIED_I_PRESENT = rx(
    r"^(?:live\s+in|work\s+(?:in|at|as|for)|have\s+(?:\d+|two|three|four|five|six|a|an)\s+"
    r"(?!(?:nice|good|great|lovely|wonderful|fun|safe|happy|blast|look|go|try|think|question|chat|word|awesome|"
    r"amazing|brilliant|fantastic|fab|super|merry|relaxing|restful|productive)\b))"
)
# "Been vegan for 3 years", "Been working on my novel"; not "Been a busy week" / "Been ages" (it has been).
_IMPLIED_IVE = rx(
    r"^been\s+(?:(?:(?!thinking|wondering|meaning|having)\w+ing)\b|vegan|vegetarian|pescatarian|sober|married|single|"
    r"divorced|engaged|retired|(?:only\s+)?to\s+(?-i:[A-Z]))"
)
# "Ana and I broke up", "My wife and I moved to Berlin", "Me and Tom split up": the user and someone else.
_OTHER = r"(?:(?:my|our)\s+\w+(?:\s+(?-i:[A-Z])[\w-]+)?|(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)"
# "me and sarah broke up", "me and mum": a name or a relative typed in lower case (no pronoun, no "the" or "all").
_OTHER_LOWER = (
    r"(?!(?:him|her|them|us|you|he|she|they|it|the|a|an|this|that|these|those|some|all|both|every|each|my|our|his|"
    r"their|everyone|everybody|someone|somebody|nobody|others?|friends|people|work|i|me)\b)(?-i:[a-z])[a-z'-]+"
)
_WITH_OTHER = rx(
    rf"^(?:(?P<other>{_OTHER}|{_OTHER_LOWER})\s+and\s+(?:i|me)|(?:i|me)\s+and\s+(?P<other2>{_OTHER}|{_OTHER_LOWER}))"
    r"\s+(?P<rest>(?-i:[a-z]).*)$"
)
_PERSON_WORD = rx(rf"^(?:{PERSON})$")
# "Ana and I want to open a bakery", "... are going to try for a baby": a wish or an intent, not yet a fact ("are
# going to Japan" names where, not what they will do).
_MODAL_START = rx(
    r"^(?:would|could|should|might|may|'d|want|wanna|need|hope|plan|"
    r"are\s+going\s+to\s+(?!(?-i:[A-Z])|(?:the|a|an|my|our|their|his|her|see|visit)\b))\b"
)


# As said, a sentence stays a fact only when short and about a known part of the user's life ...
_AS_SAID_MAX_WORDS = 12
# ... or when it tells, dated, of something the user did: "Last Friday, I went to a counselling workshop."
_EVENT_MAX_WORDS = 20
_DID = rx(
    r"\b(?:i|we)\s+(?:just\s+|finally\s+|recently\s+)?(?:went|got|took|started|joined|finished|visited|attended|"
    r"ran|won|bought|made|had|met|adopted|moved|signed|completed|tried|volunteered|painted|wrote|read|saw|learned|"
    r"learnt|spent|did|gave|received|found|launched|opened|passed|graduated|traveled|travelled|hosted|organized|"
    r"organised|played|performed|created|built|published|released)\b"
)


def _kept_as_said(text: str, statement: str) -> tuple[str | None, str]:
    """``text`` kept as said when its ``statement`` (the user's words after any opener) is no longer than
    :data:`_AS_SAID_MAX_WORDS` words and speaks of a slot of the user's life (home, job, diet, pets...) or the
    sentence of a care fact (an allergy, a diet), or, up to :data:`_EVENT_MAX_WORDS` words, tells of something
    the user did at a time it names (history, not a passing mood); otherwise nothing: a rambling or
    unplaceable sentence in memory is worse than a missed fact."""
    words = len(statement.split())
    if words <= _EVENT_MAX_WORDS and DATED.search(text) and _DID.search(statement):
        return _of_the_user(text)
    if words > _AS_SAID_MAX_WORDS:
        return None, DROP_UNCLEAR
    if not (slots_of(statement) or is_care_fact(statement) or is_care_fact(text)):
        return None, DROP_UNCLEAR
    return _of_the_user(text)


def _of_the_user(text: str) -> tuple[str | None, str]:
    """``text``, kept in the user's words, said of the user (:func:`~.rewrite.in_third_person`: "I think I'm
    allergic to cats." -> "User thinks they're allergic to cats."): a fact is never stored in the first person;
    dropped (``DROP_UNCLEAR``) when it cannot be said so."""
    fact = in_third_person(text)
    return (fact, KEPT_AS_SAID) if fact is not None and not is_vague_remark(fact) else (None, DROP_UNCLEAR)


def _as_we(body: str) -> str | None:
    """``body`` ("My girlfriend Anika and I are going to Japan in March") told as "We ..." ("We are going to Japan
    in March"), as the rules read a plan or a moment; ``None`` when ``body`` is not told of the user and someone."""
    m = _WITH_OTHER.match(body)
    return f"We {m.group('rest')}" if m is not None else None


def _together(m: re.Match[str]) -> tuple[str | None, str]:
    """The verdict for "<someone> and I <did something>": "User and <someone> <did something>."; a plan of a
    month to come is kept until it ends, as "We ..." would be ("My girlfriend Anika and I are going to Japan in
    March")."""
    other, rest = m.group("other") or m.group("other2"), m.group("rest")
    # "Ana and I are going to the cinema tomorrow" is soon over; "Lily and I got married on Saturday" is news
    done = is_past(rest.split()[0]) and is_change(rest)
    if (NOW_WORDS.search(rest) or SOON.search(rest)) and not done:
        return None, DROP_EPHEMERAL
    passing = moment(f"We {rest}")
    if passing is not None and passing[0] is None:  # "Tom and I are stuck in traffic"
        return None, passing[1]
    planned = passing is not None and passing[1] == KEPT_EXPIRING
    if _MODAL_START.match(rest) and not planned:
        return None, DROP_HYPOTHETICAL
    if re.fullmatch(_OTHER_LOWER, other):  # typed in lower case: "me and mum" -> "their mum", "sarah" -> "Sarah"
        other = f"my {other}" if _PERSON_WORD.match(other) else other.capitalize()
    other = re.sub(r"^(?:my|our)\b", "their", other, flags=re.IGNORECASE)
    rest = re.sub(r"\b(?:my|our)\b", "their", rest, flags=re.IGNORECASE)
    if OTHER_FIRST_PERSON.search(rest):
        return _kept_as_said(m.group(0), m.group(0))
    return plain(end_sentence(f"User and {other} {rest}")), KEPT_EXPIRING if planned else KEPT_REWRITTEN



def judge_sentence(
    sentence: str, max_chars: int, *, now: datetime | None = None, zone_known: bool = False
) -> SentenceVerdict:
    """The decision for one sentence of a user message: the fact kept (or ``None``) and the reason.

    ``max_chars``: a longer sentence is not a fact (a paste, a story) and is dropped. ``now``: when the sentence
    was said, an aware datetime in the user's zone (default: now, UTC); ``zone_known``: whether that zone is the
    user's. A plan's day is resolved against it (:func:`~memori_core.extraction.dates.anchor_plan`): the fact
    says the day ("on Monday 2026-12-07"), and expires when that day is over; a plan at a time with no day ("a
    dentist appointment at 4") is today's. A lasting fact's past times ("last month", "two weeks ago") and what
    it says is due ("due next month") are written out too (:func:`~memori_core.extraction.dates.date_said`);
    a fact with something due expires when that time is over (a pregnancy two weeks later: a baby may come late).
    """
    cleaned = without_empty_tail(clean(sentence))
    fact, reason = _judge(cleaned, max_chars)
    if fact is not None and reason == KEPT_REWRITTEN:
        fact = as_holds_now(fact)
    if fact is not None and reason in (KEPT_REWRITTEN, KEPT_AS_SAID) and _TOLD_AS_OVER.search(fact):
        # "User got laid off today.": the day written out, as the turn's day says it
        fact = date_told(fact, now if now is not None else datetime.now(timezone.utc))
    expires_said: timedelta | None = None
    if fact is not None and reason != KEPT_EXPIRING:
        # "User went vegan last month.", "User is pregnant, due next month.": the time written out, as the turn's
        # day says it (a plan's day is written out below)
        when = now if now is not None else datetime.now(timezone.utc)
        fact, expires_said = _dated_lasting(fact, when, zone_known)
    if fact is not None and FIRST_PERSON_WORD.search(fact):
        return SentenceVerdict(sentence, None, DROP_UNCLEAR)  # never stored in the first person
    if fact is not None and is_fragment(fact):
        return SentenceVerdict(sentence, None, DROP_UNCLEAR)  # "User's two grandchildren.": no statement
    if reason == KEPT_EXPIRING and fact is not None:
        when = now if now is not None else datetime.now(timezone.utc)
        body = cut_lead(cleaned)[0]
        lead = _opener(body)
        together = _as_we(body)  # "Anika and I are going to Japan in March": as "We are going ..." is read
        passing = moment(body, when) or (
            moment(_fronted(body, lead), when) or moment(body[lead.start("subject"):], when)
            if lead is not None else None) or (moment(together, when) if together is not None else None)
        fact, expires_in, anchored = _dated_plan(fact, when, zone_known, passing[2] if passing else None)
        if anchored and expires_in is not None and expires_in <= timedelta(0):  # "I had my cousin's wedding May 15-17"
            return SentenceVerdict(sentence, None, DROP_EPHEMERAL)
        return SentenceVerdict(sentence, fact, reason, expires_in)
    return SentenceVerdict(sentence, fact, reason, expires_said)


# An event told as over, by a past verb after its subject ("User got laid off today.", "User's cat Luna passed away
# this morning."; not "User is cooking tonight.").
_TOLD_AS_OVER = re.compile(
    r"^(?:User|I|We|My|Our)\b(?:'s)?\s+(?:[\w'-]+\s+){0,4}?(?:(?:just|finally|also)\s+)?"
    r"(?:was|were|had|did|got|went|came|left|lost|broke|fell|found|met|won|quit|sold|bought|made|took|gave|"
    r"(?!(?:need|feed|bleed|speed|seed|breed)\b)[a-z]{2,}ed)\b"
)
# "User's cousin's wedding was on May 2.", "User had their exam on the 14th.": an event told as over.
_WAS = rx(r"^user(?:'s\s+[^.]*?\b(?:was|were)|\s+(?:(?:just|also|finally|already)\s+)?had)\b")


def _dated_lasting(fact: str, when: datetime, zone_known: bool) -> tuple[str, timedelta | None]:
    """A kept fact that is no plan, its times written out as of ``when`` and how long it holds (``None``: no end):
    "User is in Rome this week.", "... until Friday" until the end it names (.stays); "went vegan last month",
    "due next month" written out (a due time held a while past it); "is this Friday", "was born on Tuesday" the day
    written out."""
    dated = held_until(fact, when, zone_known=zone_known) or date_said(fact, when, zone_known=zone_known)
    if dated.expires_at is None:
        dated = with_lasting_day(dated.text, when, zone_known=zone_known,
                                 past=_told_as_past(dated.text) or bool(_TOLD_AS_OVER.search(dated.text))) or dated
    return dated.text, (dated.expires_at - when if dated.expires_at is not None else None)


def _dated_plan(fact: str, when: datetime, zone_known: bool,
                expires_in: timedelta | None) -> tuple[str, timedelta | None, bool]:
    """A kept plan with its day written out as of ``when`` (:func:`~memori_core.extraction.dates.anchor_plan`) and
    how long it holds: until that day is over, a stay after it as long as it lasts (``expires_in``: what the
    sentence's moment said, kept when it names no day; a plan at a time with no day is today's); and whether a day
    was read (a plan whose day is over when said is then over)."""
    anchored = anchor_plan(fact, when, zone_known=zone_known, past=_told_as_past(fact))
    if anchored is not None:
        fact = anchored.text
        if anchored.expires_at is not None:  # a stay after the day ends when it does
            expires_in = anchored.expires_at - when + stay_after_day(fact)
        return fact, expires_in, True
    if expires_in is not None and expires_in <= timedelta(days=1) and CLOCK.search(fact):
        today = anchor_plan(f"{fact.rstrip(' .!')} today.", when, zone_known=zone_known)  # at a time, today
        if today is not None and today.expires_at is not None:
            return today.text, today.expires_at - when, False
    return fact, expires_in, False


def date_stated(fact: str, when: datetime, *, zone_known: bool = False) -> tuple[str, datetime | None]:
    """A fact stated as it is stored ("User is flying to Tokyo on 2026-10-20 for a week.", a model's ``remember``,
    MCP ``add``), dated as capture dates the fact it keeps from a sentence said at ``when`` (:func:`judge_sentence`,
    one set of rules): a plan (:func:`~memori_core.ranking.upcoming.tells_a_plan`) with its day written out and
    expiring when that day (and a stay after it) is over; any other fact with the times it names written out, and
    an end only when it names one ("User is in Rome this week."). Returns the text and its expiry (``None``: none;
    a plain fact, "User lives in Berlin.", gets none; so does a plan whose day was over when it was stated, kept
    as stated)."""
    if tells_a_plan(fact) and not _told_as_past(fact):
        text, expires_in, anchored = _dated_plan(fact, when, zone_known, None)
        if anchored and expires_in is not None:
            # a plan whose day was over when it was stated (capture drops it) is kept as stated, with no expiry
            return (text, when + expires_in) if expires_in > timedelta(0) else (fact, None)
    text, expires_in = _dated_lasting(fact, when, zone_known)
    return text, (when + expires_in if expires_in is not None and expires_in > timedelta(0) else None)


def _told_as_past(fact: str) -> bool:
    """Whether ``fact`` tells of what happened ("User had their cousin's wedding May 15-17.", "User's recital was
    on the 18th."), not of what will be."""
    return is_past_statement(fact) or bool(_WAS.match(fact))


def _opener(body: str) -> re.Match[str] | None:
    """Where the user starts speaking after an opener ("Last month, I ...", "Due to my allergy, I ..."), or
    ``None``."""
    return _OPENER_THEN_FIRST_PERSON.match(body) or _LEAD_IN_THEN_FIRST_PERSON.match(body)


def _fronted(body: str, lead: re.Match[str]) -> str:
    """``body`` ("On Monday, I have a dentist appointment") with its opener said after the statement ("I have a
    dentist appointment on Monday"): where a plan's day or a moment's time reads as the rules expect it."""
    opener = body[: lead.start("subject")].strip(" ,")
    return f"{body[lead.start('subject'):].rstrip(' .!')} {opener[:1].lower()}{opener[1:]}"


def _time_after_change(body: str, lead: re.Match[str]) -> str:
    """``body`` ("This week I switched to day shifts, 7am to 7pm") with its opener of time said after the change,
    before what the statement adds after a comma ("I switched to day shifts this week, 7am to 7pm")."""
    opener = body[: lead.start("subject")].strip(" ,")
    head, comma, rest = body[lead.start("subject"):].rstrip(" .!").partition(",")
    return f"{head} {opener[:1].lower()}{opener[1:]}{comma}{rest}"


def _statement(body: str) -> str:
    """``body`` without a request or an aside after the statement."""
    return cut_aside(without_request(body))


def _with_implied_subject(body: str) -> str:
    """``body`` with the subject a statement was typed without: "Just moved to Leeds" -> "I just moved to Leeds",
    "Work in IT." -> "I work in IT.", "Been vegan for 3 years" -> "I've been vegan ...", "Allergic to cats" ->
    "I'm allergic to cats", "Big fan of jazz" -> "I'm a big fan of jazz"; any other ``body`` as it is."""
    lowered = body[:1].lower() + body[1:]
    if is_subjectless_change(body) or _IMPLIED_I_PRESENT.match(body):
        return "I " + lowered
    if _IMPLIED_IVE.match(body):
        return "I've " + lowered
    if _IMPLIED_IM.match(body):
        article = "a " if re.match(r"(?:big|huge|massive|great)\s", body, re.IGNORECASE) else ""
        return f"I'm {article}{lowered}"
    return body


def _judge(text: str, max_chars: int) -> tuple[str | None, str]:
    # One check after the other, first match wins: what is not a statement by the user is dropped
    # before anything is rewritten.
    if not re.search(r"\w", text):
        return None, DROP_EMPTY
    if len(text) > max_chars:
        return None, DROP_TOO_LONG
    if asks_to_confirm(text):  # "I'm not allowed to take ibuprofen while pregnant right?": asked, not told
        return None, DROP_QUESTION
    text = without_tag_question(text)  # "I'm scared of flying, funny right?": a statement, and a tag
    amazed = _amazed(text)  # "I'm not lactose intolerant anymore apparently??": told in surprise, not asked
    if amazed != text:  # its tail can be read now: "... apparently."
        text = without_empty_tail(amazed)
    if text.rstrip(" )\"'").endswith("?"):
        return _judge_question(text, max_chars)
    if said_in_sarcasm(text):  # "Yeah right, I'm a billionaire.": the opposite of what it says
        return None, DROP_JOKE
    body, social = cut_lead(text)
    if not re.search(r"\w", body):
        return None, DROP_SMALL_TALK
    dropped = story_or_joke(body)
    if dropped is not None:
        return None, dropped
    role = role_here(body)  # "Retired teacher here."
    if role is not None:
        return role, KEPT_REWRITTEN
    body = _with_implied_subject(body)
    if QUESTION_OPENER.match(body):
        return None, DROP_QUESTION
    for read in _BODY_READERS:
        verdict = read(body)
        if verdict is not None:
            return verdict
    if _FIRST_PERSON_START.match(body):
        body = _statement(body)
        rewritten = rewrite(body)
        return judge_rewritten(rewritten, body) if rewritten is not None else _kept_as_said(body, body)
    lead = _opener(body)
    if lead is not None:
        return _judge_after_opener(body, lead, max_chars)
    return None, DROP_SMALL_TALK if social else DROP_NOT_FIRST_PERSON


_Verdict = tuple[str | None, str]


def _kept(read: Callable[[str], str | None], reason: str) -> Callable[[str], _Verdict | None]:
    """A reader of :data:`_BODY_READERS` from ``read``, which gives the fact to keep (``None``: not its case): the
    fact, kept for ``reason``."""
    return lambda body: None if (fact := read(body)) is None else (fact, reason)


def _dropped(read: Callable[[str], str | None]) -> Callable[[str], _Verdict | None]:
    """A reader of :data:`_BODY_READERS` from ``read``, which gives why the sentence is dropped (``None``: not its
    case)."""
    return lambda body: None if (reason := read(body)) is None else (None, reason)


def _hedge(body: str) -> _Verdict | None:
    hedge = HEDGE.match(body)
    return None if hedge is None else _hedged(body, hedge.group("rest"))


def _moment(body: str) -> _Verdict | None:
    passing = moment(body)
    return None if passing is None else (passing[0], passing[1])


def _with_other(body: str) -> _Verdict | None:
    together = _WITH_OTHER.match(body)
    return None if together is None else _together(together)


# What :func:`_judge` reads a statement's body by once its lead is cut and its subject implied, in this order: the
# first that gives a verdict decides; a body none of them reads is judged as a first-person statement.
_BODY_READERS: tuple[Callable[[str], _Verdict | None], ...] = (
    name_given,
    _kept(who_set_it_up, KEPT_REWRITTEN),  # "my grandkids set this thing up for me": that the user has them
    _dropped(not_a_statement),
    _hedge,
    _dropped(not_what_holds),
    _moment,
    _dropped(leans_on_what_was_said),
    _kept(introduction, KEPT_INTRODUCTION),
    _kept(the_one, KEPT_REWRITTEN),
    _with_other,
)


_AMAZED_END = re.compile(r"\s*(?:\?[?!]+|![!?]*\?[?!]*)\s*$")


def _amazed(text: str) -> str:
    """A first-person statement told in surprise, its end marks doubled ("I'm not lactose intolerant anymore
    apparently??", "I got the job?!"), as the statement with a full stop: a question asks with one mark, or starts
    as a question does. Any other text as it is."""
    end = _AMAZED_END.search(text)
    if end is None or not _FIRST_PERSON_START.match(text.lstrip()):
        return text
    return text[: end.start()] + "."


def _judge_question(text: str, max_chars: int) -> tuple[str | None, str]:
    """The verdict for a question: the statement said before it ("Since I'm vegan, where can I get B12?", "As a
    vegan, what ...?"), else dropped."""
    m = QUESTION_TAIL.match(text)
    if m is not None:  # "Since I'm vegan, where can I get B12?": the reason given is the statement
        head = m.group("head")
        being = being_a(head)  # "As a vegan, what ...?": what the user is
        if being is not None:
            return being, KEPT_REWRITTEN
        fact, reason = _judge(BECAUSE.sub("", head), max_chars)
        if fact is not None:
            return fact, reason
    return None, DROP_QUESTION


def statement_before_question(sentence: str) -> str | None:
    """What ``sentence`` states before the question it ends with ("Felix is vegan, any dinner ideas for both of
    us?" -> "Felix is vegan"), ``None`` when it is a question only."""
    text = without_tag_question(without_empty_tail(clean(sentence)))
    if not text.rstrip(" )\"'").endswith("?"):
        return None
    m = QUESTION_TAIL.match(cut_lead(text)[0])
    return m.group("head").strip() if m is not None else None


def _hedged(body: str, rest: str) -> tuple[str | None, str]:
    """The verdict for "I think ``rest``" (``body``): kept as said when ``rest`` is about the user ("I think I'm
    allergic"), else an opinion."""
    about_user = _FIRST_PERSON_START.match(rest) or rest.lower().startswith("to ")
    if re.match(r"(?:my|our)\b", rest, re.IGNORECASE) and not is_care_fact(rest):
        about_user = None  # "I think my boyfriend is cheating": a suspicion of someone else's doing
    if about_user and is_thought_of_change(rest):
        return None, DROP_HYPOTHETICAL  # "I think I'm going vegan": a change only thought of (.thought_changes)
    if about_user and not HYPOTHETICAL.match(rest) and not SUPPOSED_DUTY.match(rest):
        passing = moment(rest)  # "I think I'm getting a cold": a passing state still
        if passing is not None and passing[0] is None:
            return None, passing[1]
        return _kept_as_said(body, rest)
    return None, DROP_OPINION


def _judge_after_opener(body: str, lead: re.Match[str], max_chars: int) -> tuple[str | None, str]:
    """The verdict for ``body``, where the user speaks after an opener (``lead``: "Last month, I ...")."""
    said = body[lead.start("subject"):]  # what the user says after "Last month," / "Due to X,"
    fact, reason = _judge(said, max_chars)  # dropped ("..., I'm exhausted") unless it is a statement
    if fact is None and reason == DROP_UNCLEAR:
        passing = moment(_fronted(body, lead))  # "On Monday I have a dentist appointment": a plan
        if passing is not None and passing[1] == KEPT_EXPIRING:
            return passing[0], passing[1]
    if fact is None or reason in (KEPT_EXPIRING, KEPT_INTRODUCTION):
        return fact, reason
    # "Tonight we're ordering pizza": the moment is in the opener ("we're ordering pizza tonight"); "On Monday
    # I have a dentist appointment": a plan ("I have a dentist appointment on Monday")
    passing = moment(_fronted(body, lead))
    if passing is not None and (passing[0] is None or passing[1] == KEPT_EXPIRING):
        return passing[0], passing[1]
    if reason == KEPT_REWRITTEN and ":" in body[: lead.start("subject")]:
        # "For the meal plan: gluten free, no coffee, and I'm training for ...": a label or a list before the
        # statement, no circumstance of it; the statement alone
        return fact, reason
    stage = _LIFE_STAGE_OPENER.match(body)
    if stage is not None:  # "As a kid I lived in Rome." -> "User lived in Rome as a kid."
        opener = body[: stage.end()].strip(" ,")
        return _kept_as_said(f"{_statement(body[stage.end():]).rstrip(' .!')} {opener[:1].lower()}{opener[1:]}",
                             cut_aside(said))
    kept = _kept_as_said(_statement(body), cut_aside(said))
    if kept[0] is None and reason == KEPT_REWRITTEN and is_change(said) \
            and DATED.fullmatch(body[: lead.start("subject")].strip(" ,")):
        # "This week I switched to day shifts, 7am to 7pm.": in no slot, it was not kept as said; the change is
        # read with its time after it ("I switched to day shifts this week, 7am to 7pm")
        dated, why = _judge(_time_after_change(body, lead), max_chars)
        if dated is not None and why == KEPT_REWRITTEN:
            return dated, why
    return kept
