"""Changes told ahead (issue 21, "memory that stays true"): ``add(..., valid_from=..., supersedes=[...])`` stores a
change that starts later ("I start at Siemens on January 4", "I'm moving to Porto on the 1st", "I start my PhD in
October") valid from its start, and ends the fact it replaces at that start, not now; recall (now and ``as_of``),
the kept answers, ``where`` time filters, export/import and a restart from a snapshot read it alike; ``cancel``
calls a change off before it starts. Over a real Chroma store (in memory, and an embedded folder). Then the same
through rule-based capture: a job, a move and a course told with their start to come, and a change called off."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from _capture import capture_turns
from _faults import Faults
from _helpers import ungated_engine, ungated_on_each_store
from memori_core import ChromaStore, PartialDeleteError, RecallEngine
from memori_core.cache.snapshot_files import snapshot_files_for
from memori_core.engine import NothingToCancelError

JOB = "where does the user work"
HOME = "where does the user live"
NOW = datetime.now(timezone.utc)
START = NOW + timedelta(days=28)  # the day the change told today starts

eng = ungated_on_each_store()


def texts(facts: Any) -> list[str]:
    return [f.content for f in facts]


def _job_to_come(engine: RecallEngine, entity: str = "ann", start: datetime = START) -> tuple[str, str]:
    """Bosch stated a year ago; today the user tells of a job at Siemens starting on ``start``."""
    [bosch] = engine.add(entity, "User works at Bosch.", created_at=NOW - timedelta(days=365))
    [siemens] = engine.add(entity, "User works at Siemens.", supersedes=[bosch], valid_from=start)
    return bosch, siemens


def test_a_job_to_come_is_not_current_before_its_start_and_replaces_the_old_job_from_then_on(eng: Any) -> None:
    bosch, siemens = _job_to_come(eng)
    assert texts(eng.recall(JOB, "ann", 10)) == ["User works at Bosch."]
    assert texts(eng.recall(JOB, "ann", 10)) == ["User works at Bosch."]  # the kept answer, the same
    assert texts(eng.recall(JOB, "ann", 10, as_of=START - timedelta(days=1))) == ["User works at Bosch."]
    assert texts(eng.recall(JOB, "ann", 10, as_of=START)) == ["User works at Siemens."]  # on the start day
    assert texts(eng.recall(JOB, "ann", 10, as_of=START + timedelta(days=30))) == ["User works at Siemens."]
    [old] = eng.get("ann", [bosch])
    [new] = eng.get("ann", [siemens])
    assert old.valid_to == new.valid_from == START.isoformat()  # ended at the start, not now
    assert old.superseded_by == siemens and new.supersedes == (bosch,)


def test_a_question_about_the_past_does_not_mark_the_job_held_until_a_change_to_come_as_ended(eng: Any) -> None:
    _job_to_come(eng)
    got = eng.recall("Where did I used to work before?", "ann", 10)
    assert texts(got) == ["User works at Bosch."]
    assert got[0].valid_to is None  # still true today: its end lies ahead


def test_a_move_told_ahead_that_has_started_is_current_now(eng: Any) -> None:
    # Told 40 days ago ("I'm moving to Porto on the 1st"), started 10 days ago: recall now reads Porto.
    [lisbon] = eng.add("bo", "User lives in Lisbon.", created_at=NOW - timedelta(days=400))
    moved = NOW - timedelta(days=10)
    eng.add("bo", "User lives in Porto.", supersedes=[lisbon], created_at=NOW - timedelta(days=40), valid_from=moved)
    assert texts(eng.recall(HOME, "bo", 10)) == ["User lives in Porto."]
    assert texts(eng.recall(HOME, "bo", 10, as_of=moved - timedelta(days=1))) == ["User lives in Lisbon."]
    assert texts(eng.recall(HOME, "bo", 10, as_of=NOW - timedelta(days=20))) == ["User lives in Lisbon."]


def test_a_kept_answer_gives_way_when_a_change_starts() -> None:
    engine = ungated_engine()
    [lisbon] = engine.add("cy", "User lives in Lisbon.", created_at=NOW - timedelta(days=5))
    start = datetime.now(timezone.utc) + timedelta(seconds=1.5)
    engine.add("cy", "User lives in Porto.", supersedes=[lisbon], valid_from=start)
    assert texts(engine.recall(HOME, "cy", 10)) == ["User lives in Lisbon."]
    time.sleep(max(0.0, (start - datetime.now(timezone.utc)).total_seconds()) + 0.2)
    assert texts(engine.recall(HOME, "cy", 10)) == ["User lives in Porto."]  # not the answer kept before


def test_a_course_to_come_without_a_fact_it_replaces_is_recalled_from_its_start(eng: Any) -> None:
    october = NOW + timedelta(days=60)
    eng.add("di", ["User is a software engineer.", "User has a dog."], created_at=NOW - timedelta(days=30))
    eng.add("di", "User is doing a PhD.", valid_from=october)
    assert "User is doing a PhD." not in texts(eng.recall("what is the user studying, a PhD", "di", 10))
    assert "User is doing a PhD." in texts(eng.recall("what is the user studying, a PhD", "di", 10, as_of=october))
    assert "User is doing a PhD." not in texts(eng.list("di"))  # not valid yet: listed with the invalid ones
    [phd] = [f for f in eng.list("di", include_invalid=True) if f.content == "User is doing a PhD."]
    assert phd.valid_from == october.isoformat()


def test_cancel_before_the_start_keeps_the_old_job_at_every_time(eng: Any) -> None:
    bosch, siemens = _job_to_come(eng)
    ended = eng.cancel("ann", siemens)
    assert ended.valid_from == START.isoformat()  # kept as history with the start it had, valid at no time:
    assert ended.valid_to is not None and ended.valid_to < ended.valid_from  # ended when it was called off
    for at in (None, START - timedelta(days=1), START, START + timedelta(days=60)):
        assert texts(eng.recall(JOB, "ann", 10, as_of=at)) == ["User works at Bosch."]
    [old] = eng.get("ann", [bosch])
    assert old.valid_to is None and old.superseded_by is None
    assert texts(eng.list("ann")) == ["User works at Bosch."]
    assert "User works at Siemens." in texts(eng.list("ann", include_invalid=True))


def test_cancel_refuses_a_change_that_started_or_a_fact_never_told_ahead(eng: Any) -> None:
    [lisbon] = eng.add("ed", "User lives in Lisbon.", created_at=NOW - timedelta(days=40))
    [porto] = eng.add("ed", "User lives in Porto.", supersedes=[lisbon], created_at=NOW - timedelta(days=20),
                      valid_from=NOW - timedelta(days=1))
    with pytest.raises(NothingToCancelError, match="holds already"):
        eng.cancel("ed", porto)
    [cats] = eng.add("ed", "User has two cats.")
    with pytest.raises(NothingToCancelError, match="never told ahead"):
        eng.cancel("ed", cats)
    with pytest.raises(KeyError, match="no fact with id 'nope'"):
        eng.cancel("ed", "nope")


def test_valid_from_before_created_at_or_after_the_expiry_is_refused_naming_it(eng: Any) -> None:
    with pytest.raises(ValueError, match=r"valid_from .* is before created_at #0"):
        eng.add("fa", "User works at Siemens.", created_at=NOW, valid_from=NOW - timedelta(days=1))
    with pytest.raises(ValueError, match=r"expires_at #0 .* is not after valid_from"):
        eng.add("fa", "User works at Siemens.", valid_from=START, expires_at=START - timedelta(days=1))
    with pytest.raises(TypeError, match="valid_from must be a datetime"):
        eng.add("fa", "User works at Siemens.", valid_from=20270104)
    assert eng.list("fa") == []


def test_where_time_filters_read_the_start_of_a_change_to_come(eng: Any) -> None:
    _job_to_come(eng)
    later = {"valid_from": {"$gt": NOW.isoformat()}}
    assert texts(eng.list("ann", where=later, include_invalid=True)) == ["User works at Siemens."]
    assert eng.count("ann") == 1 and eng.count("ann", include_invalid=True) == 2
    ending = {"valid_to": {"$lte": START.isoformat()}}
    assert texts(eng.recall(JOB, "ann", 10, where=ending, as_of=START - timedelta(days=1))) == ["User works at Bosch."]


def test_export_and_import_keep_a_change_to_come(eng: Any) -> None:
    _job_to_come(eng)
    records = eng.export("ann")
    other = ungated_engine()
    other.import_("ann", records)
    assert texts(other.recall(JOB, "ann", 10)) == ["User works at Bosch."]
    assert texts(other.recall(JOB, "ann", 10, as_of=START + timedelta(days=1))) == ["User works at Siemens."]
    assert other.export("ann") == records


def test_a_change_to_come_survives_a_restart_from_a_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "mem"
    store = ChromaStore(path=path)
    engine = ungated_engine(store=store)
    _, siemens = _job_to_come(engine)
    assert texts(engine.recall(JOB, "ann", 10)) == ["User works at Bosch."]
    snapshot_files_for(store).flush()  # type: ignore[union-attr]
    store.close()

    store = ChromaStore(path=path)
    engine = ungated_engine(store=store)
    assert texts(engine.recall(JOB, "ann", 10)) == ["User works at Bosch."]
    assert snapshot_files_for(store).loaded == 1  # type: ignore[union-attr]  # the copy came from the file
    assert texts(engine.recall(JOB, "ann", 10, as_of=START)) == ["User works at Siemens."]
    engine.cancel("ann", siemens)
    records = engine.export("ann")
    store.close()

    store = ChromaStore(path=path, snapshots=False)  # and from the rows themselves
    engine = ungated_engine(store=store)
    assert texts(engine.recall(JOB, "ann", 10, as_of=START + timedelta(days=1))) == ["User works at Bosch."]
    assert engine.export("ann") == records
    store.close()
    other = ungated_engine()
    other.import_("ann", records)  # a cancelled change imports: ended before the start it had
    assert texts(other.list("ann")) == ["User works at Bosch."]


# -- capture: a change told ahead in a user's turn ----------------------------------------------------------------


def _captured(*turns: str) -> RecallEngine:
    """An ungated engine holding ``turns`` of user u1, captured by the rules in order, said now."""
    engine = ungated_engine()
    capture_turns(engine, *turns)
    return engine


def _start_of(engine: RecallEngine, text: str) -> datetime:
    [fact] = [f for f in engine.list("u1", include_invalid=True) if f.content == text]
    assert fact.valid_from is not None
    return datetime.fromisoformat(fact.valid_from)


def test_a_job_told_with_its_start_to_come_is_captured_valid_from_that_day() -> None:
    engine = _captured("I work at Bosch.", "I got a new job at Siemens, starting next month!")
    start = _start_of(engine, "User works at Siemens.")
    assert start > datetime.now(timezone.utc)
    now = texts(engine.recall(JOB, "u1", 10))
    assert "User works at Bosch." in now and "User works at Siemens." not in now
    later = texts(engine.recall(JOB, "u1", 10, as_of=start + timedelta(days=40)))
    assert "User works at Siemens." in later and "User works at Bosch." not in later


def test_a_move_told_with_its_day_to_come_is_captured_valid_from_that_day() -> None:
    engine = _captured("I live in Lisbon.", "We're moving to Porto next month.")
    start = _start_of(engine, "User lives in Porto.")
    assert texts(engine.recall(HOME, "u1", 10, as_of=start - timedelta(days=1))).count("User lives in Lisbon.") == 1
    after = texts(engine.recall(HOME, "u1", 10, as_of=start + timedelta(days=1)))
    assert "User lives in Porto." in after and "User lives in Lisbon." not in after


def test_a_course_told_with_its_month_to_come_is_captured_valid_from_that_month() -> None:
    engine = _captured("I'm a software engineer.", "I'm starting a master's at UCL in September.")
    start = _start_of(engine, "User is doing a master's at UCL.")
    assert (start.day, start.month) == (1, 9)
    assert "User is doing a master's at UCL." not in texts(engine.list("u1"))
    assert "User is a software engineer." in texts(engine.list("u1"))  # a course goes beside a job


@pytest.mark.parametrize(("told", "change", "called_off", "question", "days_after_start"), [
    pytest.param(("I work at Bosch.", "User works at Bosch."),
                 ("I got a new job at Siemens, starting next month!", "User works at Siemens."),
                 "Actually I'm staying at Bosch, they matched the offer.", JOB, 40, id="staying at the old job"),
    pytest.param(("I live in Lisbon.", "User lives in Lisbon."),
                 ("We're moving to Porto next month.", "User lives in Porto."),
                 "Actually we're not moving to Porto after all.", HOME, 1, id="not moving after all"),
])
def test_a_change_to_come_called_off_before_its_start_leaves_the_old_fact_holding_after_it(
    told: tuple[str, str], change: tuple[str, str], called_off: str, question: str, days_after_start: int,
) -> None:
    engine = _captured(told[0], change[0])
    start = _start_of(engine, change[1])
    capture_turns(engine, called_off)
    after = texts(engine.recall(question, "u1", 10, as_of=start + timedelta(days=days_after_start)))
    assert told[1] in after and change[1] not in after


def _pending(engine: RecallEngine) -> list[str]:
    """The user's changes still to come (not called off)."""
    return [f.content for f in engine.list("u1", include_invalid=True) if f.valid_from and f.valid_to is None]


