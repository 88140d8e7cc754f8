"""The `memori` commands that browse and move an entity's facts: list, get, delete, count, export, import.

They run the real CLI (``main(argv)`` in process, and real processes for the
``export | import`` pipe) over real embedded Chroma folders in ``tmp_path``.
The embedder is the hashing :class:`HashEmbedder` put in place of the local
MiniLM (``memori_core.embedders._DEFAULT``), so no model loads; the tests
marked ``model`` use the real MiniLM.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from _cli import hash_embedder_for_the_cli, run, usage_error  # noqa: F401  (the fixture is autouse)
from _helpers import HashEmbedder, running_chroma_server
from memori_core.cli import main
from memori_core.engine import RecallEngine
from memori_core.records import RECORD_FIELDS
from memori_core.store.chroma import ChromaStore

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^(?P<id>[0-9a-f]{32})  (?P<when>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)  (?P<text>.*)$")


def seed(folder: Path, entity: str, facts: list[str], **kwargs: Any) -> list[str]:
    """Add facts through the engine (for what `memori add` cannot set: times, sessions, metadata)."""
    store = ChromaStore(path=folder)
    try:
        return RecallEngine(store=store, embedder=HashEmbedder()).add(entity, facts, **kwargs)
    finally:
        store.close()  # frees the folder for the CLI (and for other processes)


def stored_vectors(folder: Path, entity: str) -> dict[str, list[float]]:
    store = ChromaStore(path=folder)
    try:
        engine = RecallEngine(store=store, embedder=HashEmbedder())
        return {r["id"]: r["vector"] for r in engine.export(entity, include_vectors=True)}
    finally:
        store.close()


def set_stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def recall_json(folder: Path, entity: str, query: str, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    code, out, err = run(["recall", "-e", entity, query, "--json", "--path", str(folder)], capsys)
    assert code == 0, err
    return json.loads(out)


def same_recall(a: list[dict], b: list[dict]) -> None:
    """Two recalls returned the same facts, ids, order and scores."""
    assert [(f["id"], f["content"], f["created_at"]) for f in a] == [(f["id"], f["content"], f["created_at"])
                                                                      for f in b]
    assert [f["rank_score"] for f in a] == pytest.approx([f["rank_score"] for f in b], abs=1e-6)


def copy_of(template: Path, folder: Path) -> Path:
    """A private copy of a closed store folder (``folder`` may exist): each test gets the folder exactly as
    the template's seeding left it, without paying for the seeding (two Chroma opens and writes) again."""
    shutil.copytree(template, folder, dirs_exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def store_dir_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("store-dir-template") / "mem"
    folder.mkdir()
    seed(folder, "alice", ["User is allergic to peanuts.", "User lives in Zürich.", "User runs marathons."],
         created_at=["2024-01-01T10:00:00+00:00", "2024-02-01T10:00:00+00:00", "2024-03-01T10:00:00+00:00"],
         session_id=["s1", "s1", "s2"], metadata=[{"topic": "health"}, {"topic": "home"}, {"topic": "health"}])
    seed(folder, "bob", ["User is vegetarian."])
    return folder


@pytest.fixture
def store_dir(store_dir_template: Path, tmp_path: Path) -> Path:
    """A store folder with alice's three facts (oldest first) and bob's one (a private copy: tests may write)."""
    return copy_of(store_dir_template, tmp_path / "mem")


# -- memori list ---------------------------------------------------------------------------


def test_list_prints_one_line_per_fact_id_date_text_newest_first(store_dir: Path, capsys) -> None:
    code, out, err = run(["list", "-e", "alice", "--path", str(store_dir)], capsys)
    assert code == 0 and err == ""
    lines = [LINE.match(line) for line in out.splitlines()]
    assert all(lines), out
    assert [m["text"] for m in lines] == ["User runs marathons.", "User lives in Zürich.",
                                          "User is allergic to peanuts."]
    assert [m["when"] for m in lines] == ["2024-03-01T10:00:00Z", "2024-02-01T10:00:00Z", "2024-01-01T10:00:00Z"]


def test_list_oldest_first_reverses_the_order(store_dir: Path, capsys) -> None:
    code, out, _ = run(["list", "-e", "alice", "--oldest-first", "--path", str(store_dir)], capsys)
    assert code == 0
    assert [LINE.match(line)["text"] for line in out.splitlines()] == [
        "User is allergic to peanuts.", "User lives in Zürich.", "User runs marathons."]


def test_list_pages_with_limit_and_offset_and_says_where_the_next_page_starts(store_dir: Path, capsys) -> None:
    code, out, err = run(["list", "-e", "alice", "--limit", "2", "--path", str(store_dir)], capsys)
    assert code == 0
    assert [LINE.match(line)["text"] for line in out.splitlines()] == ["User runs marathons.",
                                                                       "User lives in Zürich."]
    assert "--offset 2" in err  # the hint goes to stderr, never into the data
    code, out, err = run(["list", "-e", "alice", "--limit", "2", "--offset", "2", "--path", str(store_dir)], capsys)
    assert code == 0
    assert [LINE.match(line)["text"] for line in out.splitlines()] == ["User is allergic to peanuts."]
    assert err == ""  # last page: no hint


def test_list_json_is_an_array_of_export_records(store_dir: Path, capsys) -> None:
    code, out, err = run(["list", "-e", "alice", "--json", "--path", str(store_dir)], capsys)
    assert code == 0 and err == ""
    records = json.loads(out)
    assert [r["text"] for r in records] == ["User runs marathons.", "User lives in Zürich.",
                                            "User is allergic to peanuts."]
    assert all(set(r) == set(RECORD_FIELDS) - {"vector"} for r in records)
    assert records[0]["session_id"] == "s2" and records[0]["metadata"] == {"topic": "health"}


def test_list_filters_by_session_and_by_where(store_dir: Path, capsys) -> None:
    code, out, _ = run(["list", "-e", "alice", "--session", "s1", "--json", "--path", str(store_dir)], capsys)
    assert code == 0
    assert [r["text"] for r in json.loads(out)] == ["User lives in Zürich.", "User is allergic to peanuts."]
    code, out, _ = run(["list", "-e", "alice", "--where", '{"topic": "health"}', "--json",
                        "--path", str(store_dir)], capsys)
    assert code == 0
    assert [r["text"] for r in json.loads(out)] == ["User runs marathons.", "User is allergic to peanuts."]
    code, out, _ = run(["list", "-e", "alice", "--where", '{"topic": {"$in": ["home"]}}', "--json",
                        "--path", str(store_dir)], capsys)
    assert [r["text"] for r in json.loads(out)] == ["User lives in Zürich."]


def test_list_of_an_unknown_entity_is_empty_with_exit_0(store_dir: Path, capsys) -> None:
    code, out, err = run(["list", "-e", "nobody", "--path", str(store_dir)], capsys)
    assert (code, out) == (0, "")
    assert err.startswith("memori: entity 'nobody' has no facts in this store: nothing to list")
    code, out, err = run(["list", "-e", "nobody", "--json", "--path", str(store_dir)], capsys)
    assert code == 0 and json.loads(out) == [] and err == ""


def test_list_never_shows_another_entitys_facts(store_dir: Path, capsys) -> None:
    code, out, _ = run(["list", "-e", "bob", "--json", "--path", str(store_dir)], capsys)
    assert code == 0 and [r["text"] for r in json.loads(out)] == ["User is vegetarian."]


def test_list_puts_a_multiline_fact_on_one_line_and_marks_expired_facts(tmp_path: Path, capsys) -> None:
    seed(tmp_path, "u", ["First line\nsecond line\tend"])
    seed(tmp_path, "u", ["User was in Rome last week."], created_at="2019-12-25T00:00:00+00:00",
         expires_at="2020-01-01T00:00:00+00:00")
    seed(tmp_path, "u", ["Door code 4321."], metadata={"searchable": False}, core=True)
    code, out, _ = run(["list", "-e", "u", "--oldest-first", "--path", str(tmp_path)], capsys)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    assert LINE.match(lines[0])["text"] == "User was in Rome last week.  [expired]"  # said in 2019: oldest
    assert LINE.match(lines[1])["text"] == "First line\\nsecond line\\tend"
    assert LINE.match(lines[2])["text"] == "Door code 4321.  [core]  [not searchable]"


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ('{"topic": ', "argument --where: not valid JSON"),
        ('["topic"]', "argument --where: expected a JSON object"),
        ('{"topic": {"$regex": "f.*"}}', "unknown operator '$regex'"),
        ('{"rating": {"$gt": 3, "$lt": "z"}}', "both a number and a str"),
        ('{"$or": []}', "operator '$or' is not supported"),
    ],
)
def test_list_rejects_a_bad_where_before_opening_the_store(where: str, message: str, tmp_path: Path,
                                                          capsys) -> None:
    missing = tmp_path / "never-created"
    err = usage_error(["list", "-e", "u", "--where", where, "--path", str(missing)], capsys)
    assert err.startswith("usage: memori list ")
    assert "memori: error: " in err and message in err
    assert not missing.exists()


