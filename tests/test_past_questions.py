"""Questions about the past (j21 finding 8): "Which hospital did I used to work at?" after a change of job is shown
the superseded fact too, marked past in the block; a normal question after the change still gets only the current
fact; a deleted, forgotten or expired fact never comes back; another user's past never appears. Over a real
embedded Chroma store, through the engine and the adapters (LangChain, LlamaIndex, ``MemoriRecall``). Which
questions ask about the past (``ranking/past.py``) is in the rule book ``tests/rules/past_questions.toml``."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from _helpers import ungated_engine
from memori_core import ChromaStore, MemoriRecall, RecallConfig, RecallEngine, format_context
from memori_core.context import format_fact_line
from memori_core.ranking.past import asks_about_the_past

T0 = datetime(2026, 10, 26, 8, 12, tzinfo=timezone.utc)
MOVED = T0 + timedelta(days=21)
OLD_JOB = "User works as a nurse at St Mary's hospital in Leeds."
NEW_JOB = "User works at Manchester Royal Infirmary."
OLD_HOME = "User lives in Leeds."
NEW_HOME = "User lives in Manchester."
USED_TO = "Which hospital did I used to work at?"


@pytest.fixture
def engine(tmp_path: Path) -> RecallEngine:
    """An engine over a real embedded Chroma folder; every gate off, so what a recall may read is what it returns."""
    e = ungated_engine(store=ChromaStore(tmp_path / "chroma"))
    yield e
    e.close()


def _moved(engine: RecallEngine, entity: str = "maya") -> dict[str, str]:
    """Leeds and St Mary's, then Manchester Royal Infirmary and Manchester three weeks later (superseding them)."""
    job, home, allergy = engine.add(entity, [OLD_JOB, OLD_HOME, "User is allergic to shellfish."], created_at=T0)
    new_job, new_home = engine.add(entity, [NEW_JOB, NEW_HOME], created_at=MOVED, supersedes=[job, home])
    return {"job": job, "home": home, "new_job": new_job, "new_home": new_home, "allergy": allergy}


def _texts(facts) -> list[str]:
    return [f.content for f in facts]


def test_used_to_question_recalls_the_superseded_hospital_marked_past(engine: RecallEngine) -> None:
    ids = _moved(engine)
    facts = engine.recall(USED_TO, "maya")
    assert OLD_JOB in _texts(facts) and NEW_JOB in _texts(facts)
    old = next(f for f in facts if f.id == ids["job"])
    assert old.valid_to is not None and old.valid_to.startswith("2026-11-16")
    assert next(f for f in facts if f.id == ids["new_job"]).valid_to is None
    block = format_context(facts)
    assert "St Mary's hospital in Leeds. Stated at 2026-10-26 08:12 UTC (past: no longer true since 2026-11-16 08:12 UTC)" in block
    assert "- User works at Manchester Royal Infirmary. Stated at 2026-11-16 08:12 UTC\n" in block


def test_where_did_i_live_before_after_a_move_recalls_the_old_city(engine: RecallEngine) -> None:
    _moved(engine)
    for question in ("Where did I live before I moved?", "Where did I live before?"):
        facts = engine.recall(question, "maya")
        assert OLD_HOME in _texts(facts), question
        assert [f.valid_to is not None for f in facts if f.content == OLD_HOME] == [True]


def test_normal_question_after_a_change_gets_only_the_current_fact(engine: RecallEngine) -> None:
    _moved(engine)
    for question in ("Which hospital do I work at?", "Where do I live?", "I'm used to the cold, what should I wear?"):
        facts = engine.recall(question, "maya")
        assert OLD_JOB not in _texts(facts) and OLD_HOME not in _texts(facts), question
        assert all(f.valid_to is None for f in facts)
        assert "past:" not in format_context(facts)


def test_deleted_fact_never_comes_back_for_a_past_question(engine: RecallEngine) -> None:
    ids = _moved(engine)
    engine.delete("maya", [ids["job"]])
    assert OLD_JOB not in _texts(engine.recall(USED_TO, "maya"))
    engine.forget("maya")
    assert engine.recall(USED_TO, "maya") == []


def test_expired_fact_stays_out_of_a_past_question(engine: RecallEngine) -> None:
    ids = _moved(engine)
    engine.expire("maya", ids["allergy"])  # ended by its own expiry: not history a question about the past reads
    assert "User is allergic to shellfish." not in _texts(engine.recall("What did I use to be allergic to?", "maya"))


def test_superseded_fact_past_its_own_expiry_leaves_a_repeated_past_question(engine: RecallEngine) -> None:
    """Asked twice over an unchanged copy: the second answer is not an answer kept from before the fact expired."""
    soon = datetime.now(timezone.utc) + timedelta(seconds=2)
    (old,) = engine.add("maya", "User works at Leeds General.", created_at=T0, expires_at=soon)
    engine.add("maya", NEW_JOB, created_at=MOVED, supersedes=[old])
    assert "User works at Leeds General." in _texts(engine.recall(USED_TO, "maya"))
    time.sleep(max(0.0, (soon - datetime.now(timezone.utc)).total_seconds()) + 0.2)
    assert "User works at Leeds General." not in _texts(engine.recall(USED_TO, "maya"))