@pytest.mark.parametrize("later", ["I'm staying in a hotel in Rome this week for a conference.",
                                   "I'm staying at Marriott for the conference.",
                                   "I'm staying with Anna this weekend."])
def test_staying_somewhere_the_changes_do_not_end_calls_nothing_off(later: str) -> None:
    engine = _captured("I live in Lisbon.", "We're moving to Porto next month.",
                       "I work at Bosch.", "I got a new job at Siemens, starting next month!")
    capture_turns(engine, later)
    assert sorted(_pending(engine)) == ["User lives in Porto.", "User works at Siemens."]


def test_staying_in_the_home_a_move_ends_calls_the_move_off_and_not_the_job() -> None:
    engine = _captured("I live in Lisbon.", "We're moving to Porto next month.",
                       "I work at Bosch.", "I got a new job at Siemens, starting next month!")
    capture_turns(engine, "Actually we're staying in Lisbon, the flat fell through.")
    assert _pending(engine) == ["User works at Siemens."]


def test_waiting_at_the_old_job_in_the_turn_that_tells_the_new_one_keeps_the_new_one() -> None:
    engine = _captured("I work at Bosch.")
    capture_turns(engine, "I got a new job at Siemens, starting next month! I'm staying at Bosch until then.")
    assert _pending(engine) == ["User works at Siemens."]