@pytest.mark.parametrize(("option", "value"), [("--limit", "0"), ("--limit", "-3"), ("--limit", "ten"),
                                               ("--offset", "-1"), ("--session", "  ")])
def test_list_rejects_bad_paging_and_session_values(option: str, value: str, tmp_path: Path, capsys) -> None:
    err = usage_error(["list", "-e", "u", option, value, "--path", str(tmp_path)], capsys)
    assert f"memori: error: argument {option}" in err


def test_list_refuses_a_missing_store_folder(tmp_path: Path, capsys) -> None:
    code, out, err = run(["list", "-e", "u", "--path", str(tmp_path / "typo")], capsys)
    assert (code, out) == (2, "")
    assert "does not exist" in err and not (tmp_path / "typo").exists()


# -- memori get ----------------------------------------------------------------------------


def test_get_prints_the_facts_in_the_order_asked(store_dir: Path, capsys) -> None:
    ids = {r["text"]: r["id"] for r in _records(store_dir, "alice", capsys)}
    asked = [ids["User lives in Zürich."], ids["User is allergic to peanuts."]]
    code, out, err = run(["get", "-e", "alice", *asked, "--path", str(store_dir)], capsys)
    assert code == 0 and err == ""
    assert [(m["id"], m["text"]) for m in map(LINE.match, out.splitlines())] == [
        (asked[0], "User lives in Zürich."), (asked[1], "User is allergic to peanuts.")]
    code, out, _ = run(["get", "-e", "alice", asked[0], asked[0], "--json", "--path", str(store_dir)], capsys)
    assert code == 0 and [r["id"] for r in json.loads(out)] == [asked[0]]  # asked twice, shown once


