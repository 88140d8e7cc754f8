"""The metadata keys memori-recall writes or adds itself: one set, hidden from the model by every adapter.

A recalled fact's ``metadata`` holds the app's own keys and memori's bookkeeping: what capture records
(:data:`CAPTURE_METADATA_KEYS`), the ``core`` and ``searchable`` marks, a LangGraph store item and its namespace
(:data:`STORE_ITEM_KEY`, :data:`STORE_NAMESPACE_KEY`) and what recall adds (``times_seen``, ``last_seen``,
``session_id``, ``updated_at``, ``expires_at``). :data:`BOOKKEEPING_METADATA_KEYS` is all of them. An adapter that
shows a fact's metadata to a model (LlamaIndex nodes, through ``excluded_llm_metadata_keys``) hides exactly these,
so a bookkeeping key added here is hidden everywhere at once, and one added anywhere else is caught by the tests
(``tests/test_metadata_keys.py`` writes through every writer memori ships). Framework-free: the adapters import
these names, not each other's.
"""

from __future__ import annotations

from .facts import SEARCHABLE_KEY
from .ranking.core import CORE_KEY
from .validate import FACT_FIELD_KEYS, RESERVED_METADATA_KEYS

STORE_ITEM_KEY = "langgraph_item"
"""The metadata key under which ``memori_langchain.MemoriStore`` keeps a LangGraph store item
(``{"value": ..., "updated_at": ..., "text": <digest>, "ttl": ...}``): the item's every field, for ``get`` and
filters. Never for the model: it repeats the fact's text and carries an internal digest."""

STORE_NAMESPACE_KEY = "langgraph_namespace"
"""The metadata key under which ``memori_langchain.MemoriStore`` records which namespace a store item belongs to:
its namespace's labels with ``*`` for the user's placeholders (``"memories.*"`` for ``("memories", "alice")``), so
that two stores of other shapes over one engine keep apart items of the same key. A fact without it (written by
``engine.add`` or capture, or by a store before this key existed) is an item of every namespace of its user."""

CAPTURE_METADATA_KEYS: tuple[str, ...] = ("source", "role", "thread_id", "message_id", "turn")
"""What capture records with a fact it stores: ``source`` (``"langchain"``, ``"langgraph"``, ``"llamaindex"``),
``role``, the run's ``thread_id`` and the turn's ``message_id`` (LangChain), and the memory block's ``turn``
digest (LlamaIndex)."""

RECALL_METADATA_KEYS: tuple[str, ...] = tuple(sorted(RESERVED_METADATA_KEYS))
"""What recall adds to a recalled fact's metadata (``times_seen``, ``last_seen``, ``session_id``, ``updated_at``,
``expires_at``); user metadata may not use these keys."""

FACT_FIELD_METADATA_KEYS: tuple[str, ...] = tuple(sorted(FACT_FIELD_KEYS))
"""A fact's own fields (``id``, ``entity_id``, ``content``, ``created_at``, ``valid_from``, ``valid_to``,
``superseded_by``, ``supersedes``, ``restored_at``, ``cosine``, ``lexical``, ``rank_score``), which the adapters
write into a Document's or node's metadata beside the fact's own metadata; user metadata may not use these keys
either."""

USER_RESERVED_METADATA_KEYS: tuple[str, ...] = tuple(sorted(RESERVED_METADATA_KEYS | FACT_FIELD_KEYS))
"""Every key user metadata may not use (``add``, ``update``, ``import_`` refuse it naming the key:
:func:`memori_core.validate.check_metadata`)."""

BOOKKEEPING_METADATA_KEYS: tuple[str, ...] = (
    *CAPTURE_METADATA_KEYS, CORE_KEY, SEARCHABLE_KEY, STORE_ITEM_KEY, STORE_NAMESPACE_KEY,
    *RECALL_METADATA_KEYS,
)
"""Every metadata key memori-recall writes or adds itself, in a fixed order: what an adapter hides from the
model. The app's own keys stay visible; an app key spelled like one of these (a ``source`` of its own) is
hidden too."""