def test_calling_a_job_off_ends_the_plan_that_told_it_too() -> None:
    engine = _captured("I work at Bosch.", "I got a new job at Siemens, starting next month!")
    [plan] = [f for f in engine.list("u1") if "Siemens" in f.content]
    assert plan.content.startswith("User got a new job at Siemens")
    capture_turns(engine, "Actually I'm staying at Bosch, they matched the offer.")
    assert not any("Siemens" in t for t in texts(engine.list("u1")))
    [ended] = engine.get("u1", [plan.id])
    [change] = [f for f in engine.list("u1", include_invalid=True) if f.content == "User works at Siemens."]
    assert ended.valid_to is not None and ended.valid_to == change.valid_to  # in the one write of the cancel


def test_cancel_ends_the_facts_told_by_in_the_same_write_and_refuses_a_lone_str(eng: Any) -> None:
    _, siemens = _job_to_come(eng)
    [plan] = eng.add("ann", "User got a job at Siemens, starting next month.")
    with pytest.raises(TypeError, match="told_by"):
        eng.cancel("ann", siemens, told_by=plan)
    ended = eng.cancel("ann", siemens, told_by=[plan])
    [p] = eng.get("ann", [plan])
    assert p.valid_to == ended.valid_to
    assert texts(eng.list("ann")) == ["User works at Bosch."]


