"""The default extractor: the user's first-person statements as "User ..." facts, by the English rules."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..text import normalize_fact_text
from ..validate import parse_utc
from .bare_plans import as_job_begun, as_move_made, as_plain_plans
from .births import ends_pregnancy
from .bookings import as_bookings
from .cars_got import as_car_got
from .clauses import as_plain, own_clauses, split_clauses
from .core_facts import CoreRule, check_core_rule, is_core_fact
from .empty_facts import moves_to_no_place, object_is_a_pointer
from .deadlines import with_day_due
from .documents import as_document_renewed
from .events import as_life_events
from .family import as_family_said
from .filler import strip_filler
from .job_and_home import as_job_and_home
from .job_change import as_job_changes
from .job_start import as_job_started
from .keepable import refused_shape, tidied
from .opener_left import without_opener
from .told_as_past import taken_over, tells_the_past_over
from .labels import as_labelled
from .leads import strip_lead
from .in_passing import as_told_in_passing
from .elided_doing import elided_doing_at
from .here_places import as_here_placed
from .kin_in_passing import kin_named
from .commute_homes import as_commute_home
from .asked_to import as_asked_to
from .days_moved import as_days_moved
from .homes import as_home_said
from .bare_classes import as_classes_named
from .household import as_household_told
from .shifts import as_shift_now, shift_told_anew
from .injuries import as_out_of_cast, as_own_injury
from .medicine_switches import as_medicine_switched
from .moves import as_new_home, placeless_move_beside
from .name_and_age import as_name_and_age
from .new_jobs import as_new_jobs
from .named_news import birthday_of_named, milestone_of_named
from .named import as_the_users, named_someone, resolve_same, who_plans_name
from .pasted import split_pasted
from .people_pronouns import as_people_named
from .played import split_played
from .self_introduced import as_self_introduced
from .asked_about import as_asked_about
from .since_lists import as_since_list
from .pronoun_referents import newest_told, said_of_one, with_opening_pronoun_resolved
from .provenance import DEFAULT_CAPTURE_POLICY, CapturePolicy, FactPath, check_policy, policy_keeps
from .routes import as_route_moved, with_route
from .still_holds import still_holds, with_role_named
from .restated import as_denial, as_own_treatment, meant, respelt
from .reminders import restates_stored
from .remonthed import month_end, remonthed
from .retimed import retimed
from .rules import judge_sentence, statement_before_question
from ..ranking.care import is_care_fact
from ..slots import holder, slot_keys, slots_of
from .cues import content_words, is_negated, words_within
from .supersede import (
    handed_over,
    hangs_on,
    lives_with_household,
    plain_pregnancy,
    replaces,
    story_of_a_change,
    told_with_what_holds_now,
    with_employer,
    with_offered_role,
    with_partner,
)
from .stale_endings import undone_ending
from .told_endings import as_told_endings
from .told_plans import as_told_plans
from .time_frames import says_outside_time_frames
from .trips import trip_called_off, trip_taken
from .typos import read_as_meant
from .unmarked_questions import with_question_marked
from .updates import WEEKS_PREGNANT, read_with
from .types import DEFAULT_MAX_FACT_CHARS, USER_ROLES, ExtractedFact, KnownFact, MessageLike, as_messages
from .changes_to_come import ends_at_start, moved_plans, state_to_come
from .verdicts import (
    DROP_EPHEMERAL,
    DROP_HYPOTHETICAL,
    DROP_JOKE,
    DROP_SECOND_PERSON,
    DROP_NOT_FIRST_PERSON,
    DROP_QUESTION,
    DROP_QUOTED,
    DROP_SMALL_TALK,
    DROP_STORY,
    DROP_UNRESOLVED,
    KEPT_AS_SAID,
    KEPT_EXPIRING,
    KEPT_INTRODUCTION,
    KEPT_REWRITTEN,
    SentenceVerdict,
)

__all__ = ["RuleBasedFactExtractor"]


# A clause opening with a name ("Luca just moved to Milan"), not with "I".
_NAMED_FIRST = re.compile(r"^(?!I\b)[A-Z][a-z]")
# A clause opening with "he" / "she" ("She is a cardiologist at Manipal."), read against this message's facts.
_HE_SHE = re.compile(r"^\W*(he|she)(?:'s|\s)", re.IGNORECASE)
# Sentences whose people are not the user's own life: a story, a quote, a wish, a joke (.kin_in_passing reads none).
_NO_KIN_FROM = frozenset({DROP_STORY, DROP_QUOTED, DROP_HYPOTHETICAL, DROP_JOKE, DROP_SECOND_PERSON})
# A day written out in a fact ("... starts on Monday 2026-01-12."): news of that day.
_DAY_WRITTEN = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def _check_time_zone(value: Any) -> tzinfo | None:
    """``time_zone`` of :class:`RuleBasedFactExtractor`: ``None``, a ``tzinfo``, or an IANA zone name."""
    if value is None or isinstance(value, tzinfo):
        return value
    if isinstance(value, str) and value.strip():
        try:
            return ZoneInfo(value.strip())
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"time_zone {value!r} is not a known IANA time zone (e.g. 'Europe/Lisbon')") from None
    raise TypeError(f"time_zone must be a tzinfo, an IANA zone name or None, got {type(value).__name__}")


def plain_reading(text: str) -> str:
    """A user message as the plain statements the rules read it as ("doctor says the diabetes is gone, I can stop
    the metformin" -> "I no longer have diabetes. I stopped taking metformin"): capture looks up the stored facts
    these end.

    >>> plain_reading("I can stop the metformin")
    'I stopped taking metformin'
    """
    return ". ".join(as_labelled(as_life_events(as_told_endings(own_clauses(text), ()), ())))


_REASON_PATHS: dict[str, FactPath] = {
    KEPT_REWRITTEN: "rewrite", KEPT_AS_SAID: "as_said", KEPT_INTRODUCTION: "name", KEPT_EXPIRING: "plan",
}


def _path_of(verdict: SentenceVerdict, step: FactPath | None) -> FactPath | None:
    """The path of ``verdict``'s fact: the step that rewrote its clause (``step``), else the judge's reason
    (``None`` when no fact is kept)."""
    if verdict.fact is None:
        return None
    return step if step is not None else _REASON_PATHS.get(verdict.reason, "rewrite")


class RuleBasedFactExtractor:
    """The default extractor: first-person statements about the user, as "User ..." facts; no model, no I/O.

    >>> RuleBasedFactExtractor().extract([("user", "Thanks! I'm vegetarian and my daughter Mia is 7. Any ideas?")])
    [ExtractedFact(text='User is vegetarian.', supersedes=(), core=True), ExtractedFact(text="User's daughter Mia is 7.", supersedes=(), core=False)]

    Each user message is cut into sentences, and a sentence into clauses
    where a new first-person clause starts (:func:`~memori_core.extraction.clauses.split_clauses`: "I live in
    Rome and I work as a chef" gives two facts; "I have a cat named Mochi
    and a dog named Rex" one per animal, "I live in Lisbon with my husband
    Rui" where and with whom); a clause is kept only when,
    once leading interjections, discourse markers and news lead-ins ("Oh,",
    "Thanks!", "Just so you know,", "Quick update:", "Bad news -", "Guess
    what,", "Turns out") are cut, it is a statement whose subject is the user
    ("I ...", "My ...", "We ...", "Our ...", or "Last month I ..."), or a
    change told without its "I" ("Just moved to Leeds!", "Got promoted"), or
    a statement typed without it ("Work in IT.", "Allergic to cats.",
    "Been vegan for 3 years now.", "Vegetarian here.").
    Dropped: questions (a question clause
    after a statement is cut off: "I'm vegetarian, what should I cook?" keeps
    "I'm vegetarian"; a statement with a bare tag asking to confirm it, "I can't
    take ibuprofen while pregnant, right?", is one), greetings / thanks / small talk ("I'm good", "I see"),
    instructions and requests ("write me a poem", "can you ...", "I need a
    recipe", "I'm looking for ..."), anything addressed to the assistant
    (you / your: "I think you should ..."), hypotheticals and wishes ("If I
    were rich ...", "I'd love ...", "I wish ..."), opinions that are not about
    the user ("I think it will rain"), encouragement and resolve ("We've got
    this!", "I won't give up on my dreams"), talk about the conversation ("We
    spoke last week about ..."), dreams, games and stories ("In my dream I
    moved to Tokyo", "My character in the game moved to Paris"; from where a game is set up on:
    "Let's play a game: I am Captain Hook", "pretend I'm a pirate": :mod:`.played`), someone
    else's words pasted, relayed or quoted (:func:`~memori_core.extraction.pasted.split_pasted`: "my friend texted
    me: I moved to Madrid", a line quoted with ">", '"I'm pregnant" - that's what my sister texted me'). A
    hedged statement about the user ("I
    think I'm allergic to cats") is kept as said; what a sentence tells of
    someone else after a noun ("a movie about a guy who moved to Paris")
    changes no stored fact.

    Rewrites: "I'm/I am X" -> "User is X", "I have" -> "User has", "I work"
    -> "User works" (for common verbs), "I moved" -> "User moved", "My X" ->
    "User's X"; a later "my" becomes "their". "We" and "our" are the user's
    household: "We rent a flat" -> "User rents a flat.", "Our cat died" ->
    "User's cat died." ("We're both teachers" is kept as said). When the
    sentence has another first-person pronoun, or an unknown verb, it is kept
    as said. Curly apostrophes count as straight ones. Assistant messages are
    ignored.

    Passing moments are dropped ("I'm tired today", "I'm at the airport at
    the moment", "I just had lunch", "My train leaves in 20 minutes", "I have
    a headache"), and so are moods ("I can't
    stop crying", "I'm all over the place"), asides of the moment (:mod:`.asides`: "I went blank", "I can't
    sleep", "I need to fill in a form", "we only told family last weekend"), someone's passing incident ("my
    coworker spilled coffee on my laptop"), passing states
    and whereabouts ("I'm drunk", "I'm on my period", "I'm stressed out", "I'm
    on the bus", "I'm stuck in traffic", "I'm at work", "I'm at Starbucks now",
    "I'm in London for a conference"), and an outing of the last day ("I went
    to a gig last night"); an event told as over with "today", "this
    morning", "yesterday" or "last night" has that day written out ("User got
    laid off from Shopify on Wednesday 2026-10-21."); a mood of the weeks
    ("I'm stressed about work these days") is kept for two weeks
    (:data:`~memori_core.extraction.moments.MOOD_LIFETIME`); a whereabouts, a time off or a state told
    with an end the turn names ("I'm in Rome this week", "I'm on vacation until Friday", "my oven's broken till
    tuesday", "staying with my sister for the next two weeks") is kept until that end, written out ("User is in
    Rome in the week of Monday 2026-01-05.": :mod:`.stays`). What holds for good
    is kept ("I'm diabetic", "I'm pregnant", "I'm on medication for ...", and
    "I'm sober", read as not drinking: "sober tonight" is a moment). An
    appointment ("I have a meeting at 3pm tomorrow", "My exam is on
    Thursday", "a dentist appointment at 4", "on the 14th", "I have a date
    tonight") is kept with its day written out ("User has a meeting at 3pm on
    Sunday 2026-12-06.": :func:`~memori_core.extraction.dates.anchor_plan`)
    and an ``expires_at`` at the end of that day, read in ``time_zone`` (when
    it is not given: in UTC, and the day ends when it has ended everywhere,
    at 12:00 UTC the next day). An event over days ("I have my cousin's
    wedding May 25-27") says its first and last day and expires after the
    last; one told as over ("I had my cousin's wedding May 15-17") was over
    when said and is dropped; "The recital is on the 18th" is kept as said,
    with its day; "I'm busy this month with exams" until the month ends, "I'm
    planning a trip to Lisbon in November" when November does (written out
    "in November 2026"), "we're going to Cornwall at the end of the month"
    when the month does ("at the end of August 2026"), "Mum is coming for
    Christmas" after Boxing Day; a visit told for a while ("My mum is coming
    to stay for two weeks") two days after that while, one told by a bare weekday ("Jess is coming over saturday") when that day is over. A plan shared with someone ("My girlfriend Anika and
    I are going to Japan in March!") is read as "We're going ..." is; who a
    plan names is kept for good ("User's sister is Eva.", not a partner); a
    planned trip told later as taken ("Lisbon was amazing!!") ends the plan
    (:mod:`.trips`), and so does one called off ("We never made it to Japan", "we called off the trip": "User
    cancelled their trip to Japan."). "I'm
    Maya, by the way", "Name's Maya", "You can call me Maya", "Maya here
    again" and "It's Maya again" become "User's name is Maya."; "Everyone
    calls me Becky" and "I go by Becky" become "User goes by Becky."; "I'm
    the one with the parrot" becomes "User has a parrot.".

    Stored facts (``existing``, shown by capture) are used three ways:
    a fact that announces a change ("moved", "switched", "quit", "no longer",
    "not ... anymore", "now", "broke up", "got laid off", "made redundant",
    "started at", "retired", "graduated", "went keto", "bought a house",
    "again" of a state, :func:`~memori_core.extraction.cues.is_change`; not
    a change only thought of, "I'm thinking of switching")
    supersedes the stored facts of the same slot (where the user lives, their
    job, diet, relationship, smoking, coffee/tea, alcohol, commute, phone,
    car, age: :data:`~memori_core.extraction.slots.SLOTS`) held by the same person
    (:func:`~memori_core.extraction.slots.holder`: "My sister moved" is not the
    user's move; "My husband passed away" ends the user's marriage). The
    relationship changes only with its stage ("married", "engaged",
    "single", "broke up", "seeing someone": "My wife and I moved to Berlin"
    leaves the marriage), and a new stage replaces another without a change
    word ("We're engaged!"). What the user eats or drinks changes with "only"
    too ("I only drink decaf"), a phone or car when a new one is got ("I got
    a Pixel"). A thing sold, traded in or returned ends the stored fact that
    the user has, drives or uses it ("I sold the Civic"), a food taken back the
    diet that left it out ("I'm back on carbs" ends "User is on keto."; "I eat
    eggs again" leaves "User is vegetarian."), a habit stopped the
    stored habit naming it ("I gave up on Spanish"), even when no slot knows
    the word; a change told of someone the stored facts name ("Max passed
    away" after "User has a dog called Max.") is the user's, and so is news
    of their health ("Luna has kidney failure, the vet said" -> "User's cat
    Luna has kidney failure.", also said before a question) or of a part of
    the user's body ("knee is much better"), which replaces the older state
    of the same one (:func:`~memori_core.extraction.health.health_state`);
    what hung on a state that ended ends with it ("I gave up on guitar" ends
    "User bought a Yamaha acoustic.": :func:`~memori_core.extraction.supersede.hangs_on`);
    a correction typed without its comma ("allergic to amoxicillin not
    penicillin") ends the stored fact holding the wrong words, which the fact
    leaves out; "we've been together 2 years" is the relationship's length and
    "I'm 30 weeks now" a stored pregnancy's week count (:mod:`.updates`), which replaces a plain "User is
    pregnant." (one core fact for the one state). In the
    slots that hold several things at once (pets, exercise:
    :data:`~memori_core.extraction.activities.ACTIVITY_SLOTS`) only the fact about
    the same animal or activity is replaced, when it ended ("I've stopped
    running", "our cat Mochi passed away"), and a stored "none" ("User has no
    pets.") when one is named. A negated or ended fact ("I don't play tennis
    anymore", "I used to live in Lisbon") also replaces those holding its
    words, and a plain denial the stored fact of the same person it denies
    (:func:`~memori_core.extraction.corrections.denies`: "I'm not vegan", "I lied
    about being vegan", "Just kidding, I don't live in Lisbon"). A correction
    ("I live in Porto, not Lisbon", "I meant Porto, not Lisbon": the one stored
    fact of the user's holding "Lisbon", with "Porto" in its place) replaces
    the stored fact holding what it says was wrong. "Ana and I broke
    up" is the user's statement ("User and Ana broke up."); "We broke up"
    says with whom, the partner the facts it ends name ("User broke up with
    Tom."); it leaves the user's children and a planned trip that only name
    the partner (:func:`~memori_core.extraction.break_ups.outlasts_a_break_up`). a fact that only
    refines a stored one of the same person ("User has a golden retriever
    called Bo." after "User has a golden retriever.") replaces it; a fact
    whose words a stored fact of the same person already holds ("I'm an
    architect" after "User works as an architect.") is not stored again, nor is
    one told as a reminder of a slot a stored fact fills ("we don't eat meat
    remember" after "User and their wife are both vegetarian.": :mod:`.reminders`).

    When no clean fact can be said, nothing is stored: a sentence that would be
    kept as said must be short and of a known slot of the user's life or a care
    fact (``DROP_UNCLEAR``), and it is said of the user, never stored in the
    first person ("I think I'm allergic to cats" -> "User thinks they're
    allergic to cats."; "We're both teachers" gives nothing); a fact pointing to no one named ("My physio
    recommended it.", "We share her flat") is dropped (``DROP_UNRESOLVED``);
    an aside after the statement ("I'm a nurse, been doing nights for ten
    years") is left out of the fact; a thing left or stopped told beside what
    holds now in its place ("I quit Google and now I work at a startup") is not
    stored, the new fact ends the stored one.

    Texting style is read as meant before any rule (:mod:`.typos`): "dont"
    and "im" get their apostrophe, a care word one letter off is spelt right
    ("alergic to shelfish" -> "User is allergic to shellfish.", core). A
    promotion is a change within the job: "I got promoted" ends no job fact,
    "I got promoted to senior engineer" ends the stored role and is held at
    the employer that fact names ("User works at Google as a senior
    engineer."). A side job is held beside what the user does (:mod:`.side_jobs`): "I got a part-time job at a
    cafe" leaves "User is a 3rd-year architecture student.", "a second job at a bar" the stored job. A job offer is
    not the job: it ends no job fact, and a job
    begun where it was offered ends it and keeps its role ("I started at
    Dynatrace today!" -> "User works at Dynatrace in Linz as a junior UX
    designer.").

    A life event told in other words is read as the change it is
    (:mod:`.events`): "day 40 without a cigarette" -> "User quit smoking.",
    "my position got eliminated" -> "User was laid off from <the stored
    employer>.", "officially married" / "the divorce went through" / "not
    with Sam anymore" name the stored partner, "we're settled in Uppsala now"
    is a move, "30 as of yesterday" the age, "Jake proposed!!" (Jake the stored partner) an engagement, "I'm
    vegan as of today" a diet begun that day, "Dynatrace withdrew the offer" or, after a stored offer, "I said no
    to them" the offer's end (never the job's), "vet says kidney failure" after "Luna has been sick" what Luna has, "the baby was born. her name is
    Asha" after a stored pregnancy "User had a baby daughter named Asha."; a
    profile typed as labels ("Name: Priyanka. Job: ER doctor.") gives a fact
    a label (:mod:`.labels`); chat filler ("tbh", "lol", "like 4", emoji) is
    cut first (:mod:`.filler`), invisible and control characters before it
    (:func:`~memori_core.extraction.typos.as_seen`), and an "also", "still"
    or "really" beside the subject is left out of the fact ("I'm also allergic
    to shellfish" -> "User is allergic to shellfish."). Sarcasm ("Yeah right,
    I'm a billionaire") is no statement; a fact whose only object is a pronoun
    with nothing before it in the message ("I turned it down.") is not stored. A correction corrects what the same message
    said before it ("I'm moving to Graz next month... wait sorry, I meant
    Linz not Graz"), "*Katherine" the stored name it respells. A one-off past
    event told around a change ("I watched a documentary and went vegan"),
    and what came instead of a thing sold ("Sold the Ninja. Got a Skoda
    instead": the Skoda fact ends the Ninja one), leave only the change.

    What the user tells in their own words is read as the plain statements it
    means (:mod:`.retold`), and so is a plan typed the short way (:mod:`.bare_plans`: "got into the masters at
    glasgow school of art!! moving up there in january" -> "User is moving to Glasgow in January 2027."; a move
    "there" to no place named is not stored; "handed in my notice at the cafe, last shift is dec 20" ends the stored
    job and keeps "User is leaving their job at the cafe on Sunday 2026-12-20." until that day; "First week at
    the surgery done!" after "User got a job as a practice nurse at a GP surgery in Didsbury, starting in
    December." -> "User works as a practice nurse at a GP surgery in Didsbury.", which ends it):
    "wait no, I'm not allergic to shellfish, that's my
    brother Sam" (or "..., that was my brother") denies the user's allergy and
    stores the brother's; "doctor
    says the gestational diabetes is gone", "I can stop the metformin", "the
    vegetarian thing wasn't working for me" end the stored condition, medicine
    and diet; "met someone! his name is Marco" is "User is seeing Marco.", and
    what is said later of Marco by name, or by "he" / "she" when he is the one
    partner stored, is the partner's ("User's partner Marco is lactose
    intolerant."); "im in exeter now" is a move when a home is stored; "I lied
    about being sober" ends what it takes back. Someone's view of the user
    ("my mum thinks I'm still vegan"), a joke ("..., april fools", "jk"), a
    craving, a self-rating, a bare "I caved" and an outing with no day are
    not stored; asides to the listener ("..., just so you know") are left out. When in the user's life a
    statement held is said after it ("As a kid I lived in Rome." -> "User lived in Rome as a kid.", "Growing
    up, ...", "In high school ..."), and a marker tying it to what was said before ("As a result,",
    "Consequently") is cut.

    The rules are English only: other languages give no fact (never a
    half-understood one).

    Every kept fact says the rule path that found it (``path``: :data:`~memori_core.extraction.provenance.FactPath`).
    ``policy="strict"`` stores the generic rewrite of a first-person sentence only in a recognised part of the
    user's life (their name, a care fact, a slot, who someone of theirs is) or when it ends a stored fact
    (:func:`~memori_core.extraction.provenance.policy_keeps`); ``"broad"``, the default, stores every kept fact.

    A kept fact is ``core`` when ``core_rule(fact_text)`` says so (default
    :func:`is_core_fact`: allergies, intolerances, medication, dietary
    restrictions); capture then stores it with ``core=True`` and recall
    injects it on every turn. ``core_rule=None`` marks no fact core.
    """

    uses_existing_facts = True
    """Capture shows the rules the user's similar and same-slot stored facts: changes supersede them,
    refinements replace them, repeats are not stored again."""

    def __init__(
        self,
        *,
        max_chars: int = DEFAULT_MAX_FACT_CHARS,
        core_rule: CoreRule | None = is_core_fact,
        time_zone: tzinfo | str | None = None,
        policy: CapturePolicy = DEFAULT_CAPTURE_POLICY,
    ) -> None:
        """``max_chars``: a longer sentence is not a fact (a paste, a story) and is dropped. ``core_rule``:
        which kept facts are core (``None``: none). ``time_zone``: the users' zone (a ``tzinfo`` or an IANA name
        such as ``"Europe/Lisbon"``), in which a plan's "tomorrow" or "on Monday" is read and its day ends;
        ``None`` (default): not known, read in UTC (in the offset of a message's ``created_at`` when it has
        one), and a plan expires when its day has ended everywhere. ``policy``: which of the facts the rules find
        are returned (:data:`~memori_core.extraction.provenance.CapturePolicy`): ``"broad"`` (default) all of
        them, ``"strict"`` only those of the paths that held up on chats the rules were not written for
        (:func:`~memori_core.extraction.provenance.policy_keeps`)."""
        if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
            raise ValueError(f"max_chars must be a positive int, got {max_chars!r}")
        self.max_chars = max_chars
        self.core_rule = check_core_rule(core_rule)
        self.time_zone = _check_time_zone(time_zone)
        self.policy: CapturePolicy = check_policy(policy)

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        """The kept facts of the user messages in ``messages``, in order, without repeats. A plan's day is read
        against each message's ``created_at`` (:class:`~memori_core.extraction.Message`; in ``time_zone`` when it
        is set, else in the time's own offset), or now when it has none."""
        facts: list[ExtractedFact] = []
        seen: set[str] = set()
        known = [(f.id, f.content, content_words(f.content)) for f in existing]
        shown = {f.id: f for f in existing}
        recent = newest_told(existing)
        default_now = self._now(None)
        for message in as_messages(messages):
            if message.role not in USER_ROLES:
                continue
            now = self._said_at(message.created_at) or default_now
            said: list[tuple[ExtractedFact, SentenceVerdict]] = []
            for verdict, path in self.explain_paths(message.text, known=[text for _, text, _ in known], now=now,
                                                    recent=recent):
                if verdict.fact is None:
                    continue
                key = normalize_fact_text(verdict.fact)
                if key in seen:
                    continue
                seen.add(key)
                words = content_words(verdict.fact)
                # not when it replaces that fact: "User is married to Tomás." after "User and their fiancé Tomás
                # are getting married in october."
                if not WEEKS_PREGNANT.match(verdict.fact) and any(
                        words and words_within(words, old) and says_outside_time_frames(words, text)
                        and normalize_fact_text(text) != key
                        and is_negated(text) == is_negated(verdict.fact) and holder(verdict.fact) == holder(text)
                        and not replaces(verdict, words, text, old) and not ends_pregnancy(verdict.fact, text)
                        and not shift_told_anew(verdict.fact, text)  # "on nights now" after "hates working nights"
                        for _, text, old in known):
                    continue  # a stored fact already says it (of the same person: not "User's sister is vegan.")
                if restates_stored(verdict.sentence, verdict.fact, [text for _, text, _ in known]):
                    continue  # "we don't eat meat remember": what a stored fact of that slot holds (.reminders)
                core = self.core_rule is not None and bool(self.core_rule(verdict.fact))
                expires = now + verdict.expires_in if verdict.expires_in is not None else None
                ended = [(fid, text) for fid, text, old in known if normalize_fact_text(text) != key and (
                    replaces(verdict, words, text, old) or ends_pregnancy(verdict.fact, text))]  # .births
                ended_texts = [text for _, text in ended]
                # what hung on the state that ended ends with it ("User has to check their blood sugar ...")
                gone = {fid for fid, _ in ended}
                ended += [(fid, text) for fid, text, _ in known if fid not in gone and normalize_fact_text(text) != key
                          and verdict.expires_in is None and not undone_ending(verdict.fact)
                          and hangs_on(verdict.fact, text, state_ended=bool(ended))]
                if expires is None and path == "correction":  # "sorry, 7am" of a plan: over when the plan is
                    expires = next((e for e in (_expiry(shown[fid]) for fid, _ in ended) if e is not None), None)
                replaced = tuple(fid for fid, _ in ended)
                text = with_role_named(with_route(with_offered_role(with_partner(with_employer(
                    verdict.fact, ended_texts), ended_texts), ended_texts), ended_texts), ended_texts)
                said.append((ExtractedFact(text, supersedes=replaced, core=core, expires_at=expires, path=path),
                             verdict))
            said = handed_over(said)  # "Sold the Ninja. Got a used Skoda instead": the Skoda fact ends the Ninja one
            if any(WEEKS_PREGNANT.match(fact.text) for fact, _ in said):
                # "I'm pregnant! I'm 12 weeks now": the week count says both, one core fact for the one state
                said = [(fact, how) for fact, how in said if not plain_pregnancy(fact.text)]
            # "I quit the café, I'm going to teach guitar full time": the ending's stored facts handed to the new job
            texts = [fact.text for fact, _ in said]
            # a fact that ends a stored one stays whatever its shape: refusing it would leave the old fact valid
            # a pointer may name what a fact kept before it in the same message holds ("... offer. I turned it down.")
            told = [replace(fact, text=without_opener(tidied(fact.text)))
                    for n, (fact, verdict) in enumerate(told_with_what_holds_now(said))
                    if not story_of_a_change(fact, verdict, said) and not placeless_move_beside(fact.text, texts)
                    and (fact.supersedes or refused_shape(fact.text, told_before=n > 0) is None)
                    and policy_keeps(self.policy, fact)]
            told = _moving_plans(told, known, now)
            if tells_the_past_over(message.text):  # "that was me in the spring. I'm back in Milan now"
                told = taken_over(told, known, recent)
            facts += told + self._still_held(told, shown, seen) + self._to_come(told, known, now, seen)
        return facts

    def _to_come(self, told: Sequence[ExtractedFact], known: Sequence[tuple[str, str, frozenset[str]]],
                 now: datetime, seen: set[str]) -> list[ExtractedFact]:
        """The states the plans of ``told`` bring from a day to come (:func:`~.changes_to_come.state_to_come`:
        "User works at Siemens." of "User got a job at Siemens, starting on Monday 2027-01-04."), each valid from
        that day and superseding the stored facts it replaces (they end then), once; not one a stored fact says,
        nor of a plan a correction rewrote ("oh wait I meant May": the state stored with the first day stays)."""
        out = []
        for fact in told:
            change = state_to_come(fact.text, now) if fact.path != "correction" else None
            if change is None:
                continue
            key = normalize_fact_text(change.fact)
            if key in seen or any(normalize_fact_text(text) == key for _, text, _ in known):
                continue
            seen.add(key)
            verdict = SentenceVerdict(change.fact, change.fact, "kept")
            words = content_words(change.fact)
            ended = tuple(fid for fid, text, old in known
                          if ends_at_start(change, text) or replaces(verdict, words, text, old))
            core = self.core_rule is not None and bool(self.core_rule(change.fact))
            out.append(ExtractedFact(change.fact, supersedes=ended, core=core, valid_from=change.start,
                                     path=fact.path))
        return out

    def _still_held(self, told: Sequence[ExtractedFact], shown: Mapping[str, KnownFact],
                    seen: set[str]) -> list[ExtractedFact]:
        """What of the stored facts ``told`` ends still holds (:func:`~.still_holds.still_holds`: "User is an
        architect." of "User is an architect in Helsinki." after a move), as facts of their own, each once."""
        kept = []
        # not what a fact of the message says anew: "we broke up and I moved to Paris" keeps no home
        changed = {key for fact in told for key in slot_keys(fact.text)}
        for fact in told:
            for text in (t for fid in fact.supersedes for t in still_holds(fact.text, shown[fid].content)):
                key = normalize_fact_text(text)
                # ... but whom the user lives with, which a move leaves ("User lives with their two sons, ...")
                if key not in seen and (not slot_keys(text) & changed or lives_with_household(text)):
                    seen.add(key)
                    core = self.core_rule is not None and bool(self.core_rule(text))
                    kept.append(ExtractedFact(text, core=core, path=fact.path))
        return kept

    def _said_at(self, when: datetime | None) -> datetime | None:
        """A message's ``created_at`` in ``time_zone`` (as given when the zone is not known)."""
        if when is None or self.time_zone is None:
            return when
        return when.astimezone(self.time_zone)

    def explain(
        self, text: str, *, known: Sequence[str] = (), now: datetime | None = None, recent: Sequence[str] = ()
    ) -> list[SentenceVerdict]:
        """The decision for every clause of one user message: the fact kept (or ``None``) and the reason.

        ``known``: the user's stored facts. A change told of someone or something they name ("Max passed
        away", after "User has a dog called Max.") is read as the user's ("My dog Max passed away").
        ``now``: when the message was said (default: now, in ``time_zone``); a plan's day is resolved against it.
        ``recent``: the stored facts told last (the user's previous turn): a "he" / "she" opening the message is the
        one person of that gender they name (:mod:`~memori_core.extraction.pronoun_referents`).
        The rules' decision, whatever the ``policy``: :meth:`explain_paths` says which path each fact came by.
        ``TypeError`` for anything but a ``str`` (the messages :meth:`extract` takes included).
        """
        return [verdict for verdict, _ in self.explain_paths(text, known=known, now=now, recent=recent)]

    def explain_paths(
        self, text: str, *, known: Sequence[str] = (), now: datetime | None = None, recent: Sequence[str] = ()
    ) -> list[tuple[SentenceVerdict, FactPath | None]]:
        """:meth:`explain`, each verdict with the rule path its fact came by
        (:data:`~memori_core.extraction.provenance.FactPath`; ``None`` for a verdict that keeps no fact): the
        ``path`` :meth:`extract` gives the fact, which ``policy`` reads
        (:func:`~memori_core.extraction.provenance.policy_keeps`).

        >>> [(v.fact, path) for v, path in RuleBasedFactExtractor().explain_paths("I live in Porto. Hi!")]
        [('User lives in Porto.', 'rewrite'), (None, None)]
        """
        if not isinstance(text, str):
            raise TypeError(f"RuleBasedFactExtractor.explain takes one user message's text (a str), got "
                            f"{type(text).__name__}" + ("; extract() takes a list of messages"
                                                        if isinstance(text, (list, tuple)) else ""))
        when = self._now(now)
        if when.tzinfo is None:
            raise ValueError(f"now must be a timezone-aware datetime, got {now!r}")
        verdicts = []
        # "She has high blood pressure." after "User's mum is moving in ...": the mum's (.pronoun_referents)
        text = with_opening_pronoun_resolved(text, recent) if recent else text
        own, pasted = split_pasted(strip_filler(read_as_meant(text)))
        own, played = split_played(own)  # "Pretend you are a pirate. I am Captain Hook.": a role, not the user
        own = as_here_placed(as_since_list(as_asked_about(as_self_introduced(own))))  # "got here in October" (.here_places)
        # "since new year I've given up ..., started ..."  # "it's Dev, 19, ...", "Thabo here - maths teacher ..." (.self_introduced)
        # what the user tells of their family the way people say it ("Mum's settled into Oakwood care home": .family)
        # and in their own words ("wait no, that's my brother", "met someone! his name is Marco"), as the plain
        # statements the rules read (.retold); a change of employer in the user's words too (.job_change),
        # a life event told in other words ("day 40 without a cigarette": .events), a profile typed as labels
        # ("Name: Priyanka. Job: ER doctor": .labels)
        # "my hypothyroidism is acting up, what can I eat": the question marked, kept apart from the statement
        split = [c for s in own for c in split_clauses(with_question_marked(s))]
        stages: list[tuple[FactPath | None, list[str]]] = [(None, split)]
        # a lasting fact told in passing ("my hypothyroidism is acting up, what can I eat?": .in_passing)
        # "the kids are taking it hard": the user's household, told with "the" (.household)
        # "I started learning pottery, I go to a class every Tuesday": a pottery class (.bare_classes)
        # "I drive in from Midrand every day": where the user lives, too (.commute_homes)
        stages.append(("retold", as_commute_home(as_household_told(as_told_in_passing(as_classes_named(split))), known)))
        # an ending told the chat way ("Arjun passed in March", "hung up my apron", "keto's over for me": .told_endings)
        stages.append(("life_event", as_told_endings(stages[-1][1], known)))
        stages.append(("family", as_family_said(stages[-1][1], known)))
        # "nurse from Leeds" (.job_and_home), "I'm kez, 22" (.name_and_age): two statements each; "I'm in Leeds" (.homes)
        # "at the moment" of a shift pattern (.shifts), "they've asked me to coordinate ..." (.asked_to)
        stages.append(("retold", as_asked_to(as_shift_now(
            as_home_said(as_name_and_age(as_job_and_home(as_plain(stages[-1][1]))))))))
        # "I booked a flight to Rome on the 4th": the plan it is (.bookings)
        named = as_bookings(as_people_named(as_new_jobs(stages[-1][1], known)))
        # "picked up a secondhand Ranger off gumtree": the car the user drives now (.cars_got)
        stages.append(("bare_plan", as_car_got(as_document_renewed(as_own_injury(as_new_home(as_days_moved(
            as_move_made(as_job_begun(as_plain_plans(as_told_plans(named, known)), known), known), known)))))))
        # "Starting Monday I'm driving ... for Red River Grocers": the job from that day (.job_start)
        stages.append(("job_change", as_job_changes(as_route_moved(as_job_started(stages[-1][1], when)), known)))
        stages.append(("life_event", as_life_events(as_out_of_cast(stages[-1][1], known), known)))
        stages.append(("label", as_labelled(stages[-1][1])))
        clauses = stages[-1][1]
        told = list(known)  # the stored facts, and those of this message so far ("I started seeing Leo", "Leo is a nurse")
        paths: list[FactPath | None] = []
        for n, clause in enumerate(clauses):
            # the step that first wrote the clause (None: the user's own, split into clauses)
            path: FactPath | None = next((step for step, out in stages if clause in out), None)
            # "My doctor switched me from warfarin to apixaban.", "I lied about being vegan."
            # "We never made it to Japan" after "User is planning a trip to Japan ...": "I cancelled my trip to Japan"
            # "my doctor swapped it for amlodipine 5 mg": what the user takes now (.medicine_switches)
            restated = as_medicine_switched(clause) or as_own_treatment(clause) or as_denial(clause) \
                or (trip_called_off(clause, told) if told else None)
            verdict = self.judge(clause if restated is None else restated, now=when)
            if restated is not None:
                verdict = replace(verdict, sentence=clause)
                path = "restated"
            if verdict.fact is None and known:
                corrected = retimed(clause, known) or meant(clause, known) or respelt(clause, known) \
                    or remonthed(clause, known)
                if corrected is not None:  # "Actually I meant Porto, not Lisbon.", "*Katherine", "sorry, 7am"
                    # a plan's month corrected ("oh wait I meant May") is over with the month meant
                    verdict = SentenceVerdict(corrected[1], corrected[0], KEPT_REWRITTEN,
                                              expires_in=month_end(corrected[0], when) if when else None)
                    path = "correction"
            # "oh update, Luca just moved to Milan": news of someone named after a social lead, read as without it
            said = clause if verdict.reason == DROP_NOT_FIRST_PERSON or (
                verdict.reason == DROP_SMALL_TALK and _NAMED_FIRST.match(strip_lead(clause))) else \
                statement_before_question(clause) if verdict.reason == DROP_QUESTION else None
            if verdict.fact is None and said is not None and told:
                # "Max passed away" after "User has a dog called Max."; "Felix is vegan, any dinner ideas?" after
                # "User is seeing Felix.": the statement before the question
                users = as_the_users(said, told=told, known=known, before=clauses[:n])
                if users is not None:
                    verdict = replace(self.judge(users, now=when), sentence=clause)
                    path = "named"
            birthday = birthday_of_named(said) if verdict.fact is None and said is not None else None
            if birthday is not None:  # "Kayla's birthday is September 19th, what's a good gift?" of no one stored
                verdict, path = SentenceVerdict(clause, birthday, KEPT_AS_SAID), "named"
            milestone = milestone_of_named(said) if verdict.fact is None and said is not None else None
            if milestone is not None:  # "Sofia made the volleyball team!" of no one stored: kept as said
                verdict, path = SentenceVerdict(clause, milestone, KEPT_AS_SAID), "named"
            if verdict.fact is None and verdict.reason == DROP_NOT_FIRST_PERSON and n > 0:
                # "My wife and I both work in Bengaluru. She is a cardiologist at Manipal.": the one person of the
                # user's of that gender the facts kept so far in this message name (.pronoun_referents)
                kept_here = told[len(known):]
                opening = _HE_SHE.match(strip_lead(clause))
                resolved = with_opening_pronoun_resolved(clause, kept_here) \
                    if kept_here and opening and said_of_one(opening.group(1), clauses[:n]) else clause
                if resolved != clause:
                    again = self.judge(resolved, now=when)
                    # a lasting fact of a slot or of their health ("she is a cardiologist", "he's coeliac"), not how
                    # the moment goes for them ("she is loving it", "she's bringing the kids") nor what they do on a
                    # day ("he starts monday")
                    dated = with_day_due(again, when, zone_known=self.time_zone is not None) \
                        if again.fact is not None else again
                    if again.fact is not None and (slots_of(again.fact) or is_care_fact(again.fact)) \
                            and dated.expires_in is None and not _DAY_WRITTEN.search(dated.fact or ""):
                        verdict, path = replace(again, sentence=clause), "named"
            doing = elided_doing_at(clauses, n) \
                if verdict.fact is None and verdict.reason == DROP_NOT_FIRST_PERSON else None
            if doing is not None:  # "... on friday!! running my own coffee cart now": "I'm" left out (.elided_doing)
                again = self.judge(doing, now=when)
                if again.fact is not None:
                    verdict, path = replace(again, sentence=clause), "retold"
            if verdict.fact is not None and ((n == 0 and object_is_a_pointer(verdict.fact))
                                             or moves_to_no_place(verdict.fact)):
                # "I turned it down." with nothing before it in the message: "it" points to nothing stored; "moving
                # there in january" with no place named before it
                verdict = SentenceVerdict(verdict.sentence, None, DROP_UNRESOLVED)
            if verdict.fact is not None and known:  # "at the same firm": the firm a stored fact names
                verdict = replace(verdict, fact=resolve_same(verdict.fact, known))
            if verdict.fact is None and verdict.reason in (DROP_NOT_FIRST_PERSON, DROP_EPHEMERAL) and told:
                taken = trip_taken(clause, told)
                if taken is not None:  # "Lisbon was amazing!!" after "User is planning a trip to Lisbon ..."
                    verdict = replace(self.judge(taken, now=when), sentence=clause)
                    path = "trip_taken"
            if verdict.fact is not None:
                read = read_with(verdict, told, when)  # "..., not penicillin", "we've been together 2 years"
                if read.fact != verdict.fact:
                    path = "update"
                verdict = read
            # "by October 9", "expires on October 30": the day written out, the fact kept until it has passed
            if path != "correction":  # a stored fact said again with the right words has its days written out already
                verdict = with_day_due(verdict, when, zone_known=self.time_zone is not None)
            if verdict.fact is not None:
                told.append(verdict.fact)
            verdicts.append(verdict)
            paths.append(_path_of(verdict, path))
            if verdict.fact is None and verdict.reason not in _NO_KIN_FROM:
                # "my sister Lotte's flight is delayed": the moment dropped, the sister named kept (.kin_in_passing)
                for kin in kin_named(clause, told):
                    kept = self.judge(kin, now=when)
                    if kept.fact is not None:
                        told.append(kept.fact)
                        verdicts.append(replace(kept, sentence=clause))
                        paths.append("retold")
        # who a plan names is added after the plan ("User's sister is Eva."): the verdicts kept are the same objects
        named = named_someone(verdicts)
        pathed: list[tuple[SentenceVerdict, FactPath | None]] = []
        k = 0
        for verdict in who_plans_name(named):
            if k < len(named) and verdict is named[k]:
                pathed.append((verdict, paths[k]))
                k += 1
            else:
                pathed.append((verdict, "plan_names"))
        return (pathed
                + [(SentenceVerdict(sentence, None, DROP_STORY), None) for sentence in played]
                + [(SentenceVerdict(sentence, None, DROP_QUOTED), None) for sentence in pasted])

    def judge(self, sentence: str, *, now: datetime | None = None) -> SentenceVerdict:
        """The decision for one sentence (:func:`~memori_core.extraction.rules.judge_sentence`), said at ``now``
        (default: now, in ``time_zone``)."""
        return judge_sentence(sentence, self.max_chars, now=self._now(now), zone_known=self.time_zone is not None)

    def _now(self, now: datetime | None) -> datetime:
        """``now``, or when it is ``None`` the time now in ``time_zone`` (UTC when not set)."""
        return now if now is not None else datetime.now(self.time_zone or timezone.utc)


def _expiry(fact: KnownFact) -> datetime | None:
    """When the shown ``fact`` expires (a StoredFact's own ``expires_at``, a RecalledFact's metadata: an ISO 8601
    text or a datetime), in UTC; ``None`` when it has none or it is not a time."""
    value = getattr(fact, "expires_at", None) or (getattr(fact, "metadata", None) or {}).get("expires_at")
    if not isinstance(value, (str, datetime)):
        return None
    try:
        return parse_utc(value)
    except ValueError:
        return None


def _moving_plans(told: Sequence[ExtractedFact], known: Sequence[tuple[str, str, frozenset[str]]],
                  now: datetime) -> list[ExtractedFact]:
    """``told`` with each plan that moves a stored plan's change to another start
    (:func:`~.changes_to_come.moved_plans`: "we're moving in May, not March") superseding that plan: only the
    latest start told stays valid. A correction of the plan ends what it corrects already."""
    stored = [(fid, text) for fid, text, _ in known]
    out = []
    for fact in told:
        moved = moved_plans(fact.text, stored, now) if fact.path != "correction" else ()
        extra = tuple(fid for fid in moved if fid not in fact.supersedes)
        out.append(replace(fact, supersedes=(*fact.supersedes, *extra)) if extra else fact)
    return out
