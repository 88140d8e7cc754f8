"""Shapes of what was said, read from dev18 (issue 21, capprec6): the rows that change what capture keeps are in
``tests/cases/shapes_of_what_was_said.toml``; here, what must stay as it was, and the modules' own functions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from _capture import SAID_AT, facts_of, told
from memori_core.extraction.colon_leads import cut_colon_lead
from memori_core.extraction.moved_me import as_moved_me
from memori_core.extraction.opener_left import without_opener
from memori_core.extraction.told_as_past import tells_the_past_over


# A lead cut before what follows it: the colon lead of what the user said (before their own statement), the opener of
# a fact (before its subject).
_COLON_LEADS = [
    ("since you're planning the meals: I'm not vegetarian anymore", "I'm not vegetarian anymore"),
    ("quick rundown before you plan anything: we've got twins", "we've got twins"),
    # the lead holds the user's own statement, or no first-person statement follows: left whole
    ("I have two things to say: I'm vegan and I'm 40", "I have two things to say: I'm vegan and I'm 40"),
    ("Diet: vegan, no nuts", "Diet: vegan, no nuts"),
    ("my sister is visiting: I'll be quiet", "my sister is visiting: I'll be quiet"),
]
_OPENERS = [
    ("About that, User was diagnosed coeliac in the spring.", "User was diagnosed coeliac in the spring."),
    ("These days User is on nicotine patches instead.", "User is on nicotine patches instead."),
    ("Confession, User quit the gym in March.", "User quit the gym in March."),  # a discourse label is a lead
    # a clause the statement hangs on is no lead; a fact starting with its subject is left
    ("Since User is fully remote they never leave the flat.", "Since User is fully remote they never leave the flat."),
    ("If User moves, they will sell the car.", "If User moves, they will sell the car."),
    ("User's wife, her rabbit Clover.", "User's wife, her rabbit Clover."),
    # rev39a finding 3: an exception, a time or a frequency before the subject changes what the fact says
    ("Other than their knee, User is healthy.", "Other than their knee, User is healthy."),
    ("Unlike their sister, User is not vegan.", "Unlike their sister, User is not vegan."),
    ("Most weekends, User works at the bar.", "Most weekends, User works at the bar."),
    ("Without meds, User can't sleep.", "Without meds, User can't sleep."),
]


@pytest.mark.parametrize(("cut", "said", "kept"), [(cut_colon_lead, *row) for row in _COLON_LEADS]
                         + [(without_opener, *row) for row in _OPENERS])
def test_a_lead_is_cut_only_before_the_users_own_statement_or_the_facts_subject(
        cut: Callable[[str], str], said: str, kept: str) -> None:
    assert cut(said) == kept


@pytest.mark.parametrize("said", [
    "that was a great film", "that was me who asked about the visa", "that was quick!", "that was the plan",
    # rev39a finding 1: a time alone dates what was said, it does not put it in the past
    "that was two months ago and I'm loving it", "that was back in April. I'm doing 40k a week now",
])
def test_a_that_was_which_puts_nothing_in_the_past_is_not_read_as_over(said: str) -> None:
    assert not tells_the_past_over(said)


def test_what_was_told_before_stays_when_that_was_puts_nothing_in_the_past() -> None:
    valid, ended = told("I'm a lifeguard at the lido in Brockwell.", "that was quick! I teach swimming on Saturdays too",
                        at=SAID_AT)
    assert ended == []
    assert "User is a lifeguard at the lido in Brockwell." in valid


def test_a_name_or_an_age_told_last_is_not_put_in_the_past() -> None:
    valid, ended = told("I'm Priya, 34.", "ha that was me last summer. I teach swimming in Croydon now", at=SAID_AT)
    assert not any("Priya" in t or "34" in t for t in ended)


@pytest.mark.parametrize("said", [
    "they moved me onto the sofa", "my mum put me on the train home", "they switched me to a new laptop",
    "my GP took me off the waiting list and put me on the priority list",
    # rev39a finding 2: a shift of the past, to come, or for a while only is not the shift the user is on now
    "they put me on nights last year", "they've put me on nights from next month",
    "they moved me onto nights for next week only, covering for Sam", "my boss put me on days while Sarah is on leave",
    "they switched me to the late shift, only for tomorrow",
])
def test_a_move_onto_no_shift_or_medicine_or_a_shift_not_held_now_is_no_change(said: str) -> None:
    assert as_moved_me(said) is None


def test_a_shift_the_user_moved_onto_is_said_as_the_users() -> None:
    # the time after the comma says when the move began: the user is on that shift now
    assert as_moved_me("they finally moved me onto days, started last week") == ["I'm on days now"]
    assert as_moved_me("work put me on the early shift") == ["I'm on early shift now"]
    assert facts_of("they moved me onto the sofa") == []


def test_a_reason_before_the_subject_is_content_not_a_lead() -> None:
    assert without_opener("Due to their allergy, User avoids nuts.") == "Due to their allergy, User avoids nuts."
    assert without_opener("Thanks to the new rota, User works four days.") == (
        "Thanks to the new rota, User works four days.")
