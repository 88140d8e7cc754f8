"""One statement written by two processes at the same moment is stored once: the statement lock
(``memori_core.capture.statements``) is the process's only, so writers in two processes over one Chroma server could
each look at the user's facts before the other wrote, and capture's "User's band rehearses every tuesday at 7." stood
beside another process's ``remember("... every Tuesday at 7pm.")``. Each writer now looks again after its write
(``memori_core.capture.repeats``), and the first written stays. The server tests run real subprocesses over a real
``chroma run`` server, each held at a chosen point (its write until every writer has looked; an earlier add's
embedding or write until a later one looked again), so each race happens every time;
the others stand in a store marked shared, as a server's is, for the writer of another process, whose write lands
while this one's is under way."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import uuid
from pathlib import Path

import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine, RuleBasedFactExtractor, capture_facts
from memori_core.capture.repeats import repeats
from memori_core.facts import StoredFact
from memori_core.memory_tools import MemoryTools
from memori_core.tool_writes import Written, awrite_facts

TESTS = Path(__file__).resolve().parent
SAID = "remember that my band rehearses every tuesday at 7"
AGENTS = "User's band rehearses every Tuesday at 7pm."
USERS = "User's band rehearses every tuesday at 7."

WRITER = textwrap.dedent("""
    import asyncio, sys
    from pathlib import Path
    sys.path.insert(0, {tests!r})
    from _helpers import HashEmbedder
    from _holds import once, wait_for
    from memori_core import ChromaStore, RecallConfig, RecallEngine, RuleBasedFactExtractor, capture_facts
    from memori_core.memory_tools import MemoryTools

    port, collection, writer, gate, writers, hold = sys.argv[1:]
    port, gate, writers = int(port), Path(gate), int(writers)
    store = ChromaStore.http(host="127.0.0.1", port=port, collection=collection)
    embedder = HashEmbedder()
    engine = RecallEngine(store=store, embedder=embedder, config=RecallConfig(gate="off"))

    def touch(name):
        (gate / name).touch()

    if hold == "all":  # each writer holds its write until every writer has looked
        once(store, "upsert", lambda: (touch(writer), wait_for(lambda: len(list(gate.iterdir())) >= writers)))
    elif hold == "after-held":  # begins once the other's add has begun; says when it looked again after its add
        wait_for((gate / "held").exists)
        once(engine, "add", lambda: once(engine, "list", lambda: touch("looked"), after=True))
    else:  # holds its add in its embedding or its write until the other looked again, or for 3 s
        owner, name = (embedder, "embed_documents") if hold == "embedding" else (store, "upsert")
        once(owner, name, lambda: (touch("held"), wait_for((gate / "looked").exists, 3)))
    if writer.startswith("capture"):
        print(capture_facts(engine, "zoe", [("user", {said!r})], RuleBasedFactExtractor()))
    elif writer == "aremember":
        print(asyncio.run(MemoryTools(engine).aremember("zoe", {agents!r})))
    else:
        print(MemoryTools(engine).remember("zoe", {agents!r}))
    engine.close()