def test_a_new_text_for_a_change_to_come_keeps_its_start_and_round_trips(eng: Any) -> None:
    bosch, siemens = _job_to_come(eng)
    fact = eng.update("ann", siemens, text="User works at Siemens in Munich.")
    assert fact.valid_from == START.isoformat()  # not true now: still from its start
    assert texts(eng.recall(JOB, "ann", 10)) == ["User works at Bosch."]
    assert texts(eng.recall(JOB, "ann", 10, as_of=START + timedelta(days=1))) == ["User works at Siemens in Munich."]
    records = eng.export("ann")
    other = ungated_engine()
    other.import_("ann", records)  # the old text's version row, valid at no time, imports
    assert other.export("ann") == records
    assert texts(other.recall(JOB, "ann", 10)) == ["User works at Bosch."]


@pytest.mark.parametrize("how", ["delete", "expire"])
def test_erasing_or_expiring_a_change_to_come_puts_back_the_job_it_was_to_end(eng: Any, how: str) -> None:
    bosch, siemens = _job_to_come(eng)
    if how == "delete":
        eng.delete("ann", [siemens])
    else:
        eng.expire("ann", siemens)
    [old] = eng.get("ann", [bosch])
    assert old.valid_to is None and old.superseded_by is None
    assert texts(eng.recall(JOB, "ann", 10, as_of=START + timedelta(days=1))) == ["User works at Bosch."]
    other = ungated_engine()
    other.import_("ann", eng.export("ann"))
    assert texts(other.list("ann")) == ["User works at Bosch."]


