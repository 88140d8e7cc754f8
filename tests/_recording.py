"""A real RecallEngine that also records what each recall was asked, and the facts of the conversation tests."""

from __future__ import annotations

import threading
from typing import Any

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine

# A follow-up that names its need only in an earlier turn.
SHELLFISH = "User is allergic to shellfish."
FACTS = [SHELLFISH, "User lives in Leeds.", "User plays the cello."]
TURN_1 = "I'm going to a seafood restaurant tonight with my wife."
TURN_2 = "What should I order there?"


class RecordingEngine(RecallEngine):
    """``RecallEngine`` recording the query and ``context`` of every ``recall`` (``arecall`` and the
    timeout path run ``recall`` in a worker thread, so they are recorded too). ``context`` is ``None``
    when the call did not pass one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.recalls: list[dict[str, Any]] = []
        self._recalls_lock = threading.Lock()

    def recall(self, query: str, entity_id: str, limit: int | None = None, **kwargs: Any) -> Any:
        with self._recalls_lock:
            self.recalls.append({"query": query, "entity_id": entity_id, "context": kwargs.get("context")})
        return super().recall(query, entity_id, limit, **kwargs)

    @property
    def contexts(self) -> list[Any]:
        """The ``context`` of each recall, in order."""
        return [r["context"] for r in self.recalls]


def recording_engine(entity_id: str = "u1") -> RecordingEngine:
    """FACTS for ``entity_id`` over the hashing embedder, recalled without a gate (the tests check what
    recall is asked and that the block reaches the model, not the hashing embedder's cosines)."""
    engine = RecordingEngine(ChromaStore.in_memory(), HashEmbedder(), RecallConfig(gate="off"))
    engine.add(entity_id, FACTS)
    engine.recalls.clear()
    return engine


def minilm_engine(minilm: Any, entity_id: str = "u1", **config: Any) -> RecordingEngine:
    """FACTS for ``entity_id`` with the real MiniLM and no relevance gate (the gate is tuned separately:
    the follow-up's best cosine, 0.15 with its context, stays under today's gate)."""
    engine = RecordingEngine(ChromaStore.in_memory(), minilm, RecallConfig(gate="off", **config))
    engine.add(entity_id, FACTS)
    engine.recalls.clear()
    return engine