def test_get_an_unknown_id_is_reported_on_stderr_with_exit_1(store_dir: Path, capsys) -> None:
    known = _records(store_dir, "alice", capsys)[0]["id"]
    code, out, err = run(["get", "-e", "alice", "no-such-id", known, "--json", "--path", str(store_dir)], capsys)
    assert code == 1
    assert [r["id"] for r in json.loads(out)] == [known]  # the found fact is still printed
    assert "has no fact with id 'no-such-id'" in err and known not in err


def test_get_does_not_show_another_entitys_fact_with_the_same_id(tmp_path: Path, capsys) -> None:
    [fid] = seed(tmp_path, "alice", ["User likes tea."])
    assert seed(tmp_path, "bob", ["User likes tea."]) == [fid]  # ids derive from the text: the same for both
    run(["delete", "-e", "alice", fid, "--path", str(tmp_path)], capsys)
    code, out, err = run(["get", "-e", "alice", fid, "--path", str(tmp_path)], capsys)
    assert (code, out) == (1, "") and fid in err
    code, out, _ = run(["get", "-e", "bob", fid, "--path", str(tmp_path)], capsys)
    assert code == 0 and LINE.match(out.strip())["text"] == "User likes tea."


def _records(folder: Path, entity: str, capsys) -> list[dict]:
    code, out, err = run(["list", "-e", entity, "--json", "--limit", "1000", "--path", str(folder)], capsys)
    assert code == 0, err
    return json.loads(out)


# -- memori delete / count -----------------------------------------------------------------


def test_delete_removes_those_ids_of_that_entity_only(tmp_path: Path, capsys) -> None:
    ids = seed(tmp_path, "alice", ["User likes tea.", "User has a cat.", "User cycles."])
    seed(tmp_path, "bob", ["User likes tea.", "User has a cat."])
    code, out, err = run(["delete", "-e", "alice", ids[0], ids[1], "--path", str(tmp_path)], capsys)
    assert code == 0 and err == ""
    assert out == "deleted 2 fact(s) of 'alice'\n"
    assert [r["text"] for r in _records(tmp_path, "alice", capsys)] == ["User cycles."]
    assert sorted(r["text"] for r in _records(tmp_path, "bob", capsys)) == ["User has a cat.", "User likes tea."]


def test_delete_with_an_unknown_id_deletes_the_known_ones_and_exits_1(tmp_path: Path, capsys) -> None:
    ids = seed(tmp_path, "u", ["User likes tea.", "User has a cat."])
    code, out, err = run(["delete", "-e", "u", "bogus", ids[0], ids[0], "--path", str(tmp_path)], capsys)
    assert code == 1
    assert out == "deleted 1 fact(s) of 'u'\n"  # the repeated id counts once
    assert "has no fact with id 'bogus'" in err
    assert [r["id"] for r in _records(tmp_path, "u", capsys)] == [ids[1]]
    code, out, _ = run(["delete", "-e", "u", "bogus", "--path", str(tmp_path)], capsys)
    assert (code, out) == (1, "deleted 0 fact(s) of 'u'\n")


