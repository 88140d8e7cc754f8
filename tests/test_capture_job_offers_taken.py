"""An offer taken, told as an answer ("Yes! Accepted it this morning", "I said yes to them"), is the job accepted,
and that job told as taken up ("First week at Monzo done") is the user's job
(:func:`memori_core.extraction.job_change.as_job_changes`). The rows are in the case book
tests/cases/job_offers_taken.toml, run by tests/test_capture_cases.py; here, what a job asked about is answered with."""

from __future__ import annotations

from _capture import capture_turns
from _helpers import ungated_engine


def test_where_do_i_work_after_an_offer_taken_up_is_answered_with_the_new_job_not_the_old_one() -> None:
    engine = ungated_engine()
    capture_turns(engine, "I work from home as a software tester for an insurance company.",
                  "Big news, I got an offer from Monzo as a senior QA engineer!!",
                  "Yes! Accepted it this morning, I start in three weeks.",
                  "First week at Monzo done, the team is lovely.", user="priya")
    recalled = [f.content for f in engine.recall("Where do I work?", "priya")]
    assert recalled[:1] == ["User works at Monzo as a senior QA engineer."]
    assert not any("insurance" in text or "offer" in text for text in recalled)
