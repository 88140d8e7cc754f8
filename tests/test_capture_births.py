"""A birth told of someone the stored facts say is expecting ("Claire's baby arrived early, a little girl called
Rosie!") is their news and ends their pregnancy (:mod:`memori_core.extraction.births`). Rows of messages -> the
facts valid and ended afterwards are in the case book tests/cases/births.toml, run by tests/test_capture_cases.py;
here, the two rules read alone."""

from __future__ import annotations

import pytest

from memori_core.extraction.births import birth_of_someone_named, ends_pregnancy

EXPECTING = "User's daughter Claire is expecting her second baby in February."


@pytest.mark.parametrize(("said", "read"), [
    ("Claire's baby arrived early, a little girl called Rosie!", "My daughter Claire had her baby, a little girl called Rosie"),
    ("Claire has had the baby.", "My daughter Claire had her baby"),
    ("Oh! Claire gave birth last night.", "My daughter Claire had her baby"),
])
def test_a_birth_told_by_name_of_someone_stored_as_expecting_is_read_as_the_users_news(said: str, read: str) -> None:
    assert birth_of_someone_named(said, [EXPECTING]) == read


@pytest.mark.parametrize("said", [
    "Sam's baby arrived!",  # no one of that name is stored as expecting
    "Claire had a lovely holiday.",
    "Claire's baby is teething.",
    "Claire had her hair cut.",
])
def test_other_news_of_someone_or_a_birth_of_someone_not_expecting_is_not_read_as_a_birth(said: str) -> None:
    assert birth_of_someone_named(said, [EXPECTING]) is None


def test_a_birth_ends_only_the_pregnancy_of_the_same_one() -> None:
    assert ends_pregnancy("User's daughter Claire had her baby.", EXPECTING)
    assert not ends_pregnancy("User's sister Ana had her baby.", EXPECTING)
    assert not ends_pregnancy("User's daughter Claire is a nurse.", EXPECTING)
