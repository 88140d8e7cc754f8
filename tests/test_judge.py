"""The optional judge (``RecallEngine(judge=...)``): parsing, the engine's use of it, its fallbacks, the adapters."""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from _helpers import HashEmbedder, seeded_fixtures, ungated_engine, wait_until
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.failopen import arecall_or_empty, recall_or_empty
from memori_core.engine import MAX_JUDGE_CALLS
from memori_core.judge import Judge, as_indices, judge_prompt, parse_judgement
from memori_core.ranking.core import CORE
from memori_core.ranking.judged import JUDGED_OUT, JUDGED_RELEVANT

FACTS = ["User lives in Lyon.", "User is vegetarian.", "User is allergic to peanuts.", "User plays the cello."]
SANDWICH = "Is this sandwich OK for me?"  # no word of it touches a vegetarian diet (ranking/implications.py)
PEANUTS = "Which snacks have peanuts? I am allergic to peanuts."


class Recorder:
    """A judge that keeps every call and picks the facts holding ``word`` (or answers ``answer``)."""

    def __init__(self, word: str = "vegetarian", answer: Any = None) -> None:
        self.word, self.answer = word, answer
        self.calls: list[tuple[str, list[str], list[str]]] = []

    def __call__(self, query: str, facts: Sequence[str], context: Sequence[str]) -> Any:
        self.calls.append((query, list(facts), list(context)))
        if self.answer is not None:
            return self.answer
        return [i for i, f in enumerate(facts) if self.word in f]


def judged_engine(store: ChromaStore, judge: Any, config: RecallConfig | None = None, **kwargs: Any) -> RecallEngine:
    return RecallEngine(store=store, embedder=HashEmbedder(), config=config or RecallConfig(), judge=judge, **kwargs)


def _seed(engine: RecallEngine) -> RecallEngine:
    engine.add("u", FACTS)
    return engine


seeded, fresh_seeded = seeded_fixtures(_seed)  # u's facts: shared by the tests that only read them / one's own


def contents(facts: Sequence[Any]) -> list[str]:
    return [f.content for f in facts]


# -- parsing and the prompt ---------------------------------------------------------------------------


@pytest.mark.parametrize(("reply", "expected"), [
    ("1, 3", [0, 2]),
    ("[2]", [1]),
    ("2", [1]),
    ("3, 1, 3", [0, 2]),
    ("none", []),
    ("None.", []),
    ('"none"', []),
    ("[]", []),
    ("Nothing here is relevant.", []),
    ("I think none are relevant", []),
    ("No facts matter for this question.", []),
    ("Facts 2 and 3 are relevant.", [1, 2]),
    ("The relevant facts are: 1 and 3", [0, 2]),
    ("1-3", [0, 1, 2]),
    ("Fact 2 (the 2024 trip)", [1]),  # 2024 is out of range: ignored
    ("2, 7", [1]),
    ("7", None),  # only numbers outside 1..n: not an answer about these facts
    ("0", None),
    ("I can't tell.", None),
    ("", None),
    ("   ", None),
    (None, None),
    (3, None),
])
def test_parse_judgement(reply: Any, expected: list[int] | None) -> None:
    assert parse_judgement(reply, 3) == expected


