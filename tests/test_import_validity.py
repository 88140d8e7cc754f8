"""``import_`` refuses a record whose period of validity is empty or contradicts itself, as ``add`` could never
have written it, before anything is written, naming the record and the field (tester j10's finding 6: a
hand-edited export with ``created_at`` deleted, ``valid_to`` before ``created_at`` or ``valid_to`` cleared with
``superseded_by`` kept was imported, leaving a fact valid at no time or two homes recalled at once). What the
engine itself writes still imports whole: a supersede at the fact's own instant, the history of updates and
restores, and a ``superseded_by`` whose fact was deleted. Real Chroma (in memory)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest

from memori_core import RecallEngine
from memori_core.records import RepairedRecordWarning

LEEDS, YORK = "User lives in Leeds.", "User lives in York."


def _moved(engine: RecallEngine) -> tuple[str, list[dict[str, Any]]]:
    """Leeds (2026-10-05) superseded by York (2026-10-26): Leeds's id and the export."""
    [leeds] = engine.add("src", LEEDS, created_at="2026-10-05T08:00:00Z")
    engine.add("src", YORK, supersedes=[leeds], created_at="2026-10-26T18:00:00Z")
    return leeds, engine.export("src")


def _edited(records: list[dict[str, Any]], text: str, edit: Callable[[dict[str, Any]], Any]) -> list[dict[str, Any]]:
    out = [dict(r) for r in records]
    edit(next(r for r in out if r["text"] == text))
    return out


@pytest.mark.parametrize(("edit", "says"), [
    (lambda r: r.pop("created_at"),
     r"records\[1\]\['valid_to'\] \(2026-10-26T18:00:00\+00:00\) of fact '\w+' is before its created_at "
     r"\(.*none given, so the time of the import\): the fact would be valid at no time"),
    (lambda r: r.update(valid_to="2026-01-01T00:00:00Z"),
     r"records\[1\]\['valid_to'\] \(2026-01-01T00:00:00\+00:00\) of fact '\w+' is before its created_at "
     r"\(2026-10-05T08:00:00\+00:00\)"),
    (lambda r: r.update(valid_to=None),
     r"records\[1\]\['superseded_by'\] of fact '\w+' names '\w+', but the record has no valid_to"),
    (lambda r: r.update(valid_from="2026-10-01T00:00:00Z"),
     r"records\[1\]\['valid_from'\] \(2026-10-01T00:00:00\+00:00\) of fact '\w+' is before its created_at"),
    (lambda r: r.update(valid_from="2026-10-27T00:00:00Z"),
     r"records\[1\]\['valid_to'\] \(2026-10-26T18:00:00\+00:00\) of fact '\w+' is before its valid_from "
     r"\(2026-10-27T00:00:00\+00:00\)"),
], ids=["created_at deleted", "valid_to before created_at", "valid_to cleared, superseded_by kept",
        "valid_from before created_at", "valid_to before valid_from"])
def test_a_record_with_empty_or_contradictory_validity_is_refused_and_nothing_is_written(
    ungated: RecallEngine, edit: Callable[[dict[str, Any]], Any], says: str
) -> None:
    _, records = _moved(ungated)
    records = _edited(records, LEEDS, edit)
    good = {"text": "User likes tea.", "created_at": "2026-10-01T08:00:00Z"}
    with pytest.raises(ValueError, match=says):
        ungated.import_("dst", [good, *records])
    assert ungated.count("dst", include_invalid=True) == 0  # all or nothing: not even the good record


def test_the_error_names_the_bad_record_by_its_place_in_the_list(ungated: RecallEngine) -> None:
    _, records = _moved(ungated)
    records = _edited(records, LEEDS, lambda r: r.update(valid_to=None))
    with pytest.raises(ValueError, match=r"^records\[2\]\['superseded_by'\]"):
        ungated.import_("dst", [{"text": "User likes tea."}, records[1], records[0]])
    assert ungated.count("dst", include_invalid=True) == 0


def test_what_the_engine_writes_still_imports_whole(ungated: RecallEngine) -> None:
    [leeds] = ungated.add("src", LEEDS, created_at="2026-10-05T08:00:00Z")
    [hull] = ungated.add("src", "User lives in Hull.", supersedes=[leeds], created_at="2026-10-05T08:00:00Z")
    [york] = ungated.add("src", YORK, supersedes=[hull], created_at="2026-10-26T18:00:00Z")
    ungated.add("src", LEEDS, created_at="2026-11-05T08:00:00Z")  # Leeds again: its first period a version row
    ungated.update("src", york, text="User lived in York.")
    ungated.restore("src", f"{york}@v1")
    records = ungated.export("src")
    assert any(r["valid_to"] == r["created_at"] for r in records)  # Leeds, replaced at the instant it was stated
    ungated.import_("dst", records)
    assert ungated.export("dst") == records


def test_a_superseded_by_whose_fact_was_deleted_is_kept_as_the_engine_leaves_it(ungated: RecallEngine) -> None:
    leeds, _ = _moved(ungated)
    [york] = [f.id for f in ungated.list("src")]
    ungated.delete("src", [york])  # delete keeps Leeds as it was: ended, superseded by a fact no longer there
    records = ungated.export("src")
    assert [(r["id"], r["superseded_by"]) for r in records] == [(leeds, york)]
    ungated.import_("dst", records)  # a backup restores whole: the link changes no period
    assert ungated.export("dst") == records
    assert ungated.list("dst") == [] and [f.content for f in ungated.recall("home", "dst", as_of="2026-10-20T00:00Z")
                                          ] == [LEEDS]


def test_the_record_an_update_of_a_replaced_fact_wrote_before_is_repaired_and_named(ungated: RecallEngine) -> None:
    # What `export` gave for tester j11's bob (finding 5) after the engine let update_memory rewrite a replaced fact:
    # the new text valid from the update, after the record ended, and the old text kept as its version row.
    berlin, munich = "c98e1bcc00ba63529c0f85df320886f4", "0b418a032368013bc85e2be74285c2a8"
    ended, updated = "2026-10-26T18:00:00+00:00", "2026-11-02T09:00:00+00:00"
    records = [
        {"id": berlin, "text": "User lives in Hamburg.", "created_at": "2026-10-05T08:00:00+00:00",
         "updated_at": updated, "valid_from": updated, "valid_to": ended, "superseded_by": munich},
        {"id": f"{berlin}@v1", "text": "User lives in Berlin.", "created_at": "2026-10-05T08:00:00+00:00",
         "valid_to": ended, "superseded_by": berlin},
        {"id": munich, "text": "User moved to Munich.", "created_at": ended, "supersedes": [berlin]},
    ]
    with pytest.warns(RepairedRecordWarning, match=rf"records\[0\] \(fact '{berlin}'\) .* never recalled: imported "
                      "valid at no time"):
        ungated.import_("dst", records)
    [hamburg] = ungated.get("dst", [berlin])
    assert hamburg.valid_to == hamburg.valid_from == updated  # valid at no time, as recall treated it
    where = "where does the user live"
    assert [f.content for f in ungated.recall(where, "dst")] == ["User moved to Munich."]
    assert [f.content for f in ungated.recall(where, "dst", as_of="2026-10-10T00:00:00Z")] == ["User lives in Berlin."]
    assert [f.content for f in ungated.recall(where, "dst", as_of="2026-11-10T00:00:00Z")] == ["User moved to Munich."]
    again = ungated.export("dst")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # repaired once: its export imports without a repair
        ungated.import_("copy", again)
    assert ungated.export("copy") == again
