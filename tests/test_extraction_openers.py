"""What comes before the user as the subject of a statement: when in their life it held ("As a kid", "Growing up",
"In high school") is said after the statement ("User lived in Rome as a kid."), never in front of "User"; a
discourse marker tying it to what was said before ("As a result,", "Consequently") is cut. A time ("Last month I
moved to Paris.") keeps its place, written out from the day said. Through the shipped rules, and real capture into an embedded Chroma store.

Rows of one message -> the facts kept of it are in the case book tests/cases/extraction_openers.toml, run by
test_capture_cases.py."""

from __future__ import annotations

from functools import partial
import pytest

from _capture import SAID_AT, facts_of, texts_after
from memori_core import RecallEngine


_facts = partial(facts_of, at=SAID_AT)  # what the rules keep of one user message said at SAID_AT


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
