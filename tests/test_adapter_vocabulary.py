"""Every adapter surface speaks one language: ``strict`` (default: fail open), ``k``, the engine check.

Each surface runs inside real framework objects (a LangChain chain, a ``create_agent`` agent, a LangGraph
graph, a LlamaIndex query engine and memory block) with the frameworks' own fake models, over a real
in-memory Chroma store; the fault is a real one: the store's collection is dropped under the engine.
"""

from __future__ import annotations

import ast
import inspect
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import chromadb
import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.prompts import ChatPromptTemplate
from langgraph.graph import END, START, StateGraph
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms.mock import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode, NodeWithScore, TextNode

import memori_langchain as lc
import memori_llamaindex as li
from _faults import break_store
from _helpers import HashEmbedder
from _langchain_fakes import recall_model_capture_graph, replies
import memori_core.adapter_args
import memori_core.error_log
import memori_core.failopen
import memori_core.memory_tools
import memori_core.outage
import memori_core.time_limit
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.failopen import STRICT_DEFAULT
from memori_core.sdk import MemoriRecall

ALLERGIES = ["User is allergic to peanuts.", "User is allergic to cats.", "User is allergic to dust."]
QUESTION = "Is the user allergic to peanuts?"
SYSTEM = "You are a cooking assistant."

Run = Callable[..., Awaitable[list[str]]]


def _fact_lines(text: str) -> list[str]:
    """The facts of a recalled block: its lines "- {fact} Stated at {time}"."""
    return [line[2:].split(" Stated at ")[0] for line in text.splitlines() if line.startswith("- ")]


# -- each surface, run once: what memory gave the call (facts / documents / nodes) -----------------------


async def lc_retriever(engine: RecallEngine, **kw: Any) -> list[str]:
    return [d.page_content for d in lc.MemoriRetriever(engine=engine, entity_id="alice", **kw).invoke(QUESTION)]


async def lc_retriever_async(engine: RecallEngine, **kw: Any) -> list[str]:
    docs = await lc.MemoriRetriever(engine=engine, entity_id="alice", **kw).ainvoke(QUESTION)
    return [d.page_content for d in docs]


async def lc_injector(engine: RecallEngine, **kw: Any) -> list[str]:
    prompt = ChatPromptTemplate.from_messages([("system", SYSTEM), ("human", "{question}")])
    model = replies("ok")
    (prompt | lc.MemoriContextInjector(engine=engine, entity_id="alice", **kw) | model).invoke({"question": QUESTION})
    return _fact_lines(model.system_texts()[0])


async def lc_middleware(engine: RecallEngine, **kw: Any) -> list[str]:
    model = replies("ok")
    agent = create_agent(model, [], system_prompt=SYSTEM,
                         middleware=[lc.MemoriMiddleware(engine=engine, entity_id="alice", **kw)])
    await agent.ainvoke({"messages": [HumanMessage(QUESTION)]})
    return _fact_lines(model.system_texts()[0])


async def lg_recall_node(engine: RecallEngine, **kw: Any) -> list[str]:
    model = replies("ok")
    builder = StateGraph(lc.MemoriState)
    builder.add_node("memori", lc.memori_recall_node(engine, entity_id="alice", **kw))
    builder.add_node("model", lambda s: {"messages": [model.invoke(lc.with_memori_context(s, SYSTEM))]})
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_edge("model", END)
    builder.compile().invoke({"messages": [HumanMessage(QUESTION)]})
    return _fact_lines(model.system_texts()[0])


async def li_retriever(engine: RecallEngine, **kw: Any) -> list[str]:
    query_engine = RetrieverQueryEngine.from_args(li.MemoriRetriever(engine, "alice", **kw), llm=MockLLM())
    response = query_engine.query(QUESTION)
    return [n.node.get_content() for n in response.source_nodes]


async def li_retriever_async(engine: RecallEngine, **kw: Any) -> list[str]:
    nodes = await li.MemoriRetriever(engine, "alice", **kw).aretrieve(QUESTION)
    return [n.node.get_content() for n in nodes]


async def li_memory_block(engine: RecallEngine, **kw: Any) -> list[str]:
    block = li.MemoriMemoryBlock(engine=engine, entity_id="alice", **kw)
    return _fact_lines(await block.aget([ChatMessage(role="user", content=QUESTION)]))