def test_a_change_told_again_with_a_later_start_before_it_began_moves_to_that_start(eng: Any) -> None:
    bosch, siemens = _job_to_come(eng)
    later = START + timedelta(days=30)
    eng.add("ann", "User works at Siemens.", valid_from=later)  # "my start got pushed back"
    [new] = eng.get("ann", [siemens])
    [old] = eng.get("ann", [bosch])
    assert new.valid_from == old.valid_to == later.isoformat()
    assert texts(eng.recall(JOB, "ann", 10, as_of=START + timedelta(days=1))) == ["User works at Bosch."]
    assert texts(eng.recall(JOB, "ann", 10, as_of=later)) == ["User works at Siemens."]


def test_a_start_pushed_back_in_a_later_turn_moves_the_job_to_come_later() -> None:
    engine = _captured("I work at Bosch.", "I got a new job at Siemens, starting next month!")
    first = _start_of(engine, "User works at Siemens.")
    capture_turns(engine, "Update: my start date got pushed back, I'm starting at Siemens in March now.")
    moved = _start_of(engine, "User works at Siemens.")
    assert moved > first and (moved.day, moved.month) == (1, 3)
    assert "User works at Siemens." not in texts(engine.recall(JOB, "u1", 10, as_of=first + timedelta(days=1)))


def test_a_replayed_call_off_cancels_at_the_turns_time_a_change_that_has_started_since() -> None:
    engine = ungated_engine()
    said = (NOW - timedelta(days=150)).replace(day=5, hour=10, minute=0, second=0, microsecond=0)
    # "next month" is long past now; the call-off, two days later, was before it
    capture_turns(engine, "I work at Bosch.", "I got a new job at Siemens, starting next month!",
                  "Actually I'm staying at Bosch, they matched the offer.", at=said, apart=timedelta(days=1))
    assert not any("Siemens" in t for t in texts(engine.list("u1")))
    assert "User works at Bosch." in texts(engine.list("u1"))
    [change] = [f for f in engine.list("u1", include_invalid=True) if f.content == "User works at Siemens."]
    assert change.valid_to == (said + timedelta(days=2)).isoformat()  # ended when it was called off
    other = ungated_engine()
    other.import_("u1", engine.export("u1"))
    assert texts(other.list("u1")) == texts(engine.list("u1"))


def test_cancel_at_a_time_before_the_change_was_told_is_refused_naming_at(eng: Any) -> None:
    _, siemens = _job_to_come(eng)
    with pytest.raises(ValueError, match="at .* is before fact"):
        eng.cancel("ann", siemens, at=NOW - timedelta(days=3))
    assert eng.cancel("ann", siemens, at=datetime.now(timezone.utc)).valid_to is not None


def _month_ahead(months: int) -> str:
    """The name of the month ``months`` after this one (a start told ahead by its month alone)."""
    return datetime(2000, (NOW.month - 1 + months) % 12 + 1, 1).strftime("%B")


def test_a_start_moved_to_another_month_leaves_only_the_latest_plan_valid() -> None:
    first, later = _month_ahead(3), _month_ahead(5)
    engine = _captured("I live in Lisbon.", f"We're moving to Porto in {first}.",
                       f"We're moving to Porto in {later}, not {first}.")
    plans = [t for t in texts(engine.list("u1")) if t.startswith("User is moving to Porto")]
    assert len(plans) == 1 and later in plans[0]
    assert (_start_of(engine, "User lives in Porto.").month - NOW.month) % 12 == 5