""").format(tests=str(TESTS), said=SAID, agents=AGENTS)


def race(server: tuple[str, int], gate: Path, *writers: str, holds: tuple[str, ...] = ()) -> \
        tuple[RecallEngine, list[str]]:
    """Run ``writers`` at once, each in a process of its own, each held as ``holds`` says (by default each holds
    its write until every writer has looked); returns an engine over their collection and what each printed."""
    collection = f"t_{uuid.uuid4().hex}"
    gate.mkdir()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(server[1]), collection, w, str(gate),
                               str(len(writers)), hold], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for w, hold in zip(writers, holds or ["all"] * len(writers))]
    outs = [p.communicate(timeout=180) for p in procs]
    for proc, (_, err) in zip(procs, outs):
        assert proc.returncode == 0, err[-3000:]
    store = ChromaStore.http(host=server[0], port=server[1], collection=collection)
    return RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off")), \
        [out.strip() for out, _ in outs]


@pytest.mark.server
@pytest.mark.parametrize("remember", ["remember", "aremember"])
def test_capture_and_a_remember_in_another_process_at_the_same_moment_store_the_statement_once(
        chroma_server, tmp_path, remember) -> None:
    engine, (captured, answer) = race(chroma_server, tmp_path / "gate", "capture", remember)
    (kept,) = engine.list("zoe", include_invalid=True)  # one row: the other deleted, not kept as history
    assert kept.content in (USERS, AGENTS)
    assert captured in (f"['{kept.id}']", "[]")  # capture's ids: the fact that stayed, or none
    said = "Remembered" if kept.content == AGENTS else "Already remembered"
    assert answer.startswith(f"{said} as fact {kept.id}: {kept.content}")


@pytest.mark.server
@pytest.mark.parametrize("held", ["embedding", "write"])
def test_a_remember_that_looks_again_while_an_earlier_begun_capture_has_not_written_answers_with_the_fact_kept(
        chroma_server, tmp_path, held) -> None:
    # The capture's add begins first and is held (embedding: before its write lock; write: its intent recorded,
    # before its rows) until the remember, begun after it, has written and looks again (or 3 s: the remember
    # waits for the capture's write then). The capture's fact lands after that look, which cannot see it.
    engine, (captured, answer) = race(chroma_server, tmp_path / "gate", "capture", "remember",
                                      holds=(held, "after-held"))
    (kept,) = engine.list("zoe", include_invalid=True)
    if held == "embedding":  # the remember wrote first: its fact stays, the capture's own went
        assert (kept.content, captured) == (AGENTS, "[]")
        assert answer == f"Remembered as fact {kept.id}: {AGENTS}"
    else:  # the capture had begun writing: the remember's look waited for it, and its own fact went
        assert (kept.content, captured) == (USERS, f"['{kept.id}']")
        assert answer == f"Already remembered as fact {kept.id}: {USERS} (not stored again)"


@pytest.mark.server
def test_two_processes_capturing_the_same_words_at_once_share_one_row_that_stays(chroma_server, tmp_path) -> None:
    engine, printed = race(chroma_server, tmp_path / "gate", "capture-1", "capture-2")
    (kept,) = engine.list("zoe", include_invalid=True)
    assert kept.content == USERS
    assert printed == [f"['{kept.id}']"] * 2  # the same derived id: the second write landed on the first's row


# -- the same race in one process, another process's write standing in a store marked shared -----------------------


class OtherProcessWritesMeanwhile(HashEmbedder):
    """Embeds as :class:`HashEmbedder`; while this process's writer embeds ``mine`` (its ``add`` under way, after its
    last look), the other process's writer stores ``theirs`` through its own engine over the same store."""

    def __init__(self, mine: str, theirs: str) -> None:
        super().__init__()
        self.mine, self.theirs, self.other = mine, theirs, None

    def embed_documents(self, texts: list[str]):
        if self.mine in texts and self.other is not None:
            other, self.other = self.other, None
            other.add("zoe", [self.theirs])
        return super().embed_documents(texts)


def racing(mine: str, theirs: str) -> RecallEngine:
    store = ChromaStore.in_memory()
    store.shared = True  # as a server's store, which other processes write to
    embedder = OtherProcessWritesMeanwhile(mine, theirs)
    engine = RecallEngine(store=store, embedder=embedder, config=RecallConfig(gate="off"))
    embedder.other = RecallEngine(store=store, embedder=HashEmbedder(), config=RecallConfig(gate="off"))
    return engine


# In these the other process's write lands while this one's add embeds, before it takes its write lock: the other
# fact is the first written (a write's ``seq`` is taken under its lock), so it stays and this writer's copy goes.


def test_a_capture_whose_statement_another_process_stored_meanwhile_keeps_the_first_written() -> None:
    engine = racing(USERS, AGENTS)
    assert capture_facts(engine, "zoe", [("user", SAID)], RuleBasedFactExtractor()) == []
    (kept,) = engine.list("zoe", include_invalid=True)
    assert kept.content == AGENTS