def test_change_called_off_before_its_start_is_no_past(engine: RecallEngine) -> None:
    """A change told ahead and called off never held: a question about the past does not show it."""
    _moved(engine)
    start = datetime.now(timezone.utc) + timedelta(days=30)
    (plan,) = engine.add("maya", "User works at Salford Royal.", valid_from=start)
    engine.cancel("maya", plan)
    assert "User works at Salford Royal." not in _texts(engine.recall(USED_TO, "maya"))
    assert OLD_JOB in _texts(engine.recall(USED_TO, "maya"))


def test_another_users_past_facts_never_appear(engine: RecallEngine) -> None:
    _moved(engine, "maya")
    engine.add("omar", "User works at Leeds General.", created_at=T0)
    facts = engine.recall(USED_TO, "omar")
    assert _texts(facts) == ["User works at Leeds General."]
    assert all(f.entity_id == "omar" for f in engine.recall("Where did I live before I moved?", "omar"))


def test_nearest_stays_on_valid_facts_for_past_wording(engine: RecallEngine) -> None:
    """What capture and a model's write read to find what a new fact replaces or repeats: never history."""
    _moved(engine)
    near = engine.nearest("User used to work as a nurse at St Mary's hospital before moving.", "maya")
    assert OLD_JOB not in _texts(near) and OLD_HOME not in _texts(near)
    assert OLD_JOB in _texts(engine.recall("Where did I used to work as a nurse?", "maya"))


def test_and_before_that_follow_up_reads_the_past(engine: RecallEngine) -> None:
    _moved(engine)
    assert OLD_HOME in _texts(engine.recall("And before that?", "maya", context=["Where do I live?"]))
    assert not asks_about_the_past("And before that?")  # alone, it asks about nobody
    assert not asks_about_the_past("And before that?", ["What's the capital of France?"])


def test_as_of_read_is_not_marked_past(engine: RecallEngine) -> None:
    _moved(engine)
    then = engine.recall("Which hospital do I work at?", "maya", as_of=T0 + timedelta(days=1))
    assert OLD_JOB in _texts(then) and all(f.valid_to is None for f in then)


def test_explain_says_the_question_asks_about_the_past(engine: RecallEngine) -> None:
    ids = _moved(engine)
    report = engine.explain(USED_TO, "maya")
    assert report.past
    old = next(c for c in report.candidates if c.id == ids["job"])
    assert old.kept and old.valid_to is not None
    assert "past: the question asks about the past" in report.table()
    assert "[until 2026-11-16]" in report.table()
    assert not engine.explain("Which hospital do I work at?", "maya").past


def test_adapters_show_the_past_fact_through_the_engine(engine: RecallEngine) -> None:
    from llama_index.core.schema import MetadataMode

    import memori_langchain as lc
    import memori_llamaindex as li

    ids = _moved(engine)
    docs = lc.MemoriRetriever(engine=engine, entity_id="maya").invoke(USED_TO)
    assert [d.metadata["valid_to"] is not None for d in docs if d.id == ids["job"]] == [True]
    nodes = li.MemoriRetriever(engine, "maya").retrieve(USED_TO)
    old = next(n for n in nodes if n.node.id_ == ids["job"])
    assert "valid_to" in old.node.get_content(metadata_mode=MetadataMode.LLM)
    memory = MemoriRecall(engine, entity_id="maya")
    kwargs = memory.apply({"model": "m", "messages": [{"role": "user", "content": USED_TO}]}, provider="openai")
    assert "(past: no longer true since 2026-11-16 08:12 UTC)" in str(kwargs["messages"])
    now = memory.apply({"model": "m", "messages": [{"role": "user", "content": "Which hospital do I work at?"}]},
                       provider="openai")
    assert "past:" not in str(now["messages"])


def test_block_line_of_a_current_fact_is_unchanged() -> None:
    assert format_fact_line("User lives in Leeds.", "2026-10-26T08:12:00Z") == \
        "- User lives in Leeds. Stated at 2026-10-26 08:12 UTC"
    assert format_fact_line("User lives in Leeds.", "2026-10-26T08:12:00Z", valid_to="2026-11-16T08:12:00Z") == \
        "- User lives in Leeds. Stated at 2026-10-26 08:12 UTC (past: no longer true since 2026-11-16 08:12 UTC)"


@pytest.mark.model
def test_hospital_case_through_the_relevance_gate_with_minilm(tmp_path: Path, minilm) -> None:
    """The report's case with the real embedder and the default gate: the past question is shown St Mary's, marked
    past; the present one only Manchester Royal Infirmary."""
    engine = RecallEngine(store=ChromaStore(tmp_path / "chroma"), embedder=minilm, config=RecallConfig())
    try:
        _moved(engine)
        past = _texts(engine.recall(USED_TO, "maya"))
        assert OLD_JOB in past
        now = _texts(engine.recall("Which hospital do I work at?", "maya"))
        assert NEW_JOB in now and OLD_JOB not in now
    finally:
        engine.close()
