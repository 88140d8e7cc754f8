"""``llm_judge``: a LlamaIndex LLM as the recall engine's judge (:mod:`memori_core.judge`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memori_core.judge import Judge, judge_prompt, read_judgement

__all__ = ["llm_judge"]


def llm_judge(llm: Any) -> Judge:
    """A judge that asks ``llm`` (a ``llama_index.core.llms.LLM``) which of a recall's best candidates matter.

    >>> engine = RecallEngine(judge=llm_judge(OpenAI(model="gpt-4o-mini", temperature=0)))

    Each call sends :func:`memori_core.judge.judge_prompt` (earlier turns, the question, the facts
    numbered from 1) with ``llm.complete`` and reads the reply's text with
    :func:`memori_core.judge.parse_judgement` ("1, 3", "[2]", "none", with or without
    prose; numbers the reply calls not relevant are not taken). A reply
    that cannot be read raises :class:`memori_core.judge.UnreadableJudgement` (a ``ValueError``; the
    engine logs it as one WARNING line), and LLM errors propagate (logged with their traceback); either
    way the engine lets its gate decide. One LLM call per recall (use a small model, ``temperature=0``); the engine
    bounds it with ``judge_timeout``.
    """
    if not callable(getattr(llm, "complete", None)):
        raise TypeError(f"llm must be a LlamaIndex LLM, got {type(llm).__name__}")

    def judge(query: str, facts: Sequence[str], context: Sequence[str]) -> list[int]:
        text = llm.complete(judge_prompt(query, facts, context)).text
        return read_judgement(text, len(facts), facts)

    return judge