@pytest.mark.parametrize(("reply", "expected"), [
    # numbers the model rejected are not the answer
    ("Fact 2 is relevant; facts 1 and 3 are not.", [1]),
    ("Fact 2 matters, fact 1 does not.", [1]),
    ("Fact 2 is relevant, not fact 1.", [1]),
    ("Facts 1 and 3, not 2.", [0, 2]),
    ("Fact 2 is relevant but facts 1 and 3 are irrelevant.", [1]),
    ("Facts 1 and 2 are relevant while 3 is not.", [0, 1]),
    ("Fact 1 is about food but not relevant; fact 2 is.", [1]),
    ("Fact 3 has nothing to do with it; 1 and 2 do.", [0, 1]),
    ("Fact 2 matters because the user can't eat ham.", [1]),  # a negation in the reason rejects nothing
    ("None of 1, 2, 3 matter.", []),  # every fact rejected by number
    # a first line that is only an answer is the answer, whatever explanation follows
    ("2\n\nExplanation: 1 is about location, 3 about food.", [1]),
    ("Relevant: 1 and 3\nNot relevant: 2", [0, 2]),
    ("Answer: 2", [1]),
    ("Answer: []", []),
    ("**2**", [1]),
    # numbers that count facts name none of them
    ("There are 3 facts; only fact 2 matters.", [1]),
    ("Only 1 of them matters: fact 2.", [1]),
    ("2 relevant facts: 1 and 3", [0, 2]),
    # ambiguous or only partly judged: None, so recall falls back to the gate
    ("Not relevant: 1, 3", None),  # fact 2 not judged
    ("Facts 1 and 3 aren't relevant.", None),
    ("No facts are relevant except fact 2.", None),
    ("All 3 are relevant.", None),
    ("Fact 2 is relevant. Fact 2 is not relevant.", None),
    ("?", None),
])
def test_parse_judgement_reads_rejections_counts_and_a_bare_first_line(reply: str, expected: list[int] | None) -> None:
    assert parse_judgement(reply, 3) == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("-1", None),  # a common "none" sentinel: it names no fact, so recall falls back to the gate
    ("[-1]", None),
    ("Answer: -1", None),
    ("\u22121", None),  # a Unicode minus sign
    ("2, -1", [1]),
    ("Facts -1 and 2 are relevant.", [1]),
])
def test_a_negative_number_names_no_fact_and_is_never_read_as_another(reply: str, expected: list[int] | None) -> None:
    assert parse_judgement(reply, 3) == expected


def test_the_prompt_numbers_the_facts_from_1_and_shows_the_question_and_the_context() -> None:
    prompt = judge_prompt(SANDWICH, ["User is vegetarian.", "User lives\nin Lyon."], ["I'm hungry.", "  "])
    assert "1. User is vegetarian.\n2. User lives in Lyon." in prompt  # one line per fact
    assert SANDWICH in prompt and "- I'm hungry." in prompt
    assert '"none"' in prompt and "allerg" in prompt and "medication" in prompt
    assert "Earlier in the conversation" not in judge_prompt(SANDWICH, ["User is vegetarian."], [])
    assert parse_judgement("2", 2) == [1]


def test_as_indices_accepts_sequences_of_ints_in_range_only() -> None:
    assert as_indices([2, 0, 2], 3) == [0, 2]
    assert as_indices((np.int64(1),), 3) == [1]
    assert as_indices(np.array([1, 0]), 3) == [0, 1]
    assert as_indices({1}, 3) == [1]
    assert as_indices([], 3) == []
    for junk in ("1", b"1", 1, None, [True], [1.0], [3], [-1], {"a": 1}, [[0]]):
        assert as_indices(junk, 3) is None, junk


def test_a_plain_function_is_a_judge() -> None:
    assert isinstance(Recorder(), Judge)


# -- the engine ------------------------------------------------------------------------------------------


def test_the_judge_recalls_a_fact_the_gate_misses(seeded: RecallEngine) -> None:
    assert seeded.recall(SANDWICH, "u") == []  # the gate alone: closed
    judge = Recorder("vegetarian")
    judged = judged_engine(seeded.store, judge)
    assert contents(judged.recall(SANDWICH, "u")) == ["User is vegetarian."]
    (query, facts, context), = judge.calls
    assert query == SANDWICH and sorted(facts) == sorted(FACTS) and context == []


def test_an_empty_answer_recalls_nothing(seeded: RecallEngine) -> None:
    assert seeded.recall(PEANUTS, "u") != []  # the gate alone keeps the allergy...
    judged = judged_engine(seeded.store, Recorder(answer=[]))
    assert judged.recall(PEANUTS, "u") == []  # ...the judge says nothing matters
    report = judged.explain(PEANUTS, "u")
    assert report.gate == "judge" and report.gate_opened is False and report.facts == []
    assert {c.reason for c in report.candidates} == {JUDGED_OUT}


