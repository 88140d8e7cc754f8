"""Rule-based capture keeps no passing mood, aside or relative day as a lasting fact (tester j2, findings 11 and 12),
through capture_facts into a real embedded Chroma store: a mood stores nothing, an aside ("obviously", "sorry") is
left out of the fact, "today" / "yesterday" of a told event is written out as the day, "we've been together 2
years" is the relationship's length, a pregnancy's week count is dated, a correction's wording is not kept, and a
fact is never stored in the first person.

Rows of messages -> the facts valid (and ended) afterwards are in the case book tests/cases/passing_and_dated.toml,
run by test_capture_cases.py."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from functools import partial

import pytest

from _capture import RULES, capture_turns, core_texts, ended_texts, texts_after
from _helpers import ungated_engine
from memori_core.extraction import DROP_EPHEMERAL, KEPT_AS_SAID

# A Wednesday; the turns are read as said then.
SAID = datetime(2026, 5, 20, 9, 0, tzinfo=timezone.utc)
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|me|my|My|we|We|us|our|Our)\b")


_said = partial(texts_after, at=SAID)  # each turn said at SAID


# -- a passing mood stores nothing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "I can't stop crying",
        "sorry I'm all over the place",
        "I'm a wreck",
        "I'm in bits tbh",
        "I keep panicking",
        "I've been crying all day",
        "I'm over the moon!!",
        "honestly I'm falling apart",
        "i cant stop shaking",
    ],
)
def test_a_mood_told_in_a_figure_or_by_what_the_body_does_stores_nothing(said: str) -> None:
    assert RULES.judge(said).reason == DROP_EPHEMERAL
    assert _said(ungated_engine(), said) == []


# -- an aside is left out of the fact ----------------------------------------------------------------------------


def test_an_apology_that_is_the_statement_itself_is_not_cut() -> None:
    # only an apology after a comma or a dash is an aside: "I'm not sorry" says something of its own
    assert [f.text for f in RULES.extract([("user", "I'm not sorry")])] == ["User is not sorry."]


# -- a correction typed without its comma ------------------------------------------------------------------------


def test_a_corrected_allergy_stays_core_without_the_correction_in_it() -> None:
    engine = ungated_engine()
    _said(engine, "I'm allergic to penicillin.", "btw I'm actually allergic to amoxicillin not penicillin, sorry")
    assert core_texts(engine) == ["User is allergic to amoxicillin."]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I eat fish not meat", "User eats fish not meat."),  # nothing stored of meat: nothing it corrects
        ("I do not eat pork", "User does not eat pork."),  # a negated verb, no correction
        ("I've decided not to drink", "User has decided not to drink."),
        ("I'm not vegan", "User is not vegan."),
    ],
)
def test_a_not_that_corrects_no_stored_fact_stays_in_the_fact(said: str, fact: str) -> None:
    engine = ungated_engine()
    assert _said(engine, "I live in Graz.", said) == sorted(["User lives in Graz.", fact])
    assert ended_texts(engine) == []


# -- "today", "this morning", "yesterday" of a told event --------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "said", "now"),
    [
        ("I have a cat named Luna.", "Luna passed away this morning 💔", "User's cat Luna passed away on Wednesday 2026-05-20."),
        ("I work at Shopify.", "I got laid off from Shopify today. whole team gone",
         "User got laid off from Shopify on Wednesday 2026-05-20."),
        ("We have a golden retriever called Biscuit.", "Biscuit died yesterday. he was 12.",
         "User's retriever Biscuit died on Tuesday 2026-05-19."),
        ("My boyfriend Tom is a chef.", "We broke up last night", "User broke up with Tom on Tuesday 2026-05-19."),
        ("I live in Leeds.", "I went to a climbing gym earlier today", "User went to a climbing gym on Wednesday 2026-05-20."),
    ],
)
def test_the_day_of_a_told_event_is_written_out_from_the_day_it_was_said(before: str, said: str, now: str) -> None:
    valid = _said(ungated_engine(), before, said)
    assert now in valid
    assert not any(re.search(r"\b(?:today|yesterday|this morning|last night)\b", fact) for fact in valid)


def test_a_plan_for_tonight_keeps_its_own_day_and_expiry() -> None:
    engine = ungated_engine()
    capture_turns(engine, "I have a date tonight", at=SAID)
    [fact] = engine.list("u1")
    assert fact.content == "User has a date on the evening of Wednesday 2026-05-20." and fact.expires_at is not None


# -- how long "we" have been together ----------------------------------------------------------------------------


def test_how_long_we_have_been_together_is_the_relationships_and_a_breakup_ends_it() -> None:
    engine = ungated_engine()
    assert _said(engine, "my boyfriend Jonas is a nurse, we've been together 2 years") == [
        "User has been in a relationship with Jonas for 2 years.", "User's boyfriend Jonas is a nurse."]
    assert _said(engine, "Jonas and I broke up. it's for the best I think") == ["User and Jonas broke up."]
    assert ended_texts(engine) == ["User has been in a relationship with Jonas for 2 years.",
                              "User's boyfriend Jonas is a nurse."]


def test_a_length_with_no_partner_stored_says_none_and_an_ex_is_not_named() -> None:
    engine = ungated_engine()
    _said(engine, "My boyfriend Tom is a chef.", "Tom and I broke up.")
    assert "User has been in a relationship for 3 months." in _said(engine, "we've been together 3 months")


# -- a pregnancy's week count ------------------------------------------------------------------------------------


@pytest.mark.parametrize("said", ["I'm 30 weeks now", "I'm 30 weeks pregnant!", "im 30 weeks along today"])
def test_a_pregnancy_week_count_is_kept_with_its_day_until_the_pregnancy_must_be_over(said: str) -> None:
    engine = ungated_engine()
    _said(engine, "I'm pregnant!", said)
    [weeks] = [f for f in engine.list("u1") if "weeks" in f.content]
    assert weeks.content == "User is 30 weeks pregnant (as of Wednesday 2026-05-20)."
    assert weeks.expires_at is not None and weeks.expires_at.startswith("2026-08-")  # 12 weeks on


def test_a_later_week_count_replaces_the_earlier_one() -> None:
    engine = ungated_engine()
    _said(engine, "I'm pregnant!", "I'm 12 weeks pregnant", "I'm 20 weeks now")
    assert [f.content for f in engine.list("u1") if "weeks" in f.content] == [
        "User is 20 weeks pregnant (as of Wednesday 2026-05-20)."]


@pytest.mark.parametrize("said", ["I'm 30 weeks now", "I'm 3 weeks in at the new job now", "I'm 45 weeks pregnant"])
def test_a_week_count_that_says_no_pregnancy_stores_no_pregnancy(said: str) -> None:
    # nothing stored says the user is expecting ("30 weeks" of what?), or past any term
    valid = _said(ungated_engine(), "I live in Leeds.", said)
    assert not any("pregnant" in fact or "30 weeks" in fact for fact in valid)


# -- never stored in the first person ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "lol my coworker spilled coffee on my laptop",
        "My boss yelled at me today lol",
        "my sister stole my jumper again",
        "My dog ate my homework",
        "We're both teachers.",
        "We just found out I'm pregnant and my wife is thrilled and so am I, honestly",
    ],
)
def test_no_fact_is_stored_in_the_first_person(said: str) -> None:
    valid = _said(ungated_engine(), said)
    assert not any(FIRST_PERSON.search(fact) for fact in valid), valid


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I think I'm allergic to cats.", "User thinks they're allergic to cats."),
        ("Due to my allergy, I avoid nuts.", "Due to their allergy, User avoids nuts."),
        ("Last month I moved to Paris.", "In April 2026 User moved to Paris."),  # the month, counted from SAID
        ("When I was young I lived in Spain.", "When User was young they lived in Spain."),
        ("Ana and I live in Rome with our dog.", "User and Ana live in Rome with their dog."),
    ],
)
def test_a_sentence_kept_in_the_users_words_is_said_of_the_user(said: str, fact: str) -> None:
    verdict = RULES.judge(said, now=SAID)
    assert verdict.fact == fact
    assert verdict.reason == KEPT_AS_SAID or verdict.fact.startswith("User and")


class _Stored:
    """A stored fact as the extractor is shown it (an id and its text)."""

    def __init__(self, id: str, content: str) -> None:
        self.id, self.content = id, content


@pytest.mark.parametrize(
    "said", ["Our baby girl Maya was born on Tuesday", "I'm not pregnant anymore", "we had the baby!! a little boy"]
)
def test_the_end_of_a_pregnancy_ends_its_week_count_with_it(said: str) -> None:
    stored = [_Stored("p", "User is pregnant."), _Stored("w", "User is 30 weeks pregnant (as of Wednesday 2026-05-20).")]
    facts = RULES.extract([("user", said)], stored)
    assert any(set(f.supersedes) == {"p", "w"} for f in facts), facts
