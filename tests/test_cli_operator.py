"""The `memori` commands an operator runs to inspect and fix a store: recall --as-of and --where, update, add's
--supersedes / --created-at / --expires / --metadata, stats, count --all, forget of an unknown entity and
--dry-run, what every command says of an entity or a fact id the store does not hold and the one exit-code
convention, and how --server and --entity mistakes are reported.

They run the real CLI (``main(argv)`` in process) over real embedded Chroma folders in ``tmp_path``. The
embedder is the hashing :class:`HashEmbedder` put in place of the local MiniLM, so no model loads.
"""

from __future__ import annotations

import json
import re
import shlex
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from _cli import hash_embedder_for_the_cli, run, usage_error  # noqa: F401  (the fixture is autouse)
from _helpers import HashEmbedder, running_chroma_server
from memori_core.cli import main
from memori_core.engine import RecallEngine
from memori_core.store.chroma import ChromaStore
from memori_core.validate import parse_utc


def engine_call(folder: Path, call: str, *args: Any, **kwargs: Any) -> Any:
    """``RecallEngine.<call>(*args, **kwargs)`` over the folder's store, closed afterwards (frees it for the CLI)."""
    store = ChromaStore(path=folder)
    try:
        return getattr(RecallEngine(store=store, embedder=HashEmbedder()), call)(*args, **kwargs)
    finally:
        store.close()


@pytest.fixture
def moved(tmp_path: Path) -> tuple[Path, str, str]:
    """A store where alice lived in Lyon from 2024-01-01 and moved to Paris on 2024-06-01: (folder, lyon, paris)."""
    folder = tmp_path / "mem"
    folder.mkdir()
    [lyon] = engine_call(folder, "add", "alice", ["User lives in Lyon."], created_at="2024-01-01T00:00:00Z")
    [paris] = engine_call(folder, "add", "alice", ["User lives in Paris."], created_at="2024-06-01T00:00:00Z",
                          supersedes=[lyon])
    return folder, lyon, paris


def recalled(folder: Path, capsys: pytest.CaptureFixture[str], *options: str) -> list[str]:
    code, out, err = run(["recall", "-e", "alice", "where does the user live", "--json", "--path", str(folder),
                          *options], capsys)
    assert code == 0, err
    return [f["content"] for f in json.loads(out)]


# -- memori recall --as-of -----------------------------------------------------------------


def test_recall_as_of_answers_from_the_facts_valid_then(moved: tuple[Path, str, str], capsys) -> None:
    folder, _, _ = moved
    assert recalled(folder, capsys) == ["User lives in Paris."]
    assert recalled(folder, capsys, "--as-of", "2024-03-01") == ["User lives in Lyon."]
    assert recalled(folder, capsys, "--as-of", "2024-07-01T12:00:00+02:00") == ["User lives in Paris."]
    assert recalled(folder, capsys, "--as-of", "2023-12-31T23:59:59Z") == []


def test_recall_of_an_entity_whose_facts_are_all_superseded_says_so_and_reads_them_as_of_then(
    moved: tuple[Path, str, str], capsys
) -> None:
    folder, _, paris = moved
    engine_call(folder, "delete", "alice", [paris])  # Lyon stays, superseded by a fact no longer stored
    assert run(["recall", "-e", "alice", "where does the user live", "--path", str(folder)], capsys) == (
        0, "", "memori: entity 'alice' has no valid facts (only superseded ones: `memori list --all` lists them, "
               "`memori recall --as-of` reads them): nothing to recall\n")
    assert recalled(folder, capsys, "--as-of", "2024-03-01") == ["User lives in Lyon."]


def test_recall_as_of_explains_the_past_too(moved: tuple[Path, str, str], capsys) -> None:
    folder, _, _ = moved
    code, out, err = run(["recall", "-e", "alice", "where does the user live", "--explain", "--as-of", "2024-03-01",
                          "--path", str(folder)], capsys)
    assert code == 0, err
    assert "User lives in Lyon." in out.split("\n\n")[-1]  # the block after the table


@pytest.mark.parametrize("value", ["yesterday", "2024-13-01", "01/05/2024", ""])
def test_recall_as_of_refuses_a_value_that_is_not_iso_8601_naming_the_option(value: str, tmp_path: Path,
                                                                             capsys) -> None:
    err = usage_error(["recall", "-e", "alice", "q", "--as-of", value, "--path", str(tmp_path)], capsys)
    assert f"memori: error: argument --as-of: expected an ISO 8601 date or time, e.g. 2024-05-01 or " \
           f"2024-05-01T12:00:00Z, got {value!r}" in err


@pytest.mark.parametrize(("option", "value"), [("--as-of", "0001-01-01T00:00:00+05:00"),
                                               ("--expires", "9999-12-31T23:00:00-05:00")])