def test_count_prints_the_number_plain_and_as_json(store_dir: Path, capsys) -> None:
    assert run(["count", "-e", "alice", "--path", str(store_dir)], capsys) == (0, "3\n", "")
    code, out, _ = run(["count", "-e", "bob", "--json", "--path", str(store_dir)], capsys)
    assert code == 0 and json.loads(out) == {"entity_id": "bob", "count": 1}
    assert run(["count", "-e", "nobody", "--path", str(store_dir)], capsys) == (
        0, "0\n", "memori: entity 'nobody' has no facts in this store: nothing to count\n")


def test_count_of_a_misspelled_entity_says_which_one_was_meant(store_dir: Path, capsys) -> None:
    # A tester's `memori count -e alicee` printed 0 with none of the hints list, recall and export give.
    assert run(["count", "-e", "alicee", "--path", str(store_dir)], capsys) == (
        0, "0\n", "memori: entity 'alicee' has no facts in this store: nothing to count (did you mean 'alice'?)\n")
    assert run(["count", "-e", "alicee", "--json", "--path", str(store_dir)], capsys)[2] == ""  # for programs


def test_count_and_delete_refuse_a_blank_entity(store_dir: Path, capsys) -> None:
    for argv in (["count", "-e", " "], ["delete", "-e", " ", "x"]):
        err = usage_error([*argv, "--path", str(store_dir)], capsys)
        assert err.rstrip().endswith("memori: error: argument --entity/-e: must not be blank")


# -- memori export -------------------------------------------------------------------------


