"""A move to come told as made ("We're in Whitby now!", "We've finally moved in"), while a stored fact plans the move
there, is where the user lives now: it ends the plan and the old home. Told of a place no stored move names, or of a
stay ("for the weekend"), it changes nothing."""

from __future__ import annotations

import pytest

from _capture import Stored
from memori_core import RuleBasedFactExtractor

PLAN = Stored("plan", "User and Ken are moving to Whitby.")
HOME = Stored("home", "User lives in York.")


def kept(said: str, stored: list[Stored]) -> list[tuple[str, set[str]]]:
    return [(f.text, set(f.supersedes)) for f in RuleBasedFactExtractor().extract([("user", said)], stored)]


@pytest.mark.parametrize("said", [
    "Well, we've done it! We're in Whitby now and the sea view is glorious.",
    "We're finally in Whitby!",
    "I'm living in Whitby now.",
    "we are all settled in Whitby at last",
    "We've finally moved in!",
    "We've settled in now.",
])
def test_a_planned_move_told_as_made_is_the_new_home_and_ends_the_plan_and_the_old_home(said: str) -> None:
    facts = kept(said, [PLAN, HOME])
    assert ("User lives in Whitby.", {"plan", "home"}) in facts
    assert not any("Whitby now" in text or "moved in" in text for text, _ in facts)


@pytest.mark.parametrize("said", [
    "We're in Whitby for the weekend.",  # a stay, not the move
    "We're in Scarborough now.",  # not the place the move was to
    "We were in Whitby last year.",
])
def test_a_stay_or_another_place_ends_no_planned_move(said: str) -> None:
    assert all("plan" not in ends for _, ends in kept(said, [PLAN, HOME]))
    assert all(text != "User lives in Whitby." for text, _ in kept(said, [PLAN, HOME]))


def test_moved_in_with_no_planned_move_or_two_of_them_names_no_place() -> None:
    assert all(text != "User lives in Whitby." for text, _ in kept("We've finally moved in!", [HOME]))
    two = [PLAN, Stored("plan2", "User is moving to Leeds for work in May."), HOME]
    [(text, ends)] = kept("We're in Whitby now!", two)
    assert text == "User lives in Whitby." and {"plan", "home"} <= ends  # (a move made ends any move planned)
    assert all(not text.startswith("User lives in") for text, _ in kept("We've finally moved in!", two))


def test_someone_elses_planned_move_is_no_move_of_the_users() -> None:
    sisters = [Stored("sister", "User's sister is moving to Leeds."), HOME]
    assert all(text != "User lives in Leeds." for text, _ in kept("We're in Leeds now!", sisters))
    assert all(not text.startswith("User lives in") for text, _ in kept("We've finally moved in!", sisters))