def test_kept_facts_are_in_rank_order_and_at_most_limit(seeded: RecallEngine) -> None:
    judge = Recorder(answer=[3, 2, 1, 0])
    judged = judged_engine(seeded.store, judge)
    ranked = contents(ungated_engine(store=seeded.store).recall(PEANUTS, "u", limit=4))
    assert contents(judged.recall(PEANUTS, "u", limit=2)) == ranked[:2]
    report = judged.explain(PEANUTS, "u", limit=2)
    assert [c.reason for c in report.candidates] == [JUDGED_RELEVANT] * 2 + ["beyond limit"] * 2
    assert "4 of the 4 best candidates judged relevant, 2 kept" in report.gate_note


def _fallback_cases() -> list[tuple[str, Any, dict[str, Any]]]:
    def raising(query: str, facts: Sequence[str], context: Sequence[str]) -> list[int]:
        raise RuntimeError("model is down")

    return [
        ("raises", raising, {}),
        ("junk", Recorder(answer="1, 2"), {}),
        ("not-ints", Recorder(answer=[0.0]), {}),
        ("out-of-range", Recorder(answer=[0, 99]), {}),
        ("none", lambda q, f, c: None, {}),
    ]


@pytest.mark.parametrize(("name", "judge", "kwargs"), _fallback_cases(), ids=[c[0] for c in _fallback_cases()])
def test_a_failing_judge_falls_back_to_the_gate(seeded: RecallEngine, caplog: pytest.LogCaptureFixture,
                                                name: str, judge: Any, kwargs: dict[str, Any]) -> None:
    judged = judged_engine(seeded.store, judge, **kwargs)
    for query in (SANDWICH, PEANUTS, "cello"):
        with caplog.at_level(logging.WARNING, logger="memori_core.engine"):
            caplog.clear()
            assert judged.recall(query, "u") == seeded.recall(query, "u")
        assert any("the gate decides instead" in r.getMessage() for r in caplog.records), name
        report = judged.explain(query, "u")
        assert report.facts == seeded.recall(query, "u")
        assert report.gate == "relevance" and report.gate_note.startswith("judge failed on the 4 best candidates")