def test_export_writes_one_record_per_line_in_order_of_addition(store_dir: Path, capsys) -> None:
    code, out, err = run(["export", "-e", "alice", "--path", str(store_dir)], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 3 and out.endswith("\n")
    records = [json.loads(line) for line in lines]
    assert [r["text"] for r in records] == ["User is allergic to peanuts.", "User lives in Zürich.",
                                            "User runs marathons."]
    assert all("vector" not in r and set(r) == set(RECORD_FIELDS) - {"vector"} for r in records)
    assert out.isascii() and "Z\\u00fcrich" in out  # ASCII JSON: the same bytes on every platform


def test_export_vectors_carries_the_stored_embeddings(store_dir: Path, capsys) -> None:
    code, out, _ = run(["export", "-e", "alice", "--vectors", "--path", str(store_dir)], capsys)
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    stored = stored_vectors(store_dir, "alice")
    assert {r["id"]: r["vector"] for r in records} == stored and len(records[0]["vector"]) == 64


def test_export_to_a_file_keeps_stdout_empty(store_dir: Path, tmp_path: Path, capsys) -> None:
    target = tmp_path / "alice.jsonl"
    code, out, err = run(["export", "-e", "alice", "-o", str(target), "--path", str(store_dir)], capsys)
    assert (code, out) == (0, "")
    assert f"exported 3 fact(s) of 'alice' to {target}" in err
    assert [json.loads(line)["text"] for line in target.read_text(encoding="utf-8").splitlines()][0] == \
        "User is allergic to peanuts."


def test_export_of_an_unknown_entity_is_empty_with_a_warning(store_dir: Path, tmp_path: Path, capsys) -> None:
    code, out, err = run(["export", "-e", "nobody", "--path", str(store_dir)], capsys)
    assert (code, out) == (0, "") and "no facts" in err


def test_export_into_a_missing_folder_leaves_nothing_behind(store_dir: Path, tmp_path: Path, capsys) -> None:
    target = tmp_path / "no-such-dir" / "out.jsonl"
    code, out, err = run(["export", "-e", "alice", "-o", str(target), "--path", str(store_dir)], capsys)
    assert (code, out) == (2, "") and err.startswith(f"memori: error: --output {target}: ")
    assert not target.parent.exists()


def test_import_of_a_missing_file_names_the_input_option(store_dir: Path, tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nowhere.jsonl"
    code, out, err = run(["import", "-e", "alice", "-i", str(missing), "--path", str(store_dir)], capsys)
    assert (code, out) == (2, "")
    assert err.strip() == f"memori: error: --input {missing}: No such file or directory"


# -- memori import -------------------------------------------------------------------------


def test_import_of_an_export_gives_the_same_recall_in_another_folder(store_dir: Path, tmp_path: Path,
                                                                     capsys) -> None:
    dump = tmp_path / "alice.jsonl"
    run(["export", "-e", "alice", "-o", str(dump), "--path", str(store_dir)], capsys)
    copy = tmp_path / "copy"  # missing, in an existing folder: import creates it, like add
    code, out, err = run(["import", "-e", "alice", "-i", str(dump), "--path", str(copy)], capsys)
    assert code == 0, err
    assert out == "imported 3 fact(s) into 'alice' (texts embedded)\n"
    assert _records(copy, "alice", capsys) == _records(store_dir, "alice", capsys)  # ids, times, sessions, metadata
    for query in ("peanuts allergy", "where does the user live", "marathons"):
        same_recall(recall_json(store_dir, "alice", query, capsys), recall_json(copy, "alice", query, capsys))
    assert recall_json(copy, "alice", "peanuts", capsys)[0]["content"] == "User is allergic to peanuts."


def test_import_names_the_entity_and_reads_standard_input(store_dir: Path, tmp_path: Path, monkeypatch,
                                                         capsys) -> None:
    code, dump, _ = run(["export", "-e", "alice", "--path", str(store_dir)], capsys)
    set_stdin(monkeypatch, dump)
    code, out, err = run(["import", "-e", "carol", "--path", str(store_dir)], capsys)
    assert code == 0, err
    assert out.startswith("imported 3 fact(s) into 'carol'")
    assert [r["id"] for r in _records(store_dir, "carol", capsys)] == [r["id"] for r in
                                                                      _records(store_dir, "alice", capsys)]


def test_import_repairs_an_older_update_of_a_replaced_fact_and_says_which_line_once(tmp_path: Path, capsys) -> None:
    # The record an update of a replaced fact left before update refused it (tester j11, finding 5): its text valid
    # from after it ended. `memori export | memori import` had failed on it.
    dump = tmp_path / "old.jsonl"
    records = [
        {"id": "munich", "text": "User moved to Munich.", "created_at": "2026-10-26T18:00:00+00:00",
         "supersedes": ["berlin"]},
        {"id": "berlin", "text": "User lives in Hamburg.", "created_at": "2026-10-05T08:00:00+00:00",
         "updated_at": "2026-11-02T09:00:00+00:00", "valid_from": "2026-11-02T09:00:00+00:00",
         "valid_to": "2026-10-26T18:00:00+00:00", "superseded_by": "munich"},
    ]
    dump.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    code, out, err = run(["import", "-e", "u", "-i", str(dump), "--path", str(tmp_path / "mem")], capsys)
    assert code == 0, err
    assert out == "imported 2 fact(s) into 'u' (texts embedded)\n"
    assert err.count("memori: warning:") == 1  # once, by its line, not again by import_
    assert err.startswith(f"memori: warning: {dump}, line 2: the record (fact 'berlin') is the text an update gave a fact "
                          "already replaced by 'munich'")
    code, exported, err = run(["export", "-e", "u", "--path", str(tmp_path / "mem")], capsys)
    [berlin] = [r for r in map(json.loads, exported.splitlines()) if r["id"] == "berlin"]
    assert berlin["valid_to"] == berlin["valid_from"] == "2026-11-02T09:00:00+00:00"


def test_import_keeps_vectors_of_the_stores_dimension(tmp_path: Path, capsys) -> None:
    seed(tmp_path, "other", ["User likes tea."])  # the store holds 64-d vectors
    unusual = [0.0] * 63 + [1.0]  # not what the hashing embedder gives the text
    dump = tmp_path / "in.jsonl"
    dump.write_text(json.dumps({"id": "f1", "text": "User likes coffee.", "vector": unusual}) + "\n",
                    encoding="utf-8")
    code, out, err = run(["import", "-e", "u", "-i", str(dump), "--path", str(tmp_path)], capsys)
    assert code == 0, err
    assert out == "imported 1 fact(s) into 'u' (vectors kept)\n"
    assert stored_vectors(tmp_path, "u") == {"f1": unusual}


def test_import_reembeds_vectors_of_another_dimension(tmp_path: Path, capsys) -> None:
    dump = tmp_path / "in.jsonl"
    dump.write_text(json.dumps({"id": "f1", "text": "User likes coffee.", "vector": [1.0, 0.0, 0.0]}) + "\n",
                    encoding="utf-8")
    store = tmp_path / "mem"
    code, out, err = run(["import", "-e", "u", "-i", str(dump), "--path", str(store)], capsys)
    assert code == 0, err
    assert out == "imported 1 fact(s) into 'u' (texts embedded)\n"
    assert stored_vectors(store, "u")["f1"] == pytest.approx(HashEmbedder()._vec("User likes coffee.").tolist())
    assert recall_json(store, "u", "coffee", capsys)[0]["id"] == "f1"


def test_import_reembed_flag_replaces_usable_vectors(tmp_path: Path, capsys) -> None:
    seed(tmp_path, "other", ["User likes tea."])
    dump = tmp_path / "in.jsonl"
    dump.write_text(json.dumps({"id": "f1", "text": "User likes coffee.", "vector": [0.0] * 63 + [1.0]}) + "\n",
                    encoding="utf-8")
    code, out, _ = run(["import", "-e", "u", "-i", str(dump), "--reembed", "--path", str(tmp_path)], capsys)
    assert code == 0 and "(texts embedded)" in out
    assert stored_vectors(tmp_path, "u")["f1"] == pytest.approx(HashEmbedder()._vec("User likes coffee.").tolist())


def test_import_upserts_by_id(tmp_path: Path, capsys) -> None:
    [fid] = seed(tmp_path, "u", ["User likes tea."])
    dump = tmp_path / "in.jsonl"
    dump.write_text("\n".join(json.dumps(r) for r in [
        {"id": fid, "text": "User likes green tea."}, {"id": "f2", "text": "User has a cat."}]) + "\n",
        encoding="utf-8")
    code, out, _ = run(["import", "-e", "u", "-i", str(dump), "--path", str(tmp_path)], capsys)
    assert code == 0 and out.startswith("imported 2 fact(s)")
    assert sorted(r["text"] for r in _records(tmp_path, "u", capsys)) == ["User has a cat.", "User likes green tea."]


def test_import_refuses_a_repeated_id_and_writes_nothing(tmp_path: Path, capsys) -> None:
    [fid] = seed(tmp_path, "u", ["User likes tea."])
    dump = tmp_path / "in.jsonl"
    dump.write_text("\n".join(json.dumps(r) for r in [
        {"id": fid, "text": "User likes green tea."}, {"id": "f2", "text": "User has a cat."},
        {"id": "f2", "text": "User has two cats."}]) + "\n", encoding="utf-8")
    code, out, err = run(["import", "-e", "u", "-i", str(dump), "--path", str(tmp_path)], capsys)
    assert code == 2 and out == ""
    assert f"memori: error: {dump}, line 3: the same id 'f2' as line 2, with a different text" in err
    assert [r["text"] for r in _records(tmp_path, "u", capsys)] == ["User likes tea."]


def test_import_of_a_profile_with_a_sentence_twice_stores_it_once_and_says_so(tmp_path: Path, capsys) -> None:
    dump = tmp_path / "in.jsonl"
    dump.write_text('{"text": "User likes tea."}\n{"text": "User is allergic to cats."}\n\n'
                    '{"text": "User likes tea."}\n', encoding="utf-8")
    code, out, err = run(["import", "-e", "ann", "-i", str(dump), "--path", str(tmp_path)], capsys)
    assert (code, err) == (0, "")
    assert out.strip() == "imported 2 fact(s) into 'ann' (texts embedded; 1 repeated line(s) imported once)"
    assert sorted(r["text"] for r in _records(tmp_path, "ann", capsys)) == ["User is allergic to cats.",
                                                                            "User likes tea."]


def test_import_numbers_a_conflicting_repeat_by_its_line_counting_blank_lines(tmp_path: Path, capsys) -> None:
    dump = tmp_path / "in.jsonl"
    dump.write_text('\n{"text": "User likes tea.", "created_at": "2024-01-01"}\n\n'
                    '{"text": "user likes TEA", "created_at": "2024-02-01"}\n', encoding="utf-8")
    code, out, err = run(["import", "-e", "ann", "-i", str(dump), "--path", str(tmp_path)], capsys)
    assert code == 2 and out == ""
    assert (f"memori: error: {dump}, line 4: the same fact as line 2 ('User likes tea.'; a record without an \"id\" is "
            "identified by its normalised text), with a different text, created_at") in err


def test_import_splits_lines_only_at_newlines(tmp_path: Path, capsys) -> None:
    dump = tmp_path / "in.jsonl"  # a UTF-8 file with raw U+2028 / U+0085 inside a string, a BOM and CRLF
    text = "User said: one\u2028two\u0085three"
    dump.write_bytes(("\ufeff" + json.dumps({"id": "f1", "text": text}, ensure_ascii=False) + "\r\n\r\n")
                     .encode("utf-8"))
    code, out, err = run(["import", "-e", "u", "-i", str(dump), "--path", str(tmp_path)], capsys)
    assert code == 0, err
    assert [r["text"] for r in _records(tmp_path, "u", capsys)] == [text]


@pytest.fixture(scope="module")
def tea_store_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A closed store folder holding u's one fact, and that fact's id."""
    folder = tmp_path_factory.mktemp("tea-store-template")
    [fid] = seed(folder, "u", ["User likes tea."])
    return folder, fid


@pytest.mark.parametrize(
    ("line2", "message"),
    [
        ('{"text": "User has a cat."', "line 2: not valid JSON"),
        ('["User has a cat."]', "line 2: expected a JSON object (one record per line), got list"),
        ('{"text": "  "}', "line 2: field 'text' must be a non-empty str"),
        ('{"text": "x", "colour": "red"}', "line 2: the record has unknown field(s) ['colour']"),
        ('{"text": "x", "created_at": "yesterday"}', "line 2: field 'created_at' 'yesterday' is not an ISO 8601"),
        ('{"text": "x", "times_seen": 0}', "line 2: field 'times_seen' must be an int >= 1"),
        ('{"text": "x", "vector": [1.0, NaN]}', "line 2: field 'vector' must be a non-empty list of finite numbers"),
        ('{"text": "x", "metadata": {"times_seen": 3}}', "line 2: field 'metadata' uses reserved key(s)"),
        ('{"text": "x", "session_id": 7}', "line 2: field 'session_id' must be a non-empty str or None"),
        ('{"text": "x", "created_at": "2026-10-05T08:00:00Z", "valid_to": "2026-01-01T00:00:00Z"}',
         "line 2: field 'valid_to' (2026-01-01T00:00:00+00:00) of fact "),
        ('{"text": "x", "valid_to": "2026-10-26T18:00:00Z", "superseded_by": "y"}',  # created_at deleted
         "line 2: field 'valid_to' (2026-10-26T18:00:00+00:00) of fact "),
        ('{"text": "x", "created_at": "2026-10-05T08:00:00Z", "superseded_by": "y"}',  # valid_to cleared
         "line 2: field 'superseded_by' of fact "),
    ],
)
def test_import_reports_the_first_bad_line_and_writes_nothing(line2: str, message: str, tmp_path: Path,
                                                              tea_store_template: tuple[Path, str],
                                                              capsys) -> None:
    template, kept = tea_store_template
    copy_of(template, tmp_path)  # u's one fact, as seed(tmp_path, "u", ["User likes tea."]) leaves it
    dump = tmp_path / "in.jsonl"
    dump.write_text('{"id": "good", "text": "User cycles."}\n' + line2 + '\n{"text": "User swims."}\n',
                    encoding="utf-8")
    code, out, err = run(["import", "-e", "u", "-i", str(dump), "--path", str(tmp_path)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"memori: error: {dump}, {message}"), err  # the file named
    assert err.count("\n") == 1 and "records[" not in err
    assert [r["id"] for r in _records(tmp_path, "u", capsys)] == [kept]  # line 1 was not written either


def test_import_of_text_that_is_not_utf8_is_an_error(tmp_path: Path, capsys) -> None:
    dump = tmp_path / "in.jsonl"
    dump.write_bytes(b'{"text": "ok"}\n{"text": "caf\xe9"}\n')
    code, out, err = run(["import", "-e", "u", "-i", str(dump), "--path", str(tmp_path / "mem")], capsys)
    assert (code, out) == (2, "")
    assert f"{dump}, line 2: not UTF-8 text" in err


def test_import_of_empty_input_imports_nothing(tmp_path: Path, monkeypatch, capsys) -> None:
    set_stdin(monkeypatch, "\n")
    assert run(["import", "-e", "u", "--path", str(tmp_path)], capsys) == (0, "imported 0 fact(s) into 'u'\n", "")


def test_import_refuses_to_wait_for_a_terminal(tmp_path: Path, monkeypatch, capsys) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    code, out, err = run(["import", "-e", "u", "--path", str(tmp_path)], capsys)
    assert (code, out) == (2, "")
    assert "no input" in err and "-i FILE" in err


def test_import_of_a_missing_file_is_an_error(tmp_path: Path, capsys) -> None:
    code, out, err = run(["import", "-e", "u", "-i", str(tmp_path / "nope.jsonl"), "--path", str(tmp_path)], capsys)
    assert (code, out) == (2, "") and "nope.jsonl" in err


# -- across stores and processes -----------------------------------------------------------


def _cli_process(argv: list[str], **kwargs: Any) -> subprocess.Popen:
    """``memori argv`` in a new Python process with the hashing embedder in place of MiniLM (unless ``model``)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests"),
                                                       os.environ.get("PYTHONPATH", "")]))
    code = ("import sys\n"
            "if sys.argv[1] == 'hash':\n"
            "    import _helpers, memori_core.embedders as e\n"
            "    e._DEFAULT = _helpers.HashEmbedder()\n"
            "from memori_core.cli import main\n"
            "sys.exit(main(sys.argv[2:]))\n")
    return subprocess.Popen([sys.executable, "-c", code, *argv], env=env, **kwargs)