RECALL_SURFACES: dict[str, tuple[Run, str, str]] = {
    # name: (run, the owner named in the warning, the logger)
    "langchain.MemoriRetriever": (lc_retriever, "MemoriRetriever", "memori_langchain"),
    "langchain.MemoriRetriever.ainvoke": (lc_retriever_async, "MemoriRetriever", "memori_langchain"),
    "langchain.MemoriContextInjector": (lc_injector, "MemoriContextInjector", "memori_langchain"),
    "langchain.MemoriMiddleware": (lc_middleware, "MemoriMiddleware", "memori_langchain"),
    "langgraph.memori_recall_node": (lg_recall_node, "memori_recall_node", "memori_langchain"),
    "llamaindex.MemoriRetriever": (li_retriever, "MemoriRetriever", "memori_llamaindex"),
    "llamaindex.MemoriRetriever.aretrieve": (li_retriever_async, "MemoriRetriever", "memori_llamaindex"),
    "llamaindex.MemoriMemoryBlock": (li_memory_block, "MemoriMemoryBlock", "memori_llamaindex"),
}


@pytest.fixture
def allergies() -> RecallEngine:
    """Three allergy facts of Alice's, all relevant to QUESTION, under ``config.limit=2``."""
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), config=RecallConfig(limit=2))
    engine.add("alice", ALLERGIES)
    return engine


@pytest.fixture(params=list(RECALL_SURFACES))
def surface(request: pytest.FixtureRequest) -> tuple[Run, str, str]:
    return RECALL_SURFACES[request.param]


# -- strict ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("strict", [{}, {"strict": False}], ids=["default", "strict=False"])
async def test_a_store_fault_fails_open_by_default(
    surface: tuple[Run, str, str], strict: dict[str, bool], allergies: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    run, owner, logger = surface
    assert ALLERGIES[0] in await run(allergies, **strict)  # healthy: memory is there
    break_store(allergies)
    with caplog.at_level(logging.WARNING, logger=logger):
        assert await run(allergies, **strict) == []  # the call goes on, without memory
    assert f"{owner}: recall failed for entity 'alice'" in caplog.text
    assert "continuing without memory" in caplog.text


async def test_strict_raises_the_store_fault(surface: tuple[Run, str, str], allergies: RecallEngine) -> None:
    run, _, _ = surface
    assert ALLERGIES[0] in await run(allergies, strict=True)  # strict changes nothing while the store is up
    break_store(allergies)
    with pytest.raises(chromadb.errors.ChromaError):
        await run(allergies, strict=True)


@pytest.mark.parametrize("strict", [False, True])
async def test_both_memori_retrievers_behave_the_same(strict: bool, allergies: RecallEngine) -> None:
    break_store(allergies)
    outcomes: list[Any] = []
    for run in (lc_retriever, li_retriever):
        try:
            outcomes.append(await run(allergies, strict=strict))
        except chromadb.errors.ChromaError as exc:
            outcomes.append(type(exc))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0] != [] if strict else outcomes[0] == []


def _unreadable_nodes() -> list[NodeWithScore]:
    class UnreadableNode(TextNode):
        """A node whose text is loaded from elsewhere, and that source is gone."""

        def get_content(self, metadata_mode: MetadataMode = MetadataMode.NONE) -> str:
            raise OSError("the node's text could not be loaded")

    return [NodeWithScore(node=TextNode(text="User likes tea.", id_="a"), score=0.2),
            NodeWithScore(node=UnreadableNode(text="?", id_="b"), score=0.9),
            NodeWithScore(node=TextNode(text="User likes coffee.", id_="c"), score=0.5)]


@pytest.mark.parametrize("strict", [{}, {"strict": False}], ids=["default", "strict=False"])
def test_postprocessor_fault_passes_the_nodes_on_by_their_own_score(
    strict: dict[str, bool], caplog: pytest.LogCaptureFixture
) -> None:
    nodes = _unreadable_nodes()
    with caplog.at_level(logging.WARNING, logger="memori_llamaindex"):
        out = li.MemoriHybridPostprocessor(k=2, **strict).postprocess_nodes(nodes, query_str="tea")
    assert [n.node.id_ for n in out] == ["b", "c"]
    assert [n.score for n in out] == [0.9, 0.5]  # not re-scored: memori's step is left out
    assert "MemoriHybridPostprocessor: re-ranking failed (OSError" in caplog.text


def test_strict_postprocessor_raises_the_fault() -> None:
    with pytest.raises(OSError, match="could not be loaded"):
        li.MemoriHybridPostprocessor(k=2, strict=True).postprocess_nodes(_unreadable_nodes(), query_str="tea")


# -- capture: fail open logs the failure, strict raises it at the next flush ------------------------------


class ExtractionDown:
    """A fact extractor whose model service is down (capture = extraction, then storage)."""

    uses_existing_facts = False

    def extract(self, messages: Any, existing: Any = ()) -> list[Any]:
        raise ConnectionError("extraction service unavailable")


