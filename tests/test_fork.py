"""A process forked after its engine was built (gunicorn ``--preload``, a ``fork`` multiprocessing pool).

Over a Chroma server the child works: it talks to the server on connections of its own (never the parent's
sockets), sees writes made after the fork, and runs async calls on threads of its own. Over an embedded or
in-memory Chroma store, whose system does not survive a fork, every use in the child (reads of users the
parent had cached included) raises a clear ``RuntimeError`` saying what to do, instead of answering from the
parent's copy as it was at the fork, or hanging.

The children are real ``os.fork()`` children; each reports what it saw through a pipe.
"""

from __future__ import annotations

import ast
import asyncio
import os
import select
import signal
import threading
import uuid
from collections.abc import Callable

import pytest

from _helpers import HashEmbedder
from _proxy import DelayProxy
from memori_core import ChromaStore, RecallConfig, RecallEngine

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

OPEN = RecallConfig(gate="off")
GUARD = 120.0  # seconds: only so that a hung child fails the test instead of hanging the suite
USERS = [f"user-{i}" for i in range(6)]


def code_of(i: int) -> str:
    return f"User's secret code is S{i}X."


class Child:
    """A forked child that runs ``work()`` and reports ``repr`` of its result, or ``Type: message`` of what it
    raised; the parent may go on working before it reads :meth:`said`."""

    def __init__(self, work: Callable[[], object]) -> None:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child
            message = "the child reported nothing"
            try:
                os.close(read)
                message = repr(work())
            except BaseException as exc:  # noqa: BLE001 - reported to the parent
                message = f"{type(exc).__name__}: {exc}"
            finally:
                os.write(write, message.encode())
                os._exit(0)
        os.close(write)
        self.pid, self._read = pid, read

    def said(self) -> str:
        with os.fdopen(self._read) as pipe:
            ready, _, _ = select.select([pipe], [], [], GUARD)
            if not ready:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
                pytest.fail("the forked child hung")
            said = pipe.read()
        os.waitpid(self.pid, 0)
        return said


def cold_recalls(engine: RecallEngine, rounds: int) -> dict[str, int]:
    """``rounds`` recalls of every user, each from the store (as a worker meeting users it has not cached):
    how many answered the user's own fact, and how many did not (another answer, or an error)."""
    out = {"right": 0, "wrong": 0}
    for _ in range(rounds):
        for i, user in enumerate(USERS):
            engine.clear_cache()
            try:
                got = [f.content for f in engine.recall("What's my secret code?", user)]
            except Exception:  # noqa: BLE001 - counted: a request answered with another process's reply
                got = []
            out["right" if got == [code_of(i)] else "wrong"] += 1
    return out


def with_codes(engine: RecallEngine) -> RecallEngine:
    """``engine`` with each user of :data:`USERS` told their own secret code (:func:`code_of`)."""
    for i, user in enumerate(USERS):
        engine.add(user, [code_of(i)])
    return engine


def assert_child_and_parent_recall_right(engine: RecallEngine, rounds: int) -> None:
    """A child forked now and the parent, side by side, each make ``rounds`` :func:`cold_recalls` of every
    user, and every one answers the user's own code."""
    child = Child(lambda: cold_recalls(engine, rounds))
    in_parent = cold_recalls(engine, rounds)
    assert child.said() == repr({"right": rounds * len(USERS), "wrong": 0})
    assert in_parent == {"right": rounds * len(USERS), "wrong": 0}


def http_engine(port: int, collection: str) -> RecallEngine:
    return RecallEngine(store=ChromaStore.http(host="127.0.0.1", port=port, collection=collection),
                        embedder=HashEmbedder(), config=OPEN)