def _pipe(export: list[str], import_: list[str], embedder: str) -> tuple[int, int, bytes]:
    """``memori export ... | memori import ...`` as two processes: (export code, import code, import's stdout)."""
    producer = _cli_process([embedder, "export", *export], stdout=subprocess.PIPE)
    consumer = _cli_process([embedder, "import", *import_], stdin=producer.stdout, stdout=subprocess.PIPE)
    producer.stdout.close()  # the consumer holds the pipe now
    out, _ = consumer.communicate(timeout=300)
    return producer.wait(timeout=300), consumer.returncode, out


@pytest.mark.slow
def test_export_pipe_import_between_two_folders_gives_the_same_recall(store_dir: Path, tmp_path: Path,
                                                                       capsys) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    seed(copy, "dave", ["User plays chess."])  # another entity, left alone
    # In process, the CLI opened store_dir before: it must have let go of the folder.
    run(["list", "-e", "alice", "--path", str(store_dir)], capsys)
    codes = _pipe(["-e", "alice", "--vectors", "--path", str(store_dir)], ["-e", "alice", "--path", str(copy)],
                  "hash")
    assert codes == (0, 0, b"imported 3 fact(s) into 'alice' (vectors kept)\n")
    assert stored_vectors(copy, "alice") == stored_vectors(store_dir, "alice")
    for query in ("peanuts", "Zürich", "marathons health"):
        same_recall(recall_json(store_dir, "alice", query, capsys), recall_json(copy, "alice", query, capsys))
    assert [r["text"] for r in _records(copy, "dave", capsys)] == ["User plays chess."]


