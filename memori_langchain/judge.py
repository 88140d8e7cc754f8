"""``chat_model_judge``: a LangChain chat model as the recall engine's judge (:mod:`memori_core.judge`)."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage

from memori_core.judge import Judge, judge_prompt, read_judgement

from ._messages import message_text

__all__ = ["chat_model_judge"]


def chat_model_judge(model: BaseChatModel) -> Judge:
    """A judge that asks ``model`` which of a recall's best candidates matter for the question.

    >>> engine = RecallEngine(judge=chat_model_judge(ChatOpenAI(model="gpt-4o-mini", temperature=0)))

    Each call sends one human message, :func:`memori_core.judge.judge_prompt` (earlier turns, the
    question, the facts numbered from 1), and reads the reply with
    :func:`memori_core.judge.parse_judgement` ("1, 3", "[2]", "none", with or without
    prose; numbers the reply calls not relevant are not taken). A reply
    that cannot be read raises :class:`memori_core.judge.UnreadableJudgement` (a ``ValueError``; the
    engine logs it as one WARNING line), and model errors propagate (logged with their traceback); either
    way the engine lets its gate decide. One model call per recall (use a small model, ``temperature=0``);
    the engine bounds it with ``judge_timeout``.
    """
    if not callable(getattr(model, "invoke", None)):
        raise TypeError(f"model must be a LangChain chat model, got {type(model).__name__}")

    def judge(query: str, facts: Sequence[str], context: Sequence[str]) -> list[int]:
        prompt = judge_prompt(query, facts, context)
        reply = model.invoke([HumanMessage(content=prompt)], config={"run_name": "memori_recall_judge"})
        text = message_text(reply) if isinstance(reply, BaseMessage) else str(reply)
        return read_judgement(text, len(facts), facts)

    return judge