def test_a_judge_past_its_timeout_falls_back_without_blocking(seeded: RecallEngine,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    release = threading.Event()
    started = threading.Event()

    def stuck(query: str, facts: Sequence[str], context: Sequence[str]) -> list[int]:
        started.set()
        release.wait(30)
        return [0]

    judged = judged_engine(seeded.store, stuck, judge_timeout=0.2)
    try:
        with caplog.at_level(logging.WARNING, logger="memori_core.engine"):
            t0 = time.monotonic()
            assert judged.recall(PEANUTS, "u") == seeded.recall(PEANUTS, "u")
            assert time.monotonic() - t0 < 5
        assert started.is_set()
        assert any("judge gave no answer" in r.getMessage() and "judge_timeout=0.2" in r.getMessage()
                   for r in caplog.records)
        report = judged.explain(SANDWICH, "u")
        assert report.facts == [] and "timed out" in report.gate_note
    finally:
        release.set()


def test_too_many_stuck_judge_calls_fall_back_at_once(seeded: RecallEngine) -> None:
    release = threading.Event()
    judged = judged_engine(seeded.store, lambda q, f, c: release.wait(30) and [1], judge_timeout=0.1)
    judged._judge_slots = threading.BoundedSemaphore(1)
    try:
        assert judged.recall(SANDWICH, "u") == []  # timed out; its thread holds the only slot
        t0 = time.monotonic()
        assert judged.recall(PEANUTS, "u") == seeded.recall(PEANUTS, "u")
        assert time.monotonic() - t0 < 0.1 + 1  # no new thread, no wait for the timeout
        assert judged.explain(PEANUTS, "u").gate_note.count("still running") == 1
    finally:
        release.set()
    assert MAX_JUDGE_CALLS >= 1


@pytest.mark.parametrize("config", [
    RecallConfig(),
    RecallConfig(gate="threshold", relevance_threshold=0.1),
    RecallConfig(judge_candidates=1),
    RecallConfig(core_limit=0),
    RecallConfig.memori_compat(),
], ids=["relevance", "threshold", "one-candidate", "no-core", "memori-compat"])
@pytest.mark.parametrize("limit", [1, 2, 5])
def test_explain_reports_what_recall_returns_with_a_judge(config: RecallConfig, limit: int) -> None:
    store = ChromaStore.in_memory()
    base = RecallEngine(store=store, embedder=HashEmbedder())
    base.add("u", FACTS)
    base.add("u", ["User takes metformin daily."], core=True)
    for word in ("vegetarian", "User", "nothing-matches"):
        judged = judged_engine(store, Recorder(word), config)
        for query in (SANDWICH, PEANUTS, "cello", "metformin"):
            recalled = judged.recall(query, "u", limit=limit)
            report = judged.explain(query, "u", limit=limit)
            assert report.facts == recalled
            assert report.gate == "judge"
            kept = [c for c in report.candidates if c.kept]
            assert {c.reason for c in kept} <= {JUDGED_RELEVANT, CORE}
            assert all(c.reason != JUDGED_RELEVANT for c in report.candidates if not c.kept)
            judged_in = [c for c in kept if c.reason == JUDGED_RELEVANT]
            assert len(judged_in) <= limit and all(word in c.content for c in judged_in)


def test_the_judge_sees_the_best_candidates_and_the_context() -> None:
    store = ChromaStore.in_memory()
    many = [f"User visited city number {i} last year." for i in range(30)]
    RecallEngine(store=store, embedder=HashEmbedder()).add("u", many + FACTS)
    judge = Recorder("cello")
    judged = judged_engine(store, judge, RecallConfig(judge_candidates=6))
    context = ["I started a new hobby.", "It is a string instrument."]
    judged.recall("What instrument do I play?", "u", limit=2, context=context)
    (_, facts, seen_context), = judge.calls
    ungated = ungated_engine(store=store)
    best = ungated.recall("What instrument do I play?", "u", limit=6, context=context)
    assert facts == contents(best)  # the 6 best, ungated, in rank order
    assert seen_context == context

    judge.calls.clear()
    judged.recall("What instrument do I play?", "u", limit=9)  # limit above judge_candidates: limit seen
    assert len(judge.calls[0][1]) == 9 and judge.calls[0][2] == []

    judge.calls.clear()
    judged_engine(store, judge, RecallConfig(context_turns=1)).recall("What instrument?", "u", context=context)
    assert judge.calls[0][2] == ["It is a string instrument."]  # the turns recall reads


def test_core_facts_are_still_appended(fresh_seeded: RecallEngine) -> None:
    fresh_seeded.add("u", ["User takes metformin daily."], core=True)
    judged = judged_engine(fresh_seeded.store, Recorder("vegetarian"))
    recalled = judged.recall(SANDWICH, "u")
    assert contents(recalled) == ["User is vegetarian.", "User takes metformin daily."]
    report = judged.explain(SANDWICH, "u")
    assert report.facts == recalled and report.candidates[-1].reason == CORE
    assert contents(judged_engine(fresh_seeded.store, Recorder(answer=[])).recall(SANDWICH, "u")) == [
        "User takes metformin daily."]


def test_the_judge_is_not_called_when_there_is_nothing_to_judge(seeded: RecallEngine) -> None:
    judge = Recorder()
    ungated = judged_engine(seeded.store, judge, RecallConfig(gate="off"))
    assert len(ungated.recall(SANDWICH, "u")) == len(FACTS)
    assert ungated.explain(SANDWICH, "u").gate == "off"
    judged = judged_engine(seeded.store, judge)
    assert judged.recall("   ", "u") == [] and judged.explain("   ", "u").facts == []
    assert judged.recall(SANDWICH, "u", limit=0) == [] and judged.explain(SANDWICH, "u", limit=0).facts == []
    assert judged.recall(SANDWICH, "nobody") == [] and judged.explain(SANDWICH, "nobody").facts == []
    assert judged.recall(SANDWICH, "u", where={"topic": "none"}) == []
    assert judge.calls == []


def test_memori_compat_with_a_judge() -> None:
    """The judge applies whenever one is given, whatever the config (memori_compat's threshold gate is on);
    without one, memori_compat recall is unchanged."""
    store = ChromaStore.in_memory()
    compat = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig.memori_compat())
    compat.add("u", FACTS)
    judged = judged_engine(store, Recorder("vegetarian"), RecallConfig.memori_compat())
    assert contents(judged.recall(SANDWICH, "u")) == ["User is vegetarian."]
    assert compat.recall(SANDWICH, "u") == judged_engine(store, None, RecallConfig.memori_compat()).recall(SANDWICH, "u")


