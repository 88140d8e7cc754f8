"""One entity's memory never leaks into another's, and bad entity ids never reach the store."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

from _helpers import HashEmbedder, copy_rows, left_unchanged, store_rows, ungated_engine
from memori_core import ChromaStore, RecallEngine, unnormalized_entity_ids
from memori_core.store.base import EntityRows


class RecordingStore(ChromaStore):
    """A real in-memory ChromaStore that records every store call the engine makes."""

    calls: list[str]

    def _record(self, name: str) -> None:
        if not hasattr(self, "calls"):
            self.calls = []
        self.calls.append(name)

    def load_entity(self, entity_id: str) -> EntityRows:
        self._record("load_entity")
        return super().load_entity(entity_id)

    def get(self, entity_id: str, ids: Sequence[str]) -> list:
        self._record("get")
        return super().get(entity_id, ids)

    def upsert(self, entity_id: str, facts: Sequence[Any], embeddings: np.ndarray) -> None:
        self._record("upsert")
        super().upsert(entity_id, facts, embeddings)

    def update_seen(self, entity_id: str, facts: Sequence[Any]) -> None:
        self._record("update_seen")
        super().update_seen(entity_id, facts)

    def delete(self, entity_id: str, ids: Sequence[str]) -> None:
        self._record("delete")
        super().delete(entity_id, ids)

    def forget(self, entity_id: str) -> None:
        self._record("forget")
        super().forget(entity_id)

    def count(self, entity_id: str) -> int:
        self._record("count")
        return super().count(entity_id)

    def dimension(self) -> int | None:
        self._record("dimension")
        return super().dimension()

    def revision(self, entity_id: str) -> str | None:
        self._record("revision")
        return super().revision(entity_id)

    def bump_revision(self, entity_id: str) -> str:
        self._record("bump_revision")
        return super().bump_revision(entity_id)

    def commit_revision(self, entity_id: str, base: str | None) -> tuple[str, bool]:
        self._record("commit_revision")
        return super().commit_revision(entity_id, base)


SHARED_TEXTS = ["User likes green tea.", "User plays the cello.", "User lives in Lisbon."]

# Entity ids chosen to trip naive id schemes: prefixes, separators, case, inner whitespace, unicode (an id with
# surrounding whitespace is refused: BAD_ENTITY_IDS).
ENTITIES = ["u", "u1", "U1", "u 1", "1:u", "u:1", "1", "user:1:x", "üser", "用户", "a" * 200, "tenant/42", "x%y"] + [
    f"user-{i}" for i in range(12)
]


@pytest.fixture(scope="module")
def crowded_readonly() -> Iterator[RecallEngine]:
    """Many entities with overlapping texts, the same caller ids and one private fact each.

    Built once for the module (its 50 writes take most of a second): tests that only read take
    this one; tests that write take ``crowded``, a private copy. At teardown the store must
    still hold exactly the rows it was built with, so a test that wrote to it fails.
    """
    eng = ungated_engine()
    for i, entity in enumerate(ENTITIES):
        eng.add(entity, SHARED_TEXTS)
        eng.add(entity, [f"Private note {i} of {entity}: code word {i * 7919}.",
                         f"Shared caller id fact for entity number {i}."], ids=["private", "same-id"])
    with left_unchanged(eng, "the shared crowded engine") as shared:
        yield shared


# The entities the tests below write to (their assertions about every other entity read the store).
WRITTEN = ("u", "u1")


@pytest.fixture
def crowded(crowded_readonly: RecallEngine) -> RecallEngine:
    """A private copy of ``crowded_readonly`` for a test that writes: the same rows (ids, texts,
    metadata, embeddings) and revision records in a new in-memory store, under a new engine
    whose copies of the written entities are already loaded, as the builder's were."""
    store = ChromaStore.in_memory()
    copy_rows(store_rows(crowded_readonly.store), store)
    eng = RecallEngine(store=store, embedder=HashEmbedder(), config=crowded_readonly.config)
    for entity in WRITTEN:
        eng._cache_for(entity)
    return eng


def test_recall_returns_only_the_entitys_own_facts(crowded_readonly: RecallEngine) -> None:
    crowded = crowded_readonly
    for i, entity in enumerate(ENTITIES):
        facts = crowded.recall("private note code word shared caller id fact", entity, limit=100)
        assert len(facts) == len(SHARED_TEXTS) + 2
        assert {f.entity_id for f in facts} == {entity}
        by_id = {f.id: f.content for f in facts}
        assert by_id["private"] == f"Private note {i} of {entity}: code word {i * 7919}."
        assert by_id["same-id"] == f"Shared caller id fact for entity number {i}."
        assert crowded.count(entity) == len(SHARED_TEXTS) + 2