def test_a_time_with_no_utc_time_in_the_years_1_to_9999_is_refused_as_such_naming_the_option(
    option: str, value: str, tmp_path: Path, capsys
) -> None:
    # It was told it was no ISO 8601 time, which it is: the offset takes it past year 1 or 9999 in UTC.
    command = ["recall", "-e", "alice", "q"] if option == "--as-of" else ["add", "-e", "alice", "User is on call."]
    err = usage_error([*command, option, value, "--path", str(tmp_path)], capsys)
    assert f"memori: error: argument {option}: {value} is outside the years 1-9999 in UTC\n" in err


# -- memori recall --where -------------------------------------------------------------------


def test_recall_where_keeps_the_facts_the_filter_matches_as_the_api_does(moved: tuple[Path, str, str],
                                                                       capsys) -> None:
    folder, _, _ = moved
    since_may = '{"created_at": {"$gte": "2024-05-01"}}'
    assert recalled(folder, capsys, "--where", since_may) == ["User lives in Paris."]
    assert recalled(folder, capsys, "--where", '{"created_at": {"$lt": "2024-05-01"}}') == []  # Lyon is history
    assert recalled(folder, capsys, "--as-of", "2024-03-01", "--where", since_may) == []
    replaced_by_june = '{"valid_to": {"$lte": "2024-06-02"}}'
    assert recalled(folder, capsys, "--as-of", "2024-03-01", "--where", replaced_by_june) == ["User lives in Lyon."]
    engine_call(folder, "add", "alice", ["User lives near the river."], metadata={"topic": "home"})
    assert recalled(folder, capsys, "--where", '{"topic": "home"}') == ["User lives near the river."]


def test_recall_where_explains_and_says_when_the_filter_left_nothing(moved: tuple[Path, str, str], capsys) -> None:
    folder, _, _ = moved
    where = ["--where", '{"created_at": {"$lt": "2024-05-01"}}', "--path", str(folder)]
    code, out, err = run(["recall", "-e", "alice", "where does the user live", "--explain", "--as-of", "2024-03-01",
                          *where], capsys)
    assert code == 0, err
    assert "User lives in Lyon." in out.split("\n\n")[-1] and "User lives in Paris." not in out
    code, out, _ = run(["recall", "-e", "alice", "where does the user live", *where], capsys)
    assert (code, out) == (0, "(nothing recalled: no fact matching --where passed the relevance gate)\n")


@pytest.mark.parametrize("where", ['{"created_at": {"$gte": "yesterday"}}', '{"topic": {"$near": 1}}', "[1]",
                                   "{topic: 1}"])
def test_recall_where_is_checked_as_list_checks_it(where: str, moved: tuple[Path, str, str], capsys) -> None:
    folder, _, _ = moved
    refused = [usage_error([command, "-e", "alice", *query, "--where", where, "--path", str(folder)], capsys)
               for command, query in (("recall", ["where do I live"]), ("list", []))]
    problems = [err.splitlines()[-1] for err in refused]
    assert problems[0] == problems[1] and problems[0].startswith("memori: error: argument --where: ")


# -- memori add --supersedes / --created-at / --expires / --metadata -----------------------


def exported(folder: Path, entity: str, capsys) -> dict[str, dict]:
    """The entity's records (`memori export`), by text."""
    code, out, err = run(["export", "-e", entity, "--path", str(folder)], capsys)
    assert code == 0, err
    return {r["text"]: r for r in map(json.loads, out.splitlines())}


def added_id(out: str) -> str:
    return out.split("  ", 1)[0]


