"""Round 17 of the capture rules, from the misses of dev6 (the blind heldout4, read once promoted): general patterns
of how people type, each with phrasings that must be read and phrasings that must not. Through the shipped rules
(``RuleBasedFactExtractor``), and real capture into an embedded Chroma store where a stored fact must end.

Rows of one message -> the facts kept of it are in the case book tests/cases/round17.toml, run by
test_capture_cases.py."""

from __future__ import annotations

from functools import partial

import pytest

from _capture import SAID_AT, facts_of, texts_after
from memori_core import RecallEngine

_facts = partial(facts_of, at=SAID_AT)  # what the rules keep of one user message said at SAID_AT


# -- a news lead-in typed without its punctuation; a vague tail after the fact --------------------------------------


def test_a_listed_like_before_a_noun_is_still_a_verb_of_the_user() -> None:
    assert _facts("I'm Tom, 34, like dogs") == ["User's name is Tom.", "User is 34.", "User likes dogs."]


# -- a correction followed by a remark; "we split" ------------------------------------------------------------------


@pytest.mark.parametrize("said", [
    "it's Bristol not Bath, office is right by the station.",
    "wait no sorry it's Bristol not Bath lol, office is right by temple meads",
    "Bristol not Bath, the commute is easier",
])
def test_a_correction_followed_by_a_remark_after_a_comma_corrects_the_stored_fact(engine: RecallEngine, said: str) -> None:
    assert texts_after(engine, "I just started at an architecture firm in Bath.", said, at=SAID_AT) == [
        "User works at an architecture firm in Bristol."]


@pytest.mark.parametrize("said", [
    "I like Bristol, not Bath, we visit often",  # what the user likes, no correction of a stored fact
    "the office is in Bath, not far from the station, parking is awful",  # "not far": no wrong words
    "Bath not Bristol, office is right by the station",  # what it names as wrong is not what is stored
])
def test_a_not_before_a_remark_that_corrects_no_stored_fact_keeps_it(engine: RecallEngine, said: str) -> None:
    assert "User works at an architecture firm in Bath." in texts_after(
        engine, "I work at an architecture firm in Bath.", said, at=SAID_AT)


@pytest.mark.parametrize(("partner", "said"), [
    ("I'm dating Leo.", "we split last week"),
    ("I'm dating Leo.", "we split."),
    ("My boyfriend is Leo.", "we've split for good"),
    ("I'm dating Leo.", "Leo and I split last month"),
])
def test_we_split_ends_the_relationship(engine: RecallEngine, partner: str, said: str) -> None:
    facts = texts_after(engine, partner, said, at=SAID_AT)
    assert not any("dating" in f or "boyfriend" in f for f in facts)
    assert any("split up" in f for f in facts)


@pytest.mark.parametrize("said", [
    "we split the bill at dinner",
    "we split it three ways",
    "we split into two teams at the quiz",
    "they split last week",  # someone else's couple
])
def test_split_with_an_object_or_of_others_ends_no_relationship(engine: RecallEngine, said: str) -> None:
    assert "User is dating Leo." in texts_after(engine, "I'm dating Leo.", said, at=SAID_AT)


# -- a role begun "as of today"; "long story" as a lead-in -----------------------------------------------------------


def test_a_role_begun_today_ends_the_role_before_it(engine: RecallEngine) -> None:
    facts = texts_after(engine, "I'm a nursing student on placement.", "officially a registered nurse as of this morning!",
                        at=SAID_AT)
    assert "User is a registered nurse." in facts


def test_a_long_story_as_the_statement_itself_gives_no_fact() -> None:
    assert _facts("it's a long story") == [] and _facts("long story") == []


# -- "no more X" ends the stored habit that names X; "I keep doing X" is a remark on the moment ---------------------


@pytest.mark.parametrize(("habit", "said", "now"), [
    ("i wear glasses, like -6 in both eyes", "had laser eye surgery a month ago and no more glasses!!!",
     "User stopped wearing glasses."),
    ("I drink coffee every morning.", "no more coffee for me", "User stopped drinking coffee."),
    ("I wear glasses, can't see a thing without them", "no more glasses!", "User stopped wearing glasses."),
    ("I smoke cigars at weekends.", "no more cigars now", "User stopped smoking cigars."),
    ("I use an inhaler for my asthma.", "new meds and no more inhaler!", "User stopped using inhaler."),
])
def test_no_more_a_thing_ends_the_stored_habit_that_names_it(engine: RecallEngine, habit: str, said: str,
                                                           now: str) -> None:
    facts = texts_after(engine, habit, said, at=SAID_AT)
    assert now in facts and habit.rstrip(".") not in " ".join(facts)


@pytest.mark.parametrize(("habit", "said"), [
    ("I drink coffee every morning.", "no more excuses, I'm going to the gym"),  # names nothing stored
    ("I drink coffee every morning.", "no more than two coffees a day though"),  # a limit, not an end
    ("My sister wears glasses.", "no more glasses!"),  # the stored habit is someone else's
    ("I drink coffee every morning.", "no more tea for me"),  # another thing
    ("I don't drink coffee.", "no more coffee for me"),  # a habit not held
])
def test_no_more_what_no_stored_habit_of_the_users_names_ends_nothing(engine: RecallEngine, habit: str,
                                                                     said: str) -> None:
    stored = texts_after(engine, habit)
    assert set(stored) <= set(texts_after(engine, said, at=SAID_AT))


# -- "Name here, 19, ..."; "I've been in Cork ten years"; "working at X now, and happier"; "guess who ..." ----------


@pytest.mark.parametrize("said", [
    "Ren here, thanks for the help",  # no age: no list of who the user is
    "hi, Paris, 19 days left",
])
def test_a_name_here_without_an_age_is_no_listed_introduction(said: str) -> None:
    assert not any(f.startswith("User's name is") for f in _facts(said))


def test_years_in_a_named_place_end_with_a_move(engine: RecallEngine) -> None:
    facts = texts_after(engine, "I've been in Cork about ten years now", "I moved to Limerick last week", at=SAID_AT)
    assert facts == ["User lives in Limerick."]


@pytest.mark.parametrize("said", [
    "I've been in Rome for a week",  # a stay
    "I've been in hospital for two weeks",  # no named place
    "I've been in Paris a few months",  # too short to say
    "my sister has been in Cork for ten years",
])
def test_a_stay_or_someone_elses_years_are_not_where_the_user_has_lived(said: str) -> None:
    assert not any(f.startswith("User has lived in") for f in _facts(said))


@pytest.mark.parametrize("said", [
    "working from home now and my boss said no",  # a statement of its own after "and", not a remark to cut
    "working from home now, my wife isn't happy",
])
def test_a_statement_after_what_the_user_does_now_is_not_cut_as_a_remark(said: str) -> None:
    assert "User is working from home." not in _facts(said)