def test_a_start_pushed_back_ends_the_plan_that_told_the_first_start() -> None:
    engine = _captured("I work at Bosch.", "I got a new job at Siemens, starting next month!")
    [plan] = [f for f in engine.list("u1") if f.content.startswith("User got a new job at Siemens")]
    capture_turns(engine, f"Update: my start date got pushed back, I'm starting at Siemens in {_month_ahead(4)} now.")
    [old] = engine.get("u1", [plan.id])
    assert old.valid_to is not None and datetime.fromisoformat(old.valid_to) <= datetime.now(timezone.utc)
    assert [t for t in texts(engine.list("u1")) if "Siemens" in t] == \
        [f"User is starting at Siemens in {_month_ahead(4)} {(NOW.year + (NOW.month + 4 > 12))} now."]


@pytest.mark.parametrize("how", ["cancel", "delete", "expire"])
def test_calling_off_deleting_or_expiring_a_change_with_told_by_ends_its_plan_and_puts_back_the_old_job(
        eng: Any, how: str) -> None:
    bosch, siemens = _job_to_come(eng)
    [plan] = eng.add("ann", "User got a job at Siemens, starting next month.")
    {"cancel": eng.cancel, "expire": eng.expire, "delete": lambda e, i, told_by: eng.delete(e, [i], told_by=told_by)
     }[how]("ann", siemens, told_by=[plan])
    [p] = eng.get("ann", [plan])
    assert p.valid_to is not None  # kept as history, ended
    assert texts(eng.list("ann")) == ["User works at Bosch."]
    assert texts(eng.recall(JOB, "ann", 10, as_of=START + timedelta(days=1))) == ["User works at Bosch."]


@pytest.mark.parametrize("how", ["delete", "expire"])
def test_delete_and_expire_refuse_a_lone_str_told_by_naming_it_and_write_nothing(eng: Any, how: str) -> None:
    _, siemens = _job_to_come(eng)
    [plan] = eng.add("ann", "User got a job at Siemens, starting next month.")
    with pytest.raises(TypeError, match="told_by"):
        if how == "delete":
            eng.delete("ann", [siemens], told_by=plan)
        else:
            eng.expire("ann", siemens, told_by=plan)
    assert sorted(texts(eng.list("ann"))) == ["User got a job at Siemens, starting next month.", "User works at Bosch."]
    assert [f.valid_from for f in eng.get("ann", [siemens])] == [START.isoformat()]


def test_acancel_calls_a_change_off_with_the_same_arguments_and_errors_as_cancel(eng: Any) -> None:
    bosch, siemens = _job_to_come(eng)
    [plan] = eng.add("ann", "User got a job at Siemens, starting next month.")
    with pytest.raises(TypeError, match="told_by"):
        asyncio.run(eng.acancel("ann", siemens, told_by=plan))
    with pytest.raises(NothingToCancelError):
        asyncio.run(eng.acancel("ann", bosch))
    ended = asyncio.run(eng.acancel("ann", siemens, told_by=[plan], at=datetime.now(timezone.utc)))
    assert ended.id == siemens and ended.valid_to is not None
    assert texts(eng.list("ann")) == ["User works at Bosch."]


def test_restoring_the_job_a_change_to_come_is_to_end_takes_its_end_off_with_no_future_restore(eng: Any) -> None:
    bosch, siemens = _job_to_come(eng)
    restored = eng.restore("ann", bosch)
    assert (restored.id, restored.valid_to, restored.restored_at) == (bosch, None, None)
    assert [f.id for f in eng.list("ann")] == [bosch]  # the fact's id, no version row's
    assert [f.id for f in eng.history("ann", bosch)] == [bosch]  # it never stopped holding: no period kept
    [new] = eng.get("ann", [siemens])
    assert new.supersedes == ()
    after = texts(eng.recall(JOB, "ann", 10, as_of=START + timedelta(days=1)))
    assert sorted(after) == ["User works at Bosch.", "User works at Siemens."]  # a restore keeps the newer fact


def test_a_delete_of_a_change_to_come_that_fails_after_putting_back_the_old_job_says_what_landed() -> None:
    engine = ungated_engine()
    bosch, siemens = _job_to_come(engine)
    Faults(engine.store).arm("delete", "before", times=1)
    with pytest.raises(PartialDeleteError, match=f"{bosch}.*hold again already") as got:
        engine.delete("ann", [siemens])
    assert got.value.remaining_ids == [siemens] and got.value.deleted_ids == []
    [old] = engine.get("ann", [bosch])
    assert old.valid_to is None
    assert engine.delete("ann", [siemens]) == [siemens]  # again: exact
    assert texts(engine.list("ann")) == ["User works at Bosch."] and engine.get("ann", [bosch])[0].valid_to is None


