"""A superseded fact said again (a model's ``remember`` of its text, capture, ``engine.add``) gets its id back and is
valid again; its history must then read as after ``engine.restore``: the earlier period superseded by the fact that
ended it (not by itself), the valid row superseded by nothing, the fact that ended it naming the kept period, and
export / import carrying all of it (j26's finding 7). Real Chroma; the LangChain tools over it."""

from __future__ import annotations

from typing import Any

from _helpers import ungated_engine
from memori_core import ChromaStore, RecallEngine
from memori_langchain import memory_tools

LISBON, PORTO = "User lives in Lisbon.", "User lives in Porto."


def _links(engine: RecallEngine, entity: str, fid: str) -> list[tuple[str, bool, str | None, tuple[str, ...]]]:
    """A fact's history as texts: each version's text, whether it is valid, the text of the fact that superseded
    it, and the texts of the facts it supersedes (ids differ between a revival and a restore; texts do not)."""
    history = engine.history(entity, fid)
    text_of = {f.id: f.content for f in engine.list(entity, include_invalid=True)}
    return [(h.content, h.valid_to is None, text_of.get(h.superseded_by or "", h.superseded_by),
             tuple(text_of.get(i, i) for i in h.supersedes)) for h in history]


def _remember_lisbon_porto_lisbon(engine: RecallEngine, entity: str = "dana") -> dict[str, Any]:
    tools = {t.name: t for t in memory_tools(engine, entity_id=entity)}
    for city in (LISBON, PORTO, LISBON):
        tools["remember"].invoke({"text": city})
    return {f.content: f for f in engine.list(entity, include_invalid=True) if "@" not in f.id}


def test_a_fact_remember_brings_back_keeps_its_earlier_period_superseded_by_the_fact_that_ended_it() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())
    facts = _remember_lisbon_porto_lisbon(engine)
    lisbon, porto = facts[LISBON], facts[PORTO]
    history = engine.history("dana", lisbon.id)
    assert [(h.id, h.content) for h in history] == [
        (f"{lisbon.id}@v1", LISBON), (porto.id, PORTO), (lisbon.id, LISBON)]
    assert history[0].superseded_by == porto.id  # Porto ended that period, not Lisbon itself
    assert (history[-1].valid_to, history[-1].superseded_by) == (None, None)
    assert history[1].supersedes == (f"{lisbon.id}@v1",) and history[1].superseded_by == lisbon.id
    assert engine.get("dana", [porto.id])[0].supersedes == (f"{lisbon.id}@v1",)


def test_a_fact_said_again_leaves_the_links_a_restore_of_it_leaves() -> None:
    said = ungated_engine()
    [lisbon] = said.add("u", LISBON)
    [porto] = said.add("u", PORTO, supersedes=[lisbon])
    said.add("u", LISBON, supersedes=[porto])
    restored = ungated_engine()
    [lisbon2] = restored.add("u", LISBON)
    [porto2] = restored.add("u", PORTO, supersedes=[lisbon2])
    restored.restore("u", lisbon2)
    restored.add("u", LISBON, supersedes=[porto2])  # said after the restore: only a sighting, and Porto ends
    assert _links(said, "u", lisbon) == _links(restored, "u", lisbon2) == [
        (LISBON, False, PORTO, ()), (PORTO, False, LISBON, (LISBON,)), (LISBON, True, None, (PORTO,))]


def test_export_and_import_carry_the_history_of_a_fact_said_again() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())
    facts = _remember_lisbon_porto_lisbon(engine)
    records = engine.export("dana", include_vectors=True)
    other = RecallEngine(store=ChromaStore.in_memory())
    other.import_("dana", records)
    assert other.export("dana", include_vectors=True) == records
    lisbon, porto = facts[LISBON], facts[PORTO]
    assert [(h.id, h.superseded_by) for h in other.history("dana", lisbon.id)] == [
        (f"{lisbon.id}@v1", porto.id), (porto.id, lisbon.id), (lisbon.id, None)]
    assert [f.content for f in other.list("dana")] == [LISBON]
