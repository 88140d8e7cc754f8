"""Rule-based capture keeps what a person would keep, through capture_facts into a real embedded Chroma store (issue
"memory that stays true"): a diet ended by taking back what it left out, a breakup said with whom, passing
whereabouts, dated and past events, and a denied allergy that was someone else's.

Rows of messages -> the facts valid afterwards, and rows of steps (messages, then the valid, ended and core facts,
expiries and recalls they leave), are in the case book tests/cases/stays_true.toml, run by
test_capture_cases.py."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import partial

import pytest

from _capture import core_texts, texts_after
from _helpers import ungated_engine
from memori_core import RecallEngine

# A Wednesday; the turns are read as said then.
SAID = datetime(2026, 5, 20, 9, 0, tzinfo=timezone.utc)


_said = partial(texts_after, at=SAID)  # each turn said at SAID


# -- 1. a diet ended by taking back what it left out -------------------------------------------------------------


def test_a_diet_ended_by_a_food_is_no_longer_injected_as_core() -> None:
    engine = ungated_engine()
    _said(engine, "I'm vegetarian.")
    assert core_texts(engine) == ["User is vegetarian."]
    _said(engine, "I've started eating chicken again.")
    assert core_texts(engine) == []


def test_a_food_taken_back_ends_the_diet_among_many_stored_facts() -> None:
    # the diet is shown to the rules as the turn's slot, not only when it ranks among the nearest facts
    engine = ungated_engine()
    valid = _said(engine, "I'm on keto.", "I live in Lisbon.", "I work at Google as a designer.",
                  "I have a cat named Mochi.", "I play tennis on Sundays.", "I drink coffee every morning.",
                  "My sister lives in Paris.", "I drive a Golf.", "I'm learning Spanish.", "I'm back on carbs.")
    assert "User is on keto." not in valid and "User is back on carbs." in valid


@pytest.mark.parametrize(
    ("diet", "said"),
    [
        ("I'm vegetarian.", "I eat eggs again."),  # a vegetarian eats eggs
        ("I'm vegetarian.", "I'm back on dairy."),
        ("I'm gluten-free.", "I eat rice again."),
        ("I'm on keto.", "I'm back on track."),  # no food
        ("I'm on keto.", "I'm not back on carbs."),
        ("I'm allergic to eggs.", "I eat eggs again."),  # an allergy is no diet given up
    ],
)
def test_what_a_diet_never_left_out_leaves_the_diet(diet: str, said: str) -> None:
    engine = ungated_engine()
    [fact] = _said(engine, diet)
    assert fact in _said(engine, said)


def test_a_food_taken_back_by_someone_else_leaves_the_users_diet() -> None:
    engine = ungated_engine()
    assert "User is vegetarian." in _said(engine, "I'm vegetarian.", "My sister eats meat again.")


# -- 2. a breakup says with whom ---------------------------------------------------------------------------------


def test_a_breakup_said_later_does_not_make_the_ex_the_partner_a_he_is_read_as() -> None:
    engine = ungated_engine()
    _said(engine, "My boyfriend Tom is a chef.", "We broke up.")
    assert _said(engine, "He's coeliac.") == ["User broke up with Tom."]  # no partner to read "he" as


@pytest.mark.parametrize("said", ["I split my time between Lisbon and Porto.", "We split the bill."])
def test_split_that_is_no_breakup_ends_no_relationship(said: str) -> None:
    engine = ungated_engine()
    assert "User's boyfriend Tom is a chef." in _said(engine, "My boyfriend Tom is a chef.", said)


# -- 4. dated events, and past one-offs --------------------------------------------------------------------------


def _dated(engine: RecallEngine, user: str = "u1") -> list[tuple[str, str | None]]:
    """The user's valid facts and their expiry (ISO, ``None`` for a lasting fact), sorted."""
    return sorted((f.content, f.expires_at) for f in engine.list(user))


def test_a_span_of_days_under_way_is_this_years() -> None:
    engine = ungated_engine()
    _said(engine, "I have my cousin's wedding May 19-21.")  # said on the 20th
    assert _dated(engine) == [("User has their cousin's wedding from Tuesday 2026-05-19 to Thursday 2026-05-21.",
                               "2026-05-22T12:00:00+00:00")]


@pytest.mark.parametrize(
    "said",
    [
        "I had my cousin's wedding May 15-17.",
        "I had my exam on the 14th.",
        "My cousin's wedding was on May 2.",
        "I went to a gig last night.",
        "Last night I went to a gig.",
        "We had a party yesterday.",
        "I watched a movie this morning.",
        "I'm busy this week.",  # a state with nothing it is about
    ],
)
def test_an_event_that_was_over_when_told_is_not_stored(said: str) -> None:
    engine = ungated_engine()
    assert _said(engine, "I live in Lisbon.", said) == ["User lives in Lisbon."]
    assert [f.content for f in engine.list("u1", include_invalid=True)] == ["User lives in Lisbon."]


def test_an_event_told_as_over_on_its_own_day_holds_until_that_day_is_over() -> None:
    engine = ungated_engine()
    _said(engine, "My cousin's wedding was on May 20.")
    assert _dated(engine) == [("User's cousin's wedding was on Wednesday 2026-05-20.", "2026-05-21T12:00:00+00:00")]


# -- a statement told in surprise ---------------------------------------------------------------------------------


@pytest.mark.parametrize("told", ["I'm not lactose intolerant anymore apparently??",
                                  "I'm not lactose intolerant anymore apparently?!"])
def test_a_denial_told_in_surprise_ends_the_core_intolerance(told: str) -> None:
    engine = ungated_engine()
    _said(engine, "I'm lactose intolerant.")
    assert core_texts(engine) == ["User is lactose intolerant."]
    stored = _said(engine, told)
    assert "User is lactose intolerant." not in stored
    assert core_texts(engine) == []


@pytest.mark.parametrize("asked", ["I'm not lactose intolerant anymore?", "Am I still lactose intolerant??"])
def test_a_question_about_a_care_fact_ends_nothing(asked: str) -> None:
    engine = ungated_engine()
    _said(engine, "I'm lactose intolerant.")
    assert _said(engine, asked) == ["User is lactose intolerant."]


@pytest.mark.parametrize("history, change, kept", [
    ("I used to live in Rome.", "I don't live in Lisbon anymore, I moved to Faro.", "User used to live in Rome."),
    ("I used to work as a chef.", "I got a new job at Google.", "User used to work as a chef."),
    ("I grew up in Cork.", "I moved to Dublin last month.", "User grew up in Cork."),
])
def test_a_change_of_a_slot_leaves_what_held_there_once(history: str, change: str, kept: str) -> None:
    # tester j3, finding 4: a move to Faro ended "User used to live in Rome.", which stays true as history
    engine = ungated_engine()
    assert kept in texts_after(engine, history, change)


def test_a_correction_still_ends_what_held_once() -> None:
    engine = ungated_engine()
    after = texts_after(engine, "I used to live in Rome.", "Sorry, I meant I used to live in Naples, not Rome.")
    assert "User used to live in Naples." in after and "User used to live in Rome." not in after


@pytest.mark.parametrize("said, kept", [
    ("I'm going shopping later.", []),  # later today: a passing plan, like "tonight"
    ("We're going out later on!", []),
    ("My mum and I are going shopping later.", []),
    ("I'm moving to Leeds later this year.", ["User is moving to Leeds later this year."]),  # not today
    ("I got married later in life.", ["User got married later in life."]),
])
def test_a_plan_for_later_today_is_a_passing_moment(said: str, kept: list[str]) -> None:
    assert texts_after(ungated_engine(), said) == kept