def test_async_recall_and_explain_use_the_judge(seeded: RecallEngine) -> None:
    judged = judged_engine(seeded.store, Recorder("vegetarian"))

    async def both() -> tuple[Any, Any]:
        return await judged.arecall(SANDWICH, "u", context=["lunch?"]), await judged.aexplain(SANDWICH, "u", context=["lunch?"])

    recalled, report = asyncio.run(both())
    assert contents(recalled) == ["User is vegetarian."] and report.facts == recalled


def test_the_judge_arguments_are_checked(tmp_path: Any) -> None:
    store = ChromaStore.in_memory()
    with pytest.raises(TypeError, match="judge must be a callable"):
        RecallEngine(store=store, embedder=HashEmbedder(), judge="gpt-4o")  # type: ignore[arg-type]
    for bad, error in ((0, ValueError), (-1.0, ValueError), (float("inf"), ValueError), (float("nan"), ValueError),
                       ("10", TypeError), (True, TypeError)):
        with pytest.raises(error, match="judge_timeout"):
            RecallEngine(store=store, embedder=HashEmbedder(), judge=Recorder(), judge_timeout=bad)
    with pytest.raises(ValueError, match="judge_candidates"):
        RecallConfig(judge_candidates=0)
    engine = RecallEngine(store=store, embedder=HashEmbedder(), judge=None, judge_timeout=1)
    assert engine.judge is None and engine.judge_timeout == 1.0



QUOTED = ("Looking at the facts:\n1. User lives in Lyon.\n2. User gets seasick on boats.\n"
          "3. User is allergic to peanuts.\nNone of these matter for this question.")
THREE = ["User lives in Lyon.", "User gets seasick on boats.", "User is allergic to peanuts."]


@pytest.mark.parametrize(("reply", "expected"), [
    (QUOTED, []),  # the facts quoted back, then "none": the verdict wins over the quoted numbers
    (QUOTED.replace("None of these matter for this question.", "Only fact 3 matters."), [2]),
    (judge_prompt("Capital of Peru?", THREE), None),  # the prompt echoed, nothing after it: no answer
    (judge_prompt("Capital of Peru?", THREE) + "\n\n2", [1]),  # the numbers come from what follows the prompt
    ("Facts:\n1. User lives in Lyon: relevant", [0]),  # a numbered line with a verdict is an answer
])
def test_a_reply_is_read_from_its_answer_not_the_numbers_it_quotes_from_the_prompt(
        reply: str, expected: list[int] | None) -> None:
    assert parse_judgement(reply, 3, THREE) == expected
    assert parse_judgement(reply, 3) == expected  # the same without the facts' texts


@pytest.mark.parametrize(("reply", "expected"), [
    ("Relevant facts:\n3. User is allergic to peanuts.", [2]),  # a model answering with the facts it picks
    ("The ones that matter:\n1. User lives in Lyon.\n3. User is allergic to peanuts.", [0, 2]),
    ("Looking at the facts:\n1. User lives in Lyon.\n2. User gets seasick on boats.\n3. User is allergic to peanuts.",
     None),  # every fact quoted and no verdict: no choice made, the gate decides
])
def test_a_reply_that_answers_by_listing_the_facts_it_picks_is_read_as_that_list(
        reply: str, expected: list[int] | None) -> None:
    assert parse_judgement(reply, 3, THREE) == expected
    assert parse_judgement(reply, 3) == expected


def test_a_quoted_fact_with_a_negation_in_it_is_a_quote_when_the_facts_are_known() -> None:
    facts = ["User does not eat pork.", "User is allergic to peanuts."]
    reply = "Facts:\n1. User does not eat pork.\n2. User is allergic to peanuts.\nOnly 2 matters."
    assert parse_judgement(reply, 2, facts) == [1]


