"""Usage errors name the argument and what was called (tester j16's finding 5): ``None`` as an adapter's query,
``k=`` (the adapters' word) given to the engine, ``format_context(None)`` and ``explain`` given what ``extract``
takes. Real Chroma (in memory), the real LangChain and LlamaIndex retrievers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from _helpers import ungated_engine
from memori_core import RecallEngine, RuleBasedFactExtractor, format_context


@pytest.fixture(scope="module")
def engine() -> Iterator[RecallEngine]:
    eng = ungated_engine()
    eng.add("u", ["User is allergic to peanuts."])
    yield eng
    eng.close()


@pytest.mark.parametrize("strict", [False, True])
def test_langchain_retriever_given_none_as_query_names_itself_and_the_query(engine: RecallEngine,
                                                                            strict: bool) -> None:
    from memori_langchain import MemoriRetriever

    retriever = MemoriRetriever(engine=engine, entity_id="u", strict=strict)
    with pytest.raises(TypeError, match=r"^MemoriRetriever: query must be a str, got NoneType$"):
        retriever.invoke(None)  # type: ignore[arg-type]
    assert [d.page_content for d in retriever.invoke("peanuts")] == ["User is allergic to peanuts."]


async def test_llamaindex_retriever_given_none_refuses_it_before_llamaindex_pydantic_events(
        engine: RecallEngine) -> None:
    from llama_index.core.schema import QueryBundle

    from memori_llamaindex import MemoriRetriever

    retriever = MemoriRetriever(engine=engine, entity_id="u")
    says = r"^MemoriRetriever: query must be a str or a QueryBundle, got NoneType$"
    with pytest.raises(TypeError, match=says):
        retriever.retrieve(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=says):
        await retriever.aretrieve(None)  # type: ignore[arg-type]
    assert [n.node.get_content() for n in retriever.retrieve(QueryBundle("peanuts"))] == [
        "User is allergic to peanuts."]


def test_the_engine_given_k_names_recall_engine_not_an_internal_class(engine: RecallEngine) -> None:
    with pytest.raises(TypeError, match=r"^RecallEngine\.recall\(\) got an unexpected keyword argument 'k'$"):
        engine.recall("peanuts", "u", k=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"^RecallEngine\.add\(\) got an unexpected keyword argument"):
        engine.add("u", ["User is vegan."], entity="u")  # type: ignore[call-arg]
    assert [f.content for f in engine.recall("peanuts", "u", limit=3)] == ["User is allergic to peanuts."]


@pytest.mark.parametrize("facts", [None, 3])
def test_format_context_of_none_or_a_number_says_what_it_takes(facts: object) -> None:
    with pytest.raises(TypeError, match=rf"^format_context takes a list of RecalledFact \(what recall returns\), "
                                        rf"got {type(facts).__name__}$"):
        format_context(facts)  # type: ignore[arg-type]


def test_explain_given_what_extract_takes_says_it_takes_one_message_text() -> None:
    extractor = RuleBasedFactExtractor()
    with pytest.raises(TypeError, match=r"^RuleBasedFactExtractor\.explain takes one user message's text \(a str\), "
                                        r"got list; extract\(\) takes a list of messages$"):
        extractor.explain([("user", "I am vegan.")])  # type: ignore[arg-type]
    assert [v.fact for v in extractor.explain("I am vegan.")] == ["User is vegan."]
    assert [f.text for f in extractor.extract([("user", "I am vegan.")])] == ["User is vegan."]