def test_explain_scores_only_the_entitys_rows(crowded_readonly: RecallEngine) -> None:
    crowded = crowded_readonly
    report = crowded.explain("green tea", "u1", limit=100)
    assert report.rows_scored == len(SHARED_TEXTS) + 2
    assert all("u 1" not in c.content and "U1" not in c.content for c in report.candidates)


def test_fresh_engine_loads_only_the_entitys_rows(crowded_readonly: RecallEngine) -> None:
    crowded = crowded_readonly
    fresh = RecallEngine(store=crowded.store, embedder=HashEmbedder(), config=crowded.config)
    for entity in ("u1", "u 1", "1:u", "u:1"):
        facts = fresh.recall("private note", entity, limit=100)
        assert {f.entity_id for f in facts} == {entity}
        assert len(facts) == len(SHARED_TEXTS) + 2


def test_forget_removes_one_entity_and_nothing_else(crowded: RecallEngine) -> None:
    crowded.forget("u1")
    assert crowded.count("u1") == 0
    assert crowded.recall("green tea", "u1") == []
    for entity in ENTITIES:
        if entity != "u1":
            assert crowded.count(entity) == len(SHARED_TEXTS) + 2, entity


def test_delete_by_shared_caller_id_touches_one_entity(crowded: RecallEngine) -> None:
    crowded.delete("u", ["same-id", "private"])
    assert crowded.count("u") == len(SHARED_TEXTS)
    for entity in ("u1", "1:u", "u:1", "user-3"):
        assert {f.id for f in crowded.store.get(entity, ["same-id", "private"])} == {"same-id", "private"}


def test_upsert_by_caller_id_touches_one_entity(crowded: RecallEngine) -> None:
    crowded.add("u1", ["Replaced private note."], ids=["private"])
    assert [f.content for f in crowded.store.get("u1", ["private"])] == ["Replaced private note."]
    assert crowded.store.get("U1", ["private"])[0].content.startswith("Private note")
    assert crowded.store.get("u 1", ["private"])[0].content.startswith("Private note")


def test_sighting_of_a_shared_text_touches_one_entity(crowded: RecallEngine) -> None:
    [fid] = crowded.add("u1", ["User likes green tea."])
    assert crowded.store.get("u1", [fid])[0].times_seen == 2
    assert all(crowded.store.get(e, [fid])[0].times_seen == 1 for e in ENTITIES if e != "u1")


# -- bad entity ids never reach the store -----------------------------------------------

BAD_ENTITY_IDS = [None, 123, 1.5, {"$ne": "x"}, ["u1"], b"u1", "", "   ", "\t\n", "u1 ", " u1", "u1\n", "\u00a0u1",
                  # look like another id: invisible characters (zero-width space, BOM, bidi override, NUL, an
                  # inner tab) and a text not in NFC ("u" + a combining diaeresis, for "\u00fc")
                  "u1\u200b", "\ufeffu1", "u\u202e1", "u\x001", "u\t1", "u\u0308ser"]


def expected_error(entity_id: Any) -> type[Exception]:
    return ValueError if isinstance(entity_id, str) else TypeError


@pytest.fixture(scope="module")
def recorded() -> Iterator[tuple[RecallEngine, RecordingStore, HashEmbedder]]:
    """u1's one fact behind a recording store, shared by the module's tests: they only read
    (the store is checked unchanged at teardown)."""
    store = RecordingStore.in_memory()
    emb = HashEmbedder()
    eng = RecallEngine(store=store, embedder=emb)
    eng.add("u1", ["User likes green tea."])
    with left_unchanged(eng, "the shared recording engine"):
        yield eng, store, emb


@pytest.fixture
def recording(recorded) -> tuple[RecallEngine, RecordingStore, HashEmbedder]:
    """``recorded`` with its store calls and embedder calls counted from zero for this test."""
    eng, store, emb = recorded
    store.calls = []
    emb.calls = 0
    return eng, store, emb


@pytest.mark.parametrize("entity_id", BAD_ENTITY_IDS, ids=repr)
def test_bad_entity_id_is_rejected_before_the_store_or_embedder(recording, entity_id: Any) -> None:
    eng, store, emb = recording
    error = expected_error(entity_id)
    with pytest.raises(error, match="entity_id"):
        eng.add(entity_id, ["User likes green tea."])
    with pytest.raises(error, match="entity_id"):
        eng.recall("green tea", entity_id)
    with pytest.raises(error, match="entity_id"):
        eng.recall("", entity_id)  # even a blank query checks the entity
    with pytest.raises(error, match="entity_id"):
        eng.explain("green tea", entity_id)
    with pytest.raises(error, match="entity_id"):
        eng.delete(entity_id, ["x"])
    with pytest.raises(error, match="entity_id"):
        eng.forget(entity_id)
    with pytest.raises(error, match="entity_id"):
        eng.count(entity_id)
    assert store.calls == []
    assert emb.calls == 0
    assert store.count("u1") == 1


