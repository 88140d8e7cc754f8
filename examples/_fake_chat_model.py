"""The fake chat model the LangChain examples run offline with (an app passes its real chat model instead)."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import BaseMessage

from _demo_memory import show_model_view


class ScriptedToolModel(GenericFakeChatModel):
    """LangChain's fake chat model, accepting tools and printing what it is sent."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedToolModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        show_model_view(messages)
        return super()._generate(messages, *args, **kwargs)
