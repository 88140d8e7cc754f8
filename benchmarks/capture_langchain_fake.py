"""The capture benchmark's LLM path through ``memori_langchain.LLMFactExtractor`` over LangChain's own fake chat model.

    python benchmarks/capture_langchain_fake.py evals/capture/dev.json
    python benchmarks/capture_langchain_fake.py evals/capture/dev3.json --embedder tests._helpers:HashEmbedder

``memori eval capture --extractor scripted-llm`` runs the core pipeline
(``PromptedFactExtractor``: prompt, reply parser, supersede ids) over a scripted
model that reads each prompt. Here the same conversations go through the
LangChain adapter's ``LLMFactExtractor`` and a ``FakeListChatModel`` answering,
turn by turn, the replies the scripted model gave (the first run records them;
capture is deterministic, so the second run sends the same prompts, which is
checked). Printed: both tables and whether every conversation left the same valid
facts. tests/test_capture_langchain_fake.py asserts it.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from memori_core.evaluation.capture import (
    CaptureConversation,
    CaptureSet,
    DEFAULT_SAID_AT,
    ScriptedFactExtractor,
    evaluate_capture,
    load_capture,
)
from memori_core.evaluation.embedding import load_embedder
from memori_core.evaluation.report import capture_table
from memori_langchain import LLMFactExtractor

SAID_AT = DEFAULT_SAID_AT
"""When both runs say their turns were said (``memori eval capture``'s default, a Monday): the prompts, which name
the turn's day, are the same."""


class PromptKeepingFake(FakeListChatModel):
    """``FakeListChatModel`` that keeps the text of every prompt it is sent."""

    prompts: list[str] = []

    def _call(self, messages: list[Any], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> str:
        self.prompts = [*self.prompts, messages[-1].content]
        return super()._call(messages, stop=stop, run_manager=run_manager, **kwargs)


def scripted_run(data: CaptureSet, embedder: Any, said_at: datetime = SAID_AT
                 ) -> tuple[dict[str, Any], dict[str, ScriptedFactExtractor]]:
    """The core scripted-LLM run, and each conversation's extractor (its prompts and replies); the turns are
    said from ``said_at`` on."""
    made: dict[str, ScriptedFactExtractor] = {}

    def factory(conversation: CaptureConversation) -> ScriptedFactExtractor:
        made[conversation.id] = ScriptedFactExtractor(conversation.scripts())
        return made[conversation.id]

    return evaluate_capture(data, factory, embedder=embedder, said_at=said_at), made


def langchain_fake_run(data: CaptureSet, replies: dict[str, list[str]], embedder: Any, said_at: datetime = SAID_AT
                       ) -> tuple[dict[str, Any], dict[str, PromptKeepingFake]]:
    """The same conversations through ``LLMFactExtractor`` over a fake chat model answering ``replies``, said
    from ``said_at`` on."""
    models: dict[str, PromptKeepingFake] = {}

    def factory(conversation: CaptureConversation) -> LLMFactExtractor:
        models[conversation.id] = PromptKeepingFake(responses=replies[conversation.id] or ["[]"])
        return LLMFactExtractor(models[conversation.id], mark_core=False)  # as ScriptedFactExtractor

    return evaluate_capture(data, factory, embedder=embedder, said_at=said_at), models


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a capture-benchmark file (evals/capture/dev.json)")
    parser.add_argument("--embedder", default="minilm", help="'minilm' (default) or 'module:attribute'")
    args = parser.parse_args(argv)
    data = load_capture(args.file)
    embedder = load_embedder(args.embedder)
    core, scripted = scripted_run(data, embedder)
    fake, models = langchain_fake_run(data, {k: e.replies for k, e in scripted.items()}, embedder)
    same_prompts = all(models[k].prompts == e.prompts for k, e in scripted.items())
    same_facts = [c["valid"] for c in core["conversations"]] == [c["valid"] for c in fake["conversations"]]
    print(capture_table({**core, "extractor": "scripted-llm (core PromptedFactExtractor)"}))
    print()
    print(capture_table({**fake, "extractor": "langchain-fake (memori_langchain.LLMFactExtractor, FakeListChatModel)"}))
    print(f"\nsame prompts: {same_prompts}; same valid facts in every conversation: {same_facts}")
    return 0 if same_prompts and same_facts else 1


if __name__ == "__main__":
    sys.exit(main())