async def lc_middleware_capture(engine: RecallEngine, **kw: Any) -> Any:
    middleware = lc.MemoriMiddleware(engine=engine, entity_id="alice", capture=True, extractor=ExtractionDown(), **kw)
    await create_agent(replies("ok"), [], middleware=[middleware]).ainvoke({"messages": [HumanMessage("I sing.")]})
    return middleware


async def lg_capture_node(engine: RecallEngine, **kw: Any) -> Any:
    capture = lc.memori_capture_node(engine, entity_id="alice", extractor=ExtractionDown(), **kw)
    graph = recall_model_capture_graph(engine, replies(AIMessage("ok")), capture, entity_id="alice")
    await graph.ainvoke({"messages": [HumanMessage("I sing.")]}, {"configurable": {"thread_id": "t"}})
    return capture


async def li_memory_block_capture(engine: RecallEngine, **kw: Any) -> Any:
    block = li.MemoriMemoryBlock(engine=engine, entity_id="alice", capture=True, extractor=ExtractionDown(), **kw)
    # A turn of its own: the blocks over one engine share their turns, and an earlier block's held "I sing." is
    # captured once, not again by this one.
    await block.aput([ChatMessage(role="user", content=f"I sing ({'strict' if kw.get('strict') else 'lenient'}).")])
    return block


CAPTURE_SURFACES: dict[str, tuple[Callable[..., Awaitable[Any]], str, str]] = {
    # name: (run -> the object to flush, the owner named in the warning, the logger)
    "langchain.MemoriMiddleware(capture=True)": (lc_middleware_capture, "MemoriMiddleware", "memori_langchain"),
    "langgraph.memori_capture_node": (lg_capture_node, "memori_capture_node", "memori_langchain"),
    "llamaindex.MemoriMemoryBlock(capture=True)": (li_memory_block_capture, "MemoriMemoryBlock", "memori_llamaindex"),
}


@pytest.mark.parametrize("name", list(CAPTURE_SURFACES))
async def test_a_capture_fault_fails_open_by_default_and_strict_raises_it(
    name: str, allergies: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    run, owner, logger = CAPTURE_SURFACES[name]
    with caplog.at_level(logging.WARNING, logger=logger):
        assert await (await run(allergies)).aflush(timeout=30)
    assert f"{owner}: capture failed for entity 'alice' (ConnectionError" in caplog.text
    strict = await run(allergies, strict=True)
    with pytest.raises(ConnectionError, match="extraction service unavailable"):
        await strict.aflush(timeout=30)
    assert allergies.count("alice") == len(ALLERGIES)  # nothing half-stored


# -- k ---------------------------------------------------------------------------------------------------


async def test_k_is_the_result_count_on_every_surface(surface: tuple[Run, str, str], allergies: RecallEngine) -> None:
    run, _, _ = surface
    assert len(await run(allergies)) == allergies.config.limit == 2  # default k=None: the engine's limit
    assert len(await run(allergies, k=1)) == 1
    assert len(await run(allergies, k=3)) == 3


def test_postprocessor_k_defaults_to_its_configs_limit() -> None:
    nodes = [NodeWithScore(node=TextNode(text=f"User likes tea number {i}.", id_=str(i)), score=0.9 - i / 10)
             for i in range(4)]
    config = RecallConfig(limit=3, relevance_threshold=0.0)
    assert len(li.MemoriHybridPostprocessor(config=config).postprocess_nodes(nodes, query_str="tea")) == 3
    assert len(li.MemoriHybridPostprocessor(k=1, config=config).postprocess_nodes(nodes, query_str="tea")) == 1


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (2.5, TypeError), ("3", TypeError), (True, TypeError)])
def test_a_bad_k_is_rejected_alike_everywhere(bad: Any, error: type[Exception], allergies: RecallEngine) -> None:
    makers: list[Callable[[], Any]] = [
        lambda: lc.MemoriRetriever(engine=allergies, k=bad),
        lambda: lc.MemoriContextInjector(engine=allergies, k=bad),
        lambda: lc.MemoriMiddleware(allergies, k=bad),
        lambda: lc.memori_recall_node(allergies, k=bad),
        lambda: li.MemoriRetriever(allergies, k=bad),
        lambda: li.MemoriMemoryBlock(engine=allergies, entity_id="alice", k=bad),
        lambda: li.MemoriHybridPostprocessor(k=bad),
        lambda: lc.memory_tools(allergies, k=bad),
        lambda: li.MemoriToolSpec(allergies, "alice", k=bad),
    ]
    for make in makers:
        with pytest.raises(error, match="k must be a non-negative int or None"):
            make()


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-1.0, ValueError), (float("nan"), ValueError),
                                        (float("inf"), ValueError), ("2", TypeError), (True, TypeError)])
