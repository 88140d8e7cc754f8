"""When a state of the user's ends, the facts that hung on it end with it (tester j2, finding 13), through
capture_facts into a real embedded Chroma store: the blood sugar checks of a gestational diabetes that is gone, the
guitar begun and the guitar gear bought once guitar is given up; never a taste, someone else's fact, another thing,
or a fact told in the same message about something else."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import partial

import pytest

from _capture import ended_texts, texts_after
from _helpers import ungated_engine

SAID = datetime(2026, 5, 20, 9, 0, tzinfo=timezone.utc)


_said = partial(texts_after, at=SAID)  # each turn said at SAID


# Facts that hang on nothing that ends below, or on someone else: each must stay valid.
UNRELATED = (
    "I live in Toronto.",
    "My brother plays guitar.",  # someone else's
    "I like listening to guitar music.",  # a taste
    "I play the piano.",  # another instrument
    "My mum has diabetes too.",  # someone else's condition
    "I have to walk the dog twice a day.",  # a duty of something else
    "I'm allergic to penicillin.",
)


@pytest.mark.parametrize(
    "ending",
    ["I gave up on guitar, no time", "I quit guitar", "I stopped playing guitar lol", "i've given up guitar"],
)
def test_giving_up_guitar_ends_what_was_begun_and_bought_for_it(ending: str) -> None:
    engine = ungated_engine()
    _said(engine, *UNRELATED, "I bought a Yamaha acoustic and started learning guitar",
          "I practice guitar 30 min every night now", "I bought a Fender amp")
    valid = _said(engine, ending)
    assert ended_texts(engine) == ["User bought a Fender amp.", "User bought a Yamaha acoustic.",
                              "User practices guitar 30 min every night.", "User started learning guitar."]
    assert len(valid) == len(UNRELATED) + 1  # the unrelated facts and the ending itself


def test_a_gone_condition_ends_the_care_that_hung_on_it() -> None:
    engine = ungated_engine()
    _said(engine, *UNRELATED, "doctor says I have gestational diabetes now", "I have to check my blood sugar 4 times a day")
    _said(engine, "doctor says the gestational diabetes is gone")
    assert ended_texts(engine) == [
        "User has gestational diabetes.", "User has to check their blood sugar 4 times a day."]
    assert "User's mum has diabetes." in _said(engine)


@pytest.mark.parametrize(
    ("before", "ending", "hung"),
    [
        ("I have asthma.", "my asthma has cleared up", "I use an inhaler every morning."),
        ("I run every morning.", "I stopped running", "I bought new running shoes."),
    ],
)
def test_what_hangs_on_a_condition_or_a_sport_ends_with_it(before: str, ending: str, hung: str) -> None:
    engine = ungated_engine()
    _said(engine, "I live in Toronto.", before, hung, ending)
    assert len(ended_texts(engine)) == 2 and "User lives in Toronto." in _said(engine)


def test_a_thing_said_with_the_start_of_the_state_is_not_ended_unless_it_hangs_on_it() -> None:
    engine = ungated_engine()
    _said(engine, "I bought a new bike and started learning guitar", "I gave up on guitar")
    assert ended_texts(engine) == ["User started learning guitar."]  # the bike was told with it, of nothing of guitar's


def test_without_a_stored_state_only_what_names_it_ends_and_only_with_a_real_ending() -> None:
    engine = ungated_engine()
    _said(engine, "I started learning guitar", "I bought a Fender amp", "I don't play guitar anymore")
    assert ended_texts(engine) == ["User started learning guitar."]  # the amp needs the state stored to be read as its
    engine = ungated_engine()
    _said(engine, "I have to work late on Fridays.", "I don't work on Fridays")  # a denial of a part, no ending
    assert ended_texts(engine) == []


def test_someone_elses_ending_leaves_the_users() -> None:
    engine = ungated_engine()
    _said(engine, "I started learning guitar", "My brother gave up on guitar")
    assert ended_texts(engine) == []
