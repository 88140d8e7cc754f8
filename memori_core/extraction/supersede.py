"""Which stored facts a new fact of the user's ends (its ``supersedes``), and what the new fact keeps of them.

A change replaces the stored fact of the same slot of the same person ("I moved to Porto" ends "User lives in
Lisbon."); a refinement replaces what it refines, a denial what it denies, an ending the thing it ends. See
:class:`~memori_core.extraction.rule_based.RuleBasedFactExtractor` for the whole list. Pure: English rules over
two facts' words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..ranking.care import is_care_fact
from .break_ups import broken_up_with, outlasts_a_break_up
from .dates import SAID_TIME
from .grammar import is_past, is_past_statement
from .named import ENDED_STAGES, OWN_PREGNANCY, partner_of
from .patterns import PARTNER_WORD, USER_OR_THEIRS, rx
from .restated import takes_back
from .same_statement import JOB_FRAME, statement_frame
from .rewrite import article
from ..slots import holder
from .activities import ACTIVITY_SLOTS, same_activity, says_how_often
from .appointments import books_what_was_needed
from .children import same_children
from .commutes import changes_commute
from .corrections import corrected_words, denies
from .counts import count_held, recounts
from .back_to_work import back_to_work, ends_leave
from .cues import content_words, is_change, is_ended, is_negated, is_planned
from .diets import CONSUMPTION_SLOTS, consumed, is_exclusive, left_out, taken_back
from .endings import acquired_slots, ends_habit, ends_ownership, is_loss, lives_elsewhere, stopped_words
from .health import ends_health
from .medicine_classes import medicines_of_kind_named
from .medicine_switches import ends_switched_medicine
from .moves import sells_the_home
from .quit_job import quits_a_job, quits_the_job
from .doses import redoses
from .job_and_home import holds_a_home_beside
from .operations import operation_done
from .rates import rerates
from .documents import renews_document
from .routes import changes_route
from .shifts import changes_shift, is_only_a_shift
from .relationships import another_stage, is_relationship_status, relationship_stage
from .side_jobs import beside_the_job
from .slots import JOB_OFFER, is_job_offer, is_job_to_come, only_looks_for_work, slots_of
from .state_enders import ends_state
from .named_endings import ends_named
from .home_kinds import ends_a_home_that_travels, leaves_a_home_that_travels, only_a_home_that_travels, tells_a_kind_of_home
from .still_holds import left_the_place, lives_with_household, moved_from_the_household, part_still_held
from .subjects import names_in
from .speech_acts import own_part
from .trips import ends_planned_trip
from .stale_endings import graduation_ends_studies, studies_finished, undone_ending
from .types import ExtractedFact
from .updates import WEEKS_PREGNANT
from .verdicts import KEPT_AS_SAID, KEPT_REWRITTEN, SentenceVerdict

__all__ = ["handed_over", "hangs_on", "lives_with_household", "plain_pregnancy", "replaces", "story_of_a_change",
           "told_with_what_holds_now", "with_employer", "with_offered_role", "with_partner"]

_ENDED_BY = (ends_ownership, ends_habit, ends_health, changes_shift, changes_route, renews_document, quits_the_job,
             rerates, redoses, operation_done, ends_state, changes_commute, lives_elsewhere, left_the_place,
             moved_from_the_household, ends_named, graduation_ends_studies, studies_finished)
"""The rules that read one thing told ended or changed (``(new fact, stored fact) -> bool``), in the order tried."""

_RETIRED = rx(r"\bretired\b")
# A medical condition is no habit: a habit stated with "only" does not replace it.
_CONDITION = rx(r"\b(?:allerg\w*|intoleran\w*|coeliac|celiac|diabet\w*|anaphyla\w*)")
# What a diet leaves out besides what kind of eater the user is ("gluten-free", "dairy-free", "halal"): a constraint
# that stacks with a diet ("User is vegetarian." and "User is gluten-free." both hold), not a diet it replaces.
_FREE_FROM = rx(
    r"\b(?P<thing>gluten|dairy|lactose|nut|peanut|sugar|egg|soy|wheat|grain|salt|sodium|fodmap|halal|kosher)"
    r"(?:[- ]?free\b|(?<=halal)|(?<=kosher))"
)
_DIET_WORDS_LEFT = rx(r"\b(?:eat|eats|eating|ate|diet|only|now|again|strictly|fully|went|gone|go|going)\b")


def _free_from_beside(fact: str, text: str) -> bool:
    """Whether ``fact`` and the stored ``text`` hold together in the diet slot: one is only what a diet leaves out
    ("User is gluten-free.") and the other says nothing of the same thing ("User is vegetarian.", "User is
    dairy-free."); a change of one leaves the other ("I'm gluten-free now" leaves "User is vegetarian.")."""
    new = {m.group("thing").lower() for m in _FREE_FROM.finditer(fact)}
    before = {m.group("thing").lower() for m in _FREE_FROM.finditer(text)}
    if not (new or before) or new & before:
        return False
    # the one that names a constraint names nothing else of the diet ("User is vegan and gluten-free." does)
    return all("diet" not in slots_of(_DIET_WORDS_LEFT.sub(" ", _FREE_FROM.sub(" ", said)))
               for said, things in ((fact, new), (text, before)) if things)
# A goal or plan is no statement of how things are: a change of its slot ends it only when it names what the goal
# was about ("We moved to Bath" ends "User is planning to move to Bath.", not "User is saving for a house.").
_GOAL = rx(
    r"\b(?:saving(?:\s+up)?\s+for|hoping\s+to|hopes\s+to|planning\s+to|plans\s+to|wants?\s+to|would\s+like\s+to|"
    r"dreams?\s+of|looking\s+to|thinking\s+(?:of|about))\b"
)
# Whose the birth is: the user's own child ("User's baby girl Maya was born", "User and Sam had the baby"), not a
# sister's ("User's sister's baby was born").
_OWN_CHILD = rx(
    r"^user(?:'s\s+(?:new\s+|first\s+|second\s+|third\s+|little\s+)?(?:baby|son|daughter|twins|child|boy|girl)\b"
    r"|(?:\s+and\s+\w+)?\s+(?:gave|had|welcomed|miscarried|lost)\b)"
)
# What ends a pregnancy: a birth, or a loss ("User had a miscarriage.", "User lost the baby.").
_BIRTH = rx(
    r"\b(?:was\s+born|were\s+born|gave\s+birth|had\s+(?:the|our|their|a)\s+baby|baby\s+(?:arrived|came)|"
    r"welcomed\s+(?:a|our|their|baby)|miscarriage|miscarried|stillbirth|stillborn|"
    r"lost\s+(?:the|our|their|a)\s+(?:baby|pregnancy))\b"
)
# The user's pregnancy told with nothing more ("User is pregnant.", "User is expecting again."): a week count of it
# says all it says (not "User is pregnant with twins.", "User's wife is pregnant.").
_PLAIN_PREGNANCY = rx(r"^user\s+is\s+(?:now\s+|currently\s+|finally\s+)?(?:pregnant|expecting)(?:\s+(?:again|now))*"
                      r"\s*[.!]*$")


def plain_pregnancy(fact: str) -> bool:
    """Whether ``fact`` tells only that the user is pregnant ("User is pregnant."): a week count of the pregnancy
    ("User is 30 weeks pregnant (as of ...).") replaces it."""
    return bool(_PLAIN_PREGNANCY.match(fact))


# With whom the user lives, and not where: "User lives alone.", "User lives with two flatmates." (a fact of where,
# "User lives in Toronto.", still holds beside it).
_LIVES_WITH_ONLY = rx(
    r"^user\s+(?:\w+\s+)?(?:lives|is\s+living)\s+(?:alone|on\s+(?:their|my)\s+own|by\s+(?:themselves|myself)|with\b)"
    r"(?!.*\b(?:in|at|near)\s)"
)
_LIVES_IN = rx(r"^user\s+(?:\w+\s+)?(?:lives|is\s+living|is\s+based)\s+in\s+(?-i:[A-Z])")
# "I got promoted", "I got a promotion": a change within the job ("User works at Google." still holds), unless it
# names the new role ("promoted to senior engineer": the stored role no longer holds).
_PROMOTION = r"\b(?:promoted|promotion)"
_PROMOTED = rx(rf"{_PROMOTION}\b")
# "User moved from London.": a move told by where from only (no "to"): it ends the home it names.
_MOVED_FROM = rx(
    r"\b(?:moved|relocated)\s+(?:\w+\s+)?from\s+(?P<place>[\w'-]+)(?!.*\b(?:to|into)\b)"
)
_PROMOTED_TO = rx(rf"{_PROMOTION}\s+to\s+\w")
# "User got promoted to senior engineer." and the employer of the stored job it ends ("User works at Google as an
# engineer."): what the user's job is now; of one of theirs too ("User's sister Ana got promoted to head nurse.").
_PROMOTED_AS = re.compile(
    r"^(?P<who>User(?:'s\s+[^.]+?)?)\s+(?:just\s+|finally\s+|recently\s+)?(?:got|was|has\s+been)\s+promoted\s+to\s+"
    r"(?:(?:a|an)\s+)?"
    r"(?P<role>[\w-]+(?:\s+[\w-]+){0,3}?)(?:\s+(?:at|for|with)\s+[^.]+?)?"
    rf"(?:\s+(?:today|yesterday|recently|last\s+\w+|this\s+\w+|{SAID_TIME}))?\.$"
)
# or a workplace said in lower case: "at a mid-size firm downtown", "for the local council"
_EMPLOYER = re.compile(
    r"\b(?P<at>at|for)\s+(?P<employer>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*)*"
    r"|(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(?:firm|company|practice|hospital|clinic|school|college|university|bank|"
    r"agency|startup|shop|store|restaurant|caf[eé]|hotel|factory|warehouse|office|council|charity|studio|lab|bakery|"
    r"garage|salon|pharmacy|supermarket|nursery|department)\b(?:\s+(?:downtown|nearby|in\s+(?-i:[A-Z])[\w-]+))?)"
)
# A clause that tells a thing was left or stopped ("I quit Google", "I'm done with meat"): beside its replacement
# it adds nothing to memory. Not a state said to be over ("I'm no longer vegetarian"): that is what the user is now.
_LEFT = rx(
    r"\b(?:left|quit|resigned|handed\s+in|moved\s+out|sold|gave\s+up|given\s+up|stopped|dropped\s+out|cancell?ed|"
    r"(?:done|finished)\s+with)\b"
)
# "I don't live in Lisbon anymore", "I'm no longer vegetarian", "I'm not vegan any more": a state told as over, by
# its negation (not "I never lived in Lisbon", a state that never held).
_NO_LONGER = rx(r"\bno\s+longer\b|(?:\bnot\b|n't\b).*\b(?:anymore|any\s+more)\b")
_AND = rx(r"\s(?:and|but)\s|;")


def with_employer(fact: str, ended: Sequence[str]) -> str:
    """``fact`` ("User got promoted to senior engineer.") as the job it gives at the employer the job fact it
    ends names ("User works at Google as a senior engineer."): a promotion keeps the employer, the user's or a
    relative's ("User's sister Ana works at St James's as a head nurse."). A workplace the job
    fact names in lower case stays with the promotion ("User got promoted to senior manager at a mid-size firm
    downtown."). Any other fact, or one ending no fact that names an employer, as it is."""
    m = _PROMOTED_AS.match(fact)
    employers = {e.group(0).rstrip(".") for text in ended for e in [_EMPLOYER.search(text)] if e is not None}
    if m is None or len(employers) != 1:
        return fact
    role, employer = m.group("role"), employers.pop()
    if employer.split(maxsplit=1)[1][:1].islower():  # "at a mid-size firm downtown": no name to work at
        return f"{fact[: m.end('role')]} {employer}{fact[m.end('role'):]}" if employer not in fact else fact
    return f"{m.group('who')} works {employer} as {article(role)} {role}."


# The employer a job fact or an offer names: "at Dynatrace", "an offer from Stripe", "with Google".
_ORG = r"(?P<org>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*)*?)"
_OFFERED_BY = re.compile(rf"\b(?:at|from|with|for|by)\s+{_ORG}(?=\s+(?:in|as|for|to|on|and|but)\b|\s*[,.!]|$)")
# The role and place an offer names: "as a junior UX designer at Dynatrace in Linz", "at Spotify as a data analyst".
_OFFERED_ROLE = re.compile(
    r"\bas\s+(?P<article>a|an)\s+(?P<role>[\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:at|with|for)\s+" + _ORG
    + r"(?P<where>\s+in\s+(?-i:[A-Z])[\w'-]+)?(?=\s*[,.!]|\s+(?:for|starting|from)\b|$)"
    r"|\b(?:at|with|for)\s+" + _ORG.replace("org", "org2") + r"(?P<where2>\s+in\s+(?-i:[A-Z])[\w'-]+)?"
    r"\s+as\s+(?P<article2>a|an)\s+(?P<role2>[\w-]+(?:\s+[\w-]+){0,3}?)(?=\s*[,.!]|\s+(?:for|starting|from)\b|$)"
)
# A job begun, told without its role: "User works at Dynatrace." (from "I started at Dynatrace today!").
_WORKS_AT = re.compile(r"^User\s+works\s+(?:at|for)\s+(?P<org>[^.]+?)\.$")
# Where someone works, the user or one of theirs, with no role: "User's husband Tom works at Google.".
_ANYONE_WORKS_AT = re.compile(r"^User(?:'s\s+[^.]+?)?\s+works\s+(?:at|for)\s+[^.]+?\.$")
# An offer that no longer stands: turned down, withdrawn, fallen through.
_OFFER_ENDED = rx(
    r"\b(?:turned\s+(?:it\s+|them\s+)?down|declined|rejected|said\s+no\s+to|passed\s+on|withdr[ea]w\w*|rescinded|"
    r"pulled|fell\s+through|didn't\s+work\s+out|lost)\b"
)


def _employers(text: str) -> set[str]:
    """The employers (casefolded) a job fact or an offer names ("dynatrace" for "... at Dynatrace in Linz.")."""
    return {m.group("org").rstrip(".").casefold() for m in _OFFERED_BY.finditer(text)}


def _ends_offer(verdict: SentenceVerdict, text: str) -> bool:
    """Whether the new fact of ``verdict`` ends the stored offer ``text`` ("User got a job offer as a junior UX
    designer at Dynatrace in Linz."), both the user's: a job begun at the employer it names ("User works at
    Dynatrace."), or the offer turned down, withdrawn or fallen through ("I turned down the Dynatrace offer", "the
    offer fell through"; one naming no employer ends every offer)."""
    new = verdict.fact
    if not is_job_offer(text) or holder(text) != "user" or holder(new) != "user" or new is None:
        return False
    offered_by = _employers(text)
    if "job" in slots_of(new) and not is_negated(new) and offered_by & _employers(new):
        return True
    if re.search(r"\boffers?\b", f"{new} {verdict.sentence}", re.IGNORECASE) and _OFFER_ENDED.search(verdict.sentence):
        named = {n.casefold() for n in names_in(new)}
        return not named or bool(named & offered_by)
    return False


def with_offered_role(fact: str, ended: Sequence[str]) -> str:
    """``fact`` ("User works at Dynatrace.", a job begun told without its role) with the role and place of the
    offer it ends from that employer ("User got a job offer as a junior UX designer at Dynatrace in Linz." ->
    "User works at Dynatrace in Linz as a junior UX designer."). Any other fact as it is."""
    m = _WORKS_AT.match(fact)
    if m is None:
        return fact
    for text in ended:
        offer = _OFFERED_ROLE.search(text) if is_job_offer(text) else None
        if offer is None:
            continue
        org = offer.group("org") or offer.group("org2")
        if org.casefold() != m.group("org").casefold():
            continue
        where = offer.group("where") or offer.group("where2") or ""
        article_, role = offer.group("article") or offer.group("article2"), offer.group("role") or offer.group("role2")
        return f"User works at {org}{where} as {article_.lower()} {role}."
    return fact


# "User is engaged.", "User got married.": a new stage, told without whom.
_STAGE_UNNAMED = re.compile(r"^User\s+(?:is|got|just\s+got|has\s+got)\s+(?:now\s+|officially\s+|finally\s+)?"
                            r"(?P<stage>engaged|married)\s*[.!]*$")


# "User broke up.", "User split up last month.": a breakup, told without with whom.
_BREAKUP_UNNAMED = re.compile(
    r"^User\s+(?P<head>(?:just\s+|finally\s+|officially\s+|recently\s+)?(?:broke|split)\s+up)"
    r"(?P<when>\s+(?:last\s+\w+|yesterday|today|recently|this\s+\w+|(?:a\s+(?:few|couple\s+of)|two|three|\d+)\s+"
    r"(?:days|weeks|months|years)\s+ago"
    # the same times as capture writes them out: "in the week of Monday 2026-05-11", "in April 2026", "in 2025"
    rf"|{SAID_TIME}))?\s*[.!]*$"
)
_PARTNER_ROLE = rx(rf"\b{PARTNER_WORD}\b")


def with_partner(fact: str, ended: Sequence[str]) -> str:
    """``fact`` ("User is engaged.") with the partner the relationship fact it ends names ("User is seeing Leo." ->
    "User is engaged to Leo."): the stage changes, the partner stays. A breakup told without with whom ("User
    broke up.") says whom: the partner an ended fact names ("User broke up with Tom."), else the one it speaks of
    ("User broke up with their girlfriend."), else "their partner". Any other fact as it is."""
    m = _STAGE_UNNAMED.match(fact)
    partner = partner_of(ended, "") if m is not None else None
    if m is not None and partner is not None:
        return f"User is {m.group('stage')} to {partner}."
    breakup = _BREAKUP_UNNAMED.match(fact)
    if breakup is None:
        return fact
    roles = {r.group(0).lower() for text in ended if holder(text, "relationship") == "user"
             for r in _PARTNER_ROLE.finditer(text)}
    whom = partner_of(ended, "") or (f"their {roles.pop()}" if len(roles) == 1 else "their partner")
    return f"User {breakup.group('head')} with {whom}{breakup.group('when') or ''}."


def _is_ending(verdict: SentenceVerdict) -> bool:
    """Whether ``verdict``'s sentence tells that a thing was left or stopped ("I quit Google", "I handed in my
    notice", "I left the lab"), or that a state no longer holds ("I don't live in Lisbon anymore")."""
    return bool(_LEFT.search(verdict.sentence) or _NO_LONGER.search(verdict.sentence))


def told_with_what_holds_now(
    said: list[tuple[ExtractedFact, SentenceVerdict]],
) -> list[tuple[ExtractedFact, SentenceVerdict]]:
    """``said`` (one message's facts) without each fact that only tells what was left or stopped, beside a clean fact
    of the same message that says what holds now in its place ("I quit Google and now I work at a startup": "User
    quit Google." beside "User works at a startup."; "I don't live in Lisbon anymore, I moved to Faro": "User
    doesn't live in Lisbon anymore." beside "User lives in Faro."), that one replacing every stored fact the ending
    replaced. Memory keeps what holds now; the ending only marks the stored fact no longer valid. A state told as no
    longer holding with nothing in its place ("I'm not vegetarian anymore") is stored, and ends the stored state."""
    handed: dict[int, tuple[str, ...]] = {}
    kept = []
    for fact, verdict in said:
        instead = _in_its_place(fact, verdict, said)
        if instead is None:
            kept.append((fact, verdict))
        else:
            handed[id(instead)] = handed.get(id(instead), ()) + fact.supersedes
    return [(_superseding(fact, handed.get(id(fact), ())), verdict) for fact, verdict in kept]


def _superseding(fact: ExtractedFact, more: Sequence[str]) -> ExtractedFact:
    """``fact``, superseding the ids ``more`` too (each once)."""
    if not more:
        return fact
    return replace(fact, supersedes=tuple(dict.fromkeys(fact.supersedes + tuple(more))))


def _in_its_place(
    fact: ExtractedFact, verdict: SentenceVerdict, said: list[tuple[ExtractedFact, SentenceVerdict]]
) -> ExtractedFact | None:
    """The fact of ``said`` that says what holds now in place of the ending ``fact`` tells: one that replaces every
    stored fact ``fact`` replaces, or is of the same slot of the same person (a state told as no longer holding: only
    when it replaces them); ``None`` when ``fact`` tells no ending or nothing holds in its place."""
    if not _is_ending(verdict):
        return None
    # a state told as no longer holding ("I'm not vegan anymore but I still don't eat meat") stays when the new fact
    # leaves a stored fact it ends
    negated_only = not _LEFT.search(verdict.sentence)
    # "User quit the café." names no job word, but beside "User teaches guitar full time." it is the job's change
    slots = slots_of(fact.text) | ({"job"} if quits_a_job(fact.text) else frozenset())
    for other, how in said:
        if other is fact or how.reason != KEPT_REWRITTEN or _LEFT.search(how.sentence):
            continue
        if negated_only and (_NO_LONGER.search(how.sentence) or not _STATES_VALUE.match(other.text)):
            # two states over ("I don't eat meat anymore, I don't eat fish anymore"), or a thing done that says
            # no state in its place ("I'm no longer vegetarian, I eat fish now"): both told
            continue
        if fact.supersedes and set(fact.supersedes) <= set(other.supersedes):
            return other
        if negated_only and fact.supersedes:
            continue  # the new state leaves a stored fact the ending ends
        if any(holder(fact.text, s) == holder(other.text, s) for s in slots & slots_of(other.text)):
            return other
    return None


# "User lives in Faro.", "User is vegetarian.", "User works at Meta.": a fact that states what a slot holds now
# (not "User eats fish.", a thing done).
_STATES_VALUE = re.compile(r"^User\s+(?:is|lives|works)\b")


# "Got a used Skoda instead", "... in its place": what came instead of a thing the message says was left or sold.
_INSTEAD = rx(r"\b(?:instead|in\s+its\s+place|to\s+replace\s+(?:it|her|him))\b")


def handed_over(said: list[tuple[ExtractedFact, SentenceVerdict]]) -> list[tuple[ExtractedFact, SentenceVerdict]]:
    """``said`` (one message's facts) with what a thing left or sold ended handed over to what the message says came
    instead ("Sold the Ninja. Got a used Skoda instead": "User got a used Skoda instead." ends the stored fact "User
    sold the Ninja." ended, and the sale is not stored); ``said`` as it is when nothing came instead."""
    new = next((i for i, (_, how) in enumerate(said)
                if how.reason == KEPT_REWRITTEN and _INSTEAD.search(how.sentence) and not _is_ending(how)), None)
    ended = [fact for fact, how in said if _is_ending(how) and fact.supersedes]
    if new is None or not ended:
        return said
    fact, how = said[new]
    merged = _superseding(fact, [i for f in ended for i in f.supersedes])
    return [(merged, how) if i == new else (f, v) for i, (f, v) in enumerate(said) if not any(f is e for e in ended)]


def story_of_a_change(
    fact: ExtractedFact, verdict: SentenceVerdict, said: list[tuple[ExtractedFact, SentenceVerdict]]
) -> bool:
    """Whether ``fact`` is a one-off past event of no slot of the user's life told beside a change of the same
    message that ends a stored fact ("I watched a documentary and went vegan", "I just qualified, so I'm a
    solicitor now", "the divorce went through, I kept the bakery"): the story around the change, not a fact memory
    needs. Alone it is stored ("User joined a choir.")."""
    if fact.supersedes or slots_of(fact.text) or not is_past_statement(fact.text) or is_change(verdict.sentence) \
            or is_loss(verdict.sentence) or _is_ending(verdict) or is_care_fact(fact.text):
        return False
    return any(other is not fact and other.supersedes and slots_of(other.text) for other, _ in said)


def _same_person(new: str, old: str, old_words: frozenset[str]) -> bool:
    """Whether the fact ``new`` speaks of the person ``old`` does: the same holder, or one ``old`` names ("User's
    wife is called Ana." of "User has a wife."), not one of several ``old`` counts ("User has two sisters.")."""
    who = holder(new)
    if who == holder(old):
        return True
    # "User's sister has two kids." speaks of one of "User has two sisters.", whose count it leaves
    return bool(content_words(who) & old_words) and count_held(old) is None


# The words that name someone ("User's wife is called Ana."): a naming, no news, though "called" is a past form.
_NAMING = content_words("called named name")
# A fact that only names someone of the user's: "User's son is Leo.", "User's brother is called Sam.".
_ONLY_NAMES = re.compile(r"^User's\s+(?:[\w-]+\s+){1,2}?(?:is\s+(?:called|named)\s+|'s\s+name\s+is\s+|is\s+)"
                         r"(?-i:[A-Z])[\w'\u00e0-\u00ff-]+\.$", re.IGNORECASE)


def _news_of_the_one_named(new: str, text: str, old: frozenset[str]) -> bool:
    """Whether ``new`` tells news of someone the stored fact ``text`` (content ``old``) says the user has, an event
    or an age, not more of who they are: "User's daughter Sofia made the volleyball team." after "User has a
    daughter, Sofia." or "User's daughter is Sofia." (a team, a promotion, an operation), "User's daughter Sofia is
    15.". Such news leaves the fact of who the person is; a lasting fact of them ("User's sister Jo lives in Leeds."
    after "User has a sister.") still says it, and replaces it."""
    if holder(new) == holder(text) and not _ONLY_NAMES.match(text):
        return False  # ("User's son Leo started piano lessons." is news of the one "User's son is Leo." names)
    told = (w for w in re.findall(r"[A-Za-z]+", new) if not content_words(w) <= old | _NAMING)
    return _PLAIN_AGE.match(new) is not None or any(is_past(w) for w in told)


def _says_more(verdict: SentenceVerdict, text: str) -> bool:
    """Whether the stored fact ``text`` says more than the new fact could replace, so that replacing it would
    lose what still holds: a care fact (an allergy, a medication) replaced by a fact that is none and is about
    no diet, unless the new fact ends the relationship the stored one is about (a former partner's coeliac
    disease is no care fact of the user's household) ("Arjun turned 5" after "User's son Arjun is 4 and he's allergic to peanuts."), or a fact of two
    parts joined by "and" / "but" replaced by a new age ("Leela turned 8" after "User's daughter Leela is 7
    and obsessed with dinosaurs.")."""
    said = verdict.sentence
    if is_negated(said) or is_ended(said):
        return False  # "I'm not vegetarian any more" ends the care fact it names
    if relationship_stage(verdict.fact) in ENDED_STAGES and relationship_stage(text) is not None:
        return False  # "Tom and I broke up" ends what the user told of the partner, "... Tom is coeliac." too
    new_slots = slots_of(verdict.fact)
    if is_care_fact(text) and not is_care_fact(verdict.fact) and not new_slots & CONSUMPTION_SLOTS:
        return True
    return "age" in new_slots and _AND.search(text) is not None




# What held once and is told as such ("User used to live in Rome.", "User grew up in Cork."): still true after a
# change of its slot; only a correction ends it, or the user taking it up again ("I play tennis again" ends "User
# used to play tennis.").
_RESUMED = rx(r"\b(?:again|back\s+(?:to|on|in)|resumed|once\s+more)\b")
_HELD_ONCE = rx(r"\b(?:used\s+to|formerly|previously|grew\s+up|was\s+born|as\s+a\s+(?:child|kid|teen(?:ager)?))\b")


# Who the user's spouse is: "User is married to Sam.", "User's wife is called Alex.", "User's husband's name is Rui.";
# a fact of the spouse by name ("User's wife Alex is a nurse.") names them too.
_SPOUSE_NAMED = re.compile(
    r"^User(?:\s+is\s+(?:happily\s+)?married\s+to\s+|'s\s+(?:wife|husband|spouse)(?:'s\s+name\s+is|\s+is\s+"
    r"(?:called|named)|\s+is)\s+)(?P<name>[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)?\s*[.!]*$"
)
_SPOUSE_BY_NAME = re.compile(r"^User's\s+(?:wife|husband|spouse)\s+(?P<name>[A-Z][\w'-]*)\s+(?-i:[a-z])")


def _new_spouse(fact: str, text: str) -> bool:
    """Whether ``fact`` names the user's spouse other than the stored ``text`` does ("User's wife is called Alex."
    after "User is married to Sam."): one spouse at a time, the newer name holds (a remarriage, or a correction)."""
    before = _SPOUSE_NAMED.match(text) or _SPOUSE_BY_NAME.match(text)
    now = _SPOUSE_NAMED.match(fact) or _SPOUSE_BY_NAME.match(fact)
    return before is not None and now is not None and before.group("name").casefold() != now.group("name").casefold()


def _new_partner(fact: str, text: str) -> bool:
    """Whether ``fact`` names the user's partner by another name than the stored ``text`` does ("User's boyfriend
    Luke is a chef." after "User is dating Tom."): one partner at a time, a new one told where the old one was."""
    now, before = partner_of([fact], ""), partner_of([text], "")
    return now is not None and before is not None and now.casefold() != before.casefold()


# "User is 41.", "User's son Leo is 8 years old.": an age, and nothing more.
_PLAIN_AGE = re.compile(rf"^{USER_OR_THEIRS}\s+is\s+(?P<age>\d{{1,3}})(?:\s+years?\s+old)?\s*[.!]*$")


def _another_age(fact: str, text: str) -> bool:
    """Whether ``fact`` and the stored ``text`` each tell an age and nothing more, and not the same one."""
    now, before = _PLAIN_AGE.match(fact), _PLAIN_AGE.match(text)
    return now is not None and before is not None and now.group("age") != before.group("age")


def _plain_present(fact: str) -> bool:
    """Whether ``fact`` states what holds now, without a change, a plan, a past or a denial ("User is a nurse.")."""
    return not (is_past_statement(fact) or is_planned(fact) or is_negated(fact) or is_change(fact))


def _another_job_said_alike(fact: str, text: str) -> bool:
    """Whether ``fact`` and the stored ``text`` each state the user's one job now, the usual way ("User works as
    ...", "User is a <title> at ...": :func:`statement_frame`), and ``fact`` another: the newer one holds, as a
    model's write of it does (:mod:`memori_core.tool_writes`). Not a job beside one ("User is a student.")."""
    if _BESIDE.search(fact) or _BESIDE.search(text):
        return False  # "User is also a writer.", "User works at a bar on weekends."
    return holder(fact, "job") == holder(text, "job") == "user" and statement_frame(fact) == statement_frame(text) \
        == JOB_FRAME and _plain_present(fact) and _plain_present(text)


# A job held beside another: "also", "part-time", "on weekends", "on the side".
_BESIDE = rx(r"\b(?:also|too|as\s+well|on\s+the\s+side|side|part[- ]time|weekends?|evenings?|nights?|freelance|"
             r"second|another)\b")


def _corrects(verdict: SentenceVerdict, words: frozenset[str], text: str, old: frozenset[str]) -> bool:
    """Whether the new fact of ``verdict`` corrects the stored fact ``text``: the words it says were wrong are
    ``text``'s and not its own, of the same person, the rest of ``text`` said again or of the same slot."""
    wrong = corrected_words(verdict.sentence) or verdict.corrects
    return bool(wrong) and wrong <= old and not wrong & words and holder(verdict.fact) == holder(text) \
        and bool(old - wrong <= words or slots_of(verdict.fact) & slots_of(text))


def _kind_beside_place(verdict: SentenceVerdict, old: str) -> bool:
    """Whether one of the new fact of ``verdict`` and ``old`` tells the user's home only as a kind that travels with
    them ("User lives in a houseboat.") and the other names no kind ("User moved to Lisbon."): two sides of one home,
    not a change, unless the sentence sells or leaves that home ("I sold the boat and moved to Bath.").
    A flat, a house or a room is left by a move (:mod:`.home_kinds`)."""
    new = verdict.fact or ""
    if leaves_a_home_that_travels(verdict.sentence) or leaves_a_home_that_travels(new):
        return False
    return (only_a_home_that_travels(old) and not tells_a_kind_of_home(new)) or \
        (only_a_home_that_travels(new) and not tells_a_kind_of_home(old))


def replaces(verdict: SentenceVerdict, words: frozenset[str], text: str, old: frozenset[str]) -> bool:
    """Whether the new fact of ``verdict`` (content ``words``) replaces the stored fact ``text``."""
    if verdict.fact is not None and WEEKS_PREGNANT.match(verdict.fact) \
            and (WEEKS_PREGNANT.match(text) or _PLAIN_PREGNANCY.match(text)):
        # "User is 30 weeks pregnant (as of ...)." is how far along the pregnancy is now, and says "User is
        # pregnant." too: one core fact for the one state, not two on every turn
        return True
    if verdict.fact is not None and ends_a_home_that_travels(f"{verdict.sentence} {verdict.fact}", text):
        return True  # "I sold the boat" ends "User lives on a narrowboat." (.home_kinds)
    if verdict.fact is not None and books_what_was_needed(verdict.fact, text):
        return True  # "User has an Ausländerbehörde appointment on ..." ends "User needs to book an appointment ..."
    if verdict.expires_in is not None and _corrects(verdict, words, text, old):
        return True  # "oh wait I meant May" ends "User is moving to Berlin in April 2026.", both dated
    if verdict.expires_in is not None or not old:
        return False
    if verdict.fact is not None and undone_ending(verdict.fact):
        return False  # "User quit Spotify and reopened it.": the ending was taken back, "User uses Spotify." holds
    if verdict.fact is not None and ends_switched_medicine(verdict.sentence, verdict.fact, text):
        return True  # "my doctor swapped it for amlodipine" ends "User takes lisinopril 20 mg."
    if verdict.fact is not None and ends_leave(verdict.fact, text):
        return True  # "I went back to work today" ends "User is on maternity leave."
    if verdict.fact is not None and (_new_spouse(verdict.fact, text) or _new_partner(verdict.fact, text)):
        return True  # "User's wife is called Alex." ends "User is married to Sam."
    if verdict.fact is not None and same_children(verdict.fact, text):
        return True  # "User has two kids, Josh (15) and Ellie (12)." ends "... Josh (14) and Ellie (12)."
    own = own_part(verdict.fact)
    if own != verdict.fact:  # "User watched a movie about a guy who moved to Paris.": only the user's part
        verdict, words = replace(verdict, fact=own, sentence=own), content_words(own)
    if (OWN_PREGNANCY.match(text) or WEEKS_PREGNANT.match(text)) and _BIRTH.search(verdict.fact) \
            and _OWN_CHILD.match(verdict.fact):
        return True  # "Our baby girl Maya was born last week": "User is pregnant." no longer holds, nor its weeks
    if ends_planned_trip(verdict.fact, text):
        return True  # "User went to Lisbon." ends "User is planning a trip to Lisbon in November 2026."
    if _ends_offer(verdict, text):
        return True  # "User works at Dynatrace." ends "User got a job offer ... at Dynatrace in Linz."
    if recounts(verdict.fact, text):
        return True  # "User has one hive." ends "User has got three hives at the bottom of the garden."
    back = taken_back(verdict.fact)
    kept_out = left_out(text) if back and not _CONDITION.search(text) else None
    if kept_out is not None and holder(verdict.fact) == holder(text):
        # "I'm back on carbs" ends "User is on keto."; "I eat eggs again" leaves "User is vegetarian."
        return bool(back & kept_out)
    if part_still_held(verdict.fact, text) is not None:
        return True  # "switched from an insulin pump" ends "User has type 1 diabetes and uses an insulin pump."
    if _says_more(verdict, text):
        return False
    if _corrects(verdict, words, text, old):
        return True  # "I live in Porto, not Lisbon" ends "User lives in Lisbon."
    if _HELD_ONCE.search(text) and not (_RESUMED.search(verdict.fact) and words & old):
        return False  # "User used to live in Rome.": history, which a move to Faro leaves true
    # a refinement: "has a golden retriever" -> "... called Bo", by the same person ("User's sister is
    # vegetarian." refines nothing of "User is vegetarian.")
    if old < words and verdict.reason != KEPT_AS_SAID and _same_person(verdict.fact, text, old) \
            and not _news_of_the_one_named(verdict.fact, text, old) \
            and not (is_care_fact(verdict.fact) and not is_care_fact(text)):
        # a care fact of someone named is no more of who they are: "User's wife Priya is allergic to penicillin."
        # leaves "User's wife is Priya."
        return True
    said = verdict.sentence
    changed, ended = is_change(said), is_ended(said)
    # One thing told ended or changed, each read by its own rule: "I sold the Civic" ends "User drives an old Honda
    # Civic."; "I gave up on Spanish" "User is learning Spanish."; "knee is much better" "User twisted their knee
    # at the park."; "I'm on day shifts now" "User works night shifts."; "I'm on the Thunder Bay run now" "... the
    # Winnipeg to Calgary run."; "permit renewed until 2028" "... permit expires on October 30."; "i quit the
    # café" "User works as a barista at Ancoats Coffee."; "bike got nicked" "User cycles to the office."
    if any(ends(verdict.fact, text) for ends in _ENDED_BY):
        return True
    if is_loss(said) and names_in(verdict.fact) & names_in(text) and holder(verdict.fact) == holder(text):
        return True  # "We lost Mochi": "User has a cat called Mochi." ends
    # A change replaces the same slot of the same person only: "My sister moved" leaves the user's home.
    # In a slot that holds several things (pets, exercise) only the fact about the same one, when it
    # ended ("I stopped running") or was a "none" ("User has no pets." before "We adopted a dog").
    # What the user eats or drinks changes with "only" too ("I only drink decaf"), a phone or a car
    # when a new one is got ("I got a Pixel").
    for slot in slots_of(verdict.fact) & slots_of(text):
        if holder(verdict.fact, slot) != holder(text, slot) or slot == JOB_OFFER:
            continue  # several offers stand at once: one ends as _ends_offer says
        if slot in CONSUMPTION_SLOTS and slot not in consumed(text):
            continue  # a drink in a workplace's name: "I switched to decaf" leaves "User works at Costa Coffee."
        if slot != "relationship" and _CONDITION.search(text) and not _CONDITION.search(verdict.fact):
            continue  # a condition is no diet: "I went keto" leaves "User has coeliac disease."
        if slot == "diet" and _free_from_beside(verdict.fact, text):
            continue  # "I'm gluten-free now" leaves "User is vegetarian."
        moved_from = _MOVED_FROM.search(verdict.fact) if slot == "residence" else None
        if moved_from is not None and moved_from.group("place").casefold() not in text.casefold():
            continue  # "I moved from London" ends a home in London, not "User lives in Leeds."
        if slot == "residence" and lives_with_household(text) != lives_with_household(verdict.fact):
            continue  # a move changes where, not with whom: "I moved to Porto" leaves "User lives with Rui.",
            # "Marco moved in with me" leaves "User lives in Leeds."
        if slot == "residence" and _kind_beside_place(verdict, text):
            continue  # a kind of home is no place: "I moved to Lisbon" leaves "User lives in a houseboat."
        if slot == "residence" and sells_the_home(verdict.fact):
            continue  # "We sold the house!": the user lives there until the move is told as made
        if slot == "residence" and _LIVES_WITH_ONLY.match(verdict.fact) and _LIVES_IN.match(text):
            continue  # "I live alone now" says with whom: "User lives in Toronto." still holds
        if _GOAL.search(text) and not _GOAL.search(verdict.fact) and not words & old:
            continue  # "We moved to Bristol" leaves "User is saving for a deposit on a house."
        if slot == "job" and beside_the_job(verdict.fact, said, text):
            continue  # "I got a part-time job at a cafe" leaves "User is a 3rd-year architecture student."
        if holds_a_home_beside(verdict.fact, text):
            continue  # "now I am retired" leaves "User retired civil engineer from Valencia.": the home with the job
        if slot == "job" and _RETIRED.search(text) and _RETIRED.search(verdict.fact):
            continue  # "now I am retired" leaves "User is a retired civil engineer.": no change
        if slot == "job" and is_only_a_shift(verdict.fact):
            continue  # "I work the early shift now" leaves "User works as an ER nurse."
        if slot == "job" and _PROMOTED.search(said) and not _PROMOTED_TO.search(said):
            continue  # "I got promoted" leaves "User works at Google."; "promoted to manager" is a new role
        if slot == "job" and _PROMOTED_TO.search(said) and _ANYONE_WORKS_AT.match(text) and " as " not in text:
            continue  # a new role at the same place: "promoted to senior accountant" leaves "User works at a firm.",
            # "Tom got promoted to senior engineer" "User's husband Tom works at Google."
        if slot == "job" and is_job_to_come(verdict.fact) and is_job_to_come(verdict.sentence):
            continue  # "got a job at X, starting in January" leaves the job held until then
        if slot == "job" and only_looks_for_work(verdict.fact):
            continue  # "I'm job hunting again" leaves "User works at Google." (only a job lost, left or quit ends it)
        if slot == "job" and back_to_work(verdict.fact):
            continue  # "Tane went back to work" leaves "User's husband Tane is a builder."
        if slot in ACTIVITY_SLOTS:
            # "We adopted a dog" after "User has no pets.": the "none" no longer holds; "I played rugby
            # at uni" after "User used to play rugby." tells the same past, nothing new
            flipped = is_negated(text) and not is_negated(verdict.fact) \
                and (changed or not is_past_statement(verdict.fact))
            if (flipped or ended) and same_activity(verdict.fact, text, slot):
                return True
            # "I boulder 3 times a week now" after "User boulders twice a week.": how often, now
            if says_how_often(verdict.fact) and says_how_often(text) and not is_negated(text) \
                    and same_activity(verdict.fact, text, slot):
                return True
        elif slot == "relationship":  # "My wife and I moved to Berlin" is no change of the marriage
            # an ending ends all the user told of the relationship ("Tom and I broke up": "User's boyfriend
            # Tom is a chef."); another change only where it stands ("Marco moved in with me" ends "User is
            # seeing Marco.", not "User's partner Marco's birthday is April 19th.")
            ends = is_loss(said) or relationship_stage(verdict.fact) in ENDED_STAGES \
                or relationship_stage(said) in ENDED_STAGES
            now_with, before_with = broken_up_with(verdict.fact), partner_of([text], "")
            if now_with is not None and before_with is not None and now_with != before_with:
                continue  # "Sam and I broke up" ends what names Sam, not "User is dating Alex."
            if ends and outlasts_a_break_up(text, verdict.fact):
                continue  # "Aisha and I are separating" leaves "User and their wife Aisha have two sons ..."
            stands = relationship_stage(text) is not None or is_relationship_status(text)
            if (is_loss(said) or (changed and is_relationship_status(said))) and (ends or stands):
                return True
            # a new stage replaces another ("Chris and I are engaged" after "User is dating Chris.")
            if another_stage(relationship_stage(verdict.fact), relationship_stage(text)):
                return True
        elif changed or (slot == "age" and _another_age(verdict.fact, text)):
            return True  # "Correction: I am 41." ends "User is 44 years old.": one age at a time
        elif slot == "job" and not _BESIDE.search(said) and _another_job_said_alike(verdict.fact, text):
            return True  # "I'm a nurse at the city hospital." ends "User works as a pharmacist."
        elif slot in CONSUMPTION_SLOTS and is_exclusive(said) and not is_negated(said) \
                and not _CONDITION.search(text):  # "I only eat rice" leaves "User is coeliac."
            return True
        elif slot in acquired_slots(said) and not is_negated(said):
            return True
    if denies(verdict.fact, text) and (changed or ended or verdict.reason == KEPT_REWRITTEN):
        return True  # "I'm not vegan" ends "User is vegan." (a hedge, "I think I'm not allergic", ends nothing)
    if takes_back(said) and holder(verdict.fact) == holder(text) \
            and slots_of(verdict.fact) & slots_of(text) - {"relationship"}:
        return True  # "I lied about being sober" ends "User doesn't drink anymore." (what it takes back)
    if not (changed or ended):
        return False
    # "I don't play tennis anymore" ends "User plays tennis on Sundays." (not a sister's "anymore"); "I'm not on
    # statins anymore" "User takes atorvastatin every evening." (a medicine named by its kind)
    return is_negated(said) and holder(verdict.fact) == holder(text) \
        and (len(words & old) >= min(2, len(old)) or bool(medicines_of_kind_named(verdict.fact, text)))


# -- what hung on a state that ended ------------------------------------------------------------------------------

# The words of an ending that say it ends, not what: "gave up", "no longer", "stopped".
_ENDING_WORDS = content_words(
    "gave give given giving up quit quitting stopped stop stopping dropped drop out kicked cut longer anymore more "
    "ended end finished done over gone cured used left officially finally completely totally "
    # the verbs too general to tell what: "User doesn't play guitar anymore." ended guitar
    "play playing do doing go going have having take taking use using get getting make making"
)
# What hangs on a thing besides its own word: the care of a condition, the gear of an instrument (stems of the
# thing -> the words of what hangs on it).
_HUNG_ON: dict[str, re.Pattern[str]] = {
    "diabet": rx(r"\b(?:blood\s+sugars?|glucose|insulin|finger\s+pricks?|cgm)\b"),
    "guitar": rx(r"\b(?:acoustic|electric|amp|amplifier|chords?|capo|plectrums?|fender|gibson|strings)\b"),
    "piano": rx(r"\b(?:keyboard|sheet\s+music|scales)\b"),
    "violin": rx(r"\b(?:bow|rosin)\b"),
    "asthma": rx(r"\b(?:inhalers?|nebuli[sz]er|peak\s+flow)\b"),
}
# A fact that hangs on a state of the user's: a duty, a practice, a start, a thing got for it ("User has to check
# their blood sugar 4 times a day.", "User started learning guitar.", "User bought a Yamaha acoustic."); not a taste
# ("User likes guitar music.") nor who someone is.
_HUNG_FACT = rx(
    r"^user\s+(?:(?:just|also|recently|now|still|really|finally)\s+)*(?:has\s+to|have\s+to|needs\s+to|must|should|"
    r"is\s+supposed\s+to|checks?|monitors?|tests?|injects?|practi[cs]es|is\s+practi[cs]ing|is\s+learning|learns|"
    r"started|has\s+started|began|took\s+up|has\s+taken\s+up|bought|has\s+bought|got|owns|has\s+(?:a|an|two|\d+)\b|"
    r"takes|is\s+taking|uses|plays|is\s+playing|goes\s+to|attends|counts|tracks|is\s+on)\b"
)


def _ended_thing(ending: str) -> frozenset[str]:
    """The stemmed words of what ``ending`` ("User gave up on guitar.", "I no longer have gestational diabetes")
    says is over (``{"guitar"}``, ``{"gestat", "diabet"}``); empty when it says nothing is."""
    if not (is_ended(ending) or is_negated(ending)):
        return frozenset()
    return stopped_words(ending) or content_words(ending) - _ENDING_WORDS


def hangs_on(ending: str, text: str, *, state_ended: bool = True) -> bool:
    """Whether the stored fact ``text`` hangs on the state the fact ``ending`` says is over, so that it ends with it:
    of the same person, a duty, a practice, a start or a thing got (:data:`_HUNG_FACT`), holding every word of
    what ended ("User started learning guitar." after "User gave up on guitar.") or a word of what hangs on it
    (:data:`_HUNG_ON`: "User has to check their blood sugar 4 times a day." after "User no longer has gestational
    diabetes.", "User bought a Yamaha acoustic." after giving up guitar). Never a taste, someone else's fact, or
    a fact of another thing ("User likes guitar music.", "User's brother plays guitar.", "User plays piano.").
    ``state_ended``: a stored fact of the state itself ended with ``ending`` ("User has gestational diabetes."):
    without one, only a fact holding what ended does, and only when ``ending`` says it is over ("User doesn't play
    guitar anymore.", not "User doesn't work on Fridays.")."""
    if not state_ended and not is_ended(ending):
        return False
    thing = _ended_thing(ending)
    if not thing or is_negated(text) or is_ended(text) or holder(text) != holder(ending) \
            or not (_HUNG_FACT.match(text.strip()) or WEEKS_PREGNANT.match(text)):
        return False
    if thing <= content_words(text):
        return True
    return state_ended and any(word in _HUNG_ON and _HUNG_ON[word].search(text) for word in thing)