def test_a_bad_timeout_is_rejected_alike_everywhere_naming_the_adapter(
        bad: Any, error: type[Exception], allergies: RecallEngine) -> None:
    makers: list[tuple[str, Callable[[], Any]]] = [
        ("MemoriRetriever", lambda: lc.MemoriRetriever(engine=allergies, timeout=bad)),
        ("MemoriContextInjector", lambda: lc.MemoriContextInjector(engine=allergies, timeout=bad)),
        ("MemoriMiddleware", lambda: lc.MemoriMiddleware(allergies, timeout=bad)),
        ("memori_recall_node", lambda: lc.memori_recall_node(allergies, timeout=bad)),
        ("MemoriRetriever", lambda: li.MemoriRetriever(allergies, timeout=bad)),
        ("MemoriMemoryBlock", lambda: li.MemoriMemoryBlock(engine=allergies, entity_id="alice", timeout=bad)),
        ("MemoriMemoryPostprocessor", lambda: li.MemoriMemoryPostprocessor(engine=allergies, timeout=bad)),
    ]
    for owner, make in makers:
        with pytest.raises(error, match=f"{owner}: timeout must be"):
            make()


# -- one engine check, one default -----------------------------------------------------------------------

ENGINE_TAKERS: dict[str, Callable[[Any], Any]] = {
    "langchain.MemoriRetriever": lambda e: lc.MemoriRetriever(engine=e, entity_id="alice"),
    "langchain.MemoriContextInjector": lambda e: lc.MemoriContextInjector(engine=e, entity_id="alice"),
    "langchain.MemoriMiddleware": lambda e: lc.MemoriMiddleware(e, "alice"),
    "langgraph.memori_recall_node": lambda e: lc.memori_recall_node(e, "alice"),
    "langgraph.memori_capture_node": lambda e: lc.memori_capture_node(e, "alice"),
    "llamaindex.MemoriRetriever": lambda e: li.MemoriRetriever(e, "alice"),
    "llamaindex.MemoriMemoryBlock": lambda e: li.MemoriMemoryBlock(engine=e, entity_id="alice"),
    "langchain.memory_tools": lambda e: lc.memory_tools(e, "alice"),
    "llamaindex.MemoriToolSpec": lambda e: li.MemoriToolSpec(e, "alice"),
}


@pytest.mark.parametrize("name", list(ENGINE_TAKERS))
@pytest.mark.parametrize("bad", [None, "engine", "a store"])
def test_a_wrong_engine_is_a_type_error_naming_it(name: str, bad: Any) -> None:
    wrong = ChromaStore.in_memory() if bad == "a store" else bad
    with pytest.raises(TypeError, match=rf"engine must be a memori_core\.RecallEngine, got {type(wrong).__name__}"):
        ENGINE_TAKERS[name](wrong)


def _default(surface: Any, name: str) -> Any:
    fields = getattr(surface, "model_fields", None)
    if fields is not None and name in fields:
        return fields[name].default
    return inspect.signature(surface).parameters[name].default


@pytest.mark.parametrize("surface", [
    lc.MemoriRetriever, lc.MemoriContextInjector, lc.MemoriMiddleware, lc.memori_recall_node, lc.memori_capture_node,
    li.MemoriRetriever, li.MemoriMemoryBlock, li.MemoriHybridPostprocessor, lc.memory_tools, li.MemoriToolSpec,
], ids=lambda s: f"{s.__module__}.{s.__name__}")
def test_one_default_everywhere(surface: Any) -> None:
    assert _default(surface, "strict") is STRICT_DEFAULT is False
    if surface is not lc.memori_capture_node:  # capture recalls nothing
        assert _default(surface, "k") is None
    if surface not in (lc.memori_capture_node, li.MemoriHybridPostprocessor, lc.memory_tools, li.MemoriToolSpec):
        assert _default(surface, "timeout") is None  # a whole recall's limit: none but the store's per request


@pytest.mark.parametrize("module", [
    memori_core.adapter_args, memori_core.failopen, memori_core.outage, memori_core.time_limit,
    memori_core.error_log, memori_core.memory_tools,
], ids=lambda m: m.__name__)
def test_the_shared_policy_imports_no_framework(module: Any) -> None:
    tree = ast.parse(inspect.getsource(module))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 0}
    outside = {name for name in imported if name.split(".")[0] not in (*sys.stdlib_module_names, "__future__")}
    assert outside == set()  # stdlib and memori_core's own modules (relative imports) only