@pytest.mark.server
def test_a_child_forked_after_the_engine_was_built_talks_to_the_server_on_connections_of_its_own(
    chroma_server: tuple[str, int],
) -> None:
    host, port = chroma_server
    with DelayProxy(host, port) as proxy:  # forwards, and counts the client connections it is asked for
        engine = with_codes(http_engine(proxy.port, f"t_{uuid.uuid4().hex}"))
        assert cold_recalls(engine, 1) == {"right": len(USERS), "wrong": 0}  # the connection is kept alive
        before = proxy.accepted
        said = Child(lambda: cold_recalls(engine, 1)).said()
        opened_for_the_child = proxy.accepted - before  # (counted by the proxy, in this process)
        # The parent's connection is intact after the child's requests: its next recalls go through.
        assert cold_recalls(engine, 1) == {"right": len(USERS), "wrong": 0}
    assert said == repr({"right": len(USERS), "wrong": 0})
    assert opened_for_the_child >= 1, "the child sent its requests on the parent's connection"


@pytest.mark.server
def test_a_parent_and_its_forked_child_recall_side_by_side_without_a_failure(chroma_server) -> None:
    host, port = chroma_server
    engine = with_codes(http_engine(port, f"t_{uuid.uuid4().hex}"))
    engine.recall("What's my secret code?", USERS[0])
    assert_child_and_parent_recall_right(engine, 25)


@pytest.mark.server
def test_a_child_forked_while_a_parent_thread_held_a_users_entity_lock_recalls_that_user(chroma_server) -> None:
    host, port = chroma_server
    engine = http_engine(port, f"t_{uuid.uuid4().hex}")
    engine.add(USERS[0], [code_of(0)])
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        with engine._coord.entity_lock(USERS[0]):  # noqa: SLF001 - as a call of the user waiting on the store
            held.set()
            done.wait(GUARD)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(GUARD)
        child = Child(lambda: [f.content for f in engine.recall("What's my secret code?", USERS[0])])
        said = child.said()  # a child that waited for the parent thread's lock hangs, and fails here
    finally:
        done.set()
        holder.join(GUARD)
    assert said == repr([code_of(0)])


@pytest.mark.server
def test_a_forked_child_over_a_server_sees_writes_made_after_the_fork_and_runs_async_calls(chroma_server) -> None:
    host, port = chroma_server
    engine = http_engine(port, f"t_{uuid.uuid4().hex}")
    engine.add("alice", ["User lives in Lisbon."])

    async def recall_alice() -> list[str]:
        return sorted(f.content for f in await engine.arecall("Where do I live, what pet?", "alice"))

    assert asyncio.run(recall_alice()) == ["User lives in Lisbon."]  # alice cached; the async pools started
    written, go_on = os.pipe()

    def in_child() -> tuple[list[str], int]:
        assert select.select([written], [], [], GUARD)[0] and os.read(written, 1) == b"1"  # the parent wrote
        # The parent's copy of alice was inherited; the revision read before each recall shows it is stale.
        asyncio.run(engine.aadd("bob", ["User plays the cello."]))
        return asyncio.run(recall_alice()), engine.count("bob")

    child = Child(in_child)
    engine.add("alice", ["User has a dog."])  # after the fork
    os.write(go_on, b"1")
    assert child.said() == repr((["User has a dog.", "User lives in Lisbon."], 1))
    assert [f.content for f in engine.recall("cello", "bob")] == ["User plays the cello."]  # the child's write
    os.close(written)
    os.close(go_on)