@pytest.mark.parametrize("entity_id", [None, {"$ne": "x"}, "  "], ids=repr)
async def test_bad_entity_id_is_rejected_by_the_async_twins(recording, entity_id: Any) -> None:
    eng, store, emb = recording
    error = expected_error(entity_id)
    with pytest.raises(error):
        await eng.aadd(entity_id, ["User likes green tea."])
    with pytest.raises(error):
        await eng.arecall("green tea", entity_id)
    with pytest.raises(error):
        await eng.aexplain("green tea", entity_id)
    with pytest.raises(error):
        await eng.adelete(entity_id, ["x"])
    with pytest.raises(error):
        await eng.aforget(entity_id)
    assert store.calls == [] and emb.calls == 0


def test_recording_store_does_record_valid_calls(recording) -> None:
    """Guard for the tests above: the wrapper sees the engine's store calls."""
    eng, store, emb = recording
    eng.recall("my green tea", "u1")  # first person: the gate embeds no question-shape prototypes
    eng.count("u1")
    assert "revision" in store.calls and "count" in store.calls and emb.calls == 1


# -- ids that look alike: one user, one id ------------------------------------------------

JOSE_NFC, JOSE_NFD = unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")


def test_an_nfd_id_is_refused_with_its_nfc_form_so_one_user_never_gets_two_memories() -> None:
    eng = ungated_engine()
    eng.add(JOSE_NFC, ["User is allergic to peanuts."])  # typed in a web form (NFC)
    # The same name from a macOS client (NFD): an error that says which id to use, not an empty memory.
    with pytest.raises(ValueError, match=r"entity_id 'Jose\\u0301' is not in Unicode NFC form") as raised:
        eng.recall("allergies?", JOSE_NFD)
    assert f"'Jos\\xe9' ('{JOSE_NFC}')" in str(raised.value)
    assert [f.content for f in eng.recall("allergies?", unicodedata.normalize("NFC", JOSE_NFD))] == [
        "User is allergic to peanuts."
    ]


def test_the_nfc_hint_of_an_adapter_puts_only_the_argument_in_its_code() -> None:
    # j15, finding 8: "pass unicodedata.normalize('NFC', MemoriRetriever: entity_id)".
    from memori_llamaindex import MemoriMemoryBlock, MemoriRetriever

    eng = ungated_engine()
    for make in (lambda: MemoriRetriever(engine=eng, entity_id=JOSE_NFD),
                 lambda: MemoriMemoryBlock(engine=eng, entity_id=JOSE_NFD), lambda: eng.recall("where?", JOSE_NFD)):
        with pytest.raises(ValueError) as raised:
            make()
        assert "pass unicodedata.normalize('NFC', entity_id) " in str(raised.value)
    with pytest.raises(ValueError, match=r"^MemoriRetriever: entity_id 'Jose\\u0301' is not in Unicode NFC"):
        MemoriRetriever(engine=eng, entity_id=JOSE_NFD)


@pytest.mark.parametrize("entity_id", [
    "می\u200cخواهم",  # Persian: the non-joiner keeps می and خواهم apart, as spelled
    "خانه\u200cها",
    "\u0915\u094d\u200c\u0937",  # Devanagari: after a virama, a half form instead of the conjunct
    "\u0dc1\u0dca\u200d\u0dbb\u0dd3",  # Sinhala "shri": the joiner after the al-lakuna makes the conjunct
    "dev-\U0001f469\u200d\U0001f4bb",  # woman technologist: an emoji ZWJ sequence
    "\U0001f469\U0001f3fd\u200d\U0001f4bb",  # with a skin tone
    "\U0001f3f3\ufe0f\u200d\U0001f308",  # rainbow flag: a variation selector before the joiner
])
def test_an_id_whose_joiner_changes_how_it_is_shown_is_one_entity_of_its_own(entity_id: str) -> None:
    eng = ungated_engine()
    eng.add(entity_id, ["User lives in Oslo."])
    bare = entity_id.replace("\u200c", "").replace("\u200d", "")
    assert eng.count(entity_id) == 1 and eng.count(bare) == 0
    assert eng.entities() == [entity_id]