@pytest.mark.parametrize("name, bad", [("captrue", True), ("similarity_top_k", 2), ("entity", "bob")])
def test_the_pydantic_llamaindex_adapters_refuse_a_keyword_that_names_no_field(name: str, bad: Any) -> None:
    # A tester's MemoriMemoryBlock(captrue=True) left capture off silently; MemoriRetriever refused the same typo.
    from memori_core import ChromaStore, RecallEngine
    from memori_llamaindex import MemoriMemoryBlock, MemoriMemoryPostprocessor

    engine = RecallEngine(store=ChromaStore.in_memory())
    for adapter in (MemoriMemoryBlock, MemoriMemoryPostprocessor):
        with pytest.raises(TypeError, match=rf"{adapter.__name__} got unexpected keyword argument '{name}'"):
            adapter(engine=engine, entity_id="a", **{name: bad})
    with pytest.warns(DeprecationWarning):  # the old name of k still works
        assert MemoriMemoryBlock(engine=engine, entity_id="a", limit=3).k == 3


@pytest.mark.parametrize("name, bad, meant", [("top_k", 1, "k"), ("search_kwargs", {"k": 1}, "k"),
                                               ("entity", "alice", "entity_id")])
def test_the_pydantic_langchain_adapters_refuse_a_keyword_that_names_no_field(name: str, bad: Any, meant: str) -> None:
    # A tester's MemoriRetriever(top_k=1) returned 3 documents, and entity="alice" failed only at invoke.
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    for adapter in (lc.MemoriRetriever, lc.MemoriContextInjector):
        with pytest.raises(TypeError, match=rf"{adapter.__name__} got unexpected keyword argument '{name}' "
                                            rf"\('{name}': did you mean '{meant}'\?\)"):
            adapter(engine=engine, entity_id="alice", **{name: bad})
    engine.add("alice", ["User is allergic to peanuts.", "User is vegan.", "User lives in Lyon."])
    # LangChain's own fields still work
    retriever = lc.MemoriRetriever(engine=engine, entity_id="alice", k=1, tags=["memory"], metadata={"app": "x"},
                                   name="memories")
    assert (retriever.tags, retriever.metadata, retriever.name) == (["memory"], {"app": "x"}, "memories")
    assert len(retriever.invoke("Can I eat peanut butter?")) == 1


# -- bad arguments: a plain error naming the adapter and the argument, whatever the adapter is built on ----

BAD_ARGUMENTS: list[tuple[str, Callable[[RecallEngine], Any], type[Exception], str]] = [
    ("block timeout=-1", lambda e: li.MemoriMemoryBlock(engine=e, entity_id="a", timeout=-1), ValueError,
     "MemoriMemoryBlock: timeout must be"),
    ("block timeout='2'", lambda e: li.MemoriMemoryBlock(engine=e, entity_id="a", timeout="2"), TypeError,
     "MemoriMemoryBlock: timeout must be"),
    ("block entity_id=None", lambda e: li.MemoriMemoryBlock(engine=e, entity_id=None), ValueError,
     r"pass entity_id=\.\.\. to MemoriMemoryBlock"),
    ("block without entity_id", lambda e: li.MemoriMemoryBlock(engine=e), ValueError,
     r"MemoriMemoryBlock does not know whose memory to use: pass entity_id=\.\.\. to MemoriMemoryBlock"),
    ("postprocessor without entity_id", lambda e: li.MemoriMemoryPostprocessor(engine=e), ValueError,
     "MemoriMemoryPostprocessor does not know whose memory to use"),
    ("block without engine", lambda e: li.MemoriMemoryBlock(entity_id="a"), TypeError,
     "MemoriMemoryBlock missing required argument: 'engine'"),
    ("block max_pending_captures=0", lambda e: li.MemoriMemoryBlock(engine=e, entity_id="a", max_pending_captures=0),
     ValueError, "MemoriMemoryBlock: max_pending_captures must be a positive int"),
    ("block max_pending_captures=True",
     lambda e: li.MemoriMemoryBlock(engine=e, entity_id="a", max_pending_captures=True),
     TypeError, "MemoriMemoryBlock: max_pending_captures must be a positive int, got True"),
    ("block max_pending_captures='64'",
     lambda e: li.MemoriMemoryBlock(engine=e, entity_id="a", max_pending_captures="64"),
     TypeError, "MemoriMemoryBlock: max_pending_captures must be a positive int, got '64'"),
    ("block extractor='rules'", lambda e: li.MemoriMemoryBlock(engine=e, entity_id="a", extractor="rules"),
     TypeError, r"MemoriMemoryBlock: extractor must have an extract\(messages, existing\) method, got str"),
    ("block priority='high'", lambda e: li.MemoriMemoryBlock(engine=e, entity_id="a", priority="high"), TypeError,
     "MemoriMemoryBlock: priority: "),
    ("memory postprocessor k=-1", lambda e: li.MemoriMemoryPostprocessor(engine=e, entity_id="a", k=-1), ValueError,
     "MemoriMemoryPostprocessor: k must be"),
    ("memory postprocessor k='3'", lambda e: li.MemoriMemoryPostprocessor(engine=e, entity_id="a", k="3"), TypeError,
     "MemoriMemoryPostprocessor: k must be"),
    ("hybrid postprocessor k=-1", lambda e: li.MemoriHybridPostprocessor(k=-1), ValueError,
     "MemoriHybridPostprocessor: k must be"),
    ("hybrid postprocessor config", lambda e: li.MemoriHybridPostprocessor(config="fast"), TypeError,
     "MemoriHybridPostprocessor: config: "),
    ("langchain retriever k=-1", lambda e: lc.MemoriRetriever(engine=e, k=-1), ValueError,
     "MemoriRetriever: k must be"),
    ("langchain retriever entity_id=' bob'", lambda e: lc.MemoriRetriever(engine=e, entity_id=" bob"), ValueError,
     "MemoriRetriever: entity_id ' bob' begins or ends with whitespace"),
    ("injector timeout=-1", lambda e: lc.MemoriContextInjector(engine=e, timeout=-1), ValueError,
     "MemoriContextInjector: timeout must be"),
]


