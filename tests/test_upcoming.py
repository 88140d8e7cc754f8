"""Questions about what is coming up for the asker (docs/ranking.md item 50, ``ranking/upcoming.py``): the plans in
force when asked (a fact ending or expiring later, an event on a day still ahead, a plan called off lately) pass
the relevance gate whatever their cosine, named ``upcoming``. The repros of tester j22's findings C1, A3 and A6,
dated with ``created_at`` / ``as_of`` as the tester did, over a real Chroma store; the word-hashing embedder's cosines
between a question and a plan are about zero, so only the rule can keep the plan."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from _helpers import WordHashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.upcoming import CHANGE_DAYS, asks_about_travel, asks_what_is_coming, plans_in_force, still_ahead


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def ts(text: str) -> float:
    return at(text).timestamp()


@pytest.fixture
def gated() -> RecallEngine:
    return RecallEngine(store=ChromaStore.in_memory(), embedder=WordHashEmbedder(), config=RecallConfig())


def recalled(engine: RecallEngine, query: str, who: str, **kw) -> dict[str, str]:
    return {f.content: f.passed_by for f in engine.recall(query, who, 5, **kw)}


@pytest.mark.parametrize("query", [
    "Any outdoor plans coming up?", "Do I have any travel coming up?", "What are my plans for this weekend?",
    "Am I busy next week?", "What should I pack?", "Any tips for my trip?", "What's on my calendar?",
    "Anything planned for the holidays?", "What should I pack for my trip?",
])
def test_a_question_about_the_askers_plans_ahead_asks_what_is_coming(query: str) -> None:
    assert asks_what_is_coming(query)


@pytest.mark.parametrize("query", [
    "What did I do last weekend?", "What films are coming up?", "Are there plans for a new stadium?",
    "What should I pack for lunch?", "Any tips for my trip to Tokyo?", "Who won the 1998 World Cup?",
    "Where do I live?", "What's the weather like next week?",
])
def test_a_question_about_the_past_the_world_or_a_named_trip_does_not(query: str) -> None:
    assert not asks_what_is_coming(query)


@pytest.mark.parametrize("query", [
    "Anything good coming up on Netflix?", "What's coming up in the Premier League this weekend?",
    "Any plans for the new stadium?", "What upcoming movies should I watch?", "Any upcoming elections?",
    "How do I get a six-pack?", "Do I own my holiday home outright?", "What are my plans for retirement savings?",
])
def test_a_question_of_the_worlds_schedule_or_of_plans_for_a_thing_does_not(query: str) -> None:
    # Reviewer (upc): each of these let the user's dated plans through the gate as "upcoming".
    assert not asks_what_is_coming(query)


def test_a_question_with_no_world_subject_still_asks_what_is_coming() -> None:
    assert all(asks_what_is_coming(q) for q in ["Any plans for Saturday?", "Any upcoming trips?",
                                                "Any tips on packing my bag for the trip?",
                                                "What are my plans for my birthday?"])


def test_asks_what_is_coming_names_a_query_that_is_not_text() -> None:
    with pytest.raises(TypeError, match="query must be a str"):
        asks_what_is_coming(None)  # type: ignore[arg-type]


def test_a_day_told_ahead_is_a_plan_until_it_passes_and_a_told_time_counts_from_its_saying() -> None:
    said = ts("2026-10-05T09:00:00+02:00")
    tokyo = "User is flying to Tokyo on 2026-10-20 for a week."
    assert still_ahead(tokyo, said, ts("2026-10-12T09:00:00+02:00"))
    assert still_ahead(tokyo, said, ts("2026-10-24T09:00:00+02:00"))  # still away: for a week
    assert not still_ahead(tokyo, said, ts("2026-11-05T09:00:00+02:00"))
    denver = "User is going to Denver next month for a conference."
    assert still_ahead(denver, said, ts("2026-10-19T20:00:00-05:00"))
    assert not still_ahead(denver, said, ts("2027-01-10T09:00:00+00:00"))
    assert still_ahead("User is starting a new job at Deloitte on Nov 1.", said, ts("2026-10-12T09:00:00Z"))
    assert not still_ahead("User moved to Berlin last week.", said, ts("2026-10-06T09:00:00Z"))  # no plan
    # a month and its year is no day: "February 2027" is not "February 20"
    assert not still_ahead("User is planning a trip to Japan in February 2027.", said, ts("2027-02-10T09:00:00Z"))


def test_a_yearly_day_is_ahead_at_its_next_time_across_the_new_year() -> None:
    # Reviewer (upc): a birthday on January 5 was not ahead on December 28 (this year's had passed).
    birthday = "User's mum's birthday is on January 5."
    said = ts("2024-06-01T00:00:00Z")
    assert still_ahead(birthday, said, ts("2025-12-28T00:00:00Z"))
    assert still_ahead(birthday, said, ts("2025-01-02T00:00:00Z"))
    assert not still_ahead(birthday, said, ts("2025-03-01T00:00:00Z"))  # next January is past the horizon


def test_plans_in_force_reads_ends_days_ahead_and_plans_called_off_lately() -> None:
    now = ts("2026-10-19T20:00:00-05:00")
    texts = ["User is hiking in the Alps.", "User lives in Chicago.", "The Denver conference is called off.",
             "User's trip to Rome was cancelled.", "User is going to Denver next month for a conference."]
    said = np.array([ts("2026-10-05T09:00:00Z")] * 3 + [now - (CHANGE_DAYS + 5) * 86400.0, ts("2026-10-05T09:00:00Z")])
    ends = np.array([now + 86400.0, np.inf, np.inf, np.inf, np.inf])
    assert plans_in_force(texts, said, ends, now).tolist() == [True, False, True, False, True]
    with pytest.raises(ValueError, match="must be as long"):
        plans_in_force(texts, said[:2], ends, now)


def test_outdoor_plans_coming_up_finds_the_hike_while_it_is_ahead_and_not_after(gated: RecallEngine) -> None:
    # tester j22 C1: `recall "Any outdoor plans coming up?" --as-of 2026-10-06` gave only the bee-sting allergy
    told = at("2026-10-05T09:00:00+02:00")
    gated.add("frank", ["User is allergic to bee stings and carries an EpiPen."], created_at=told, core=True)
    gated.add("frank", ["User lives in Munich.", "User has a golden retriever named Max."], created_at=told)
    gated.add("frank", ["User is hiking in the Alps next weekend."], created_at=told,
              expires_at="2026-10-13T00:00:00+02:00")
    hike = "User is hiking in the Alps next weekend."
    got = recalled(gated, "Any outdoor plans coming up?", "frank", as_of=at("2026-10-06T09:00:00+02:00"))
    assert got.get(hike) == "upcoming"
    assert "User lives in Munich." not in got and "User has a golden retriever named Max." not in got
    assert hike not in recalled(gated, "Any outdoor plans coming up?", "frank", as_of=at("2026-10-20T09:00:00+02:00"))
    assert "upcoming" not in recalled(gated, "Who wrote Hamlet?", "frank",
                                      as_of=at("2026-10-06T09:00:00+02:00")).values()


def test_travel_coming_up_finds_the_conference_and_that_it_was_called_off(gated: RecallEngine) -> None:
    # tester j22 A3: "Do I have any travel coming up?" gave only the diabetes fact
    gated.add("bob", ["User is going to Denver next month for a conference.", "User lives in Chicago."],
              created_at=at("2026-10-05T20:00:00-05:00"))
    gated.add("bob", ["The Denver conference is called off."], created_at=at("2026-10-19T20:00:00-05:00"))
    got = recalled(gated, "Do I have any travel coming up?", "bob", as_of=at("2026-10-19T20:00:00-05:00"))
    assert got.get("User is going to Denver next month for a conference.") == "upcoming"
    assert got.get("The Denver conference is called off.") == "upcoming"
    assert "User lives in Chicago." not in got
    later = recalled(gated, "Do I have any travel coming up?", "bob", as_of=at("2027-02-01T09:00:00-05:00"))
    assert not later


def test_what_to_pack_after_a_turn_about_my_upcoming_trip_finds_the_dated_flight(gated: RecallEngine) -> None:
    # tester j22 A6: the trip named only as "my upcoming trip" in the turn before
    gated.add("alice", ["User is flying to Tokyo on 2026-10-20 for a week.", "User's daughter Mia is 6."],
              created_at=at("2026-10-05T09:00:00+02:00"))
    tokyo = "User is flying to Tokyo on 2026-10-20 for a week."
    got = recalled(gated, "What should I pack?", "alice", context=["I'm so excited about my upcoming trip!"],
                   as_of=at("2026-10-12T09:00:00+02:00"))
    assert got.get(tokyo) == "upcoming" and "User's daughter Mia is 6." not in got  # a dated trip is upcoming's
    assert tokyo not in recalled(gated, "What should I pack?", "alice", as_of=at("2026-11-12T09:00:00+01:00"))


def test_explain_names_the_upcoming_rule_as_recall_does(gated: RecallEngine) -> None:
    gated.add("frank", ["User is hiking in the Alps next weekend."], created_at=at("2026-10-05T09:00:00+02:00"))
    report = gated.explain("Any plans coming up?", "frank", 5, as_of=at("2026-10-06T09:00:00+02:00"))
    [fact] = report.facts
    assert fact.passed_by == "upcoming" and "coming up" in report.gate_note


@pytest.mark.parametrize("query", ["How do I get a six-pack?", "Anything good coming up on Netflix?",
                                   "What upcoming movies should I watch?"])
def test_a_question_of_no_plan_of_the_askers_is_given_no_plan_as_upcoming(gated: RecallEngine, query: str) -> None:
    # Reviewer (upc_e2e): the dentist appointment and the hike were injected into these as "upcoming".
    told = at("2026-10-05T09:00:00+02:00")
    gated.add("gina", ["User is hiking in the Alps next weekend.", "User has a dentist appointment tomorrow."],
              created_at=told)
    assert "upcoming" not in recalled(gated, query, "gina", as_of=at("2026-10-06T09:00:00+02:00")).values()


def test_a_birthday_ahead_is_no_travel_coming_up_but_still_a_plan_ahead(gated: RecallEngine) -> None:
    # docs/ranking.md item 54: "Do I have any travel coming up?" kept "User's mum's birthday is on November 3." as
    # upcoming (a yearly day is ahead): a birthday is no trip
    told = at("2026-10-05T09:00:00+02:00")
    birthday, flight = "User's mum's birthday is on November 3.", "User is flying to Tokyo on 2026-10-20 for a week."
    gated.add("alice", [birthday, flight, "User lives in Berlin."], created_at=told)
    when = at("2026-10-12T09:00:00+02:00")
    travel = recalled(gated, "Do I have any travel coming up?", "alice", as_of=when)
    assert travel.get(flight) == "upcoming" and travel.get(birthday) != "upcoming"
    assert recalled(gated, "Any plans coming up?", "alice", as_of=when).get(birthday) == "upcoming"
    assert recalled(gated, "What should I pack?", "alice", as_of=when).get(birthday) != "upcoming"


@pytest.mark.parametrize("query", [
    "Any plans for the holidays?", "Anything I need to do before my flight?", "Am I free this weekend or away?",
    "What should I pack for my daughter's school lunch tomorrow?", "What's coming up over the holidays?",
    "What have I got on before I go away?",
])
def test_the_time_around_a_trip_or_a_whole_schedule_is_no_travel_question(query: str) -> None:
    # rev37b: each was read as travel, and the plan asked about (dinner at home, the dentist) was dropped
    assert not asks_about_travel(query)


@pytest.mark.parametrize("query", [
    "Do I have any travel coming up?", "Any trips planned?", "What should I pack?", "Am I going anywhere next month?",
    "Am I away next week?", "Are we going away this summer?", "Any flights booked?", "Any holidays coming up?",
    "What should I pack for my trip?", "Will I be away at Easter?",
])
def test_a_question_about_the_trip_itself_is_a_travel_question(query: str) -> None:
    assert asks_about_travel(query)


def test_the_plans_asked_about_around_the_holidays_are_kept_and_a_gp_visit_is_no_trip() -> None:
    now = ts("2026-12-07T09:00:00+00:00")
    texts = ["User is hosting Christmas dinner for the family on December 25.",
             "User has a dentist appointment on Monday.", "User is flying to Denver on December 20.",
             "User has a GP visit on Tuesday.", "User is visiting their mum in Leeds next week."]
    said, ends = np.full(5, now - 86400.0), np.full(5, now + 10 * 86400.0)
    holidays = plans_in_force(texts, said, ends, now, travel=asks_about_travel("Any plans for the holidays?"))
    assert holidays.all()  # main: only the flight and the GP visit
    trips = plans_in_force(texts, said, ends, now, travel=asks_about_travel("Any trips coming up?"))
    assert trips.tolist() == [False, False, True, False, True]


class _CountedTexts(list):
    """A list of fact texts that counts how many are read."""

    reads = 0

    def __getitem__(self, i):
        self.reads += 1
        return super().__getitem__(i)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


def test_a_travel_question_reads_for_travel_only_the_facts_still_marked_as_plans() -> None:
    # rev37b L5: _TELLS_TRAVEL ran over every fact of the pool; 200 facts with an end ahead, two of them plans
    now = ts("2026-12-07T09:00:00+00:00")
    texts = ["User lives in Leeds."] * 198 + ["User is flying to Denver on December 20.", "User has a GP visit."]
    said = np.full(200, now - 86400.0)
    ends = np.full(200, np.inf)
    ends[198:] = now + 10 * 86400.0
    plain, travel = _CountedTexts(texts), _CountedTexts(texts)
    plans_in_force(plain, said, ends, now)
    kept = plans_in_force(travel, said, ends, now, travel=True)
    assert np.flatnonzero(kept).tolist() == [198]
    assert travel.reads - plain.reads == 2  # main: 200
