"""The write path users expect: list, get, update, supersede, expiry, where filters, export / import.

Each test runs over a real embedded Chroma folder, and the server-marked ones
over a real `chroma run` server.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from _helpers import HashEmbedder, left_unchanged, ungated_engine
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.engine import derived_fact_id

OPEN = RecallConfig(gate="off")  # every gate off: these tests check what can be recalled at all


@pytest.fixture
def eng(tmp_path: Path, hash_embedder: Any) -> Any:
    store = ChromaStore(path=tmp_path / "store")
    yield RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    store.close()


@pytest.fixture(scope="module")
def rejecting_eng(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An engine over one embedded folder for the module's tests whose calls must all be rejected
    before anything is written (opening a folder per test costs more than the test); the folder
    must still hold exactly what it held when they started (checked at teardown)."""
    store = ChromaStore(path=tmp_path_factory.mktemp("write-api") / "store")
    try:
        engine = RecallEngine(store=store, embedder=HashEmbedder(), config=OPEN)
        with left_unchanged(engine, "the shared engine") as shared:
            yield shared
    finally:
        store.close()


def texts(facts: list[Any]) -> list[str]:
    return [f.content for f in facts]


# -- list / get ---------------------------------------------------------------


def test_list_pages_newest_first_and_filters_by_session_and_metadata(eng: RecallEngine) -> None:
    base = datetime(2026, 1, 1, tzinfo=timezone.utc)
    for i in range(5):
        eng.add("u", f"User fact number {i}.", created_at=base + timedelta(days=i),
                metadata={"source": "chat" if i % 2 else "import"}, session_id="s1" if i < 3 else "s2")
    eng.add("other", "User fact number 9.")
    page1 = eng.list("u", limit=2)
    page2 = eng.list("u", limit=2, offset=2)
    page3 = eng.list("u", limit=2, offset=4)
    assert texts(page1 + page2 + page3) == [f"User fact number {i}." for i in (4, 3, 2, 1, 0)]
    assert texts(eng.list("u", newest_first=False))[0] == "User fact number 0."
    assert texts(eng.list("u", session_id="s2")) == ["User fact number 4.", "User fact number 3."]
    assert texts(eng.list("u", where={"source": "chat"})) == ["User fact number 3.", "User fact number 1."]
    assert all(f.entity_id == "u" for f in eng.list("u", limit=100))


def test_get_returns_in_asked_order_and_never_another_entitys_fact(eng: RecallEngine) -> None:
    a, b = eng.add("u", ["User likes tea.", "User likes jazz."])
    (foreign,) = eng.add("v", ["User likes opera."])
    got = eng.get("u", [b, "missing", a, foreign])
    assert [f.id for f in got] == [b, a]
    assert eng.get("v", a) == []


