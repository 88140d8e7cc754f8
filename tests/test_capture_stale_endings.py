"""Changes that left a stale fact valid (``memori_core/extraction/stale_endings.py``, issue 21, capstale5): the rows
that end a stored fact are in ``tests/cases/stale_endings.toml``, the rows of the module's predicates in
``tests/rules/stale_endings.toml``; here, what must end nothing, and the module's rewrites of a message (what a place
left for the day or work done for today must not end, of ``extraction/named_endings.py``, is in the first table here
too)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from _capture import SAID_AT, facts_of, told
from memori_core.extraction.stale_endings import (
    as_gear_hung_up,
    as_job_cut,
    as_promotion,
    as_workplace_now,
    graduation_ends_studies,
    undone_ending,
)


def ending_nothing(before: str, said: str) -> list[str]:
    """The valid facts after ``said`` is told with ``before`` stored, asserting that it ended no stored fact."""
    valid, ended = told(before, said, at=SAID_AT)
    assert ended == []
    return valid


@pytest.mark.parametrize(("before", "said"), [
    ("I'm a junior doctor at Leeds General.", "my sister got promoted to head of marketing"),  # someone else's
    ("I play tennis at my local club.", "hung up the washing and went for a walk"),  # no gear of a pastime
    ("I'm doing a part-time MA in history at Birkbeck.", "done with uni for the summer!"),  # a break
    ("I work at the library on campus.", "done with uni for today"),  # no studies stored
    ("I'm a barista at a little cafe in Totnes.", "left the cafe at 6 and went home"),  # a trip out
    ("I'm a nurse at Whittington Hospital.", "I'm at Gatwick now"),  # a place passed through
    ("I'm a nurse at Whittington Hospital.", "I'm at Starbucks now"),  # a café
    ("I work at Google as a designer.", "I'm at the Hilton now"),  # no institution's staff
    ("I'm a nurse at Whittington Hospital.", "I'm at the Royal Free now, visiting my nan"),  # a visit
    ("My mum Eirlys lives in Aberystwyth.", "my friend Eirlys has moved to Cardiff"),  # another Eirlys
    ("I'm an accountant at a logistics firm in Norwich.", "my hours were cut to 30 a week"),  # the job stays
    ("My friend Sam lives in Oslo.", "we said goodbye to Sam at the airport"),  # no pet
    ("My son Arlo is in his final year at Leeds uni.", "my nephew graduated!"),  # someone else
    # a place left daily, a person dropped off, work done for the day (extraction/named_endings.py)
    ("I work in an office in Leeds.", "I left the office at 6 and the trains were a mess"),
    ("I have two kids.", "dropped the kids off at school and went for a run"),
    ("I'm learning Spanish on Duolingo.", "done with work for today"),
    ("I live in a house in Didsbury.", "I left the house at 7"),
])
def test_someone_elses_change_a_break_a_place_passed_through_or_left_for_the_day_ends_no_stored_fact(
        before: str, said: str) -> None:
    valid = ending_nothing(before, said)
    assert len(valid) >= 1


def test_a_workplace_named_alone_without_a_job_stored_is_no_new_job() -> None:
    assert told("I live in Leeds.", "I'm at the Royal Free now", at=SAID_AT) == (["User lives in Leeds."], [])
    assert as_workplace_now("I'm at the Royal Free now", ["User lives in Leeds."]) is None
    assert as_workplace_now("I'm at the Royal Free Hospital now", ["User is a nurse at Whittington Hospital."]) == [
        "I work at the Royal Free Hospital now"]


def test_a_promotion_is_the_users_only_and_a_rank_alone_needs_the_stored_role() -> None:
    assert as_promotion("got bumped up to head chef!!", []) == ["I got promoted to head chef!!"]
    assert as_promotion("she got promoted to manager", []) is None
    assert as_promotion("promoted to senior accountant this week", []) is None  # the rules read it as it is
    assert as_promotion("promoted to senior last month", []) is None
    assert as_promotion("promoted to senior last month, same team", ["User is a junior developer at Monzo."]) == [
        "I got promoted to senior developer last month"]


def test_gear_hung_up_names_the_team_or_the_sport_of_a_stored_pastime() -> None:
    assert as_gear_hung_up("hung up the gloves", ["User is the keeper for Hackney Wick FC."]) == [
        "I quit Hackney Wick FC"]
    assert as_gear_hung_up("hung up my racket", ["User plays tennis on Sundays."]) == ["I quit tennis"]
    assert as_gear_hung_up("hung up my racket", ["User's son plays tennis on Sundays."]) is None
    assert as_gear_hung_up("hung up the gloves", ["User plays tennis on Sundays."]) is None


def test_a_job_cut_is_read_of_the_users_role_or_team_only() -> None:
    assert as_job_cut("the firm got swallowed and my whole team was cut", []) == ["I was laid off"]
    assert as_job_cut("my department was axed in May", []) == ["I was laid off", "in May"]
    assert as_job_cut("my role was made redundant in May", []) is None  # the rules read it already
    assert as_job_cut("my hours were cut", []) is None
    assert as_job_cut("my hair was cut short", []) is None


@pytest.mark.parametrize(("said", "kept"), [
    ("I'll be busy with the new job at Tesco", "User will be busy with the new job at Tesco."),
    ("I go on holiday to Spain every May", "User goes on holiday to Spain every May."),
])
def test_a_plan_or_habit_beside_a_remark_of_how_reachable_the_user_is_is_kept(said: str, kept: str) -> None:
    assert facts_of(said, SAID_AT) == [kept]


def _job_cut(said: str, job: str) -> list[str] | None:
    return as_job_cut(said, [])


def _promotion(said: str, job: str) -> list[str] | None:
    return as_promotion(said, [job])


_ACCOUNTANT = ("I'm an accountant at Deloitte.", "User is an accountant at Deloitte.")
_JUNIOR = ("I'm a junior developer at Monzo.", "User is a junior developer at Monzo.")


@pytest.mark.parametrize(("job", "said", "change"), [
    # an office shut for a day or a team cut from a tournament is no job cut
    pytest.param(_ACCOUNTANT, "my office was closed because of snow", _job_cut, id="an-office-shut-by-snow"),
    pytest.param(_ACCOUNTANT, "my office was closed for the strike today", _job_cut, id="an-office-shut-by-a-strike"),
    pytest.param(_ACCOUNTANT, "my team was cut from the tournament", _job_cut, id="a-team-cut-from-a-tournament"),
    pytest.param(_ACCOUNTANT, "my unit was closed down for the weekend", _job_cut, id="a-unit-shut-for-the-weekend"),
    # moving or stepping up to something that is no role is no promotion
    pytest.param(_JUNIOR, "stepped up to the plate today", _promotion, id="stepped-up-to-the-plate"),
    pytest.param(_JUNIOR, "honestly, just moved up to the third floor", _promotion, id="moved-up-to-a-floor"),
    pytest.param(_JUNIOR, "moved up to senior table at the quiz lol", _promotion, id="moved-up-to-a-quiz-table"),
])
def test_an_office_shut_for_a_day_a_team_cut_from_a_tournament_or_a_step_up_to_no_role_keeps_the_stored_job(
        job: tuple[str, str], said: str, change: Callable[[str, str], list[str] | None]) -> None:
    told_job, stored = job
    valid = ending_nothing(told_job, said)
    assert stored in valid
    assert not any("laid off" in fact or "promoted" in fact for fact in valid)
    assert change(said, stored) is None


def test_a_team_cut_with_when_or_the_employer_after_it_is_still_a_job_lost() -> None:
    assert as_job_cut("my team was cut on Friday", []) == ["I was laid off", "on Friday"]
    assert as_job_cut("my whole team was cut at Spotify", []) == ["I was laid off", "at Spotify"]
    assert as_job_cut("my team was cut in the first round", []) is None


def test_moving_up_to_a_role_or_a_rank_is_still_a_promotion() -> None:
    assert as_promotion("moved up to team lead", []) == ["I got promoted to team lead"]
    assert as_promotion("bumped up to senior", ["User is a junior developer at Monzo."]) == [
        "I got promoted to senior developer"]


@pytest.mark.parametrize(("before", "said"), [
    ("I play football for Hackney Wick FC.", "hung up my boots after the match, they were soaked"),
    ("I'm the keeper for Hackney Wick FC.", "I hung up the gloves to dry"),
    ("I play tennis every week.", "hung up my racket on the wall hook"),
])
def test_gear_hung_up_to_dry_or_on_a_hook_ends_no_pastime(before: str, said: str) -> None:
    valid = ending_nothing(before, said)
    assert before.replace("I'm", "User is").replace("I play", "User plays").rstrip() in valid
    assert as_gear_hung_up(said, [valid[0]]) is None


def test_gear_hung_up_for_good_or_after_years_still_ends_the_pastime() -> None:
    known = ["User plays football for Hackney Wick FC."]
    assert as_gear_hung_up("hung up my boots for good", known) == ["I quit Hackney Wick FC", "for good"]
    assert as_gear_hung_up("hung up my boots after 12 years", known) == ["I quit Hackney Wick FC", "after 12 years"]


@pytest.mark.parametrize(("before", "said"), [
    ("I'm a nurse at Whittington Hospital.", "I'm at the Ivy now"),  # a restaurant: no kind of institution
    ("I'm a nurse at Whittington Hospital.", "Mum's poorly, I'm at the Royal Infirmary now"),  # a visit
    ("I'm a teacher at Hollins Academy.", "I'm at the Royal Infirmary now"),  # another kind than the stored job's
])
def test_a_place_of_another_kind_or_after_a_clause_is_no_new_workplace(before: str, said: str) -> None:
    valid = ending_nothing(before, said)
    assert not any(fact.startswith("User works at the") for fact in valid)


@pytest.mark.parametrize("said", [
    "left the cafe (forgot my keys)",  # an aside of the moment, not of the job
    "left the cafe, it was raining",
    "left the cafe because the queue was huge",
])
def test_leaving_the_cafe_one_works_at_for_a_moments_reason_keeps_the_job(said: str) -> None:
    valid = ending_nothing("I'm a barista at a little cafe in Totnes.", said)
    assert valid == ["User is a barista at a little cafe in Totnes."]


def test_leaving_the_cafe_for_a_reason_of_the_job_still_ends_it() -> None:
    valid, ended = told("I'm a barista at a little cafe in Totnes.", "left the cafe because the pay was awful", at=SAID_AT)
    assert ended == ["User is a barista at a little cafe in Totnes."]


def test_coming_back_to_a_place_after_quitting_does_not_take_the_quitting_back() -> None:
    valid, ended = told("I'm a nurse at the Royal Free.", "I quit my job at the Royal Free and came back to Cork",
                        at=SAID_AT)
    assert ended == ["User is a nurse at the Royal Free."]
    assert not undone_ending("User quit their job at the Royal Free and came back to Cork.")
    assert undone_ending("User left the choir but went back a week later.")
    assert undone_ending("User left the gym and went back to it.")


def test_graduating_from_nursery_or_lessons_does_not_end_university_studies() -> None:
    before = "My daughter Imogen is in her final year at Exeter uni."
    valid = ending_nothing(before, "my daughter Imogen graduated from nursery lol")
    assert "User's daughter Imogen is in her final year at Exeter uni." in valid
    old = "User's daughter Imogen is in her final year at Exeter uni."
    assert not graduation_ends_studies("User's daughter Imogen graduated from swimming lessons.", old)
    assert graduation_ends_studies("User's daughter Imogen graduated from Exeter.", old)
