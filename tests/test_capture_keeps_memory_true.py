"""Rule-based capture, through capture_facts into a real embedded Chroma store: a change of employer ends the
stored job, a plan says its day and expires when that day is over, passing states are not stored for good, and
the agent's own remember call and capture store one fact, not two (tester i1, findings 2, 4, 5 and 9).

Rows of messages -> the facts valid afterwards, and rows of steps (messages, then the valid, ended and core facts,
expiries and recalls they leave), are in the case book tests/cases/keeps_memory_true.toml, run by
test_capture_cases.py."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from _capture import RULES, capture_turns, texts_after
from _helpers import ungated_engine
from memori_core import RuleBasedFactExtractor
from memori_core.extraction.dates import UNKNOWN_ZONE_MARGIN, anchor_plan, day_label

JOB = "I work at Google as a designer."


# -- finding 2: a change of employer -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "new"),
    [
        ("I joined Meta.", "User joined Meta."),  # alone: a gym, a club or an app is joined too
        ("I joined a gym.", "User joined a gym."),
        ("My brother left Google and joined Meta.", None),  # someone else's job
    ],
)
def test_what_is_no_change_of_the_users_employer_leaves_the_stored_job(said: str, new: str | None) -> None:
    engine = ungated_engine()
    valid = texts_after(engine, JOB, said)
    assert "User works at Google as a designer." in valid
    assert new is None or new in valid


def test_a_job_left_next_month_is_a_plan_that_ends_nothing_yet() -> None:
    engine = ungated_engine()
    valid = texts_after(engine, JOB, "I'm leaving Google next month.")
    assert "User works at Google as a designer." in valid
    [plan] = [f for f in engine.list("u1") if "leaving" in f.content]
    assert plan.expires_at is not None


def test_a_new_employer_told_to_a_new_user_is_where_they_work() -> None:
    engine = ungated_engine()
    assert texts_after(engine, "I left Google and joined Meta.") == ["User works at Meta."]
    assert texts_after(engine, "I got a job at a startup last week.", user="u2") == ["User works at a startup."]


# -- finding 4: a plan says its day and expires when that day is over -----------------------------------------

SATURDAY = datetime(2026, 12, 5, 9, 38, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    ("said", "fact", "last_day"),
    [
        ("My dentist appointment is on Monday at 10am.",
         "User's dentist appointment is on Monday 2026-12-07 at 10am.", date(2026, 12, 7)),
        ("I have a job interview tomorrow at 3pm.",
         "User has a job interview on Sunday 2026-12-06 at 3pm.", date(2026, 12, 6)),
        ("My exam is Thursday.", "User's exam is on Thursday 2026-12-10.", date(2026, 12, 10)),
        ("I have a date tonight.", "User has a date on the evening of Saturday 2026-12-05.", date(2026, 12, 5)),
        ("My sister is visiting this weekend.",
         "User's sister is visiting on the weekend of Saturday 2026-12-05.", date(2026, 12, 6)),
        ("I have a doctor's appointment next week.",
         "User has a doctor's appointment in the week of Monday 2026-12-07.", date(2026, 12, 13)),
        ("I have a dentist appointment on the 14th.",
         "User has a dentist appointment on Monday 2026-12-14.", date(2026, 12, 14)),
        ("My surgery is on 3 March.", "User's surgery is on Wednesday 2027-03-03.", date(2027, 3, 3)),
        ("On Monday I have a dentist appointment.",
         "User has a dentist appointment on Monday 2026-12-07.", date(2026, 12, 7)),
        ("I've got a dentist appointment at 4.",
         "User has got a dentist appointment at 4 on Saturday 2026-12-05.", date(2026, 12, 5)),
    ],
)
def test_a_plan_is_written_with_its_day_and_expires_when_that_day_has_ended_everywhere(
    said: str, fact: str, last_day: date
) -> None:
    [verdict] = RULES.explain(said, now=SATURDAY)
    assert verdict.fact == fact
    end = datetime(last_day.year, last_day.month, last_day.day, tzinfo=timezone.utc) + timedelta(days=1)
    assert SATURDAY + verdict.expires_in == end + UNKNOWN_ZONE_MARGIN  # 24:00 at UTC-12


def test_next_friday_said_early_in_the_week_keeps_its_words_and_the_day_they_were_said() -> None:
    wednesday = datetime(2026, 12, 9, 9, 0, tzinfo=timezone.utc)
    [verdict] = RULES.explain("I have a doctor's appointment next Friday.", now=wednesday)
    assert verdict.fact == "User has a doctor's appointment next Friday (as of Wednesday 2026-12-09)."
    assert wednesday + verdict.expires_in == datetime(2026, 12, 19, 12, tzinfo=timezone.utc)  # the later Friday


def test_a_plan_in_a_known_time_zone_ends_at_that_zones_midnight() -> None:
    lisbon_evening = datetime(2026, 12, 5, 23, 30, tzinfo=timezone(timedelta(hours=-8)))  # Sunday 07:30 UTC
    extractor = RuleBasedFactExtractor(time_zone=timezone(timedelta(hours=-8)))
    [verdict] = extractor.explain("I have a job interview tomorrow at 3pm.", now=lisbon_evening)
    assert verdict.fact == "User has a job interview on Sunday 2026-12-06 at 3pm."  # the user's Sunday
    assert lisbon_evening + verdict.expires_in == datetime(2026, 12, 7, tzinfo=timezone(timedelta(hours=-8)))
    assert RuleBasedFactExtractor(time_zone="Europe/Lisbon").time_zone is not None
    with pytest.raises(ValueError, match="time_zone 'Mars/Olympus'"):
        RuleBasedFactExtractor(time_zone="Mars/Olympus")
    with pytest.raises(TypeError, match="time_zone must be"):
        RuleBasedFactExtractor(time_zone=5)  # type: ignore[arg-type]


def test_a_captured_plan_is_recalled_before_its_day_and_not_after() -> None:
    engine = ungated_engine()
    capture_turns(engine, "My dentist appointment is on Monday at 10am.")
    [plan] = engine.list("u1")
    today = datetime.now(timezone.utc).date()
    monday = today + timedelta(days=(0 - today.weekday()) % 7 or 7)
    assert plan.content == f"User's dentist appointment is on {day_label(monday)} at 10am."
    day_of = datetime(monday.year, monday.month, monday.day, 9, tzinfo=timezone.utc)
    assert [f.content for f in engine.recall("appointments?", "u1", as_of=day_of)] == [plan.content]
    assert engine.recall("appointments?", "u1", as_of=day_of + timedelta(days=2)) == []


def test_anchor_plan_leaves_a_fact_that_names_no_day() -> None:
    assert anchor_plan("User has a dentist appointment.", SATURDAY) is None
    assert anchor_plan("User has therapy every Monday.", SATURDAY) is None  # recurring: no day of its own


# -- finding 5: passing states are not stored for good --------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    ["I'm feeling really down lately.", "I'm stressed about work these days."],
)
def test_a_mood_of_the_weeks_expires_after_two_weeks(said: str) -> None:
    engine = ungated_engine()
    capture_turns(engine, said)
    [fact] = engine.list("u1")
    assert fact.expires_at is not None
    expires = datetime.fromisoformat(fact.expires_at)
    assert timedelta(days=13) < expires - datetime.now(timezone.utc) <= timedelta(days=14)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm diabetic.", "User is diabetic."),
        ("I'm pregnant.", "User is pregnant."),
        ("I'm on medication for high blood pressure.", "User is on medication for high blood pressure."),
        ("I'm sober.", "User is sober."),  # read as not drinking: "sober tonight" is a moment
        ("I'm scared of heights.", "User is scared of heights."),  # a fear, not a moment
    ],
)
def test_a_lasting_condition_is_stored_for_good(said: str, fact: str) -> None:
    engine = ungated_engine()
    assert texts_after(engine, said) == [fact]
    assert all(f.expires_at is None for f in engine.list("u1"))
    assert texts_after(engine, "I'm sober tonight.", user="u2") == []


# -- finding 9: the agent's remember call and capture store one fact ------------------------------------------


def test_a_fact_named_with_the_user_said_another_way_is_captured_once_and_recalled_once() -> None:
    engine = ungated_engine()
    [first] = engine.add("u1", ["The user is vegan."])  # an app's or a model's words
    capture_turns(engine, "I'm vegan, please remember that.")  # capture's: "User is ..."
    assert [f.id for f in engine.list("u1")] == [first]  # capture saw the fact already stored
    # A direct add keeps its own row (a derived id hashes the words as every version did, so re-adding a fact
    # finds the row an earlier version stored), and recall still shows the fact once.
    assert engine.add("u1", ["I am vegan."]) != [first]
    recalled = [f.content for f in engine.recall("What should I cook?", "u1")]
    assert len(recalled) == 1 and recalled[0] in {"The user is vegan.", "I am vegan."}  # the newer telling


def test_the_remember_tool_writes_the_user_as_capture_does() -> None:
    from memori_core.memory_tools import MemoryTools

    engine = ungated_engine()
    tools = MemoryTools(engine)
    assert tools.remember("u1", "The user is vegan.").endswith(": User is vegan.")
    assert tools.remember("u1", "the user's sister lives in Rome.").endswith(": User's sister lives in Rome.")
    assert sorted(f.content for f in engine.list("u1")) == ["User is vegan.", "User's sister lives in Rome."]


def test_an_agent_that_remembers_in_its_own_words_and_capture_store_each_fact_once() -> None:
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    from memori_langchain import MemoriMiddleware, memory_tools

    seen: list[str] = []

    class Model(GenericFakeChatModel):  # answers with the scripted tool calls and notes the system prompt it saw
        disable_streaming: bool = True

        def bind_tools(self, tools, **kwargs):  # type: ignore[no-untyped-def]
            return self

        def _generate(self, messages, *args, **kwargs):  # type: ignore[no-untyped-def]
            seen.append(next((m.text for m in messages if m.type == "system"), ""))
            return super()._generate(messages, *args, **kwargs)

    engine = ungated_engine()
    middleware = MemoriMiddleware(engine=engine, capture=True)
    config = {"configurable": {"user_id": "alice"}}

    def turn(text: str, *replies: AIMessage) -> None:
        agent = create_agent(Model(messages=iter(replies)), tools=memory_tools(engine), middleware=[middleware])
        agent.invoke({"messages": [("human", text)]}, config=config)
        assert middleware.flush()

    def remember(text: str) -> AIMessage:
        return AIMessage("", tool_calls=[{"name": "remember", "args": {"text": text}, "id": text, "type": "tool_call"}])

    turn("I'm vegan, please remember that.", remember("The user is vegan."), AIMessage("Noted."))
    turn("I live in Lisbon, remember it.", remember("The user lives in Lisbon."), AIMessage("Noted."))
    seen.clear()
    turn("Where do I live?", AIMessage("In Lisbon."))
    assert seen[0].count("lives in Lisbon") == 1 and seen[0].count("is vegan") == 1


def test_capture_after_a_remember_in_the_models_words_does_not_store_the_fact_again() -> None:
    from memori_core.memory_tools import MemoryTools

    engine = ungated_engine()
    MemoryTools(engine).remember("u1", "User's band rehearses every Tuesday at 7pm.")
    capture_turns(engine, "remember that my band rehearses every tuesday at 7")
    assert [f.content for f in engine.list("u1")] == ["User's band rehearses every Tuesday at 7pm."]
    capture_turns(engine, "my alarm is at 7am", "my alarm is at 7pm now")  # another hour is no repeat
    assert "User's alarm is at 7pm." in [f.content for f in engine.list("u1")]


def test_a_remember_of_a_fact_capture_stored_in_the_users_words_names_the_stored_one() -> None:
    from memori_core.memory_tools import MemoryTools

    engine = ungated_engine()
    capture_turns(engine, "remember that my band rehearses every tuesday at 7")
    stored = engine.list("u1")[0]
    answer = MemoryTools(engine).remember("u1", "User's band rehearses every Tuesday at 7pm.")
    assert stored.id in answer and [f.content for f in engine.list("u1")] == [stored.content]


@pytest.mark.parametrize("ending", ["we broke up last month", "Tom and I broke up", "Tom and I split up"])
def test_a_breakup_ends_the_former_partners_care_fact_and_leaves_the_users_own(ending: str) -> None:
    engine = ungated_engine()
    capture_turns(engine, "I have coeliac disease too", "my boyfriend Tom is allergic to peanuts", ending)
    valid = {f.content: bool(f.metadata.get("core")) for f in engine.list("u1")}
    assert "User's boyfriend Tom is allergic to peanuts." not in valid  # no longer the household's, nor core
    assert valid.get("User has coeliac disease.") is True