@pytest.mark.parametrize(
    "kwargs, message",
    [({"limit": -1}, "limit"), ({"offset": "x"}, "offset"), ({"where": {"k": [1, 2]}}, "where"),
     ({"where": {"$or": []}}, "where"), ({"session_id": ""}, "session_id")],
)
def test_list_rejects_bad_arguments_by_name(rejecting_eng: RecallEngine, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        rejecting_eng.list("u", **kwargs)


# -- update -------------------------------------------------------------------


def test_update_text_reembeds_keeps_id_and_records_updated_at(eng: RecallEngine) -> None:
    (fid,) = eng.add("u", "User lives in Lyon.", session_id="s")
    assert texts(eng.recall("where does the user live Lyon", "u")) == ["User lives in Lyon."]
    fact = eng.update("u", fid, text="User lives in Paris.")
    assert fact.id == fid and fact.session_id == "s" and fact.updated_at is not None
    hits = eng.recall("Paris", "u")
    assert [(h.id, h.content) for h in hits] == [(fid, "User lives in Paris.")]
    assert hits[0].metadata["updated_at"] == fact.updated_at
    assert eng.count("u") == 1
    fresh = RecallEngine(store=eng.store, embedder=eng.embedder, config=OPEN)
    assert [(h.id, h.content) for h in fresh.recall("Paris", "u")] == [(fid, "User lives in Paris.")]


def test_update_metadata_replaces_it_without_reembedding(eng: RecallEngine, hash_embedder: Any) -> None:
    (fid,) = eng.add("u", "User drinks coffee.", metadata={"source": "chat", "n": 1})
    calls = hash_embedder.calls
    eng.update("u", fid, metadata={"source": "import"})
    assert hash_embedder.calls == calls
    assert eng.get("u", fid)[0].metadata == {"source": "import"}
    assert eng.recall("coffee", "u", where={"source": "chat"}) == []
    assert texts(eng.recall("coffee", "u", where={"source": "import"})) == ["User drinks coffee."]


def test_update_of_unknown_id_raises_keyerror_and_changes_nothing(eng: RecallEngine) -> None:
    (fid,) = eng.add("u", "User drinks coffee.")
    with pytest.raises(KeyError, match="no fact"):
        eng.update("u", "nope", text="x")
    with pytest.raises(KeyError):
        eng.update("other", fid, text="User drinks tea.")  # another entity's id is unknown here
    assert texts(eng.list("u")) == ["User drinks coffee."]


async def test_update_of_a_version_row_is_refused_naming_the_fact_and_changes_nothing(eng: RecallEngine) -> None:
    (fid,) = eng.add("u", "User lives in Lyon.")
    eng.update("u", fid, text="User lives in Paris.")
    before = [(f.id, f.content, f.metadata, f.valid_to) for f in eng.history("u", fid)]
    message = rf"id '{fid}@v1' is an earlier version of fact '{fid}'"
    with pytest.raises(ValueError, match=message):
        eng.update("u", f"{fid}@v1", text="User lives in Rome.")
    with pytest.raises(ValueError, match=message):
        eng.update("u", f"{fid}@v1", metadata={"x": 1})
    with pytest.raises(ValueError, match=message):
        await eng.aupdate("u", f"{fid}@v1", text="User lives in Rome.")
    assert [(f.id, f.content, f.metadata, f.valid_to) for f in eng.history("u", fid)] == before
    assert eng.restore("u", f"{fid}@v1").content == "User lives in Lyon."  # restore is the way back


def test_delete_of_a_version_id_erases_that_version_alone(eng: RecallEngine) -> None:
    (fid,) = eng.add("u", "User lives in Lyon.")
    eng.update("u", fid, text="User lives in Paris.")
    eng.update("u", fid, text="User lives in Rome.")
    assert eng.delete("u", [f"{fid}@v1"]) == [f"{fid}@v1"]
    assert [(f.id, f.content) for f in eng.history("u", fid)] == [
        (f"{fid}@v2", "User lives in Paris."), (fid, "User lives in Rome.")]


# -- supersede and expiry -----------------------------------------------------


def test_supersedes_marks_the_replaced_fact_invalid_in_the_same_write_and_keeps_it(eng: RecallEngine) -> None:
    (lyon,) = eng.add("u", "User lives in Lyon.")
    (other,) = eng.add("v", "User lives in Lyon.")
    (paris,) = eng.add("u", "User moved to Paris last month.", supersedes=[lyon])
    assert [h.content for h in eng.recall("where does the user live", "u")] == ["User moved to Paris last month."]
    (old,) = eng.get("u", lyon)
    assert old.valid_to is not None and old.superseded_by == paris
    assert eng.get("u", paris)[0].supersedes == (lyon,)
    assert [f.id for f in eng.get("v", other)] == [other] and eng.get("v", other)[0].valid_to is None
    assert eng.count("u") == 1 and eng.count("u", include_invalid=True) == 2
    # an id being added is never superseded by its own add
    assert eng.add("u", "User moved to Paris last month.", supersedes=[paris]) == [paris]
    assert eng.count("u") == 1 and eng.get("u", paris)[0].valid_to is None


def test_supersedes_naming_a_typo_or_another_users_id_raises_key_error_and_writes_nothing(eng: RecallEngine) -> None:
    (lisbon,) = eng.add("u", "User lives in Lisbon.")
    (bobs,) = eng.add("bob", "User lives in Oslo.")
    for bad in (lisbon[:-1], bobs):
        with pytest.raises(KeyError, match=rf"supersedes names '{bad}', but entity 'u' has no fact with that id"):
            eng.add("u", ["User lives in Porto.", "User has a dog."], supersedes=[lisbon, bad])
        assert [f.content for f in eng.list("u", include_invalid=True)] == ["User lives in Lisbon."]
    assert eng.get("bob", [bobs])[0].valid_to is None  # the other user's fact is untouched


def test_a_fact_to_supersede_deleted_meanwhile_by_another_writer_raises_and_writes_nothing(eng: RecallEngine) -> None:
    (lisbon,) = eng.add("u", "User lives in Lisbon.")

    def deleted_by_another_writer(stage: str, done: int, total: int) -> None:
        if stage == "embed":  # after the first check, before the write lock is taken
            eng.delete("u", [lisbon])

    with pytest.raises(KeyError, match=rf"supersedes names '{lisbon}'.*deleted meanwhile"):
        eng.add("u", "User lives in Porto.", supersedes=[lisbon], progress=deleted_by_another_writer)
    assert eng.count("u", include_invalid=True) == 0


def test_a_supersede_dated_before_the_fact_it_replaces_lands_in_that_facts_past(eng: RecallEngine) -> None:
    (google,) = eng.add("u", "User works at Google.", created_at="2026-05-01T00:00:00Z")
    (meta,) = eng.add("u", "User works at Meta.", supersedes=[google], created_at="2026-03-01T00:00:00Z")
    assert [(f.content, f.valid_to, f.superseded_by, f.supersedes) for f in eng.history("u", google)] == [
        ("User works at Meta.", "2026-05-01T00:00:00+00:00", google, ()), ("User works at Google.", None, None, (meta,))]
    assert texts(eng.list("u")) == ["User works at Google."]


def test_expired_facts_are_not_recalled_but_are_listed(eng: RecallEngine) -> None:
    past = datetime.now(timezone.utc) - timedelta(minutes=1)
    eng.add("u", "User is in Rome this week.", created_at=past - timedelta(days=7), expires_at=past, session_id="s")
    eng.add("u", "User likes Rome a lot.", expires_at=timedelta(days=30), session_id="s")
    assert texts(eng.recall("Rome", "u")) == ["User likes Rome a lot."]
    assert texts(eng.recall("Rome", "u", as_of=past - timedelta(days=1))) == ["User is in Rome this week."]
    assert {f.content for f in eng.list("u")} == {"User is in Rome this week.", "User likes Rome a lot."}
    report = eng.explain("Rome", "u")
    assert [c.content for c in report.candidates] == ["User likes Rome a lot."]
    fid = eng.list("u", limit=1, newest_first=False)[0].id
    eng.update("u", fid, expires_at=None)  # clearing the expiry brings it back
    assert set(texts(eng.recall("Rome", "u"))) == {"User is in Rome this week.", "User likes Rome a lot."}


@pytest.mark.parametrize("expires_at", [timedelta(days=-1), "2020-01-01T00:00:00Z"])
def test_an_expiry_at_or_before_the_facts_created_at_is_refused_naming_expires_at(
    rejecting_eng: RecallEngine, expires_at: Any
) -> None:
    with pytest.raises(ValueError, match=r"expires_at #1 \(.*\) is not after the fact's created_at"):
        rejecting_eng.add("u", ["User has a call.", "User has a meeting."], created_at=["2026-01-01T00:00:00Z", None],
                          expires_at=[None, expires_at])


@pytest.mark.parametrize("expires_at", ["2026-01-01T00:00:00Z", "2025-12-31T00:00:00Z"])
def test_update_refuses_an_expiry_at_or_before_the_facts_created_at_as_add_does(eng: RecallEngine,
                                                                                expires_at: Any) -> None:
    # update took it: the fact vanished from recall(as_of=...) at the times it had been valid.
    [call] = eng.add("u", "User has a call with Ana.", created_at="2026-01-01T00:00:00Z")
    before = eng.get("u", [call])
    with pytest.raises(ValueError, match=r"^expires_at \(.*\) is not after the fact's created_at \(2026-01-01T00:00:00"
                                         r"\+00:00\): .*expire it \(RecallEngine.expire\)$"):
        eng.update("u", call, expires_at=expires_at)
    assert eng.get("u", [call]) == before
    assert texts(eng.recall("call", "u", as_of="2026-01-02T00:00:00Z")) == ["User has a call with Ana."]


def test_expire_ends_a_fact_now_and_keeps_its_past_and_an_earlier_expiry(eng: RecallEngine) -> None:
    [call, trip] = eng.add("u", ["User has a call with Ana.", "User was in Rome."],
                           created_at=datetime.now(timezone.utc) - timedelta(days=2),
                           expires_at=[None, datetime.now(timezone.utc) - timedelta(days=1)])
    called = datetime.now(timezone.utc)
    expired = eng.expire("u", call)
    assert called.isoformat() <= expired.expires_at <= datetime.now(timezone.utc).isoformat()
    assert expired.updated_at == expired.expires_at and eng.get("u", [call]) == [expired]
    assert eng.recall("call with Ana", "u") == [] and {f.id for f in eng.list("u")} == {call, trip}  # still listed
    assert texts(eng.recall("call with Ana", "u", as_of=called - timedelta(hours=1))) == ["User has a call with Ana."]
    [kept] = eng.get("u", [trip])
    assert eng.expire("u", trip).expires_at == kept.expires_at  # expired already: not made valid until now
    assert asyncio.run(eng.aexpire("u", call)).expires_at == expired.expires_at
    with pytest.raises(KeyError, match="no fact with id 'nope'"):
        eng.expire("u", "nope")


def test_a_repeat_never_shortens_a_facts_life(eng: RecallEngine) -> None:
    [chess] = eng.add("u", "User likes chess.")
    eng.add("u", "User likes chess.", expires_at=timedelta(days=1))  # said again by a capture with a TTL
    [fact] = eng.get("u", [chess])
    assert fact.expires_at is None and fact.times_seen == 2  # permanent stays permanent
    [trip] = eng.add("u", "User is in Rome.", expires_at=timedelta(days=10))
    later = eng.get("u", [trip])[0].expires_at
    eng.add("u", "User is in Rome.", expires_at=timedelta(days=2))
    assert eng.get("u", [trip])[0].expires_at == later  # the later expiry wins
    eng.add("u", "User is in Rome.", expires_at=timedelta(days=20))
    assert eng.get("u", [trip])[0].expires_at > later
    eng.update("u", trip, expires_at=timedelta(days=1))  # update may shorten it
    assert eng.get("u", [trip])[0].expires_at < later
    [gone] = eng.add("u", "User is in Oslo.", created_at=datetime.now(timezone.utc) - timedelta(days=1),
                     expires_at=datetime.now(timezone.utc) - timedelta(seconds=1))
    eng.add("u", "User is in Oslo.")  # said again without an expiry: it holds again, for good
    assert eng.get("u", [gone])[0].expires_at is None
    # within one call too: the first sighting is stored, a later one with a TTL does not shorten it
    [a, b] = eng.add("u", ["User plays go.", "User plays go."], expires_at=[None, timedelta(days=1)])
    assert a == b and eng.get("u", [a])[0].expires_at is None


def test_saying_a_facts_old_text_again_after_an_update_stores_it(eng: RecallEngine) -> None:
    [diet] = eng.add("u", "User is vegetarian.")
    eng.update("u", diet, text="User is vegan.")  # the id (derived from the old text) stays
    [again] = eng.add("u", "User is vegetarian.")  # changed back: news, not a sighting of "vegan"
    assert again != diet
    assert sorted((f.content, f.times_seen) for f in eng.list("u")) == [("User is vegan.", 1),
                                                                          ("User is vegetarian.", 1)]
    assert eng.add("u", "user is vegetarian") == [again]  # said once more: a sighting of that fact
    assert eng.get("u", [again])[0].times_seen == 2


def test_saying_an_updated_facts_new_text_again_is_a_sighting_and_deleting_it_leaves_no_copy(
        eng: RecallEngine) -> None:
    [job] = eng.add("u", "User works at Acme.")
    eng.update("u", job, text="User works at Globex.")  # keeps the id derived from "Acme"
    assert eng.add("u", ["user works at globex", "User is vegan."])[0] == job  # said again: found by its text
    assert eng.add("u", "User works at Globex.") == [job]
    assert [(f.id, f.times_seen) for f in eng.list("u") if "Globex" in f.content] == [(job, 3)]
    [shown] = eng.recall("Where do I work?", "u", limit=1)
    eng.delete("u", [shown.id])  # "delete that memory": nothing of it is left to recall
    assert shown.id == job and all("Globex" not in f.content for f in eng.list("u", include_invalid=True))
    assert [f.content for f in eng.recall("Where do I work?", "u")] == ["User is vegan."]


def test_a_text_an_update_moved_twice_is_found_under_its_moved_id_but_a_callers_id_is_kept_apart(
        eng: RecallEngine) -> None:
    [diet] = eng.add("u", "User is vegetarian.")
    eng.update("u", diet, text="User is vegan.")
    [back] = eng.add("u", "User is vegetarian.")  # the old text again: stored under <diet>-1
    eng.update("u", back, text="User is pescatarian.")
    assert eng.add("u", "User is pescatarian.") == [back]  # found under the moved id
    eng.add("u", "User likes chess.", ids=["hobby"])
    eng.update("u", "hobby", text="User likes go.")
    assert eng.add("u", "User likes go.") != ["hobby"]  # a caller's id names a fact the caller keeps apart
    assert sorted(f.content for f in eng.list("u")) == ["User is pescatarian.", "User is vegan.", "User likes go.",
                                                        "User likes go."]


def test_importing_an_updated_facts_new_text_without_an_id_lands_on_that_fact(eng: RecallEngine) -> None:
    [job] = eng.add("u", "User works at Acme.")
    eng.update("u", job, text="User works at Globex.")
    assert eng.import_("u", [{"text": "User works at Globex."}, {"text": "User is vegan."}])[0] == job
    assert sorted(f.content for f in eng.list("u")) == ["User is vegan.", "User works at Globex."]


def test_a_created_at_more_than_a_day_ahead_is_refused_naming_it(eng: RecallEngine) -> None:
    with pytest.raises(ValueError, match="created_at .* in the future"):
        eng.add("u", "User lives on Mars.", created_at="2999-01-01T00:00:00Z")
    with pytest.raises(ValueError, match=r"records\[0\]\['created_at'\] .* in the future"):
        eng.import_("u", [{"text": "User lives on Mars.", "created_at": "2999-01-01T00:00:00Z"}])
    assert eng.count("u") == 0
    soon = datetime.now(timezone.utc) + timedelta(hours=1)  # another writer's clock may run ahead
    eng.add("u", "User lives in Lisbon.", created_at=soon)
    assert eng.count("u") == 1


def test_expires_at_validation_names_the_argument(eng: RecallEngine) -> None:
    with pytest.raises(ValueError, match="expires_at"):
        eng.add("u", "User is here.", expires_at="next tuesday")
    with pytest.raises(TypeError, match="expires_at"):
        eng.add("u", "User is here.", expires_at=5)
    with pytest.raises(TypeError, match="supersedes"):
        eng.add("u", "User is here.", supersedes=[3])
    assert eng.count("u") == 0


# -- where filters --------------------------------------------------------------


def test_where_filters_apply_before_pool_sizing_and_support_in(eng: RecallEngine) -> None:
    eng.add("u", [f"User note about cooking {i}." for i in range(40)], metadata={"topic": "food"})
    eng.add("u", "User note about cooking pasta in Rome.", metadata={"topic": "travel"})
    eng.add("u", "User note about cooking in Oslo.", metadata={"topic": "work", "flag": True})
    hits = eng.recall("cooking", "u", limit=5, where={"topic": "travel"})
    assert texts(hits) == ["User note about cooking pasta in Rome."]
    hits = eng.recall("cooking", "u", limit=5, where={"topic": {"$in": ["travel", "work"]}})
    assert set(texts(hits)) == {"User note about cooking pasta in Rome.", "User note about cooking in Oslo."}
    assert eng.recall("cooking", "u", where={"flag": 1}) == []  # a bool never matches a number
    assert eng.recall("cooking", "u", where={"topic": "nothing"}) == []


def test_where_can_never_reach_another_entity(eng: RecallEngine) -> None:
    eng.add("victim", "Victim secret code is 1234.", metadata={"source": "chat"})
    eng.add("u", "User likes chess.", metadata={"source": "chat"})
    for where in ({"source": "chat"}, {"source": {"$in": ["chat"]}}):
        assert all(h.entity_id == "u" for h in eng.recall("secret code 1234", "u", where=where))
        assert "Victim secret code is 1234." not in texts(eng.list("u", where=where))
    for where in ({"entity_id": "victim"}, {"entity_id": {"$ne": "u"}}):  # a fact's own field: refused, not read
        with pytest.raises(ValueError, match="'entity_id' is a field of the fact"):
            eng.recall("secret code 1234", "u", where=where)
        with pytest.raises(ValueError, match="'entity_id' is a field of the fact"):
            eng.list("u", where=where)


def test_neighbours_outside_the_filter_do_not_enter_the_pool(hash_embedder: Any) -> None:
    eng = ungated_engine(hash_embedder)
    eng.add("u", ["We talked about the garden.", "Tomatoes grew well.", "The dog barked."],
            metadata=[{"k": "a"}, {"k": "b"}, {"k": "a"}], session_id="s")
    report = eng.explain("garden", "u", where={"k": "a"})
    assert {c.content for c in report.candidates} <= {"We talked about the garden.", "The dog barked."}


# -- export / import -------------------------------------------------------------


def _fill(eng: RecallEngine) -> None:
    eng.add("u", ["I adopted a cat.", "Her name is Miso.", "She is grey."], session_id="s1",
            metadata={"source": "chat"})
    eng.add("u", ["User is vegetarian.", "User runs marathons."], created_at="2025-05-01T10:00:00+00:00")
    eng.add("u", "User is vegetarian.")  # a second sighting
    eng.add("u", "User visits Rome.", expires_at=timedelta(days=3))


QUERIES = ["what is the cat called", "food the user avoids", "running", "grey pet", "Rome"]


def _recall_table(eng: RecallEngine) -> list[list[tuple[str, float]]]:
    return [[(h.id, round(h.rank_score, 6)) for h in eng.recall(q, "u", limit=5)] for q in QUERIES]


def test_export_import_as_json_lines_reproduces_recall_in_a_fresh_store(
    eng: RecallEngine, tmp_path: Path, hash_embedder: Any
) -> None:
    _fill(eng)
    before = _recall_table(eng)
    path = tmp_path / "u.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in eng.export("u", include_vectors=True)))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["text"] for r in records][:3] == ["I adopted a cat.", "Her name is Miso.", "She is grey."]
    assert next(r for r in records if r["text"] == "User is vegetarian.")["times_seen"] == 2

    calls = hash_embedder.calls
    target = ungated_engine(hash_embedder)
    ids = target.import_("u2", records)
    # The vectors were reused: one text embedded, to learn the engine's dimension (the store was empty).
    assert hash_embedder.calls == calls + 1
    assert sorted(ids) == sorted(r["id"] for r in records)
    after = [[(h.id, round(h.rank_score, 6)) for h in target.recall(q, "u2", limit=5)] for q in QUERIES]
    assert after == before
    assert [r["text"] for r in target.export("u2")] == [r["text"] for r in records]


def test_import_with_reembed_moves_to_another_embedder(eng: RecallEngine) -> None:
    _fill(eng)
    records = eng.export("u", include_vectors=True)

    class Other:
        name = "other-32"

        def embed_documents(self, texts: list[str]) -> np.ndarray:
            return np.stack([self.embed_query(t) for t in texts])

        def embed_query(self, text: str) -> np.ndarray:
            rng = np.random.default_rng(abs(hash(text.lower())) % 2**32)
            return rng.standard_normal(32).astype(np.float32)

    target = RecallEngine(store=ChromaStore.in_memory(), embedder=Other(), config=OPEN)
    target.add("seed", "User exists.")  # the target store is 32-d
    with pytest.raises(ValueError, match="reembed=True"):
        target.import_("u", records)
    assert target.count("u") == 0
    target.import_("u", records, reembed=True)
    assert target.count("u") == len(records)
    assert "Her name is Miso." in texts(target.recall("Miso", "u", limit=6))


@pytest.mark.parametrize(
    "records, message",
    [([{"text": ""}], r"records\[1\]\['text'\]"), ([{"text": "x", "seq": -1}], "seq"),
     ([{"text": "x", "colour": 1}], "unknown field"), ([{"text": "x", "vector": [float("nan")]}], "vector"),
     ([{"text": "x", "metadata": {"times_seen": 3}}], "reserved"), (["x"], r"records\[1\]"),
     ({"text": "x"}, "list of dicts")],
)
def test_import_validates_every_record_before_writing(rejecting_eng: RecallEngine, records: Any, message: str) -> None:
    good = {"text": "User is fine."}
    with pytest.raises((TypeError, ValueError), match=message):
        rejecting_eng.import_("u", [good, *records] if isinstance(records, list) else records)
    assert rejecting_eng.count("u") == 0


def test_add_update_and_import_refuse_a_fact_over_max_fact_chars_naming_it(rejecting_eng: RecallEngine) -> None:
    huge = "User is allergic to peanuts. " + "Lorem ipsum dolor sit amet. " * 4000  # 112,028 characters stripped
    too_long = r"is 112,028 characters long; at most 100,000 are stored"
    with pytest.raises(ValueError, match=rf"fact #1 {too_long}"):
        rejecting_eng.add("u", ["User has a cat.", huge])
    with pytest.raises(ValueError, match=rf"fact #0 {too_long}"):
        rejecting_eng.update("u", "any-id", text=huge)
    with pytest.raises(ValueError, match=rf"records\[1\]\['text'\] {too_long}"):
        rejecting_eng.import_("u", [{"text": "User has a cat."}, {"text": huge}])
    assert rejecting_eng.count("u", include_invalid=True) == 0


def test_import_refuses_different_records_of_one_id_naming_both_and_the_field(rejecting_eng: RecallEngine) -> None:
    records = [{"id": "a", "text": "User has a cat."}, {"id": "b", "text": "User has a dog."},
               {"id": "a", "text": "User has two cats."}]
    with pytest.raises(ValueError, match=r"records\[2\] has the same id 'a' as records\[0\], with a different text"):
        rejecting_eng.import_("u", records)
    same_text = [{"text": "User likes tea.", "created_at": "2024-01-01T00:00:00Z"},
                 {"text": "User likes tea.", "created_at": "2024-02-01T00:00:00Z"}]
    with pytest.raises(ValueError, match=r"records\[1\] has the same fact as records\[0\] \('User likes tea.'; a "
                                         r"record without an \"id\" is identified by its normalised text\), with a "
                                         r"different created_at"):
        rejecting_eng.import_("u", same_text)
    assert rejecting_eng.count("u") == 0


def test_import_stores_a_record_repeated_exactly_once(eng: RecallEngine) -> None:
    profile = [{"text": "User likes tea."}, {"text": "User is allergic to cats."}, {"text": "User likes tea."}]
    ids = eng.import_("u", profile)
    assert ids == [derived_fact_id("User likes tea."), derived_fact_id("User is allergic to cats.")]
    assert sorted(f.content for f in eng.list("u")) == ["User is allergic to cats.", "User likes tea."]
    exported = eng.export("u")
    assert eng.import_("w", exported + exported) == [r["id"] for r in exported]  # an export concatenated twice
    assert [(f.content, f.times_seen) for f in eng.list("w")] == [(f.content, f.times_seen) for f in eng.list("u")]


def test_import_of_vectors_of_another_dimension_into_an_empty_store_breaks_no_user(hash_embedder: Any) -> None:
    engine = ungated_engine(hash_embedder)
    with pytest.raises(ValueError, match=r"records carry 3-d vectors but this engine's embedder .* makes 64-d"):
        engine.import_("a", [{"text": "t", "vector": [1.0, 0.0, 0.0]}])
    assert engine.count("a") == 0 and engine.store.dimension() is None
    engine.add("b", ["User likes tea."])  # another user's add still works (it failed when the 3-d rows landed)
    assert [f.content for f in engine.recall("tea", "b")] == ["User likes tea."]
    assert engine.import_("a", [{"text": "t", "vector": [1.0, 0.0, 0.0]}], reembed=True)  # the way out


# -- the same over a real Chroma server -----------------------------------------


@pytest.mark.server
def test_write_api_over_a_chroma_server(chroma_server: tuple[str, int], hash_embedder: Any) -> None:
    host, port = chroma_server
    store = ChromaStore.http(host=host, port=port, collection=f"t_{uuid.uuid4().hex}")
    eng = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)
    (lyon,) = eng.add("u", "User lives in Lyon.", metadata={"source": "chat"})
    eng.add("u", "User moved to Paris.", supersedes=lyon, metadata={"source": "chat"})
    eng.add("u", "User was in Rome.", created_at=datetime.now(timezone.utc) - timedelta(days=1),
            expires_at=datetime.now(timezone.utc) - timedelta(seconds=1))
    assert texts(eng.recall("where does the user live", "u", where={"source": "chat"})) == ["User moved to Paris."]
    (paris,) = [f.id for f in eng.list("u") if f.content == "User moved to Paris."]
    eng.update("u", paris, text="User moved to Paris in May.")
    other = RecallEngine(store=store, embedder=hash_embedder, config=OPEN)  # sees the edit: reads the store
    assert texts(other.recall("Paris", "u")) == ["User moved to Paris in May."]
    records = eng.export("u", include_vectors=True)
    embedded = ungated_engine(hash_embedder)
    embedded.import_("u", records)
    assert [h.id for h in embedded.recall("Paris", "u")] == [h.id for h in eng.recall("Paris", "u")]
    assert other.add("u", "User moved to Paris in May.") == [paris]  # the new text, said in another process
    assert [f.id for f in eng.list("u") if "Paris" in f.content] == [paris]


