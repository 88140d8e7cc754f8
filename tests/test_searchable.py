"""Facts kept out of search (user metadata ``"searchable": False``, what ``MemoriStore.put(..., index=False)``
writes): stored, listed, read by id and exported, never recalled, whatever the query, the gate, ``core`` or a
session neighbour; the flag stays current through every write, a reload, a snapshot and export / import."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from _helpers import CountingStore, HashEmbedder, ungated_engine
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.cache.snapshot_files import snapshot_files_for
from memori_core.facts import SEARCHABLE_KEY, is_searchable

ADDRESS = "User lives at Rua Augusta 12, 3rd floor, Lisbon."
HIDDEN = {SEARCHABLE_KEY: False}


def recalled(engine: RecallEngine, query: str, entity: str = "u", **kw: Any) -> list[str]:
    return [f.id for f in engine.recall(query, entity, 10, **kw)]


def test_a_fact_kept_out_of_search_is_never_recalled_yet_stored_listed_and_read() -> None:
    engine = ungated_engine()  # no gate: everything else the entity holds is recalled
    engine.add("u", ["User likes green tea."], ids=["tea"])
    engine.add("u", [ADDRESS], ids=["address"], metadata=HIDDEN, core=True)  # core does not bring it back
    for query in (ADDRESS, "Where does the user live? Rua Augusta Lisbon", "tea"):
        assert recalled(engine, query) == ["tea"]
        assert "address" not in [c.id for c in engine.explain(query, "u", 10).candidates]
        assert [f.id for f in engine.nearest(query, "u", 10)] == ["tea"]  # capture never replaces it either
    assert recalled(engine, ADDRESS, where={"core": True}) == []
    assert recalled(engine, ADDRESS, as_of="2999-01-01T00:00:00Z") == ["tea"]  # a time travel does not either
    assert sorted(f.id for f in engine.list("u")) == ["address", "tea"] and engine.count("u") == 2
    assert engine.get("u", "address")[0].metadata == {SEARCHABLE_KEY: False, "core": True}
    assert [f.id for f in engine.list("u", where=HIDDEN)] == ["address"]


def test_only_one_fact_left_that_is_kept_out_of_search_recalls_nothing_and_explain_says_why() -> None:
    engine = ungated_engine()
    engine.add("u", [ADDRESS], metadata=HIDDEN)
    assert engine.recall(ADDRESS, "u") == []
    assert "kept out of search" in engine.explain(ADDRESS, "u").note


def test_a_session_neighbour_kept_out_of_search_neither_joins_the_pool_nor_lends_relevance() -> None:
    engine = ungated_engine(neighbour_weight=0.5)
    engine.add("u", ["User booked a flight to Kyoto.", "Passport number X1234567.", "User likes sushi."],
               ids=["flight", "passport", "sushi"], session_id="s1",
               metadata=[{}, HIDDEN, {}])
    ids = [c.id for c in engine.explain("Kyoto flight", "u", 10).candidates]
    assert "passport" not in ids and "flight" in ids


@pytest.mark.parametrize("value", [0, None, "no", "false", [False]])
def test_only_the_value_false_keeps_a_fact_out_of_search(value: Any) -> None:
    engine = ungated_engine()
    engine.add("u", [ADDRESS], ids=["address"], metadata={SEARCHABLE_KEY: value})
    assert recalled(engine, ADDRESS) == ["address"]
    assert is_searchable({SEARCHABLE_KEY: value}) and not is_searchable(HIDDEN)


def test_every_write_keeps_the_flag_current_in_the_warm_cache_as_a_reload_reads_it() -> None:
    store = ChromaStore.in_memory()
    engine = ungated_engine(store=store)
    [tea] = engine.add("u", ["User likes green tea."])  # a derived id: adding the text again is a sighting
    engine.add("u", [ADDRESS], ids=["address"])
    steps = [
        (lambda: None, ["address", tea]),
        (lambda: engine.update("u", "address", metadata=HIDDEN), [tea]),  # in place (no new row)
        (lambda: engine.update("u", "address", text=ADDRESS.replace("12", "14")), [tea]),  # a new text keeps it
        (lambda: engine.update("u", "address", metadata={}), ["address", tea]),
        (lambda: engine.add("u", [ADDRESS], ids=["address"], metadata=HIDDEN), [tea]),  # an upsert by id
        (lambda: engine.update("u", tea, metadata=HIDDEN), []),
        (lambda: engine.add("u", ["User likes green tea."]), []),  # a sighting keeps the metadata
        (lambda: engine.delete("u", [tea]), []),
        (lambda: engine.add("u", ["User likes oolong."], ids=["oolong"]), ["oolong"]),
    ]
    for i, (write, want) in enumerate(steps):
        write()
        assert sorted(recalled(engine, "User likes green tea Rua Augusta oolong")) == want, i
        fresh = ungated_engine(store=store)  # a new process's copy, loaded from the store
        assert sorted(recalled(fresh, "User likes green tea Rua Augusta oolong")) == want, i


def test_export_and_import_carry_the_flag() -> None:
    engine = ungated_engine()
    engine.add("u", ["User likes green tea.", ADDRESS], ids=["tea", "address"], metadata=[{}, HIDDEN])
    records = engine.export("u", include_vectors=True)
    assert [r["metadata"] for r in records] == [{}, HIDDEN]
    engine.import_("v", records)
    assert recalled(engine, ADDRESS, "v") == ["tea"]
    assert sorted(f.id for f in engine.list("v")) == ["address", "tea"]


def test_a_snapshot_carries_the_flag(tmp_path: Path) -> None:
    store = CountingStore(path=tmp_path / "db")
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
    engine.add("u", ["User likes green tea.", ADDRESS], ids=["tea", "address"], metadata=[{}, HIDDEN])
    assert recalled(engine, ADDRESS) == ["tea"]  # loads u's copy, whose snapshot is then written
    snapshot_files_for(store).flush()  # type: ignore[union-attr]
    store.close()
    store = CountingStore(path=tmp_path / "db")
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
    assert recalled(engine, ADDRESS) == ["tea"]
    assert store.loads == 0 and snapshot_files_for(store).loaded == 1  # type: ignore[union-attr]
    assert sorted(f.id for f in engine.list("u")) == ["address", "tea"]
    store.close()