INVISIBLE = " holds an invisible character at "
REFUSED_IDS = {
    "an_invisible_character": (INVISIBLE, [
        ("alice\u200b", r"position 5, U\+200B \(ZERO WIDTH SPACE\), so it would name another entity than 'alice'"),
        ("al\u200dice", r"position 2, U\+200D \(ZERO WIDTH JOINER\)"),
        ("\u2066alice\u2069", r"position 0, U\+2066 \(LEFT-TO-RIGHT ISOLATE\).* than 'alice'"),
        ("ali\u00adce", r"position 3, U\+00AD \(SOFT HYPHEN\)"),
        ("ali\x00ce", r"position 3, U\+0000 \(a control character\)"),
    ]),
    "a_joiner_that_shows_nothing": (INVISIBLE, [
        ("ali\u200cce", r"position 3, U\+200C \(ZERO WIDTH NON-JOINER\), so it would name another entity than 'alice'"),
        ("\u062f\u0627\u200c\u0631", r"position 2, U\+200C"),  # after alef, which never joins the next letter
        ("\u0645\u06cc\u200c", r"position 2, U\+200C"),  # at the end: nothing to keep apart
        ("\U0001f469\u200d", r"position 1, U\+200D"),
        ("a\u200d\U0001f4bb", r"position 1, U\+200D"),
    ]),
    "a_space_other_than_the_plain_one": ("", [
        ("user\u00a0name", r"'user\\xa0name' holds U\+00A0 \(NO-BREAK SPACE\) at position 4, a space that looks "
                           r"like a plain one, so it would name another entity than 'user name'; use a plain space "
                           r"\(U\+0020\)"),
        ("user\u2009name", r"U\+2009 \(THIN SPACE\) at position 4"),
        ("ab\u202fc", r"U\+202F \(NARROW NO-BREAK SPACE\) at position 2"),
        ("\u5c71\u7530\u3000\u592a\u90ce", r"U\+3000 \(IDEOGRAPHIC SPACE\) at position 2"),
    ]),
}
"""Ids the engine refuses, by what is wrong with them: what the error says before the character, and rows of (the
id, what the error must say of it)."""


@pytest.mark.parametrize(("entity_id", "named"), [
    pytest.param(entity_id, says + named, id=f"{kind}-{n}")
    for kind, (says, rows) in REFUSED_IDS.items() for n, (entity_id, named) in enumerate(rows)
])
def test_an_id_with_an_invisible_character_or_an_odd_space_is_refused_naming_it_and_stores_nothing(
    entity_id: str, named: str
) -> None:
    eng = ungated_engine()
    with pytest.raises(ValueError, match=rf"entity_id .*{named}"):
        eng.add(entity_id, ["User lives in Oslo."])
    assert eng.entities() == [] and eng.count("alice") == 0  # not under this id, nor the one it would name


def test_facts_an_earlier_version_stored_under_a_no_break_space_id_are_moved_to_the_plain_one() -> None:
    eng = ungated_engine()
    with unnormalized_entity_ids():  # as an earlier version, which accepted the no-break space, stored them
        eng.add("user\u00a0name", ["User lives in Lisbon."])
    with pytest.raises(ValueError, match="memori_core.unnormalized_entity_ids"):
        eng.list("user\u00a0name")
    with unnormalized_entity_ids():
        eng.import_("user name", eng.export("user\u00a0name"))
        eng.forget("user\u00a0name")
    assert eng.entities() == ["user name"]
    assert [f.content for f in eng.list("user name")] == ["User lives in Lisbon."]


def test_facts_an_earlier_version_stored_under_an_nfd_id_are_moved_to_its_nfc_form_with_their_history() -> None:
    eng = ungated_engine()
    eng.add(JOSE_NFC, ["User is allergic to peanuts."])
    with unnormalized_entity_ids():  # as an earlier version, which took the NFD id as it came, stored them
        [lisbon] = eng.add(JOSE_NFD, ["User lives in Lisbon."])
        eng.add(JOSE_NFD, ["User lives in Porto."], supersedes=[lisbon])
    with pytest.raises(ValueError, match="memori_core.unnormalized_entity_ids"):
        eng.export(JOSE_NFD)  # refused again once the block is left
    assert eng.store.count(JOSE_NFD) == 2  # stored, and reachable only within the block

    with unnormalized_entity_ids():  # the move docs/stores.md gives
        eng.import_(JOSE_NFC, eng.export(JOSE_NFD))
        eng.forget(JOSE_NFD)

    assert eng.store.count(JOSE_NFD) == 0
    assert sorted(f.content for f in eng.list(JOSE_NFC)) == ["User is allergic to peanuts.", "User lives in Porto."]
    assert [f.content for f in eng.history(JOSE_NFC, lisbon)] == ["User lives in Lisbon.", "User lives in Porto."]
