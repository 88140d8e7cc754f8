"""A huge message (a pasted document: an API takes whatever a client posts) is read as its first and last
``MAX_TURN_CHARS // 2`` characters by recall (query and context turns) and by capture, so it costs no more than a
long chat turn; a message up to ``MAX_TURN_CHARS`` is read whole."""

from __future__ import annotations

import numpy as np

from _helpers import HashEmbedder, ungated_engine
from memori_core import RuleBasedFactExtractor
from memori_core.extraction import as_messages
from memori_core.validate import MAX_TURN_CHARS, clip_turn

PASTE = "The quarterly report lists revenue by region and by product line. "  # no fact about anyone
HEAD = "I live in Lyon. "
MIDDLE = " I have a cat named Tom. "
TAIL = "I'm allergic to peanuts. Can I eat satay?"


def huge_turn(chars: int = 1_100_000) -> str:
    """HEAD, then about ``chars`` characters of paste with MIDDLE halfway, then TAIL."""
    half = PASTE * (chars // len(PASTE) // 2)
    return f"{HEAD}{half}{MIDDLE}{half}{TAIL}"


class RecordingEmbedder(HashEmbedder):
    """The hashing embedder, keeping every text it was asked to embed as a query."""

    def __init__(self) -> None:
        super().__init__()
        self.queries: list[str] = []

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return super().embed_query(text)


def test_clip_turn_keeps_a_turn_of_max_turn_chars_whole() -> None:
    turn = ("word " * MAX_TURN_CHARS)[:MAX_TURN_CHARS]
    assert clip_turn(turn) is turn
    assert clip_turn("I live in Lyon.") == "I live in Lyon."


def test_clip_turn_reads_the_first_and_last_sentences_of_a_longer_turn_and_no_half_sentence() -> None:
    clipped = clip_turn(huge_turn())
    assert len(clipped) <= MAX_TURN_CHARS + 2
    assert clipped.startswith(HEAD.strip()) and clipped.endswith(TAIL)
    assert MIDDLE.strip() not in clipped
    head, tail = clipped.split("\n\n")
    assert head.endswith("product line.")  # cut at a sentence end, not inside a word
    assert tail.startswith("The quarterly report")  # and starts at one


def test_recall_of_a_huge_query_reads_its_clipped_text_and_recalls_as_that_text_does() -> None:
    embedder = RecordingEmbedder()
    engine = ungated_engine(embedder)
    engine.add("u", ["User has a cat named Tom.", "User is allergic to peanuts.", "User lives in Lyon."])
    huge = huge_turn()
    report = engine.explain(huge, "u")
    assert report.query == clip_turn(huge)
    assert "peanut" in report.query_tokens  # the question after the paste is read
    assert "tom" not in report.query_tokens  # the middle of the paste is not
    assert max(len(text) for text in embedder.queries) <= MAX_TURN_CHARS + 2
    as_huge = [f.id for f in engine.recall(huge, "u")]
    assert as_huge and as_huge == [f.id for f in engine.recall(clip_turn(huge), "u")]


def test_recall_reads_each_huge_context_turn_clipped() -> None:
    embedder = RecordingEmbedder()
    engine = ungated_engine(embedder)
    engine.add("u", ["User is allergic to peanuts."])
    huge = huge_turn()
    report = engine.explain("What should I order there?", "u", context=[huge])
    assert report.conversation == f"What should I order there?\n{clip_turn(huge)}"
    assert max(len(text) for text in embedder.queries) <= MAX_TURN_CHARS + 100


def test_capture_extractors_read_the_start_and_end_of_a_huge_user_turn_only() -> None:
    huge = huge_turn()
    assert [m.text for m in as_messages([("user", huge)])] == [clip_turn(huge)]
    facts = [f.text for f in RuleBasedFactExtractor().extract([("user", huge)])]
    assert "User lives in Lyon." in facts and "User is allergic to peanuts." in facts
    assert not any("Tom" in fact for fact in facts)  # said in the middle of the paste: not read


def test_capture_reads_a_long_turn_up_to_max_turn_chars_whole() -> None:
    half = PASTE * ((MAX_TURN_CHARS - len(HEAD) - len(MIDDLE) - len(TAIL)) // len(PASTE) // 2)
    turn = f"{HEAD}{half}{MIDDLE}{half}{TAIL}"
    assert len(turn) <= MAX_TURN_CHARS
    facts = [f.text for f in RuleBasedFactExtractor().extract([("user", turn)])]
    assert any("Tom" in fact for fact in facts)