# -- progress ------------------------------------------------------------------


def test_add_reports_progress_per_embedding_and_store_batch(hash_embedder: Any) -> None:
    store = ChromaStore.in_memory()
    store.max_batch_size = 4
    eng = RecallEngine(store=store, embedder=hash_embedder, config=OPEN, embed_batch_size=5)
    seen: list[tuple[str, int, int]] = []
    eng.add("u", [f"User fact {i}." for i in range(12)], progress=lambda *a: seen.append(a))
    assert [s for s in seen if s[0] == "embed"] == [("embed", 5, 12), ("embed", 10, 12), ("embed", 12, 12)]
    stored = [done for stage, done, total in seen if stage == "store"]
    assert len(stored) == 3 and stored == sorted(stored) and stored[-1] == 12
    assert eng.count("u") == 12


def test_a_failing_progress_callback_never_breaks_the_write(hash_embedder: Any, caplog: Any) -> None:
    eng = ungated_engine(hash_embedder)

    def broken(stage: str, done: int, total: int) -> None:
        raise RuntimeError("progress bar closed")

    assert len(eng.add("u", ["User likes tea.", "User walks."], progress=broken)) == 2
    assert eng.count("u") == 2
    assert sum("progress callback raised" in r.message for r in caplog.records) == 1
    with pytest.raises(TypeError, match="progress"):
        eng.add("u", "User sleeps.", progress="bar")


def test_vector_dimension_is_the_stores_else_the_embedders(hash_embedder: Any) -> None:
    store = ChromaStore.in_memory()
    assert RecallEngine(store=store, embedder=HashEmbedder(dim=16)).vector_dimension() == 16  # empty: the embedder's
    RecallEngine(store=store, embedder=hash_embedder).add("u", ["User likes tea."])  # 64-d rows
    other = HashEmbedder(dim=16)
    assert RecallEngine(store=store, embedder=other).vector_dimension() == 64  # the rows decide...
    assert other.calls == 0  # ...and nothing is embedded to find out
