"""The ``where=`` filter language (memori_core/filters.py): equality and ``$in`` as before, the comparison
operators LangGraph's stores take (``$eq $ne $gt $gte $lt $lte``), nested fields, and clear errors."""

from __future__ import annotations

from typing import Any

import pytest

from memori_core import ChromaStore, RecallEngine
from memori_core.filters import check_where, matches

ROWS: list[dict[str, Any]] = [
    {"topic": "food", "rating": 5, "when": "2026-03-01", "flag": True, "tags": ["a", "b"], "who": {"name": "ann"}},
    {"topic": "food", "rating": 2.5, "when": "2026-01-15", "flag": False},
    {"topic": "travel", "rating": 4, "when": "2025-12-31", "who": {"name": "bob", "age": 40}},
    {"topic": "work", "rating": "high"},  # a str where the others hold numbers
    {},
]


def hits(where: dict[str, Any]) -> list[int]:
    checked = check_where(where)
    assert checked is not None
    return [i for i, row in enumerate(ROWS) if matches(row, checked)]


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        # what the language did before: equality and $in (a bool never equals a number; None: missing)
        ({"topic": "food"}, [0, 1]),
        ({"topic": {"$in": ["travel", "work"]}}, [2, 3]),
        ({"flag": 1}, []),
        ({"flag": True}, [0]),
        ({"topic": None}, [4]),
        # $eq / $ne on any JSON value; $ne matches a missing key (as LangGraph's InMemoryStore and Mongo do)
        ({"topic": {"$eq": "food"}}, [0, 1]),
        ({"topic": {"$ne": "food"}}, [2, 3, 4]),
        ({"tags": {"$eq": ["a", "b"]}}, [0]),
        ({"tags": {"$ne": ["a", "b"]}}, [1, 2, 3, 4]),
        ({"who": {"$eq": {"name": "ann"}}}, [0]),
        ({"flag": {"$ne": 0}}, [0, 1, 2, 3, 4]),  # False is not the number 0
        # order: numbers with numbers, str with str; another type or a missing key never matches
        ({"rating": {"$gt": 4}}, [0]),
        ({"rating": {"$gte": 4}}, [0, 2]),
        ({"rating": {"$lt": 4}}, [1]),
        ({"rating": {"$lte": 4}}, [1, 2]),
        ({"rating": {"$gte": 2.5, "$lt": 5}}, [1, 2]),
        ({"when": {"$gte": "2026-01-01"}}, [0, 1]),
        ({"rating": {"$gt": "a"}}, [3]),
        # nested fields: the value must be a dict whose fields match
        ({"who": {"name": "bob"}}, [2]),
        ({"who": {"age": {"$gt": 30}}}, [2]),
        ({"who": {"name": {"$ne": "bob"}}}, [0]),
        # several keys are ANDed
        ({"topic": "food", "rating": {"$gt": 3}}, [0]),
    ],
)
def test_each_condition_matches_what_it_says(where: dict[str, Any], expected: list[int]) -> None:
    assert hits(where) == expected


@pytest.mark.parametrize(
    ("where", "error", "message"),
    [
        ({"topic": {"$regex": "f.*"}}, ValueError, "unknown operator '$regex'"),
        ({"topic": {"$exists": True}}, ValueError, "supported: $eq, $ne, $gt, $gte, $lt, $lte, $in"),
        ({"rating": {"$gt": 1, "$lt": "z"}}, TypeError, "both a number and a str"),
        ({"rating": {"$gt": True}}, TypeError, "must be a number or a str"),
        ({"rating": {"$lt": None}}, TypeError, "must be a number or a str"),
        ({"rating": {"$gt": [1]}}, TypeError, "must be a number or a str"),
        ({"rating": {"$gt": float("nan")}}, ValueError, "finite"),
        ({"topic": ["food", "travel"]}, TypeError, "use {'$in': [...]}"),
        ({"topic": {"$in": []}}, ValueError, "non-empty list"),
        ({"topic": {"$in": [["food"]]}}, TypeError, "holds a list"),
        ({"who": {"$eq": "ann", "name": "ann"}}, ValueError, "mixes operators"),
        ({"who": {}}, ValueError, "empty dict"),
        ({"$or": []}, ValueError, "not supported at the top level"),
        ({"": 1}, TypeError, "non-empty str"),
        ({"topic": object()}, TypeError, "must be a str, number"),
        ({"tags": {"$eq": {1: "a"}}}, TypeError, "JSON keys are str"),
    ],
)
def test_a_bad_filter_says_what_is_wrong(where: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        check_where(where)
    assert message in str(info.value)


def test_errors_name_the_argument_they_come_from() -> None:
    with pytest.raises(ValueError, match=r"^filter\['x'\]: unknown operator"):
        check_where({"x": {"$like": "a"}}, "filter")


def test_the_engine_filters_recall_and_list_with_the_operators(hash_embedder: Any) -> None:
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    eng.add("u", ["User rated the sushi bar five stars.", "User rated the ramen shop two stars.",
                  "User rated the taco stand four stars."],
            metadata=[{"stars": 5}, {"stars": 2}, {"stars": 4}])
    eng.add("victim", ["User rated the sushi bar one star."], metadata={"stars": 1})

    def listed(where: dict[str, Any]) -> list[str]:
        return sorted(f.content for f in eng.list("u", where=where))

    assert listed({"stars": {"$gte": 4}}) == ["User rated the sushi bar five stars.",
                                              "User rated the taco stand four stars."]
    assert listed({"stars": {"$lt": 3}}) == ["User rated the ramen shop two stars."]
    assert listed({"stars": {"$ne": 5}}) == ["User rated the ramen shop two stars.",
                                             "User rated the taco stand four stars."]
    recalled = eng.explain("sushi bar stars", "u", where={"stars": {"$lte": 2}})
    assert [c.content for c in recalled.candidates] == ["User rated the ramen shop two stars."]
    # a filter narrows one entity's facts: nothing of another entity, whatever it says
    assert all(f.entity_id == "u" for f in eng.list("u", where={"stars": {"$lt": 100}}))