@pytest.mark.parametrize("make, error, message", [case[1:] for case in BAD_ARGUMENTS],
                         ids=[case[0] for case in BAD_ARGUMENTS])
def test_a_bad_argument_raises_a_plain_error_naming_the_adapter_and_the_argument(
        make: Callable[[RecallEngine], Any], error: type[Exception], message: str, allergies: RecallEngine) -> None:
    with pytest.raises(error, match=message) as raised:
        make(allergies)
    assert type(raised.value) is error  # not pydantic's ValidationError (a ValueError subclass)
    assert "pydantic" not in str(raised.value)


FLAG_TAKERS: dict[str, Callable[[RecallEngine, Any], Any]] = {
    "MemoriMemoryBlock: capture": lambda e, v: li.MemoriMemoryBlock(engine=e, entity_id="a", capture=v),
    "MemoriMemoryBlock: strict": lambda e, v: li.MemoriMemoryBlock(engine=e, entity_id="a", strict=v),
    "MemoriMemoryPostprocessor: strict": lambda e, v: li.MemoriMemoryPostprocessor(engine=e, entity_id="a", strict=v),
    "MemoriHybridPostprocessor: strict": lambda e, v: li.MemoriHybridPostprocessor(strict=v),
    "MemoriHybridPostprocessor: attach_scores": lambda e, v: li.MemoriHybridPostprocessor(attach_scores=v),
    "MemoriRetriever: strict": lambda e, v: li.MemoriRetriever(e, "a", strict=v),
    "MemoriToolSpec: strict": lambda e, v: li.MemoriToolSpec(e, "a", strict=v),
    "MemoriMiddleware: capture": lambda e, v: lc.MemoriMiddleware(e, capture=v),
    "MemoriMiddleware: strict": lambda e, v: lc.MemoriMiddleware(e, strict=v),
    "MemoriContextInjector: strict": lambda e, v: lc.MemoriContextInjector(engine=e, strict=v),
    "memori_recall_node: strict": lambda e, v: lc.memori_recall_node(e, strict=v),
    "memori_capture_node: strict": lambda e, v: lc.memori_capture_node(e, strict=v),
    "memory_tools: strict": lambda e, v: lc.memory_tools(e, strict=v),
    "MemoriRecall: strict": lambda e, v: MemoriRecall(e, "a", strict=v),
}


@pytest.mark.parametrize("name", list(FLAG_TAKERS))
@pytest.mark.parametrize("bad", ["yes", "no", 1, None])
def test_a_flag_that_is_not_a_bool_is_refused_naming_it(name: str, bad: Any, allergies: RecallEngine) -> None:
    # capture="no" had been read as True (pydantic's lax bool, or bool("no")): capture on, against the app's wish.
    with pytest.raises(TypeError, match=f"{name} must be True or False, got {type(bad).__name__}"):
        FLAG_TAKERS[name](allergies, bad)
    assert FLAG_TAKERS[name](allergies, False) is not None


# -- entity_id set after construction: checked as the constructor checks it ---------------------------------