def test_judges_over_an_echoing_mock_llm_and_a_chatty_fake_chat_model_inject_nothing(seeded: RecallEngine) -> None:
    from langchain_core.language_models.fake_chat_models import FakeListChatModel
    from llama_index.core.llms.mock import MockLLM

    from memori_langchain import chat_model_judge
    from memori_llamaindex import llm_judge

    question = "What is the capital of Peru?"
    gate_alone = contents(seeded.recall(question, "u"))
    numbered = "\n".join(f"{i}. {f}" for i, f in enumerate(FACTS, start=1))
    chatty = FakeListChatModel(responses=[f"Looking at the facts:\n{numbered}\nNone of these matter here."])
    assert contents(judged_engine(seeded.store, chat_model_judge(chatty),
                                  RecallConfig(judge_candidates=len(FACTS))).recall(question, "u")) == []
    with pytest.raises(ValueError, match="only repeats its prompt"):
        llm_judge(MockLLM())(question, THREE, [])
    assert contents(judged_engine(seeded.store, llm_judge(MockLLM())).recall(question, "u")) == gate_alone


# -- adapters --------------------------------------------------------------------------------------------


def test_langchain_chat_model_judge_end_to_end(seeded: RecallEngine) -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from _langchain_fakes import replies
    from memori_langchain import chat_model_judge

    config = RecallConfig(judge_candidates=2)
    ranked = contents(ungated_engine(store=seeded.store).recall(SANDWICH, "u", limit=2))
    model = GenericFakeChatModel(messages=iter([AIMessage("2")]))
    judged = judged_engine(seeded.store, chat_model_judge(model), config)
    assert contents(judged.recall(SANDWICH, "u", limit=2)) == [ranked[1]]

    recording = replies("I think none are relevant")
    judged = judged_engine(seeded.store, chat_model_judge(recording), config)
    assert judged.recall(SANDWICH, "u", limit=2, context=["What's for lunch?"]) == []
    (prompt,), = [[m.text for m in call] for call in recording.calls]
    assert SANDWICH in prompt and f"1. {ranked[0]}" in prompt and "- What's for lunch?" in prompt
    with pytest.raises(TypeError):
        chat_model_judge("gpt-4o")  # type: ignore[arg-type]


def test_an_unreadable_judge_reply_is_logged_as_one_warning_line_and_the_gate_decides(
    seeded: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    from _langchain_fakes import replies
    from _llamaindex_fakes import FixedLLM
    from memori_langchain import chat_model_judge
    from memori_llamaindex import llm_judge

    for judge in (chat_model_judge(replies("Hmm, hard to say.")), llm_judge(FixedLLM(reply="Hmm, hard to say."))):
        judged = judged_engine(seeded.store, judge)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="memori_core.engine"):
            assert judged.recall(PEANUTS, "u") == seeded.recall(PEANUTS, "u")
        [record] = caplog.records
        assert record.levelno == logging.WARNING and record.exc_info is None
        assert "'Hmm, hard to say.'" in record.getMessage() and "the gate decides instead" in record.getMessage()
    with pytest.raises(ValueError, match="names no fact number and not 'none': '-1'"):  # UnreadableJudgement
        llm_judge(FixedLLM(reply="-1"))(SANDWICH, ["a", "b"], [])


def test_a_chat_model_judge_answering_minus_one_zero_or_past_the_last_fact_leaves_recall_to_the_gate(
    seeded: RecallEngine,
) -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from memori_langchain import chat_model_judge

    for reply in ("-1", "0", "99"):
        judge = chat_model_judge(GenericFakeChatModel(messages=itertools.cycle([AIMessage(reply)])))
        judged = judged_engine(seeded.store, judge)
        for query in (SANDWICH, PEANUTS):
            assert judged.recall(query, "u") == seeded.recall(query, "u"), reply


def test_llamaindex_llm_judge(seeded: RecallEngine) -> None:
    from _llamaindex_fakes import FixedLLM
    from memori_llamaindex import llm_judge

    llm = FixedLLM(reply="Facts 1 and 2.")
    judge = llm_judge(llm)
    assert judge(SANDWICH, ["a", "b", "c"], []) == [0, 1]
    assert "1. a\n2. b\n3. c" in llm.prompts[-1]
    assert llm_judge(FixedLLM(reply="None of them."))(SANDWICH, ["a"], []) == []
    with pytest.raises(ValueError):
        llm_judge(FixedLLM(reply="?"))(SANDWICH, ["a"], [])

    ranked = contents(ungated_engine(store=seeded.store).recall(SANDWICH, "u", limit=3))
    judged = judged_engine(seeded.store, llm_judge(FixedLLM(reply="3")), RecallConfig(judge_candidates=3))
    assert contents(judged.recall(SANDWICH, "u", limit=3)) == [ranked[2]]
    with pytest.raises(TypeError):
        llm_judge(object())


