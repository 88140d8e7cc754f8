"""Facts a model extracts are cleaned before they are stored, as the rules clean a message: no zero-width space,
soft hyphen, direction mark, byte-order mark or NUL, and one line with single spaces. A model copies them from
the turn ("I live in Ber\\u00adgen"), and stored they would split a fact from its repeat and reach every prompt
that recalls it. Through ``LLMFactExtractor`` over LangChain's fake chat model and an extractor of the app's own,
into a real in-memory Chroma store."""

from __future__ import annotations

import json
from collections.abc import Sequence

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel

from memori_core import ExtractedFact, RecallEngine, capture_facts
from memori_core.extraction import KnownFact, MessageLike
from memori_langchain import LLMFactExtractor


def _llm(*facts: object) -> LLMFactExtractor:
    return LLMFactExtractor(GenericFakeChatModel(messages=iter([json.dumps(list(facts))])))


def _texts(engine: RecallEngine) -> list[str]:
    return sorted(f.content for f in engine.list("u1"))


def test_invisible_and_control_characters_in_a_models_facts_are_not_stored(engine: RecallEngine) -> None:
    extractor = _llm({"fact": "User lives in Ber\u00adgen.\u200b", "core": False},
                     {"fact": "User is allergic\u2060 to pea\x00nuts.", "core": True},
                     {"fact": "\ufeffUser has a\u200e dog\nnamed Rex.", "core": False})
    ids = capture_facts(engine, "u1", [("user", "I live in Ber\u00adgen, I'm allergic to peanuts, my dog is Rex.")],
                        extractor)
    assert len(ids) == 3
    assert _texts(engine) == ["User has a dog named Rex.", "User is allergic to peanuts.", "User lives in Bergen."]
    assert [f.content for f in engine.list("u1") if f.metadata.get("core")] == ["User is allergic to peanuts."]


def test_a_models_fact_cleaned_is_one_with_the_same_fact_stored_before(engine: RecallEngine) -> None:
    capture_facts(engine, "u1", [("user", "I live in Bergen.")], _llm("User lives in Bergen."))
    capture_facts(engine, "u1", [("user", "I live in Bergen!")], _llm("User lives in Ber\u00adgen.\u200b"))
    assert _texts(engine) == ["User lives in Bergen."]


def test_a_model_fact_of_only_invisible_characters_stores_nothing(engine: RecallEngine) -> None:
    assert capture_facts(engine, "u1", [("user", "hi")], _llm("\u200b\u200d\x00")) == []
    assert _texts(engine) == []


class _OwnExtractor:
    """An app's own extractor (the FactExtractor protocol), handing back a fact with a NUL and a direction mark."""

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        return [ExtractedFact("User\x00 works at\u200f Acme.", core=False)]


def test_an_apps_own_extractors_facts_are_cleaned_too(engine: RecallEngine) -> None:
    capture_facts(engine, "u1", [("user", "I work at Acme.")], _OwnExtractor())
    assert _texts(engine) == ["User works at Acme."]
