"""The agent tools after a write whose reply was lost: they say what the store holds, never "nothing was changed" on
trust. The store is a real in-memory Chroma whose write calls raise httpx's ``ReadTimeout`` after doing their work
(the reply lost: the change landed) or before it (nothing sent), as a server behind a stalled proxy makes them;
the memory tools over it are ``MemoryTools`` itself, LangChain's ``memory_tools`` in a ``create_agent`` agent, and
LlamaIndex's ``MemoriToolSpec``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx
import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from _helpers import HashEmbedder, stored
from _langchain_fakes import replies
from memori_core import ChromaStore, RecallEngine, WriteOutcomeUnknown
from memori_core.memory_tools import OUTCOME_UNKNOWN, MemoryTools
from memori_langchain import memory_tools
from memori_llamaindex import MemoriToolSpec

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class LostReplyStore(ChromaStore):
    """A real in-memory Chroma store whose next ``upsert`` or ``delete`` (``lose``) raises ``ReadTimeout``, after
    doing its work (``landed=True``: the reply was lost) or before it; with ``silent_after``, every read after
    that failure times out too (the server went quiet)."""

    lose: str | None = None
    landed = True
    silent_after = False
    silent = False

    def _lost(self, method: str, work: Any) -> Any:
        if self.lose != method:
            return work()
        self.lose = None
        if self.landed:
            work()
        self.silent = self.silent_after
        raise httpx.ReadTimeout("timed out")

    def _read(self, work: Any) -> Any:
        if self.silent:
            raise httpx.ReadTimeout("timed out")
        return work()

    def upsert(self, *args: Any, **kwargs: Any) -> Any:
        return self._lost("upsert", lambda: super(LostReplyStore, self).upsert(*args, **kwargs))

    def delete(self, entity_id: str, ids: Sequence[str]) -> None:
        return self._lost("delete", lambda: super(LostReplyStore, self).delete(entity_id, ids))

    def get(self, entity_id: str, ids: Sequence[str]) -> Any:
        return self._read(lambda: super(LostReplyStore, self).get(entity_id, ids))

    def present(self, entity_id: str, ids: Sequence[str]) -> list[str]:
        return self._read(lambda: super(LostReplyStore, self).present(entity_id, ids))


@pytest.fixture
def lossy() -> RecallEngine:
    """An engine over a :class:`LostReplyStore` holding ann's address (the breaker off: every call reaches it)."""
    engine = RecallEngine(store=LostReplyStore.in_memory(), embedder=HashEmbedder(), outage_cooldown=0)
    engine.add("ann", ["User lives in Lisbon."])
    return engine


def lose_next(engine: RecallEngine, method: str, *, landed: bool = True, silent_after: bool = False) -> None:
    store = engine.store
    assert isinstance(store, LostReplyStore)
    store.lose, store.landed, store.silent_after = method, landed, silent_after


def lisbon(engine: RecallEngine) -> str:
    return engine.list("ann")[0].id


async def run(tools: MemoryTools, mode: str, op: str, *args: str) -> str:
    """``tools.<op>`` called sync or async (``mode``)."""
    if mode == "async":
        return await getattr(tools, "a" + op)("ann", *args)
    return getattr(tools, op)("ann", *args)


MODES = pytest.mark.parametrize("mode", ["sync", "async"])


@MODES
async def test_an_update_whose_reply_was_lost_is_confirmed_by_reading_it_back(lossy: RecallEngine, mode: str) -> None:
    fid = lisbon(lossy)
    lose_next(lossy, "upsert")
    answer = await run(MemoryTools(lossy), mode, "update", fid, "User lives in Porto.")
    assert answer == (f"Updated fact {fid}: User lives in Porto. (confirmed by reading it back after an error: "
                      "ReadTimeout)")
    lossy.store.silent = False
    assert stored(lossy, "ann") == ["User lives in Porto."]


@MODES
async def test_a_forget_whose_reply_was_lost_is_confirmed_by_reading_it_back(lossy: RecallEngine, mode: str) -> None:
    fid = lisbon(lossy)
    lossy.update("ann", fid, text="User lives in Madrid.")  # an earlier version, deleted with it
    lose_next(lossy, "delete")
    answer = await run(MemoryTools(lossy), mode, "forget", fid)
    assert answer == (f"Forgot fact {fid} and 1 earlier version of it (confirmed by reading it back after an "
                      "error: ReadTimeout).")
    assert lossy.count("ann", include_invalid=True) == 0