def test_a_judge_that_raises_is_warned_in_one_line_and_its_traceback_is_logged_at_debug(
    seeded: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    def judge(query: str, facts: Sequence[str], context: Sequence[str]) -> list[int]:
        raise RuntimeError("the judge model's provider is down")

    judged = judged_engine(seeded.store, judge)
    with caplog.at_level(logging.DEBUG, logger="memori_core.engine"):
        assert judged.recall(PEANUTS, "u") == seeded.recall(PEANUTS, "u")
    [warning] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert warning.getMessage() == ("judge raised an error; the gate decides instead "
                                    "(RuntimeError: the judge model's provider is down)")
    assert warning.exc_info is None
    [traced] = [r for r in caplog.records if r.exc_info is not None]
    assert traced.levelno == logging.DEBUG and isinstance(traced.exc_info[1], RuntimeError)


# -- a slow judge and many concurrent recalls ------------------------------------------------------------------


class HeldJudge:
    """A judge (picks the facts holding ``word``) whose calls all wait until ``release`` is set; ``started`` counts
    the calls running."""

    def __init__(self, word: str = "peanuts") -> None:
        self.word, self.release, self.started = word, threading.Event(), 0
        self._lock = threading.Lock()

    def __call__(self, query: str, facts: Sequence[str], context: Sequence[str]) -> list[int]:
        with self._lock:
            self.started += 1
        self.release.wait(30)
        return [i for i, f in enumerate(facts) if self.word in f]


async def test_concurrent_async_recalls_waiting_on_a_slow_judge_hold_no_read_thread(
        fresh_seeded: RecallEngine) -> None:
    # One read thread and six turns at once: each judge call waits, yet all six are asked (none holds the
    # thread while the judge answers), and each turn gets the judge's choice and the core fact.
    fresh_seeded.add("u", ["User takes metformin daily."], core=True)
    judge = HeldJudge()
    judged = judged_engine(fresh_seeded.store, judge, judge_timeout=30, async_workers=1)
    try:
        turns = [asyncio.create_task(judged.arecall(PEANUTS, "u")) for _ in range(6)]
        assert await asyncio.to_thread(wait_until, lambda: judge.started == 6)
        judge.release.set()
        for recalled in await asyncio.gather(*turns):
            assert contents(recalled) == ["User is allergic to peanuts.", "User takes metformin daily."]
    finally:
        judge.release.set()
        judged.close()


@pytest.mark.parametrize("run_async", [False, True], ids=["sync", "async"])
async def test_a_judge_slower_than_the_whole_recall_timeout_leaves_the_gate_selection_and_core_facts(
        fresh_seeded: RecallEngine, run_async: bool, caplog: pytest.LogCaptureFixture) -> None:
    # The adapter's time limit comes before the judge's: the recall returns what the gate chose, core facts
    # included, in time, instead of being given up with nothing.
    fresh_seeded.add("u", ["User takes metformin daily."], core=True)
    gate_only = contents(fresh_seeded.recall(PEANUTS, "u"))
    assert "User takes metformin daily." in gate_only
    judge = HeldJudge()
    judged = judged_engine(fresh_seeded.store, judge, judge_timeout=30)
    kwargs = {"strict": True, "owner": "test", "logger": logging.getLogger("test"), "timeout": 2.0}
    try:
        with caplog.at_level(logging.WARNING, logger="memori_core.engine"):
            if run_async:
                recalled = await arecall_or_empty(judged, PEANUTS, "u", None, **kwargs)
            else:
                recalled = recall_or_empty(judged, PEANUTS, "u", None, **kwargs)  # strict: a timeout would raise
        assert contents(recalled) == gate_only
        assert judge.started == 1
        assert "the recall's own time limit left" in caplog.text
    finally:
        judge.release.set()
        judged.close()