ENTITY_HOLDERS: dict[str, Callable[[RecallEngine, Any], Any]] = {  # each made strict: usage errors raise anyway
    "llamaindex.MemoriMemoryBlock": lambda e, who: li.MemoriMemoryBlock(engine=e, entity_id=who, capture=True,
                                                                        strict=True),
    "llamaindex.MemoriMemoryPostprocessor": lambda e, who: li.MemoriMemoryPostprocessor(engine=e, entity_id=who,
                                                                                        strict=True),
    "llamaindex.MemoriRetriever": lambda e, who: li.MemoriRetriever(e, who, strict=True),
    "llamaindex.MemoriToolSpec": lambda e, who: li.MemoriToolSpec(e, who, strict=True),
    "langchain.MemoriRetriever": lambda e, who: lc.MemoriRetriever(engine=e, entity_id=who, strict=True),
    "langchain.MemoriContextInjector": lambda e, who: lc.MemoriContextInjector(engine=e, entity_id=who, strict=True),
    "langchain.MemoriMiddleware": lambda e, who: lc.MemoriMiddleware(e, who, strict=True),
}


@pytest.mark.parametrize("name", list(ENTITY_HOLDERS))
@pytest.mark.parametrize("bad, error, message", [
    (" bob", ValueError, "entity_id ' bob' begins or ends with whitespace"),
    ("", ValueError, "entity_id"),
    (5.0, TypeError, "entity_id must be a non-empty str or an int"),
    (b"bob", TypeError, "entity_id must be a non-empty str or an int"),
])
def test_an_entity_id_set_later_is_refused_as_the_constructor_refuses_it(
        name: str, bad: Any, error: type[Exception], message: str, allergies: RecallEngine) -> None:
    make = ENTITY_HOLDERS[name]
    adapter = make(allergies, "bob")
    owner = name.split(".")[1]
    with pytest.raises(error, match=f"{owner}: {message}") as raised:
        adapter.entity_id = bad
    assert type(raised.value) is error and "pydantic" not in str(raised.value)
    assert adapter.entity_id == "bob"  # unchanged
    with pytest.raises(error) as at_construction:
        make(allergies, bad)
    assert str(at_construction.value) == str(raised.value)


@pytest.mark.parametrize("name", list(ENTITY_HOLDERS))
def test_an_int_entity_id_set_later_is_read_as_its_str(name: str, allergies: RecallEngine) -> None:
    adapter = ENTITY_HOLDERS[name](allergies, "bob")
    adapter.entity_id = 42
    assert adapter.entity_id == "42"


@pytest.mark.parametrize("name", ["llamaindex.MemoriRetriever", "langchain.MemoriRetriever",
                                  "langchain.MemoriContextInjector", "langchain.MemoriMiddleware"])
def test_an_adapter_that_takes_the_entity_per_call_may_have_its_default_entity_set_to_none(
        name: str, allergies: RecallEngine) -> None:
    adapter = ENTITY_HOLDERS[name](allergies, "bob")
    adapter.entity_id = None
    assert adapter.entity_id is None


async def test_a_memory_block_whose_entity_is_set_later_recalls_that_users_facts(allergies: RecallEngine) -> None:
    block = li.MemoriMemoryBlock(engine=allergies, entity_id="bob")
    question = [ChatMessage(role="user", content=QUESTION)]
    assert await block.aget(question) == ""
    block.entity_id = "alice"
    assert "User is allergic to peanuts." in _fact_lines(await block.aget(question))


def test_other_fields_set_later_are_checked_too(allergies: RecallEngine) -> None:
    block = li.MemoriMemoryBlock(engine=allergies, entity_id="alice")
    with pytest.raises(TypeError, match="MemoriMemoryBlock: capture must be True or False, got str 'yes'"):
        block.capture = "yes"
    with pytest.raises(ValueError, match="MemoriMemoryBlock: k must be a non-negative int or None, got -1"):
        block.k = -1
    retriever = li.MemoriRetriever(allergies, "alice")
    with pytest.raises(TypeError, match="MemoriRetriever: timeout must be a number of seconds or None, got str"):
        retriever.timeout = "2"
    with pytest.raises(TypeError, match="MemoriRetriever: strict must be True or False, got str 'no'"):
        retriever.strict = "no"
    assert (block.capture, block.k, retriever.timeout, retriever.strict) == (False, None, None, False)


