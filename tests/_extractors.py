"""Fact extractors for the capture tests: one that waits for the test (the rules do the extracting) and one
that always fails. Both follow memori_core's extractor protocol (``extract`` and ``uses_existing_facts``)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from memori_core import ExtractedFact, RuleBasedFactExtractor
from memori_core.extraction import KnownFact, MessageLike, as_messages

__all__ = ["Exploding", "Gate"]


class Gate:
    """An extractor that waits until the test sets ``opened``; the rules do the extracting.

    ``entered`` is set once a call is waiting; ``seen`` holds the last message of each call in the order they
    ran, and ``most_running`` the most calls that ran at once.
    """

    uses_existing_facts = False

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.entered = threading.Event()
        self.seen: list[str] = []
        self.running = 0
        self.most_running = 0
        self._lock = threading.Lock()

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        with self._lock:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        self.entered.set()
        try:
            assert self.opened.wait(30), "the test never opened the gate"
            self.seen.append(as_messages(messages)[-1].text)
            return RuleBasedFactExtractor().extract(messages)
        finally:
            with self._lock:
                self.running -= 1


class Exploding:
    """An extractor that always fails: ``RuntimeError("extractor exploded")``."""

    uses_existing_facts = False

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        raise RuntimeError("extractor exploded")
