"""On a shared store, an add that supersedes a fact another writer already superseded (the other process's add
landed first) leaves one valid successor: the newer add's, the other kept as its history; on a store only this
process writes, such a supersede is ignored as documented (its statement lock serialises the writers)."""

from __future__ import annotations

from typing import Any

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.engine import derived_fact_id

OSLO, ROME, PARIS = "User lives in Oslo.", "User lives in Rome.", "User lives in Paris."


def _engines(embedder: Any, shared: bool) -> tuple[RecallEngine, RecallEngine]:
    store = ChromaStore.in_memory()
    store.shared = shared  # as a server's store, which other processes write to
    return (RecallEngine(store=store, embedder=embedder, config=RecallConfig(gate="off")),
            RecallEngine(store=store, embedder=embedder, config=RecallConfig(gate="off")))


def _homes(engine: RecallEngine) -> list[str]:
    return sorted(f.content for f in engine.list("u"))


def test_a_supersede_that_finds_its_fact_superseded_already_leaves_the_newer_successor_valid(hash_embedder) -> None:
    a, b = _engines(hash_embedder, shared=True)
    oslo = derived_fact_id(OSLO)
    a.add("u", OSLO)
    b.add("u", PARIS, supersedes=[oslo])  # the other writer's add landed first
    a.add("u", ROME, supersedes=[oslo])
    assert _homes(a) == _homes(b) == [ROME]
    paris = b.get("u", [derived_fact_id(PARIS)])[0]
    assert paris.superseded_by == derived_fact_id(ROME) and paris.valid_to is not None
    assert [f.content for f in a.history("u", oslo)] == [OSLO, PARIS, ROME]
    assert set(a.get("u", [derived_fact_id(ROME)])[0].supersedes) == {oslo, paris.id}


def test_one_add_of_two_facts_superseding_one_fact_keeps_both(hash_embedder) -> None:
    a, _ = _engines(hash_embedder, shared=True)
    a.add("u", OSLO)
    a.add("u", [ROME, "User lives near the Colosseum."], supersedes=[derived_fact_id(OSLO)])
    assert _homes(a) == sorted([ROME, "User lives near the Colosseum."])


def test_on_a_store_only_this_process_writes_a_supersede_of_an_ended_fact_is_ignored(hash_embedder) -> None:
    a, b = _engines(hash_embedder, shared=False)
    oslo = derived_fact_id(OSLO)
    a.add("u", OSLO)
    b.add("u", PARIS, supersedes=[oslo])
    a.add("u", ROME, supersedes=[oslo])
    assert _homes(a) == sorted([PARIS, ROME])


def test_of_two_supersedes_dated_alike_the_first_written_stays_and_the_ended_fact_points_to_it(hash_embedder) -> None:
    a, b = _engines(hash_embedder, shared=True)
    oslo = derived_fact_id(OSLO)
    a.add("u", OSLO, created_at="2026-01-01T09:00:00+00:00")
    said = "2026-03-01T10:00:00+00:00"  # one turn's time: both writers date their facts by it
    b.add("u", PARIS, supersedes=[oslo], created_at=said)
    a.add("u", ROME, supersedes=[oslo], created_at=said)  # looks after both landed: its own fact is the later
    assert _homes(a) == _homes(b) == [PARIS]
    rome = a.get("u", [derived_fact_id(ROME)])[0]
    assert rome.superseded_by == derived_fact_id(PARIS) and rome.valid_to is not None
    assert a.get("u", [oslo])[0].superseded_by == derived_fact_id(PARIS)


def test_a_later_dated_supersede_written_second_ends_the_first_and_the_ended_fact_points_to_it(hash_embedder) -> None:
    a, b = _engines(hash_embedder, shared=True)
    oslo = derived_fact_id(OSLO)
    a.add("u", OSLO, created_at="2026-01-01T09:00:00+00:00")
    b.add("u", PARIS, supersedes=[oslo], created_at="2026-03-01T10:00:00+00:00")
    a.add("u", ROME, supersedes=[oslo], created_at="2026-03-01T10:05:00+00:00")
    assert _homes(b) == [ROME]
    assert a.get("u", [oslo])[0].superseded_by == derived_fact_id(ROME)
