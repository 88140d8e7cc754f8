"""FailOpenRecall: one adapter recall planned once, whose sync and async I/O (run / arun) must answer alike: the
engine's facts for the query read with its earlier turns, nothing for a blank query, and a logged warning with no
facts when the store fails (raised under strict)."""

from __future__ import annotations

import asyncio
import logging

import pytest
from _faults import break_store
from _helpers import ungated_engine

from memori_core.failopen import FailOpenRecall, arecall_or_empty, recall_or_empty

LOG = logging.getLogger("test_failopen_recall")
FACTS = ["User is allergic to peanuts.", "User lives in Lyon.", "User plays the cello."]


def _plan(engine: object, query: str, **options: object) -> FailOpenRecall:
    return FailOpenRecall(engine, query, "u1", 2, False, "TestAdapter", LOG, **options)  # type: ignore[arg-type]


def test_run_and_arun_of_one_plan_give_the_engines_own_facts_read_with_the_earlier_turns() -> None:
    engine = ungated_engine()
    engine.add("u1", FACTS)
    turns = ["I'm cooking tonight."]
    plan = _plan(engine, "What should I avoid?", context=turns)
    expected = [f.id for f in engine.recall("What should I avoid?", "u1", 2, context=turns)]
    assert len(expected) == 2
    assert [f.id for f in plan.run()] == expected
    assert [f.id for f in asyncio.run(plan.arun())] == expected
    # The functions the adapters called before are the same plan.
    assert [f.id for f in recall_or_empty(engine, "What should I avoid?", "u1", 2, strict=False, owner="T",
                                          logger=LOG, context=turns)] == expected
    assert [f.id for f in asyncio.run(arecall_or_empty(engine, "What should I avoid?", "u1", 2, strict=False,
                                                       owner="T", logger=LOG, context=turns))] == expected


def test_a_blank_query_recalls_nothing_and_a_query_of_another_type_names_the_adapter() -> None:
    engine = ungated_engine()
    engine.add("u1", FACTS)
    assert _plan(engine, "   ").run() == []
    assert asyncio.run(_plan(engine, "").arun()) == []
    with pytest.raises(TypeError, match=r"^TestAdapter: query must be a str"):
        _plan(engine, None).run()  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^TestAdapter: context"):
        asyncio.run(_plan(engine, "Where do I live?", context=[3]).arun())


def test_a_failing_store_gives_no_facts_and_a_warning_naming_the_adapter_or_raises_under_strict(
    caplog: pytest.LogCaptureFixture,
) -> None:
    engine = ungated_engine()
    engine.add("u1", FACTS)
    break_store(engine)
    with caplog.at_level(logging.WARNING, logger=LOG.name):
        assert _plan(engine, "Where do I live?").run() == []
    warned = [r.getMessage() for r in caplog.records if "TestAdapter" in r.getMessage()]
    assert len(warned) == 1 and "recall failed for entity 'u1'" in warned[0]
    strict = FailOpenRecall(engine, "Where do I live?", "u1", 2, True, "TestAdapter", LOG)
    with pytest.raises(Exception) as raised:  # noqa: B017 - whatever chromadb raises, strict passes it on
        asyncio.run(strict.arun())
    assert type(raised.value).__name__ in warned[0]  # the error the fail-open call logged
