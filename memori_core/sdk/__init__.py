"""Long-term memory for direct provider SDK calls (OpenAI, Anthropic, Bedrock, Google GenAI), no framework.

>>> from memori_core.sdk import MemoriRecall
>>> memory = MemoriRecall(engine, entity_id="user-1")
>>> client.chat.completions.create(**memory.apply(kwargs, provider="openai"))

Modules: ``memori_recall`` (:class:`MemoriRecall`: find the call's question,
recall, inject) and ``system_prompt`` (:func:`inject_context`: write a block
where each provider reads its system prompt). The question and the earlier
user turns are read from the call's kwargs by :func:`extract_user_query` /
:func:`extract_query_and_context` (:mod:`memori_core.query`).
"""

from ..query import extract_query_and_context, extract_user_query
from .memori_recall import MemoriRecall
from .system_prompt import PROVIDERS, append_to_content, check_injectable, inject_context, normalize_provider

__all__ = [
    "PROVIDERS",
    "MemoriRecall",
    "append_to_content",
    "check_injectable",
    "extract_query_and_context",
    "extract_user_query",
    "inject_context",
    "normalize_provider",
]