@pytest.mark.parametrize("kind", ["folder", "in memory"])
def test_a_forked_child_cannot_read_the_parents_embedded_store_even_a_user_it_had_cached(tmp_path, kind) -> None:
    store = ChromaStore(path=tmp_path / "store") if kind == "folder" else ChromaStore.in_memory()
    engine = RecallEngine(store=store, embedder=HashEmbedder(), config=OPEN)
    engine.add("dave", ["User lives in Oslo."])
    assert [f.content for f in engine.recall("Oslo", "dave")] == ["User lives in Oslo."]  # dave is cached

    def in_child() -> list[str]:
        said = []
        for name, call in (("recall", lambda: engine.recall("Oslo", "dave")), ("count", lambda: engine.count("dave")),
                           ("list", lambda: engine.list("dave")), ("add", lambda: engine.add("dave", "User has a cat."))):
            try:
                call()
                said.append(f"{name}: no error")
            except RuntimeError as exc:
                said.append(f"{name}: {exc}")
        return said

    said = ast.literal_eval(Child(in_child).said())
    where = f"at {tmp_path / 'store'}" if kind == "folder" else "in memory"
    for name, line in zip(("recall", "count", "list", "add"), said):
        assert line.startswith(f"{name}: the embedded Chroma store {where} was opened in process {os.getpid()}"), line
        assert "forked from it: open the store and the engine in the child" in line
        assert "no --preload" in line and "ChromaStore.http" in line
    assert len(said) == 4
    # The parent's store is intact.
    engine.add("dave", "User has a cat.")
    assert sorted(f.content for f in engine.list("dave")) == ["User has a cat.", "User lives in Oslo."]
    store.close()


@pytest.mark.server
def test_a_store_over_a_chromadb_http_client_passed_in_is_shared_and_serves_a_forked_child(chroma_server) -> None:
    import chromadb

    from memori_core.store.chroma_client import chroma_settings

    host, port = chroma_server
    client = chromadb.HttpClient(host=host, port=port, settings=chroma_settings())
    store = ChromaStore(client=client, collection=f"t_{uuid.uuid4().hex}")
    assert store.shared is True  # other processes may write to it: revisions are read from the server
    engine = with_codes(RecallEngine(store=store, embedder=HashEmbedder(), config=OPEN))
    assert_child_and_parent_recall_right(engine, 10)


@pytest.mark.server
def test_forked_children_leave_the_parents_held_turn_to_the_parent_which_stores_it_once(chroma_server) -> None:
    # j15, finding 3: each child captured the parent's held turn again (times_seen 3-5 for a turn said once).
    import httpx
    from llama_index.core.base.llms.types import ChatMessage

    from _faults import Faults
    from _helpers import Clock
    from memori_core.failopen import OutageBreaker
    from memori_llamaindex import MemoriMemoryBlock

    host, port = chroma_server
    clock = Clock(1000.0)
    engine = http_engine(port, f"t_{uuid.uuid4().hex}")
    engine.outage = OutageBreaker(10.0, clock=clock)

    def turn(user: str, text: str) -> MemoriMemoryBlock:
        block = MemoriMemoryBlock(engine=engine, entity_id=user, capture=True)
        asyncio.run(block.aget(messages=[ChatMessage(role="user", content=text)], session_id=f"chat-{user}"))
        block.flush(GUARD)
        return block

    faults = Faults(engine.store)
    faults.arm("upsert", error=httpx.ConnectError, message="[Errno 111] Connection refused")
    held = turn("ana", "I play the cello.")
    assert held.capture_stats.held == 1

    def child_work() -> tuple[int, int, int, int]:
        faults.disarm()
        clock.advance(10)
        before = held.capture_stats
        after = turn(f"ben-{os.getpid()}", "I like hiking.").capture_stats  # the store answers in the child
        return before.held, before.submitted, after.held, after.completed

    children = [Child(child_work) for _ in range(3)]
    said = [child.said() for child in children]
    assert said == [repr((0, 0, 0, 1))] * 3  # nothing held nor counted in a child; its own turn alone stored
    faults.disarm()
    clock.advance(10)
    turn("ana", "Thanks.")
    cello = [f for f in engine.list("ana") if f.content == "User plays the cello."]
    assert [f.times_seen for f in cello] == [1]