def test_a_memory_blocks_extractor_and_capture_bound_set_later_are_checked_and_used(allergies: RecallEngine) -> None:
    # j15, finding 6: block.extractor = 42 was accepted, and every later capture failed.
    block = li.MemoriMemoryBlock(engine=allergies, entity_id="alice", capture=True)
    rules = block.extractor
    with pytest.raises(TypeError, match=r"MemoriMemoryBlock: extractor must have an extract\(messages, existing\) "
                                        "method, got int"):
        block.extractor = 42
    with pytest.raises(TypeError, match="MemoriMemoryBlock: max_pending_captures must be a positive int, got '8'"):
        block.max_pending_captures = "8"
    with pytest.raises(ValueError, match="MemoriMemoryBlock: max_pending_captures must be a positive int, got 0"):
        block.max_pending_captures = 0
    assert block.extractor is rules and block.max_pending_captures == 64
    block.extractor = None  # the default again: the rules
    assert type(block.extractor) is type(rules)
    block.max_pending_captures = 1
    assert block._captures.max_pending == 1  # noqa: SLF001 - the bound the captures apply


@pytest.mark.parametrize("cls", [lc.MemoriRetriever, lc.MemoriContextInjector])
def test_the_langchain_retriever_and_injector_take_engine_and_entity_by_position(cls: Any,
                                                                               allergies: RecallEngine) -> None:
    # As docs/langchain.md writes them, and as MemoriMiddleware(engine, ...) takes them.
    made = cls(allergies, "ann", k=2)
    assert made.engine is allergies and made.entity_id == "ann" and made.k == 2
    with pytest.raises(TypeError, match=f"{cls.__name__}: takes engine and entity_id by position"):
        cls(allergies, "ann", 2)
    with pytest.raises(TypeError, match=f"{cls.__name__}: got engine both by position and by name"):
        cls(allergies, engine=allergies)
    with pytest.raises(TypeError, match="engine must be a memori_core.RecallEngine"):
        cls("not an engine")


# -- the agent tools' core flag: a real boolean on every surface ----------------------------------------------


@pytest.mark.parametrize("bad", ["yes", "true", "1", 1, 0])
async def test_core_takes_a_real_boolean_on_every_tool_surface_and_refuses_anything_else_naming_it(bad: Any) -> None:
    # Tester j11 (finding 10): LangChain's remember read core="yes" or "1" as True (pydantic's lax bool) and stored a
    # core fact, injected on every turn, where MemoriToolSpec and the MCP server refused the same call.
    from mcp.shared.memory import create_connected_server_and_client_session

    from memori_core.mcp_server import build_server

    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    [lc_remember] = lc.memory_tools(engine, "lc", include=["remember"])
    [li_remember] = [t for t in li.MemoriToolSpec(engine, "li").to_tool_list() if t.metadata.name == "remember"]

    async def answers(core: Any) -> dict[str, tuple[bool, str]]:
        """Each surface's remember of one fact with ``core``: (refused, what the model reads)."""
        lc_answer = lc_remember.invoke({"name": "remember", "args": {"text": "User likes tea.", "core": core},
                                        "id": "c", "type": "tool_call"})
        try:
            li_answer = (False, li_remember.call(text="User likes tea.", core=core).content)
        except memori_core.memory_tools.MemoryToolError as exc:  # an agent hands it to the model
            li_answer = (True, str(exc))
        async with create_connected_server_and_client_session(build_server(engine, entity="mcp")) as session:
            mcp = await session.call_tool("add", {"facts": ["User likes tea."], "core": core})
        return {"langchain": (lc_answer.status == "error", lc_answer.content), "llamaindex": li_answer,
                "mcp": (mcp.isError, mcp.content[0].text)}

    for surface, (refused, text) in (await answers(bad)).items():
        assert refused and "core" in text, (surface, text)
    assert [engine.count(who) for who in ("lc", "li", "mcp")] == [0, 0, 0]  # nothing stored
    for surface, (refused, text) in (await answers(True)).items():
        assert not refused, (surface, text)
    assert [engine.list(who)[0].metadata.get("core") for who in ("lc", "li", "mcp")] == [True, True, True]


def test_the_langchain_tools_and_the_llamaindex_spec_describe_each_argument_to_the_model_in_the_same_words() -> None:
    # The two surfaces wrote their argument schemas apart, and the spec's fact_id said "as recall ... returned
    # it" of a tool named recall_memory; both now read memori_core.tool_arguments.
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    lc_tools = {t.name: t for t in lc.memory_tools(engine, "lc")}
    li_tools = {t.metadata.name: t for t in li.MemoriToolSpec(engine, "li").to_tool_list()}
    assert set(lc_tools) == set(li_tools) == set(memori_core.memory_tools.TOOL_NAMES.values())
    for name, lc_tool in lc_tools.items():
        lc_arguments = lc_tool.tool_call_schema.model_json_schema()["properties"]
        li_arguments = li_tools[name].metadata.get_parameters_dict()["properties"]
        assert lc_arguments == li_arguments, name
