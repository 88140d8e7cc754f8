"""facts.stored_fact: the one reading of a stored row's fields as a StoredFact, which a store's rows
(store/rows.py) and the recall cache's columns (cache/columns.py) build their facts with."""

from __future__ import annotations

import json

import pytest

from memori_core.facts import StoredFact, stored_fact, validity_json


def _fields(fact: StoredFact, metadata_json: str) -> tuple:
    return (fact.entity_id, fact.id, fact.content, fact.created_at, metadata_json, fact.last_seen, fact.times_seen,
            fact.session_id, fact.seq, fact.updated_at, fact.expires_at, validity_json(fact))


def test_a_fact_written_as_its_stored_fields_reads_back_equal() -> None:
    fact = StoredFact("f2", "ana", "User lives in Porto.", "2026-01-02T00:00:00+00:00", {"source": "chat"},
                      last_seen="2026-01-03T00:00:00+00:00", times_seen=3, session_id="s1", seq=7,
                      updated_at="2026-01-04T00:00:00+00:00", expires_at="2027-01-01T00:00:00+00:00",
                      valid_from="2026-01-02T00:00:00+00:00", supersedes=("f1",))
    assert stored_fact(*_fields(fact, json.dumps(fact.metadata))) == fact


@pytest.mark.parametrize("metadata_json", ["", "{}", None])
def test_no_metadata_in_any_stored_form_reads_as_an_empty_dict_and_no_links_as_valid(
        metadata_json: str | None) -> None:
    fact = stored_fact("ana", "f1", "User is vegan.", None, metadata_json, None, 1, None, 0, None, None, None)
    assert fact.metadata == {} and fact.valid_to is None and fact.supersedes == ()