def test_add_supersedes_a_stored_fact_which_becomes_history(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "mem"
    lyon = added_id(run(["add", "-e", "alice", "User lives in Lyon.", "--path", str(folder)], capsys)[1])
    code, out, err = run(["add", "-e", "alice", "User lives in Paris.", "--supersedes", lyon, "--path", str(folder)],
                         capsys)
    assert code == 0, err
    paris = added_id(out)
    assert run(["count", "-e", "alice", "--path", str(folder)], capsys)[1] == "1\n"
    records = exported(folder, "alice", capsys)
    assert records["User lives in Lyon."]["superseded_by"] == paris
    assert records["User lives in Paris."]["supersedes"] == [lyon]


@pytest.mark.parametrize("word", ["false", "Yes", "no."])
def test_add_core_refuses_a_value_that_would_be_stored_as_a_core_fact(word: str, tmp_path: Path, capsys) -> None:
    # A tester's `memori add --core false "User lives in Lyon."` stored 'false' as a core fact (recalled on every
    # query) and marked Lyon core: the opposite of what was meant.
    folder = tmp_path / "mem"
    code, out, err = run(["add", "-e", "alice", "--core", word, "User lives in Lyon.", "--path", str(folder)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"memori: error: --core takes no value: {word!r} would be stored as a core fact")
    assert not folder.exists()
    assert run(["add", "-e", "alice", "--core", "User is allergic to peanuts.", "--path", str(folder)], capsys)[0] == 0


def test_add_dated_before_the_fact_it_supersedes_says_it_was_stored_as_that_facts_past(tmp_path: Path,
                                                                                      capsys) -> None:
    # A tester copied `add --supersedes ID --created-at 2024-06-01` after a fact stated now: Paris was stored
    # already superseded by Zürich, and the command said nothing.
    folder = tmp_path / "mem"
    zurich = added_id(run(["add", "-e", "alice", "User lives in Zürich.", "--path", str(folder)], capsys)[1])
    code, out, err = run(["add", "-e", "alice", "User moved to Paris.", "--supersedes", zurich, "--created-at",
                          "2024-06-01", "--path", str(folder)], capsys)
    assert code == 0 and out.endswith("  User moved to Paris.\n")
    assert err == (f"memori: note: 'User moved to Paris.' is dated 2024-06-01T00:00:00Z, before {zurich} was stated, "
                   "so it was stored as that fact's past, superseded by it (`memori list --all` shows it); to "
                   "replace that fact, add it without --created-at or with a later one\n")
    assert exported(folder, "alice", capsys)["User moved to Paris."]["superseded_by"] == zurich
    # a supersede that replaces the fact says nothing more than the id
    code, out, err = run(["add", "-e", "alice", "User moved to Rome.", "--supersedes", zurich, "--path",
                          str(folder)], capsys)
    assert (code, err) == (0, "")


def test_the_readme_add_lines_run_in_order_replace_zurich_by_paris(tmp_path: Path, capsys) -> None:
    # The README's `memori` block, its add lines copied in order. A line `NAME=$(memori add ... --id-only)` sets
    # NAME to what it printed, which must be the id alone; "$NAME" later in the block is it.
    folder, block = tmp_path / "mem", _readme_cli_block()
    ids: dict[str, str] = {}
    for line in block:
        assigned = re.match(r"(\w+)=\$\((memori add .*)\)$", line.split("  #")[0].strip())
        if not assigned and not line.startswith("memori add "):
            continue
        command = assigned.group(2) if assigned else line.split("  #")[0].strip()
        argv = [ids[word[1:]] if word[:1] == "$" else word for word in shlex.split(command)[1:]]
        code, out, err = run([*argv, "--path", str(folder)], capsys)
        assert (code, err) == (0, ""), line
        if assigned:
            ids[assigned.group(1)] = out.strip()
            assert out == f"{ids[assigned.group(1)]}\n" and " " not in out.strip(), out
    assert set(ids) == {"ID", "NOW"}
    records = exported(folder, "alice", capsys)
    paris = records["User moved to Paris."]
    assert paris["id"] == ids["NOW"]
    assert records["User lives in Zürich."]["superseded_by"] == paris["id"] and paris["superseded_by"] is None
    assert records["User is allergic to peanuts."]["metadata"]["topic"] == "food"  # what the --where line asks for
    as_of = next(line for line in block if "--as-of" in line)
    assert records["User lives in Zürich."]["created_at"] < as_of.split("--as-of ")[1][:10]


def test_add_id_only_prints_each_id_alone_for_a_shell_variable(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "mem"
    code, out, err = run(["add", "-e", "alice", "User lives in Lyon.", "User is vegan.", "--id-only", "--path",
                          str(folder)], capsys)
    assert (code, err) == (0, "")
    ids = out.splitlines()
    assert len(ids) == 2 and all(" " not in fid for fid in ids)
    assert sorted(exported(folder, "alice", capsys)[t]["id"] for t in ("User lives in Lyon.", "User is vegan.")) == \
        sorted(ids)
    code, out, err = run(["add", "-e", "alice", "User lives in Paris.", "--supersedes", ids[0], "--path", str(folder)],
                         capsys)
    assert code == 0, err
    assert exported(folder, "alice", capsys)["User lives in Lyon."]["superseded_by"] == added_id(out)


def _readme_cli_block() -> list[str]:
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = text.split("## The `memori` command", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    return block.splitlines()


def test_add_with_an_unknown_supersedes_id_adds_nothing_names_the_option_and_exits_1(tmp_path: Path,
                                                                                       capsys) -> None:
    folder = tmp_path / "mem"
    run(["add", "-e", "alice", "User lives in Lyon.", "--path", str(folder)], capsys)
    code, out, err = run(["add", "-e", "alice", "User lives in Paris.", "--supersedes", "nope", "--path",
                          str(folder)], capsys)
    assert (code, out) == (1, "")  # an id the store does not hold, as for get, history or restore
    assert err.startswith("memori: --supersedes: ") and "'nope'" in err and "nothing was added" in err
    assert list(exported(folder, "alice", capsys)) == ["User lives in Lyon."]


def test_add_sets_created_at_expiry_and_metadata(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "mem"
    code, _, err = run(["add", "-e", "alice", "User is in Rome this week.", "--created-at", "2024-05-01T09:00:00+02:00",
                        "--expires", "2024-05-08", "--metadata", "topic=travel", "--metadata", "priority=2",
                        "--metadata", 'code="007"', "--path", str(folder)], capsys)
    assert code == 0, err
    record = exported(folder, "alice", capsys)["User is in Rome this week."]
    assert record["created_at"].startswith("2024-05-01T07:00:00")
    assert record["expires_at"].startswith("2024-05-08T00:00:00")
    assert record["metadata"] == {"topic": "travel", "priority": 2, "code": "007"}
    code, out, _ = run(["list", "-e", "alice", "--where", '{"priority": 2}', "--path", str(folder)], capsys)
    assert code == 0 and "User is in Rome this week.  [expired]" in out


def test_add_expires_after_a_duration_from_now(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "mem"
    assert run(["add", "-e", "alice", "User is on call.", "--expires", "12h", "--path", str(folder)], capsys)[0] == 0
    record = exported(folder, "alice", capsys)["User is on call."]
    from memori_core.validate import iso_to_ts
    assert iso_to_ts(record["expires_at"]) - iso_to_ts(record["created_at"]) == pytest.approx(12 * 3600, abs=60)


@pytest.mark.parametrize(("options", "message"), [
    (["--created-at", "last week"], "argument --created-at: expected an ISO 8601 date or time"),
    (["--created-at", "2999-01-01"], "argument --created-at: '2999-01-01' is in the future (more than a day"),
    (["--expires", "soon"], "argument --expires: expected an ISO 8601 date or time (2024-05-01, "
                            "2024-05-01T12:00:00Z) or a duration from now (90m, 12h, 30d, 2w), got 'soon'"),
    (["--expires", "0d"], "argument --expires: a duration must be more than 0, got '0d'"),
    (["--metadata", "topic"], "argument --metadata: expected KEY=VALUE, e.g. topic=food, got 'topic'"),
    (["--metadata", "=food"], "argument --metadata: expected a metadata key, got ''"),
    (["--metadata", "created_at=2024"], "argument --metadata: key 'created_at' is reserved"),
    (["--metadata", "topic=null"], "argument --metadata: 'topic=null': a metadata value may not be null"),
])
def test_add_refuses_bad_option_values_naming_the_option(options: list[str], message: str, tmp_path: Path,
                                                         capsys) -> None:
    err = usage_error(["add", "-e", "alice", "User lives in Oslo.", *options, "--path", str(tmp_path)], capsys)
    assert f"memori: error: {message}" in err


@pytest.mark.parametrize(("options", "message"), [
    (["--expires", "2020-01-01"], "--expires 2020-01-01T00:00:00Z is not after now"),
    (["--created-at", "2024-05-01", "--expires", "2024-04-01"],
     "--expires 2024-04-01T00:00:00Z is not after --created-at 2024-05-01T00:00:00Z"),
    (["--metadata", "topic=food", "--metadata", "topic=travel"], "--metadata: key 'topic' given twice"),
])
def test_add_refuses_options_that_contradict_each_other_and_writes_nothing(options: list[str], message: str,
                                                                          tmp_path: Path, capsys) -> None:
    folder = tmp_path / "mem"
    code, out, err = run(["add", "-e", "alice", "User lives in Oslo.", *options, "--path", str(folder)], capsys)
    assert (code, out) == (2, "") and err.startswith(f"memori: error: {message}")
    assert not folder.exists()


# -- memori update -------------------------------------------------------------------------


@pytest.fixture
def one_fact(tmp_path: Path) -> tuple[Path, str]:
    """A store where alice has one fact with metadata {"topic": "home", "room": "kitchen"}: (folder, its id)."""
    folder = tmp_path / "mem"
    folder.mkdir()
    [fid] = engine_call(folder, "add", "alice", ["User lives in Lyon."], metadata={"topic": "home", "room": "kitchen"})
    return folder, fid


def test_update_refuses_an_expiry_before_the_fact_was_created_and_offers_expire_now(one_fact: tuple[Path, str],
                                                                                    capsys) -> None:
    # It took it: the fact had then never been valid, not even in `memori recall --as-of` of its past.
    folder, fid = one_fact
    [record] = json.loads(run(["get", "-e", "alice", fid, "--json", "--path", str(folder)], capsys)[1])
    code, out, err = run(["update", "-e", "alice", fid, "--expires", "2020-01-01", "--path", str(folder)], capsys)
    created = parse_utc(record["created_at"]).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert (code, out) == (2, "")
    assert err == (f"memori: error: --expires 2020-01-01T00:00:00Z is not after its created_at {created}: the fact "
                   "would never be valid; give a later --expires or --expire-now to stop recalling it from now on\n")
    assert json.loads(run(["get", "-e", "alice", fid, "--json", "--path", str(folder)], capsys)[1]) == [record]


def test_update_text_keeps_the_id_and_the_old_text_as_a_version(one_fact: tuple[Path, str], capsys) -> None:
    folder, fid = one_fact
    code, out, err = run(["update", "-e", "alice", fid, "--text", "User lives in Paris.", "--path", str(folder)],
                         capsys)
    assert code == 0, err
    assert out.startswith(f"{fid}  ") and "User lives in Paris." in out
    code, out, _ = run(["history", "-e", "alice", fid, "--path", str(folder)], capsys)
    assert [line.split("  ")[2] for line in out.splitlines()] == ["User lives in Lyon.", "User lives in Paris."]


def test_update_sets_and_drops_metadata_keys_keeping_the_others(one_fact: tuple[Path, str], capsys) -> None:
    folder, fid = one_fact
    code, out, err = run(["update", "-e", "alice", fid, "--metadata", "topic=moves", "--metadata", "year=2024",
                          "--drop-metadata", "room", "--json", "--path", str(folder)], capsys)
    assert code == 0, err
    [record] = json.loads(out)
    assert record["metadata"] == {"topic": "moves", "year": 2024}
    assert record["text"] == "User lives in Lyon."


def test_update_says_when_drop_metadata_names_a_key_the_fact_lacks(one_fact: tuple[Path, str], capsys) -> None:
    # A tester's --drop-metadata with a misspelled key succeeded without a word.
    folder, fid = one_fact
    code, out, err = run(["update", "-e", "alice", fid, "--drop-metadata", "rooms", "--drop-metadata", "topic",
                          "--json", "--path", str(folder)], capsys)
    assert code == 0
    assert err == "memori: --drop-metadata: the fact has no key 'rooms' (its keys: 'room', 'topic')\n"
    assert json.loads(out)[0]["metadata"] == {"room": "kitchen"}


def test_update_sets_and_clears_the_expiry_and_the_core_mark(one_fact: tuple[Path, str], capsys) -> None:
    folder, fid = one_fact
    code, out, err = run(["update", "-e", "alice", fid, "--expires", "30d", "--core", "--path", str(folder)], capsys)
    assert code == 0, err
    assert re.search(r"User lives in Lyon\.  \[core\]  \[expires \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\]$", out.rstrip())
    code, out, err = run(["update", "-e", "alice", fid, "--expire-now", "--path", str(folder)], capsys)
    assert code == 0, err
    assert out.rstrip().endswith("User lives in Lyon.  [core]  [expired]")
    code, out, _ = run(["update", "-e", "alice", fid, "--no-expiry", "--not-core", "--json", "--path", str(folder)],
                       capsys)
    [record] = json.loads(out)
    assert record["expires_at"] is None and "core" not in record["metadata"]


def test_update_of_an_unknown_id_says_so_with_exit_1(one_fact: tuple[Path, str], capsys) -> None:
    folder, _ = one_fact
    for change in (["--text", "User lives in Paris."], ["--metadata", "topic=x"], ["--core"]):
        code, out, err = run(["update", "-e", "alice", "nope", *change, "--path", str(folder)], capsys)
        assert (code, out, err) == (1, "", "memori: entity 'alice' has no fact with id 'nope'\n")


def test_update_without_a_change_is_a_usage_error(one_fact: tuple[Path, str], capsys) -> None:
    folder, fid = one_fact
    code, out, err = run(["update", "-e", "alice", fid, "--path", str(folder)], capsys)
    assert (code, out) == (2, "") and err.startswith("memori: error: nothing to update: give --text")


def test_update_refuses_a_version_id_and_both_expiry_options(one_fact: tuple[Path, str], capsys) -> None:
    folder, fid = one_fact
    run(["update", "-e", "alice", fid, "--text", "User lives in Paris.", "--path", str(folder)], capsys)
    code, _, err = run(["update", "-e", "alice", f"{fid}@v1", "--text", "User lives in Nice.", "--path", str(folder)],
                       capsys)
    assert code == 2 and err.startswith("memori: error: ") and f"{fid}@v1" in err
    err = usage_error(["update", "-e", "alice", fid, "--expires", "1d", "--no-expiry", "--path", str(folder)], capsys)
    assert "argument --no-expiry: not allowed with argument --expires" in err


# -- memori stats, memori count --all ------------------------------------------------------


@pytest.fixture
def mixed(moved: tuple[Path, str, str]) -> Path:
    """``moved`` (alice: Lyon superseded by Paris), and alice's core fact, her expired fact, her fact updated once
    (one version row), and bob's one fact."""
    folder, _, _ = moved
    engine_call(folder, "add", "alice", ["User is allergic to peanuts."], core=True)
    engine_call(folder, "add", "alice", ["User was in Rome."], created_at="2024-01-01T00:00:00Z",
                expires_at="2024-01-08T00:00:00Z")
    [fid] = engine_call(folder, "add", "alice", ["User plays chess."])
    engine_call(folder, "update", "alice", fid, text="User plays go.")
    engine_call(folder, "add", "bob", ["User is vegetarian."])
    return folder


def test_stats_counts_entities_and_rows_by_state_plainly_and_as_json(mixed: Path, capsys) -> None:
    code, out, err = run(["stats", "--path", str(mixed)], capsys)
    assert (code, err) == (0, "")
    assert [line.split() for line in out.splitlines()] == [
        ["entities", "2"], ["rows", "7"], ["valid", "4"], ["expired", "1"], ["superseded", "2"], ["core", "1"]]
    code, out, _ = run(["stats", "--json", "--path", str(mixed)], capsys)
    assert json.loads(out) == {"entities": 2, "rows": 7, "valid": 4, "expired": 1, "superseded": 2, "core": 1}


def test_stats_of_one_entity_and_of_an_unknown_one(mixed: Path, capsys) -> None:
    code, out, _ = run(["stats", "-e", "alice", "--json", "--path", str(mixed)], capsys)
    assert json.loads(out) == {"entity_id": "alice", "rows": 6, "valid": 3, "expired": 1, "superseded": 2,
                               "core": 1}
    code, out, _ = run(["stats", "-e", "bob", "--path", str(mixed)], capsys)
    assert out.splitlines()[:3] == ["entity_id   bob", "rows        1", "valid       1"]
    code, out, _ = run(["stats", "-e", "nobody", "--json", "--path", str(mixed)], capsys)
    assert json.loads(out) == {"entity_id": "nobody", "rows": 0, "valid": 0, "expired": 0, "superseded": 0, "core": 0}


def test_count_all_counts_superseded_rows_and_versions_too(mixed: Path, capsys) -> None:
    assert run(["count", "-e", "alice", "--path", str(mixed)], capsys) == (0, "4\n", "")  # expired ones included
    assert run(["count", "-e", "alice", "--all", "--path", str(mixed)], capsys) == (0, "6\n", "")


# -- memori forget -------------------------------------------------------------------------


def test_forget_of_an_unknown_entity_deletes_nothing_exits_1_and_suggests_close_names(mixed: Path, capsys) -> None:
    code, out, err = run(["forget", "-e", "alcie", "--path", str(mixed)], capsys)
    assert (code, out) == (1, "")
    assert err == "memori: entity 'alcie' has no facts in this store: nothing to forget (did you mean 'alice'?)\n"
    code, _, err = run(["forget", "-e", "zed", "--path", str(mixed)], capsys)
    assert code == 1 and err == "memori: entity 'zed' has no facts in this store: nothing to forget\n"
    assert run(["count", "-e", "alice", "--all", "--path", str(mixed)], capsys)[1] == "6\n"


def test_forget_dry_run_says_how_many_facts_would_go_and_deletes_nothing(mixed: Path, capsys) -> None:
    code, out, err = run(["forget", "-e", "alice", "--dry-run", "--path", str(mixed)], capsys)
    assert (code, err) == (0, "")
    assert out == ("would forget 4 fact(s) and 2 superseded fact(s) or earlier version(s) of 'alice' "
                   "(dry run: nothing deleted)\n")
    assert run(["count", "-e", "alice", "--all", "--path", str(mixed)], capsys)[1] == "6\n"
    code, _, err = run(["forget", "-e", "alcie", "--dry-run", "--path", str(mixed)], capsys)
    assert code == 1 and "did you mean 'alice'?" in err


def test_forget_of_a_known_entity_deletes_at_once_its_history_too_and_says_so(mixed: Path, capsys) -> None:
    # It said "forgot 4 fact(s)" when it erased 6 rows: an admin doing an erasure may think the history stayed.
    assert run(["forget", "-e", "alice", "--path", str(mixed)], capsys) == (
        0, "forgot 4 fact(s) and 2 superseded fact(s) or earlier version(s) of 'alice'\n", "")
    assert run(["count", "-e", "alice", "--all", "--path", str(mixed)], capsys)[1] == "0\n"
    assert run(["count", "-e", "bob", "--path", str(mixed)], capsys)[1] == "1\n"


# -- what the store does not hold, and the exit codes ----------------------------------------


@pytest.mark.parametrize(("argv", "code", "said"), [
    (["list"], 0, "nothing to list"),
    (["history", "ID"], 1, "no fact with id 'ID'"),
    (["restore", "ID"], 1, "no fact with id 'ID'"),
    (["get", "ID", "ID2"], 1, "no fact with id 'ID', 'ID2'"),
    (["update", "ID", "--core"], 1, "no fact with id 'ID'"),
    (["delete", "ID"], 1, "no fact with id 'ID'"),
    (["forget"], 1, "nothing to forget"),
    (["recall", "where do I live"], 0, "nothing to recall"),
])
def test_a_mistyped_entity_is_named_with_the_stores_entities_spelled_like_it(argv: list[str], code: int, said: str,
                                                                             mixed: Path, capsys) -> None:
    command, *rest = argv
    got, out, err = run([command, "-e", "Alice", *rest, "--path", str(mixed)], capsys)
    assert got == code and out in ("", "deleted 0 fact(s) of 'Alice'\n")
    assert err == f"memori: entity 'Alice' has no facts in this store: {said} (did you mean 'alice'?)\n"
    assert run(["count", "-e", "alice", "--all", "--path", str(mixed)], capsys)[1] == "6\n"


def test_an_unknown_entity_with_no_name_like_it_gets_no_suggestion(mixed: Path, capsys) -> None:
    assert run(["list", "-e", "zed", "--path", str(mixed)], capsys) == (
        0, "", "memori: entity 'zed' has no facts in this store: nothing to list\n")
    code, out, err = run(["export", "-e", "alcie", "--path", str(mixed)], capsys)
    assert (code, out) == (0, "")
    assert err == ("memori: warning: entity 'alcie' has no facts in this store: the export is empty "
                   "(did you mean 'alice'?)\n")


def test_an_unknown_id_of_a_known_entity_is_named_alone(mixed: Path, capsys) -> None:
    assert run(["history", "-e", "alice", "nope", "--path", str(mixed)], capsys) == (
        1, "", "memori: entity 'alice' has no fact with id 'nope'\n")


def test_restore_with_nothing_to_restore_exits_1_as_an_unknown_id_does(moved: tuple[Path, str, str],
                                                                       capsys) -> None:
    folder, lyon, paris = moved
    code, out, err = run(["restore", "-e", "alice", paris, "--path", str(folder)], capsys)  # valid: nothing to undo
    assert (code, out) == (1, "") and err == (f"memori: fact {paris!r} of entity 'alice' is valid: there is nothing "
                                              "to restore\n")
    assert run(["restore", "-e", "alice", "nope", "--path", str(folder)], capsys)[0] == 1
    [fid] = engine_call(folder, "add", "alice", ["User plays chess."])
    engine_call(folder, "update", "alice", fid, text="User plays go.")
    engine_call(folder, "update", "alice", fid, text="User plays chess.")
    code, _, err = run(["restore", "-e", "alice", f"{fid}@v1", "--path", str(folder)], capsys)  # its text already
    assert code == 1 and "there is nothing to restore" in err and not err.startswith("memori: error:")
    assert run(["restore", "-e", "alice", lyon, "--path", str(folder)], capsys)[0] == 0


def test_memori_help_ends_with_the_exit_code_convention(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    epilog = " ".join(capsys.readouterr().out.split("\n\n")[-1].split())
    assert epilog.startswith("Exit codes, one convention for every command: 0 done")
    assert "; 1 the store does not hold what the command names" in epilog and "; 2 a mistake in the command line" \
        in epilog


# -- --server and --entity mistakes in command-line terms -----------------------------------


@pytest.mark.parametrize(("server", "where"), [
    ("http://127.0.0.1:1", "http://127.0.0.1:1"),
    ("127.0.0.1:1", "http://127.0.0.1:1"),
    ("https://127.0.0.1:1/", "https://127.0.0.1:1"),
    ("[::1]:1", "http://[::1]:1"),
    ("http://[::1]:1", "http://[::1]:1"),
])
def test_server_takes_host_colon_port_or_a_url_with_its_port_and_scheme(server: str, where: str, capsys) -> None:
    # Nothing listens on port 1: the error names the server the option was read as.
    code, out, err = run(["count", "-e", "alice", "--server", server, "--timeout", "2"], capsys)
    assert (code, out) == (2, "")
    assert err == f"memori: error: no Chroma server answers at {where}: is it running (`chroma run --path DIR " \
                  "--port PORT`), and does --server name its address?\n"


@pytest.mark.server
def test_server_given_as_a_url_reaches_a_real_chroma_server(tmp_path: Path, capsys) -> None:
    with running_chroma_server(tmp_path) as (host, port, _):
        server = ["--server", f"http://{host}:{port}/"]
        assert run(["add", "-e", "alice", "User lives in Oslo.", *server], capsys)[0] == 0
        assert run(["count", "-e", "alice", "--server", f"{host}:{port}"], capsys) == (0, "1\n", "")


@pytest.mark.parametrize("server", ["http://127.0.0.1:8000/api/v2", "http://user@127.0.0.1:8000",
                                    "http://127.0.0.1:8000?x=1"])
def test_server_url_with_a_path_says_which_server_option_to_give(server: str, capsys) -> None:
    err = usage_error(["count", "-e", "alice", "--server", server], capsys)
    assert "argument --server: expected HOST:PORT or an http(s) URL" in err
    assert "use --server http://127.0.0.1:8000)" in err


def test_an_nfd_entity_is_refused_saying_which_id_to_type(tmp_path: Path, capsys) -> None:
    err = usage_error(["count", "-e", "Jose\u0301", "--path", str(tmp_path)], capsys)
    assert "memori: error: argument --entity/-e: 'Jose\\u0301' is not in Unicode NFC form" in err
    assert "use -e 'José'" in err and "unicodedata" not in err and "memori_core." not in err
    err = usage_error(["stats", "-e", " alice", "--path", str(tmp_path)], capsys)
    assert "argument --entity/-e: ' alice' begins or ends with whitespace, so it would name another entity than " \
           "'alice'; use -e 'alice'" in err


# -- where the store folder is created ----------------------------------------------------


def test_add_without_path_creates_the_default_folder_with_its_parents(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("MEMORI_RECALL_PATH", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "missing" / "share"))
    monkeypatch.setattr("sys.platform", "linux")
    code, _, err = run(["add", "-e", "alice", "User lives in Oslo."], capsys)
    assert code == 0, err
    assert (tmp_path / "missing" / "share" / "memori-recall").is_dir()
    assert run(["count", "-e", "alice"], capsys) == (0, "1\n", "")


def test_entity_ids_with_a_shown_joiner_work_and_a_no_break_space_says_what_to_type(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "mem"
    persian = "می\u200cخواهم"
    assert run(["add", "-e", persian, "User lives in Tehran.", "--path", str(folder)], capsys)[0] == 0
    assert run(["entities", "--json", "--path", str(folder)], capsys)[1] == json.dumps([persian], ensure_ascii=False) + "\n"
    err = usage_error(["count", "-e", "user\u00a0name", "--path", str(folder)], capsys)
    assert "argument --entity/-e: 'user\\xa0name' holds U+00A0 (NO-BREAK SPACE) at position 4" in err
    assert "use -e 'user name'" in err


def test_cancel_calls_off_a_change_to_come_with_its_plan_and_exits_1_when_there_is_none(tmp_path: Path,
                                                                                      capsys) -> None:
    folder = tmp_path / "store"
    start = datetime.now(timezone.utc) + timedelta(days=30)
    [bosch] = engine_call(folder, "add", "alice", ["User works at Bosch."])
    [plan] = engine_call(folder, "add", "alice", ["User got a job at Siemens, starting next month."])
    [siemens] = engine_call(folder, "add", "alice", ["User works at Siemens."], supersedes=[bosch], valid_from=start)
    code, out, err = run(["cancel", "-e", "alice", siemens, "--told-by", plan, "--json", "--path", str(folder)], capsys)
    assert (code, err) == (0, "") and [r["id"] for r in json.loads(out)] == [siemens]
    assert run(["list", "-e", "alice", "--path", str(folder)], capsys)[1].count("\n") == 1  # Bosch alone
    code, out, err = run(["cancel", "-e", "alice", bosch, "--path", str(folder)], capsys)
    assert (code, out) == (1, "") and "no change to come to call off" in err and not err.startswith("memori: error:")
    assert run(["cancel", "-e", "alice", "nope", "--path", str(folder)], capsys)[0] == 1
    assert "--at" in usage_error(["cancel", "-e", "alice", siemens, "--at", "soon", "--path", str(folder)], capsys)


def test_cancel_at_in_the_future_or_before_the_change_was_told_names_dash_dash_at_and_its_iso_time(
        tmp_path: Path, capsys) -> None:
    folder = tmp_path / "store"
    start = datetime.now(timezone.utc) + timedelta(days=30)
    [bosch] = engine_call(folder, "add", "alice", ["User works at Bosch."])
    [siemens] = engine_call(folder, "add", "alice", ["User works at Siemens."], supersedes=[bosch], valid_from=start)
    ahead = (datetime.now(timezone.utc) + timedelta(days=5)).date()
    code, _, err = run(["cancel", "-e", "alice", siemens, "--at", ahead.isoformat(), "--path", str(folder)], capsys)
    assert code == 2 and f"--at {ahead.isoformat()}T00:00:00+00:00 is in the future" in err
    assert "datetime.datetime" not in err
    code, _, err = run(["cancel", "-e", "alice", siemens, "--at", "2020-01-01", "--path", str(folder)], capsys)
    assert code == 2 and "--at 2020-01-01T00:00:00+00:00 is before fact" in err



def test_list_marks_a_fact_that_will_expire_with_its_expiry_beside_core_and_superseded(tmp_path: Path, capsys) -> None:
    folder = str(tmp_path / "mem")
    assert run(["add", "-e", "alice", "User is in Rome until Friday.", "--expires", "2099-03-06T18:00:00Z",
                "--path", folder], capsys)[0] == 0
    assert run(["add", "-e", "alice", "User is vegan.", "--core", "--path", folder], capsys)[0] == 0
    code, out, err = run(["list", "-e", "alice", "--path", folder], capsys)
    assert code == 0, err
    lines = {line.split("  ", 2)[2] for line in out.splitlines()}
    assert lines == {"User is in Rome until Friday.  [expires 2099-03-06T18:00:00Z]", "User is vegan.  [core]"}
