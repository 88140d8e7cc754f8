"""What comes before the user as the subject of a statement: when in their life it held ("As a kid", "Growing up",
"In high school") is said after the statement ("User lived in Rome as a kid."), never in front of "User"; a
discourse marker tying it to what was said before ("As a result,", "Consequently") is cut. A time ("Last month I
moved to Paris.") keeps its place, written out from the day said. Through the shipped rules, and real capture into an embedded Chroma store."""

from __future__ import annotations

import pytest

from memori_core import RecallEngine, RuleBasedFactExtractor
from memori_core.extraction import Message
from tests._capture import SAID_AT, texts_after


def _facts(said: str) -> list[str]:
    # Said on a pinned day: a relative time in a lasting fact is written out from it.
    return [f.text for f in RuleBasedFactExtractor().extract([Message("user", said, created_at=SAID_AT)])]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("As a kid I lived in Rome.", "User lived in Rome as a kid."),
        ("As a kid, I lived in Rome.", "User lived in Rome as a kid."),
        ("As a child I was allergic to milk.", "User was allergic to milk as a child."),
        ("Growing up I lived in Spain.", "User lived in Spain growing up."),
        ("Growing up, I had a dog.", "User had a dog growing up."),
        ("Back in college I worked at a bar.", "User worked at a bar back in college."),
        ("In high school I played football.", "User played football in high school."),
        ("In my twenties I lived in Berlin.", "User lived in Berlin in their twenties."),
        ("As a mom of three, I work part-time.", "User works part-time as a mom of three."),
        ("As a kid, I lived in Rome, can you recommend places to visit?", "User lived in Rome as a kid."),
    ],
)
def test_when_in_the_users_life_is_said_after_the_statement(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("As a result, I moved to Berlin.", "User lives in Berlin."),
        ("As a result I moved to Berlin.", "User lives in Berlin."),
        ("Consequently I moved to Berlin.", "User lives in Berlin."),
        ("Because of that, I'm vegan now.", "User is vegan."),
        ("As a matter of fact, I'm vegan.", "User is vegan."),
        ("In the end I moved to Berlin.", "User lives in Berlin."),
    ],
)
def test_a_marker_tying_the_statement_to_what_was_said_before_is_cut(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # a time or a reason keeps its place; a role said with "as a" is what the user is
        ("Last month I moved to Paris.", "In July 2026 User moved to Paris."),  # written out from the day said
        ("Due to my allergy, I avoid nuts.", "Due to their allergy, User avoids nuts."),
        ("When I was young I lived in Spain.", "When User was young they lived in Spain."),
        ("As a vegan, I avoid honey.", "User is a vegan."),
    ],
)
def test_other_openers_are_not_moved(said: str, fact: str) -> None:
    facts = _facts(said)
    assert facts[0] == fact
    assert not any(f.startswith(("As a", "Growing up", "Back in", "In high school")) for f in facts)


def test_a_fact_of_the_users_childhood_is_stored_beside_where_they_live_now(engine: RecallEngine) -> None:
    texts = texts_after(engine, "I live in Leeds.", "As a kid I lived in Rome.")
    assert texts == ["User lived in Rome as a kid.", "User lives in Leeds."]