async def test_a_remember_whose_statement_another_process_stored_meanwhile_answers_with_the_one_kept() -> None:
    engine = racing(AGENTS, USERS)
    answer = await MemoryTools(engine).aremember("zoe", AGENTS)
    (kept,) = engine.list("zoe", include_invalid=True)
    assert kept.content == USERS
    assert answer == f"Already remembered as fact {kept.id}: {USERS} (not stored again)"


async def test_an_mcp_add_whose_statement_another_process_stored_meanwhile_keeps_the_first_written() -> None:
    engine = racing(AGENTS, USERS)
    (written,) = await awrite_facts(engine, "zoe", [AGENTS])
    (kept,) = engine.list("zoe", include_invalid=True)
    assert kept.content == USERS and written == Written(kept.id, True)


class HeldWhileEmbedding(HashEmbedder):
    """The other process's writer: its ``add`` has begun (its facts numbered) and waits in its embedding until
    ``go`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.embedding, self.go = threading.Event(), threading.Event()

    def embed_documents(self, texts: list[str]):
        self.embedding.set()
        assert self.go.wait(10)
        return super().embed_documents(texts)


def test_a_remember_whose_statement_another_process_began_writing_first_answers_with_that_fact() -> None:
    store = ChromaStore.in_memory()
    store.shared = True
    theirs = HeldWhileEmbedding()
    other = RecallEngine(store=store, embedder=theirs, config=RecallConfig(gate="off"))
    racer = threading.Thread(target=other.add, args=("zoe", [USERS]))
    racer.start()
    assert theirs.embedding.wait(10)  # their add began before this one; it lands once this one has looked

    class LandsTheirsFirst(HashEmbedder):
        def embed_documents(self, texts: list[str]):
            theirs.go.set()
            racer.join(10)
            return super().embed_documents(texts)

    engine = RecallEngine(store=store, embedder=LandsTheirsFirst(), config=RecallConfig(gate="off"))
    answer = MemoryTools(engine).remember("zoe", AGENTS)
    (kept,) = engine.list("zoe", include_invalid=True)
    assert kept.content == USERS  # the first written stays, this process's copy went
    assert answer.startswith(f"Already remembered as fact {kept.id}: {USERS} (not stored again)")


def test_a_store_only_this_process_writes_is_not_looked_at_again() -> None:
    engine = racing(AGENTS, USERS)
    engine.store.shared = False  # a folder or memory: the statement lock is every writer's
    MemoryTools(engine).remember("zoe", AGENTS)
    assert sorted(f.content for f in engine.list("zoe")) == [AGENTS, USERS]  # (a raw add is no statement writer)


def _fact(fid: str, text: str, seq: int, **fields) -> StoredFact:
    return StoredFact(fid, "zoe", text, "2026-11-01T10:00:00+00:00", seq=seq, **fields)


def test_of_a_statement_written_twice_the_first_written_stays_and_only_its_later_writer_deletes_the_other() -> None:
    mine, racer = _fact("a", USERS, seq=5), _fact("b", AGENTS, seq=7)
    assert repeats([mine], [racer]) == {}  # the racer's writer deletes it: it may have answered with it already
    assert repeats([racer], [mine]) == {"b": mine}
    late = _fact("a", USERS, seq=9)
    assert repeats([late], [racer]) == {"a": racer}  # this writer's own fact was the later one


def test_an_older_fact_saying_the_same_is_never_deleted_nor_one_that_ended_others() -> None:
    older, mine = _fact("old", AGENTS, seq=1), _fact("a", USERS, seq=5)
    assert repeats([mine], [older]) == {"a": older}
    ending = _fact("a", USERS, seq=5, supersedes=("x",))
    assert repeats([ending], [older]) == {}  # its supersede would be lost: both stay
    other = _fact("c", "User's band rehearses every Friday at 7.", seq=7)
    assert repeats([mine], [other]) == {}  # another statement
