"""Fact extractors for the capture tests: one that waits for the test (the rules do the extracting) and one
that always fails. Both follow memori_core's extractor protocol (``extract`` and ``uses_existing_facts``)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from memori_core import ExtractedFact, RuleBasedFactExtractor
from memori_core.extraction import KnownFact, MessageLike, as_messages

__all__ = ["Exploding", "Gate"]


class Gate:
    """An extractor that waits until the test sets ``opened``; then :meth:`answer` extracts (the rules).

    ``entered`` is set once a call is waiting; ``seen`` holds the last message of each call in the order they
    ran; ``running`` counts the calls under way (``changed`` is notified whenever it changes), and
    ``most_running`` the most that ran at once.
    """

    uses_existing_facts = False

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.entered = threading.Event()
        self.changed = threading.Condition()
        self.seen: list[str] = []
        self.running = 0
        self.most_running = 0

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        with self.changed:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
            self.changed.notify_all()
        self.entered.set()
        try:
            assert self.opened.wait(30), "the test never opened the gate"
            self.seen.append(as_messages(messages)[-1].text)
            return self.answer(messages)
        finally:
            with self.changed:
                self.running -= 1
                self.changed.notify_all()

    def answer(self, messages: Sequence[MessageLike]) -> list[ExtractedFact]:
        """What a call extracts once the gate is open: the rules' facts."""
        return RuleBasedFactExtractor().extract(messages)


class Exploding:
    """An extractor that always fails: ``RuntimeError("extractor exploded")``."""

    uses_existing_facts = False

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        raise RuntimeError("extractor exploded")