@MODES
async def test_a_remember_whose_reply_was_lost_is_confirmed_by_reading_it_back(lossy: RecallEngine, mode: str) -> None:
    lose_next(lossy, "upsert")
    answer = await run(MemoryTools(lossy), mode, "remember", "User has a dog named Rex.")
    assert answer.startswith("Remembered as fact ") and answer.endswith(
        ": User has a dog named Rex. (confirmed by reading it back after an error: ReadTimeout)")
    assert stored(lossy, "ann") == ["User has a dog named Rex.", "User lives in Lisbon."]


@MODES
async def test_writes_that_never_landed_say_what_the_store_still_holds(lossy: RecallEngine, mode: str) -> None:
    tools, fid = MemoryTools(lossy), lisbon(lossy)
    lose_next(lossy, "upsert", landed=False)
    assert await run(tools, mode, "update", fid, "User lives in Porto.") == (
        f"Fact {fid} was not updated (ReadTimeout): read back just now, it still says: User lives in Lisbon. "
        "A request that timed out may still land: call recall_memory before trying again.")
    lose_next(lossy, "delete", landed=False)
    assert await run(tools, mode, "forget", fid) == (
        f"Fact {fid} was not deleted (ReadTimeout): read back just now, memory still holds it. A request that "
        "timed out may still land: call recall_memory before trying again.")
    lose_next(lossy, "upsert", landed=False)
    assert await run(tools, mode, "remember", "User has a dog named Rex.") == (
        "Not saved (ReadTimeout): read back just now, memory does not hold it. A request that timed out may still "
        "land: call recall_memory before trying again.")
    assert stored(lossy, "ann") == ["User lives in Lisbon."]


@MODES
@pytest.mark.parametrize(("op", "what", "done"), [("update", "update", "changed"), ("forget", "forget", "deleted"),
                                                  ("remember", "remember", "saved")])
async def test_when_the_read_back_fails_too_the_outcome_is_said_to_be_unknown(
    lossy: RecallEngine, mode: str, op: str, what: str, done: str
) -> None:
    fid = lisbon(lossy)
    args = {"update": (fid, "User lives in Porto."), "forget": (fid,), "remember": ("User has a dog named Rex.",)}[op]
    lose_next(lossy, "delete" if op == "forget" else "upsert", silent_after=True)
    answer = await run(MemoryTools(lossy), mode, op, *args)
    assert answer == OUTCOME_UNKNOWN.format(what=what, error="ReadTimeout", done=done)
    assert "may or may not have been" in answer and "nothing was" not in answer
    lossy.store.silent = False
    assert stored(lossy, "ann") == {"update": ["User lives in Porto."], "forget": [],
                                    "remember": ["User has a dog named Rex.", "User lives in Lisbon."]}[op]


def test_strict_tools_raise_write_outcome_unknown_for_a_lost_reply(lossy: RecallEngine) -> None:
    fid = lisbon(lossy)
    lose_next(lossy, "upsert")
    with pytest.raises(WriteOutcomeUnknown) as raised:
        MemoryTools(lossy, strict=True).update("ann", fid, "User lives in Porto.")
    assert isinstance(raised.value.__cause__, httpx.ReadTimeout)
    assert (raised.value.operation, raised.value.ids) == ("update", [fid])


def test_a_langchain_agents_update_memory_tool_reports_the_update_that_landed(lossy: RecallEngine) -> None:
    fid = lisbon(lossy)
    model = replies(
        AIMessage("", tool_calls=[{"name": "update_memory", "args": {"fact_id": fid, "text": "User lives in Porto."},
                                   "id": "c1", "type": "tool_call"}]),
        AIMessage("Done."),
    )
    agent = create_agent(model, memory_tools(lossy))
    lose_next(lossy, "upsert")
    result = agent.invoke({"messages": [HumanMessage("I moved to Porto.")]},
                          config={"configurable": {"entity_id": "ann"}})
    [message] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert message.content.startswith(f"Updated fact {fid}: User lives in Porto. (confirmed")
    assert stored(lossy, "ann") == ["User lives in Porto."]


async def test_a_llamaindex_forget_memory_tool_reports_the_delete_that_landed(lossy: RecallEngine) -> None:
    fid = lisbon(lossy)
    tools = {t.metadata.name: t for t in MemoriToolSpec(lossy, "ann").to_tool_list()}
    lose_next(lossy, "delete")
    out = await tools["forget_memory"].acall(fact_id=fid)
    assert out.content == f"Forgot fact {fid} (confirmed by reading it back after an error: ReadTimeout)."
    assert lossy.count("ann") == 0