@pytest.mark.slow
@pytest.mark.model
def test_export_pipe_import_reembeds_with_minilm_into_a_new_folder(tmp_path: Path, capsys, minilm) -> None:
    original = tmp_path / "original"
    facts = ["User is allergic to peanuts.", "User lives in Lisbon.", "User plays the cello."]
    assert run(["add", "-e", "u", *facts, "--path", str(original)], capsys)[0] == 0
    copy = tmp_path / "copy"
    codes = _pipe(["-e", "u", "--path", str(original)], ["-e", "u", "--path", str(copy)], "minilm")
    assert codes == (0, 0, b"imported 3 fact(s) into 'u' (texts embedded)\n")
    for query in ("peanut allergy", "Which snacks should I avoid because of my allergies?", "cello"):
        a, b = recall_json(original, "u", query, capsys), recall_json(copy, "u", query, capsys)
        assert a and [f["id"] for f in a] == [f["id"] for f in b]
        assert [f["cosine"] for f in a] == pytest.approx([f["cosine"] for f in b], abs=1e-4)


@pytest.mark.server
def test_export_from_a_folder_imports_into_a_chroma_server(store_dir: Path, tmp_path: Path, capsys) -> None:
    dump = tmp_path / "alice.jsonl"
    assert run(["export", "-e", "alice", "--vectors", "-o", str(dump), "--path", str(store_dir)], capsys)[0] == 0
    data = tmp_path / "server"
    data.mkdir()
    with running_chroma_server(data) as (host, port, _):
        server = ["--server", f"{host}:{port}"]
        code, out, err = run(["import", "-e", "alice", "-i", str(dump), *server], capsys)
        assert (code, out) == (0, "imported 3 fact(s) into 'alice' (vectors kept)\n"), err
        code, out, _ = run(["recall", "-e", "alice", "peanuts", "--json", *server], capsys)
        same_recall(recall_json(store_dir, "alice", "peanuts", capsys), json.loads(out))
        assert run(["count", "-e", "alice", *server], capsys) == (0, "3\n", "")
        code, back, _ = run(["export", "-e", "alice", "--vectors", *server], capsys)
        assert back == dump.read_text(encoding="utf-8")  # the server holds exactly what the folder held


