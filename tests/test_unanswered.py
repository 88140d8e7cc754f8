"""``UnansweredTurns``: each user's turns no model answered, kept bounded for the user's next answered turn
(memori_core.unanswered); the adapters' behaviour is tested with real agents in test_langchain_missed_turns.py."""

from __future__ import annotations

import pytest

from memori_core import RecallEngine
from memori_core.lanes import ERASURES
from memori_core.unanswered import UnansweredTurns


def now(entity: str) -> int:
    """The entity's erase generation now (other tests of the process may have forgotten the same ids)."""
    return ERASURES.generation(entity)


def kept(entries: list) -> list[tuple[str, str]]:
    return [(e.entity_id, e.turn) for e in entries]


def test_a_users_turns_are_taken_oldest_first_once_and_only_by_that_user() -> None:
    turns: UnansweredTurns[str, str] = UnansweredTurns(per_entity=3)
    for entity, key in (("ana", "a1"), ("bob", "b1"), ("ana", "a2")):
        assert turns.keep(entity, key, f"turn {key}", now(entity)) == []
    assert kept(turns.take("ana")) == [("ana", "turn a1"), ("ana", "turn a2")]
    assert turns.take("ana") == []  # once
    assert kept(turns.take("bob")) == [("bob", "turn b1")] and len(turns) == 0


def test_beyond_per_entity_a_users_oldest_turn_is_returned_as_dropped_and_others_are_kept() -> None:
    turns: UnansweredTurns[str, str] = UnansweredTurns(per_entity=2)
    turns.keep("bob", "b1", "b1", now("bob"))
    turns.keep("ana", "a1", "a1", now("ana"))
    turns.keep("ana", "a2", "a2", now("ana"))
    assert kept(turns.keep("ana", "a3", "a3", now("ana"))) == [("ana", "a1")]
    assert kept(turns.take("ana")) == [("ana", "a2"), ("ana", "a3")]
    assert kept(turns.take("bob")) == [("bob", "b1")]


def test_beyond_most_the_oldest_turn_of_any_user_is_returned_as_dropped() -> None:
    turns: UnansweredTurns[str, str] = UnansweredTurns(per_entity=3, most=2)
    turns.keep("ana", "a1", "a1", now("ana"))
    turns.keep("bob", "b1", "b1", now("bob"))
    assert kept(turns.keep("cy", "c1", "c1", now("cy"))) == [("ana", "a1")]
    assert turns.take("ana") == [] and len(turns) == 2


def test_keeping_a_kept_turn_again_renews_it_keeps_when_it_began_and_drops_nothing() -> None:
    turns: UnansweredTurns[str, str] = UnansweredTurns(per_entity=2)
    turns.keep("ana", "a1", "first try", now("ana"))
    turns.keep("ana", "a2", "a2", now("ana"))
    assert turns.keep("ana", "a1", "retried", now("ana")) == []  # a retried call of the same turn
    assert kept(turns.keep("ana", "a3", "a3", now("ana"))) == [("ana", "a2")]  # a1 was renewed: a2 is the oldest
    assert kept(turns.take("ana")) == [("ana", "first try"), ("ana", "a3")]


def test_a_discarded_turn_is_not_taken() -> None:
    turns: UnansweredTurns[str, str] = UnansweredTurns()
    turns.keep("ana", "a1", "a1", now("ana"))
    turns.keep("ana", "a2", "a2", now("ana"))
    turns.discard("ana", "a1")
    turns.discard("ana", "never kept")
    assert kept(turns.take("ana")) == [("ana", "a2")]


def test_turns_of_a_user_forgotten_since_they_began_are_neither_taken_nor_returned_as_dropped(
        engine: RecallEngine) -> None:
    turns: UnansweredTurns[str, str] = UnansweredTurns(per_entity=1)
    turns.keep("eve", "e1", "e1", now("eve"))
    engine.forget("eve")
    assert turns.keep("eve", "e2", "e2", now("eve")) == []  # e1 forgotten: erased, not dropped
    assert kept(turns.take("eve")) == [("eve", "e2")]
    turns.keep("eve", "e3", "e3", now("eve"))
    engine.forget("eve")
    assert turns.take("eve") == []


@pytest.mark.parametrize(("kwargs", "name"), [({"per_entity": 0}, "per_entity"), ({"most": -1}, "most"),
                                              ({"per_entity": 2.0}, "per_entity"), ({"most": True}, "most")])
def test_bounds_that_are_not_positive_ints_are_refused_naming_them(kwargs: dict, name: str) -> None:
    with pytest.raises(ValueError, match=f"UnansweredTurns: {name} must be an int >= 1"):
        UnansweredTurns(**kwargs)
