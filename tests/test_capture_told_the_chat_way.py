"""Facts told the chat way (issue 21, caprec5): introductions ("it's Dev, 19", "Thabo here - ..."), labelled bios,
what someone asked about loves, household plans passed on, changes listed after the month they began. The rows that fail on main are in
``tests/cases/told_the_chat_way.toml``; here, what the new rules must leave as it was (passing on main too), and
the new modules' functions."""

from __future__ import annotations

import pytest

from _capture import SAID_AT, facts_of
from memori_core.extraction.asked_about import as_asked_about
from memori_core.extraction.bio_items import bio_statement
from memori_core.extraction.passed_on import as_passed_on
from memori_core.extraction.self_introduced import as_self_introduced
from memori_core.extraction.since_lists import as_since_list


@pytest.mark.parametrize("said", [
    "it's Monday, 9 o'clock. nurse in Leeds",  # a day, no name: the role after it is no one's
    "It's Paris, 2019 all over again",
    "it's raining here, any indoor ideas?",
    "ICU nurse, nights mostly.",  # a role alone, with no name before it
    "Bergen, two days, rain",  # a place in a list with no label of the user's
])
def test_a_day_a_place_or_a_role_alone_is_no_introduction(said: str) -> None:
    assert facts_of(said, at=SAID_AT) == []


def test_a_nationality_or_a_faith_in_a_labelled_bio_is_no_home() -> None:
    assert facts_of("about me: 29, British, Catholic, single", at=SAID_AT) == ["User is 29.", "User is single."]


@pytest.mark.parametrize("said", [
    "my wife says I work too much",  # her view of the user
    "my wife says we're too old for this",  # a view of the household, no change
    "any gift ideas for my husband and my son? he's into fishing",  # two a "he" may be
    "what should I cook for my sister? he's into pottery",  # no one a "he" may be
])
def test_a_view_passed_on_or_a_pronoun_of_no_one_stores_nothing(said: str) -> None:
    assert facts_of(said, at=SAID_AT) == []


def test_someones_news_of_the_moment_after_a_comma_is_not_what_they_love() -> None:
    assert facts_of("my sister is coming over, she's into yoga", at=SAID_AT) == ["User's sister is coming over."]


def test_a_place_the_user_is_from_and_a_pets_death_stay_as_they_were() -> None:
    assert facts_of("I'm from Leeds", at=SAID_AT) == ["User is from Leeds."]
    assert facts_of("retired civil engineer from Valencia", at=SAID_AT) == [
        "User is a retired civil engineer.", "User is from Valencia."]
    assert facts_of("my dog Rex just died", at=SAID_AT) == ["User's dog Rex recently died."]


def test_a_weeks_news_after_since_a_weekday_stays_as_it_was() -> None:
    assert facts_of("since Monday I've been off sick, watched films, and slept loads", at=SAID_AT) == []


def test_the_modules_functions_read_only_their_shape() -> None:
    assert as_self_introduced(["it's Sam, 31, vet in Hull"]) == ["I'm Sam, 31, vet in Hull"]
    assert as_self_introduced(["it's Tuesday, 10 already"]) == ["it's Tuesday, 10 already"]
    assert as_self_introduced(["Ola here - quick one about taxes"]) == ["My name is Ola.", "quick one about taxes"]
    assert bio_statement("Leeds", first=False, next_item=None) == "I live in Leeds"
    assert bio_statement("Leeds", first=True, next_item="two kids") is None
    assert bio_statement("Danish", first=False, next_item=None) is None
    assert as_passed_on("my mum says we're getting a dog") == ["we're getting a dog"]
    assert as_passed_on("my doctor says we're getting close") is None
    assert as_since_list(["since May I've quit vaping, joined a choir"]) == ["I've quit vaping, joined a choir"]
    assert as_since_list(["since Monday I've quit vaping, joined a choir"]) == ["since Monday I've quit vaping, joined a choir"]
    assert as_asked_about(["gift for my son Ben?", "he's mad about dinosaurs"]) == [
        "gift for my son Ben?", "my son Ben is mad about dinosaurs."]
    assert as_asked_about(["my son Ben is 4", "he's mad about dinosaurs"]) == ["my son Ben is 4", "he's mad about dinosaurs"]


@pytest.mark.parametrize("said", [
    "my boss says we're moving to Teams next month",  # the office's news, not the household's
    "my colleague said we're getting a new printer",
    "my neighbour says we're having a street party in June",
    "my dad says we're moving too fast on this project",  # no place moved to
])
def test_news_from_someone_outside_the_household_or_no_move_is_not_the_users_plan(said: str) -> None:
    assert facts_of(said, at=SAID_AT) == []
    assert as_passed_on(said) is None


def test_a_household_move_or_baby_passed_on_is_still_the_users() -> None:
    assert as_passed_on("my mum says we're moving house") == ["we're moving house"]
    assert as_passed_on("my wife says we're having a baby") == ["we're having a baby"]
    assert as_passed_on("my partner says we're moving!") == ["we're moving!"]


@pytest.mark.parametrize("said", [
    "it's sunny, 25, perfect beach day",  # the weather, in lower case
    "it's freezing, 2, and the boiler's broken",
    "it's Paris, 19, and it's lovely",  # a place and the temperature
    "Oh, it's Sam, 12, who broke the window",  # someone else, told of
    "it's Python here, not Java",  # a language
])
def test_the_weather_a_place_or_someone_else_after_its_is_no_introduction(said: str) -> None:
    assert facts_of(said, at=SAID_AT) == []


def test_a_name_told_with_here_keeps_only_the_name_and_what_follows_a_dash() -> None:
    assert facts_of("it's Jess here, quick question", at=SAID_AT) == ["User's name is Jess."]
    assert as_self_introduced(["it's Jess here - quick question about my CV"]) == [
        "My name is Jess.", "quick question about my CV"]
    assert as_self_introduced(["it's Sam, 31, vet in Hull"]) == ["I'm Sam, 31, vet in Hull"]


def test_a_faith_or_a_family_word_in_a_labelled_bio_is_no_home_and_a_city_of_any_ending_is() -> None:
    # a role typed alone under the label is the user's job (caprec6, bio_items._ROLE_ALONE)
    assert facts_of("About me: 34, Muslim, nurse, two kids", at=SAID_AT) == [
        "User is 34.", "User is a nurse.", "User has two kids."]
    assert facts_of("About me: 40, Dad, Nairobi", at=SAID_AT) == ["User is 40.", "User lives in Nairobi."]
    assert facts_of("About me: 29, nurse, Mumbai", at=SAID_AT) == ["User is 29.", "User is a nurse.", "User lives in Mumbai."]
    assert bio_statement("Munich", first=False, next_item=None) == "I live in Munich"
    assert bio_statement("Tehran", first=False, next_item=None) == "I live in Tehran"
    assert bio_statement("Nurse", first=False, next_item=None) is None


@pytest.mark.parametrize("said", [
    "since January I've read four books, watched every episode of Succession, and been to two gigs",
    "since last year I've visited Rome, Paris, and Berlin",
])
def test_a_tally_since_a_month_is_no_list_of_changes_and_keeps_its_time(said: str) -> None:
    assert as_since_list([said]) == [said]
    assert not any(fact.startswith("User has read four books, watched") or fact == "User has visited Rome, Paris, and Berlin."
                   for fact in facts_of(said, at=SAID_AT))