class _Terminal(io.StringIO):
    """Standard error as a terminal (the progress bar is shown only there)."""

    def isatty(self) -> bool:
        return True


def test_add_and_import_draw_a_progress_bar_on_a_terminal_unless_quiet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "m"
    facts = [f"User note number {i}." for i in range(5)]
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["add", "-e", "u", "--path", str(folder), *facts]) == 0
    drawn = terminal.getvalue()
    assert "5/5 facts embedded" in drawn and "5/5 facts stored" in drawn

    exported = tmp_path / "u.jsonl"
    assert main(["export", "-e", "u", "--path", str(folder), "-o", str(exported)]) == 0
    terminal.seek(0), terminal.truncate()
    assert main(["import", "-e", "v", "--path", str(folder), "-i", str(exported)]) == 0
    assert "5/5 facts stored" in terminal.getvalue()

    terminal.seek(0), terminal.truncate()
    assert main(["add", "-e", "w", "--path", str(folder), "--quiet", *facts]) == 0
    assert "facts" not in terminal.getvalue()  # --quiet: no bar
    capsys.readouterr()


def test_add_draws_no_progress_bar_when_standard_error_is_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["add", "-e", "u", "--path", str(tmp_path / "m"), "User likes tea."], capsys)
    assert code == 0 and out.strip().endswith("User likes tea.")
    assert "facts embedded" not in err and "facts stored" not in err
