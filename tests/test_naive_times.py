"""A time given without a zone (a naive ``datetime``, ``"2026-10-20T10:00"``, ``"2026-10-20"``) is read the same way
everywhere memori takes a time: as UTC, with a ``NaiveTimeWarning`` naming the argument, pointed at the app's line
(tester j10's finding 8: ``add``, ``as_of``, ``where`` and ``import_`` read it as UTC silently while
``capture_facts`` refused it). A time with a zone warns nothing; the CLI, whose options document UTC, warns
nothing either. Real Chroma (in memory)."""

from __future__ import annotations

import json
import warnings
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from _cli import hash_embedder_for_the_cli, run  # noqa: F401  (the fixture is autouse)
from memori_core import NaiveTimeWarning, RecallEngine, RuleBasedFactExtractor, capture_facts
from memori_core.validate import check_time, iso_to_ts

LEEDS = datetime(2026, 10, 5, 8, 0, tzinfo=timezone.utc)
NAIVE_LEEDS = LEEDS.replace(tzinfo=None)


def _one_warning(record: list[warnings.WarningMessage]) -> warnings.WarningMessage:
    [warning] = [w for w in record if issubclass(w.category, NaiveTimeWarning)]
    return warning


@pytest.mark.parametrize("naive", [NAIVE_LEEDS, "2026-10-05T08:00", "2026-10-05T08:00:00.000"])
def test_add_reads_a_created_at_without_a_zone_as_utc_and_warns_naming_it(ungated: RecallEngine, naive) -> None:
    with pytest.warns(NaiveTimeWarning, match="^created_at has no time zone, so it is read as UTC") as record:
        ungated.add("a", "User lives in Leeds.", created_at=naive)
    assert _one_warning(record.list).filename == __file__  # the app's line, not memori's
    assert iso_to_ts(ungated.list("a")[0].created_at) == LEEDS.timestamp()


def test_a_date_alone_is_its_start_in_utc_with_the_warning(ungated: RecallEngine) -> None:
    with pytest.warns(NaiveTimeWarning, match="^expires_at has no time zone"):
        ungated.add("a", "User is in Rome this week.", created_at=LEEDS, expires_at="2026-10-09")
    assert ungated.list("a")[0].expires_at == "2026-10-09T00:00:00+00:00"


def test_as_of_and_where_read_a_time_without_a_zone_as_utc_and_warn_naming_it(ungated: RecallEngine) -> None:
    [leeds] = ungated.add("a", "User lives in Leeds.", created_at=LEEDS)
    ungated.add("a", "User lives in York.", supersedes=[leeds], created_at=LEEDS + timedelta(days=21))
    with pytest.warns(NaiveTimeWarning, match="^as_of has no time zone"):
        assert [f.content for f in ungated.recall("home", "a", as_of="2026-10-20T10:00")] == ["User lives in Leeds."]
    with pytest.warns(NaiveTimeWarning, match=r"^where\['created_at'\]\['\$lt'\] has no time zone"):
        found = ungated.list("a", where={"created_at": {"$lt": datetime(2026, 10, 5, 9)}}, include_invalid=True)
    assert [f.content for f in found] == ["User lives in Leeds."]


def test_an_import_warns_once_for_all_its_records_without_a_zone(ungated: RecallEngine) -> None:
    records = [{"text": f"User likes sport number {n}.", "created_at": f"2026-10-0{n}T08:00:00"} for n in range(1, 6)]
    with pytest.warns(NaiveTimeWarning, match=r"^records\[i\]\['created_at'\] has no time zone") as record:
        ungated.import_("a", records)
    assert len([w for w in record.list if issubclass(w.category, NaiveTimeWarning)]) == 5  # recorded each time...
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("default")  # ...but Python's default filter shows one line: the text names no record
        ungated.import_("b", records)
    assert len([w for w in shown if issubclass(w.category, NaiveTimeWarning)]) == 1
    assert sorted(f.created_at[:10] for f in ungated.list("a")) == [f"2026-10-0{n}" for n in range(1, 6)]


def test_capture_reads_a_turn_time_without_a_zone_as_utc_like_add_does(ungated: RecallEngine) -> None:
    with pytest.warns(NaiveTimeWarning, match="^created_at has no time zone"):
        capture_facts(ungated, "a", [("user", "My exam is on Thursday")], RuleBasedFactExtractor(),
                      created_at=datetime(2026, 10, 26, 18, 0))
    fact = ungated.list("a")[0]
    assert fact.content == "User's exam is on Thursday 2026-10-29."
    assert iso_to_ts(fact.created_at) == datetime(2026, 10, 26, 18, 0, tzinfo=timezone.utc).timestamp()


def test_times_with_a_zone_warn_nothing(ungated: RecallEngine) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", NaiveTimeWarning)
        [leeds] = ungated.add("a", "User lives in Leeds.", created_at="2026-10-05T09:00:00+01:00",
                              expires_at=timedelta(days=400))
        ungated.recall("home", "a", as_of=LEEDS + timedelta(days=1))
        ungated.list("a", where={"created_at": {"$gte": "2026-10-05T08:00:00Z"}})
        ungated.import_("b", ungated.export("a"))
        capture_facts(ungated, "c", [("user", "I'm vegan")], RuleBasedFactExtractor(), created_at=LEEDS)
    assert ungated.get("b", [leeds])[0].created_at == LEEDS.isoformat()


def test_one_checker_keeps_the_offset_it_was_given_and_names_the_argument_of_a_bad_time() -> None:
    tokyo = check_time("2026-10-05T17:00:00+09:00", "said_at")
    assert tokyo is not None and tokyo.utcoffset() == timedelta(hours=9) and tokyo.timestamp() == LEEDS.timestamp()
    with pytest.raises(ValueError, match="^as_of 'next week' is not an ISO 8601"):
        check_time("next week", "as_of")
    with pytest.raises(TypeError, match="^as_of must be a datetime or ISO 8601 str, got int"):
        check_time(1760000000, "as_of")


def test_the_cli_reads_times_without_a_zone_as_utc_without_a_warning(tmp_path: Path, capsys) -> None:
    store = str(tmp_path / "mem")
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        assert run(["add", "-e", "a", "--path", store, "--created-at", "2026-10-05T08:00",
                    "User lives in Leeds."], capsys)[0] == 0
        code, out, _ = run(["list", "-e", "a", "--path", store, "--json", "--where",
                            json.dumps({"created_at": {"$gte": "2026-10-05T08:00"}})], capsys)
    assert code == 0 and [r["created_at"] for r in json.loads(out)] == [LEEDS.isoformat()]
    assert not [w for w in shown if issubclass(w.category, NaiveTimeWarning)]