@pytest.mark.server
def test_a_middleware_built_before_the_fork_stores_the_childs_waiting_turn_at_the_childs_close_not_the_parents(
        chroma_server) -> None:
    # rev40e finding 5: the child's capture pool started with no close hooks, so its engine.close() never captured
    # the turns its middleware held for their tools (gunicorn --preload: the middleware is built before the fork).
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage

    from memori_langchain import MemoriMiddleware, memory_tools
    from test_capture_waits_for_another_threads_tool_loop import GuardrailAfterTools, call, replies

    host, port = chroma_server
    engine = http_engine(port, f"t_{uuid.uuid4().hex}")
    memori = MemoriMiddleware(engine=engine, capture=True)

    def ended_after_its_tools(user: str, said: str) -> None:
        """``user``'s run, whose answer called a tool, ends in another middleware's raise after it: the turn waits."""
        agent = create_agent(replies(call("recall_memory", 1, query="diet")), tools=memory_tools(engine),
                             middleware=[memori, GuardrailAfterTools()])
        with pytest.raises(RuntimeError, match="guardrail"):
            agent.invoke({"messages": [HumanMessage(said)]},
                         {"configurable": {"entity_id": user, "thread_id": f"t-{user}"}})

    ended_after_its_tools("ana", "I am vegetarian. What do I eat?")  # the parent's turn, waiting at the fork

    def child_work() -> tuple[bool, int, int]:
        ended_after_its_tools("ben", "I play the cello. What should I practise?")
        closed = engine.close()  # the worker shuts down without flush()
        return closed, memori.capture_stats.completed, memori.capture_stats.dropped

    assert Child(child_work).said() == repr((True, 1, 0))  # its own turn alone, stored at its close
    assert [f.content for f in engine.list("ben")] == ["User plays the cello."]
    assert engine.list("ana") == []  # the parent's waiting turn was left to the parent
    assert memori.flush(timeout=GUARD)
    assert [(f.content, f.times_seen) for f in engine.list("ana")] == [("User is vegetarian.", 1)]


@pytest.mark.server
def test_a_forked_child_leaves_the_parents_unanswered_turn_to_the_parent(chroma_server) -> None:
    # Issue 21 review (rev41a): the middleware's record of turns no model answered was not emptied at fork, so the
    # child's next answered turn of the user captured the parent's unanswered turn too (and the parent again).
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage

    from memori_langchain import MemoriMiddleware

    class ProviderDown(GenericFakeChatModel):
        def _generate(self, *args: object, **kwargs: object) -> object:
            raise RuntimeError("model provider down")

    host, port = chroma_server
    engine = http_engine(port, f"t_{uuid.uuid4().hex}")
    memori = MemoriMiddleware(engine=engine, capture=True)
    failing = create_agent(ProviderDown(messages=iter([])), tools=[], middleware=[memori])
    with pytest.raises(RuntimeError, match="provider down"):
        failing.invoke({"messages": [HumanMessage("I am vegetarian.")]},
                       {"configurable": {"entity_id": "ana", "thread_id": "t1"}})

    def child_work() -> tuple[bool, int]:
        agent = create_agent(GenericFakeChatModel(messages=iter([AIMessage("Hi!")] * 5)), tools=[],
                             middleware=[memori])
        agent.invoke({"messages": [HumanMessage("Hello.")]}, {"configurable": {"entity_id": "ana", "thread_id": "t2"}})
        return bool(memori.flush(timeout=GUARD)), memori.capture_stats.submitted

    assert Child(child_work).said() == repr((True, 1))  # its own turn alone
    assert engine.list("ana") == []  # the parent's unanswered turn was left to the parent
    answering = create_agent(GenericFakeChatModel(messages=iter([AIMessage("Noted.")] * 5)), tools=[],
                             middleware=[memori])
    answering.invoke({"messages": [HumanMessage("Thanks.")]}, {"configurable": {"entity_id": "ana", "thread_id": "t3"}})
    assert memori.flush(timeout=GUARD)
    assert [(f.content, f.times_seen) for f in engine.list("ana")] == [("User is vegetarian.", 1)]