def test_a_failed_delete_with_told_by_names_the_fact_put_back_and_the_plan_ended_apart() -> None:
    engine = ungated_engine()
    bosch, siemens = _job_to_come(engine)
    [plan] = engine.add("ann", "User got a job at Siemens, starting next month.")
    Faults(engine.store).arm("delete", "before", times=1)
    with pytest.raises(PartialDeleteError) as got:
        engine.delete("ann", [siemens], told_by=[plan])
    said = str(got.value)
    assert f"was to end ({bosch}) hold again" in said and f"told it (told_by: {plan}) are ended" in said
    assert engine.get("ann", [plan])[0].valid_to is not None and engine.get("ann", [bosch])[0].valid_to is None
    assert engine.delete("ann", [siemens], told_by=[plan]) == [siemens]  # again: exact
    assert texts(engine.list("ann")) == ["User works at Bosch."]


@pytest.mark.parametrize("how", ["delete", "expire"])
def test_delete_and_expire_of_no_change_to_come_refuse_told_by_naming_it_and_write_nothing(eng: Any, how: str) -> None:
    [tea] = eng.add("ann", "User likes tea.")
    [said] = eng.add("ann", "User said they like tea.")
    with pytest.raises(NothingToCancelError, match=f"told_by.*{tea}.*never told ahead"):
        if how == "delete":
            eng.delete("ann", [tea], told_by=[said])
        else:
            eng.expire("ann", tea, told_by=[said])
    assert [(f.valid_to, f.expires_at) for f in eng.get("ann", [tea, said])] == [(None, None), (None, None)]


def test_cancel_at_a_datetime_in_the_future_names_at_with_its_iso_time_not_a_repr(eng: Any) -> None:
    _, siemens = _job_to_come(eng)
    ahead = datetime(2099, 1, 2, 3, 4, tzinfo=timezone.utc)
    with pytest.raises(ValueError, match=r"^at 2099-01-02T03:04:00\+00:00 is in the future"):
        eng.cancel("ann", siemens, at=ahead)


def test_a_medicine_told_ahead_is_captured_valid_from_its_start_beside_the_medicines_taken_now() -> None:
    engine = _captured("I take warfarin.", "I start metformin next week.")
    start = _start_of(engine, "User takes metformin.")
    assert start > datetime.now(timezone.utc)
    assert "User takes metformin." not in texts(engine.list("u1"))
    [fact] = [f for f in engine.list("u1", include_invalid=True) if f.content == "User takes metformin."]
    assert fact.core  # a medicine, core as one told now
    later = texts(engine.recall("what medication do I take", "u1", 10, as_of=start + timedelta(days=1)))
    assert "User takes metformin." in later and "User takes warfarin." in later


@pytest.mark.parametrize("said", ["I start work on Monday.", "I'm starting a new diet next week.",
                                  "I start physio next week."])
def test_starting_something_that_is_no_medicine_tells_no_change_to_come(said: str) -> None:
    assert _pending(_captured(said)) == []


@pytest.mark.server
def test_over_a_chroma_server_a_change_to_come_ends_its_plan_on_delete_and_its_old_job_restores_in_one_write(
        chroma_server: tuple[str, int]) -> None:
    host, port = chroma_server
    store = ChromaStore.http(host=host, port=port, collection="fix33_changes_to_come")
    try:
        engine = ungated_engine(store=store)
        bosch, siemens = _job_to_come(engine, entity="server-ann")
        [plan] = engine.add("server-ann", "User got a job at Siemens, starting next month.")
        engine.restore("server-ann", bosch)  # its end ahead taken off: no future restored_at, no version row
        assert sorted(f.id for f in engine.list("server-ann")) == sorted([bosch, plan])
        assert engine.get("server-ann", [bosch])[0].restored_at is None
        assert engine.delete("server-ann", [siemens], told_by=[plan]) == [siemens]
        assert texts(engine.list("server-ann")) == ["User works at Bosch."]
        assert engine.get("server-ann", [plan])[0].valid_to is not None  # ended, kept as history
        with pytest.raises(NothingToCancelError):
            engine.cancel("server-ann", bosch)
    finally:
        store.close()
