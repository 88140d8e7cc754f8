"""The rules on life events told the ways people tell them (extraction/events.py, filler.py), through capture_facts
into a real embedded Chroma store: a clean fact in its slot, the stale one superseded, chat filler and side remarks
left out.

Rows of one message -> the facts kept of it, and of messages -> the facts valid and ended afterwards, are in
the case book tests/cases/life_events.toml, run by test_capture_cases.py; rows of what the filler rule leaves of a
turn are in the rule book tests/rules/life_events.toml, run by test_rule_books.py."""

from __future__ import annotations

from functools import partial
import pytest

from _capture import RULES, SAID_AT, capture_turns, ended_texts, facts_of, valid_texts
from memori_core import RecallEngine
from memori_core.extraction.events import restate_event
from memori_core.extraction.named import resolve_same


def _captured(engine: RecallEngine, *turns: str) -> tuple[list[str], list[str]]:
    """The valid and the superseded facts after capturing each of ``turns`` as a user message said at
    :data:`SAID_AT`, with the rules."""
    capture_turns(engine, *turns, user="ann", at=SAID_AT)
    return valid_texts(engine, "ann", at=SAID_AT), ended_texts(engine, "ann", at=SAID_AT)  # then, not now


_facts = partial(facts_of, at=SAID_AT)  # what the rules keep of one user message said at SAID_AT


@pytest.mark.parametrize(
    "said",
    ["haven't had a holiday in years", "three weeks without a day off", "my dad is 6 months sober",
     "haven't seen my sister since march"],
)
def test_time_without_something_that_is_no_habit_of_the_users_is_no_quitting(said: str) -> None:
    assert restate_event(said) is None


@pytest.mark.parametrize(
    "said",
    ["last bell rang for me in May - 34 years and I'm officially a retiree!", "I'm officially retired now",
     "my last day at work ever was friday"],
)
def test_retirement_in_other_words_ends_the_job(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I teach high school chemistry in Tulsa.", said)
    assert valid == ["User is retired."] and ended == ["User teaches high school chemistry in Tulsa."]


@pytest.mark.parametrize(
    "said", ["So my position got eliminated 🙃", "my role was made redundant last week", "I got let go on friday"]
)
def test_a_position_eliminated_is_a_layoff_from_the_stored_employer(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I'm a UX designer at Spotify", said)
    assert valid == ["User was laid off from Spotify."] and ended == ["User is a UX designer at Spotify."]


@pytest.mark.parametrize(
    "said",
    ["signed an offer w/ a small design agency in Malmö, starting the 1st",
     "I accepted the offer from a small design agency in Malmö!",
     "good news tho - signed an offer with a small design agency in Malmö"],
)
def test_an_offer_signed_is_a_new_job_that_ends_the_old_one(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I work as a nurse at St Mary's.", said)
    assert valid == ["User accepted a new job at a small design agency in Malmö."]
    assert ended == ["User works as a nurse at St Mary's."]


@pytest.mark.parametrize("said", ["I got an offer from Spotify", "thinking of accepting the offer from Spotify"])
def test_an_offer_not_yet_accepted_is_no_new_job(said: str) -> None:
    assert restate_event(said, ["User works as a nurse at St Mary's."]) is None


@pytest.mark.parametrize("said", ["I'm no longer with Google.", "not with Sam anymore"])
def test_no_longer_with_someone_not_the_stored_partner_is_no_breakup(said: str) -> None:
    assert restate_event(said, ["User is married to Linda."]) is None


@pytest.mark.parametrize(
    "said",
    ["well not anymore lol, we ended up moving to bristol in march", "anyway we're settled in Bristol now",
     "we finally made the move to Bristol",
     "long story. we spent all summer packing, the movers lost a box, but anyway we're settled in Bristol now"],
)
def test_a_move_told_as_ending_up_or_settling_somewhere_replaces_the_home(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I live in Cardiff.", said)
    assert valid == ["User lives in Bristol."] and ended == ["User lives in Cardiff."]


@pytest.mark.parametrize(
    ("said", "died"),
    [("Pretzel crossed the rainbow bridge last night 💔", "User's beagle Pretzel died."),
     ("Pretzel was put to sleep yesterday", "User's beagle Pretzel died."),
     ("Pretzel passed away last week", "User's beagle Pretzel passed away in the week of Monday 2026-07-27.")],
)
def test_a_pet_that_crossed_the_rainbow_bridge_died(ungated: RecallEngine, said: str, died: str) -> None:
    valid, ended = _captured(ungated, "I have a 14 year old beagle named Pretzel", said)
    assert valid == [died] and len(ended) == 1


@pytest.mark.parametrize(
    ("said", "now"),
    [("update: I'm done with meat. pescatarian since new years 🐟", "User is pescatarian."),
     ("vegetarian as of january", "User is vegetarian.")],
)
def test_a_diet_said_with_when_it_began_replaces_the_slot(ungated: RecallEngine, said: str, now: str) -> None:
    valid, ended = _captured(ungated, "I'm a big meat eater, steak 4 times a week", said)
    assert valid == [now] and len(ended) == 1


@pytest.mark.parametrize("said", ["here since march", "busy since christmas", "excited since last week"])
def test_a_word_of_no_slot_said_with_since_is_no_state(said: str) -> None:
    assert restate_event(said) is None


@pytest.mark.parametrize(
    "said", ["we got the keys!!!", "my sleep is sooo much better", "we did it!", "it's official!"]
)
def test_side_remarks_about_how_things_go_are_not_stored(said: str) -> None:
    assert RULES.extract([("user", said)]) == []


@pytest.mark.parametrize("said", ["my knee is much better", "my dog is so much better", "my wife is feeling better"])
def test_health_news_is_no_side_remark(said: str) -> None:
    assert restate_event(said) is None


def test_plans_and_someone_elses_events_are_not_restated() -> None:
    assert restate_event("might move to Boise next year") is None
    assert restate_event("my brother ended up moving to Halifax") is None
    assert restate_event("the kids are settled in school now") is None
    assert restate_event("did you end up moving to Bristol?") is None


def test_a_fact_said_again_as_the_change_it_is_replaces_the_stored_one(ungated: RecallEngine) -> None:
    valid, ended = _captured(ungated, "my fiancé Tomás and I are getting married in october!!",
                             "officially married now!")
    assert valid == ["User is married to Tomás."] and len(ended) == 1


def test_filler_is_left_out_of_a_kept_fact() -> None:
    assert _facts("I smoke about a pack a day, I know I know") == ["User smokes about a pack a day."]


@pytest.mark.parametrize(
    "said",
    ["I'm in Paris, working from a café today", "I'm going to Rome, love it there", "I'm vegan but everyone says "
     "it's a phase"],
)
def test_a_passing_whereabouts_or_an_opinion_after_a_statement_is_no_fact_of_its_own(said: str) -> None:
    facts = _facts(said)
    assert not any("lives in" in f or "loves it" in f or "phase" in f for f in facts)


@pytest.mark.parametrize(
    ("before", "said", "now"),
    [
        ("I'm a junior accountant.", "promoted to senior accountant this week 🎉🎉",
         "User got promoted to senior accountant."),
        ("I work at Google as an engineer.", "finally promoted to staff engineer!",
         "User works at Google as a staff engineer."),
    ],
)
def test_a_promotion_typed_without_its_i_replaces_the_role(ungated: RecallEngine, before: str, said: str,
                                                           now: str) -> None:
    valid, ended = _captured(ungated, before, said)
    assert valid == [now] and len(ended) == 1


def test_doing_fine_now_is_small_talk() -> None:
    assert _facts("doing ok now") == []


@pytest.mark.parametrize(
    "said",
    ["ugh correction, Linz not Graz. autocorrect strikes again", "sorry I meant Linz, not Graz", "Linz, not Graz!"],
)
def test_a_correction_replaces_the_wrong_word_in_the_split_fact_stated_before(ungated: RecallEngine,
                                                                              said: str) -> None:
    valid, ended = _captured(ungated, "Quick context: I'm a data analyst living in Graz.", said)
    assert valid == ["User is a data analyst.", "User lives in Linz."] and ended == ["User lives in Graz."]


@pytest.mark.parametrize("said", ["*Katherine, sorry, with an e. typing on my phone", "*Katherine"])
def test_a_name_typed_again_after_an_asterisk_corrects_its_spelling(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I'm Kathryn, first time using this", said)
    assert valid == ["User's name is Katherine."] and ended == ["User's name is Kathryn."]


@pytest.mark.parametrize("said", ["*Kevin", "*Kathryn", "*sigh*"])
def test_an_asterisk_word_far_from_any_stored_name_corrects_nothing(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I'm Kathryn, first time using this", said)
    assert valid == ["User's name is Kathryn."] and ended == []


def test_x_not_y_with_no_stored_y_is_no_correction(ungated: RecallEngine) -> None:
    valid, ended = _captured(ungated, "I live in Graz.", "tea, not coffee")
    assert valid == ["User lives in Graz."] and ended == []


@pytest.mark.parametrize(
    "said",
    ["well, 30 as of yesterday, ugh", "just ate way too much cake 🎂 it's my 30th today!", "it's my 30th birthday!",
     "it's my birthday, 30 today!"],
)
def test_a_birthday_told_in_passing_updates_the_age(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I'm 29.", said)
    assert valid == ["User is 30."] and ended == ["User is 29."]


@pytest.mark.parametrize("said", ["it's my son's 5th birthday today", "30 degrees today", "my 30th is next week"])
def test_someone_elses_birthday_or_a_number_is_no_age_of_the_users(said: str) -> None:
    assert restate_event(said, ["User is 29."]) is None


@pytest.mark.parametrize(
    ("said", "baby"),
    [
        ("she's here!! Ada arrived tuesday, 3.2 kg, we're exhausted and over the moon",
         "User had a baby daughter named Ada."),
        ("the baby was born on Tuesday!!! her name is Asha 👶", "User had a baby daughter named Asha."),
        ("Leo was born on monday. we're so tired", "User had a baby named Leo."),
        ("we had the baby! we named him Oscar", "User had a baby son named Oscar."),
        ("our baby girl arrived last night", "User had a baby daughter."),
        # cap41: a child named in a clause of its own beside the birth, or after its comma (was "User had a baby.")
        ("The baby arrived! A girl named Mina.", "User had a baby daughter named Mina."),
        ("the baby arrived, a little boy called Sam", "User had a baby son named Sam."),
        # issue 21, rev41a: a name that ends the clause (a weight after it is fine), not someone else so named
        ("The baby arrived! A boy named Leo, 3.2kg.", "User had a baby son named Leo."),
        ("The baby arrived! A girl named Mina from next door brought flowers.", "User had a baby."),
        ("The baby arrived, a boy called Sam came to visit.", "User had a baby."),
    ],
)
def test_a_birth_after_a_pregnancy_names_the_baby_and_ends_the_pregnancy(ungated: RecallEngine, said: str,
                                                                          baby: str) -> None:
    valid, ended = _captured(ungated, "I'm 7 months pregnant with our first", said)
    assert valid == [baby] and ended == ["User is 7 months pregnant with their first."]


@pytest.mark.parametrize("said", ["Tom arrived tuesday", "the baby was born on Tuesday"])
def test_an_arrival_or_a_birth_with_no_pregnancy_stored_is_no_birth_of_the_users(said: str) -> None:
    assert restate_event(said, ["User lives in Leeds."]) is None


def test_a_pregnancy_found_out_is_stored_as_the_users_and_a_birth_ends_it(ungated: RecallEngine) -> None:
    valid, _ = _captured(ungated, "we just found out I'm pregnant!!! 🥹")
    assert valid == ["User is pregnant."]
    valid, ended = _captured(ungated, "the baby was born on Tuesday!!! her name is Asha 👶")
    assert valid == ["User had a baby daughter named Asha."] and ended == ["User is pregnant."]


@pytest.mark.parametrize(
    ("before", "said", "now"),
    [
        ("I'm a big meat eater, steak at least twice a week.",
         "ok so I watched a documentary and went fully vegan three weeks ago",
         ["User went vegan in the week of Monday 2026-07-13."]),
        ("My husband Derek and I run a bakery together.", "the divorce went through in june, I kept the bakery though",
         ["User is divorced from Derek."]),
        ("I work as a paralegal in Leeds.", "I passed the exam and now I'm a solicitor",
         ["User is a solicitor."]),
    ],
)
def test_a_one_off_past_event_told_around_a_change_is_not_stored(ungated: RecallEngine, before: str, said: str,
                                                                 now: list[str]) -> None:
    valid, ended = _captured(ungated, before, said)
    assert valid == now and len(ended) == 1


@pytest.mark.parametrize(
    "said",
    ["my two kiddos Mila and Theo are driving me nuts today lol", "my boss is being weird today",
     "my husband is cooking tonight"],
)
def test_what_someone_of_the_users_is_doing_today_is_a_passing_moment(said: str) -> None:
    assert RULES.extract([("user", said)]) == []


@pytest.mark.parametrize(
    ("before", "said", "now"),
    [
        ("I work as a paralegal at a law firm in Leeds.",
         "yes! and I just qualified, so I'm a solicitor at the same firm now",
         "User is a solicitor at a law firm in Leeds."),
        ("I work at Google as a designer.", "I'm a manager at the same company now", "User is a manager at Google."),
    ],
)
def test_the_same_firm_is_the_firm_the_stored_job_names(ungated: RecallEngine, before: str, said: str,
                                                        now: str) -> None:
    valid, ended = _captured(ungated, before, said)
    assert valid == [now] and ended == [before.replace("I work", "User works").rstrip(".") + "."]


@pytest.mark.parametrize(
    "fact", ["User is at the same firm now.", "User eats the same thing every day.", "User still has the same car."]
)
def test_the_same_thing_no_stored_fact_names_is_left_as_said(fact: str) -> None:
    assert resolve_same(fact, ["User lives in Leeds.", "User's sister works at a law firm in York."]) == fact


def test_someone_of_the_users_visiting_this_weekend_is_still_a_plan() -> None:
    [fact] = RULES.extract([("user", "My sister is visiting this weekend.")])
    assert fact.text.startswith("User's sister is visiting on the weekend of") and fact.expires_at is not None


@pytest.mark.parametrize("said", ["Note: buy milk", "Reminder: call the bank", "Name: what should I call my dog?"])
def test_a_label_the_rules_do_not_know_or_a_question_is_no_fact(said: str) -> None:
    assert RULES.extract([("user", said)]) == []


@pytest.mark.parametrize(
    ("said", "now"),
    [("Sold the Ninja last weekend, way too cold. Got myself a used Skoda Octavia instead",
      "User got a used Skoda Octavia instead."),
     ("I sold the Ninja and bought a used Skoda Octavia instead", "User bought a used Skoda Octavia instead.")],
)
def test_what_came_instead_of_a_thing_sold_replaces_it_and_the_sale_is_not_stored(ungated: RecallEngine,
                                                                                  said: str, now: str) -> None:
    valid, ended = _captured(ungated, "I ride a Kawasaki Ninja to work every day, rain or shine", said)
    assert valid == [now]
    assert ended == ["User rides a Kawasaki Ninja to work every day, rain or shine."]


def test_a_thing_sold_with_nothing_instead_is_stored_as_the_sale(ungated: RecallEngine) -> None:
    valid, ended = _captured(ungated, "I ride a Kawasaki Ninja to work every day", "Sold the Ninja last weekend")
    assert valid == ["User sold the Ninja on the weekend of Saturday 2026-08-01."] and len(ended) == 1


# -- tester j2, findings 1, 2 and 6 --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said", ["we just found out I'm pregnant!!! 🥹", "just found out I'm pregnant", "We found out I'm pregnant."]
)
def test_a_pregnancy_found_out_is_the_users_pregnancy_not_the_sentence_as_said(said: str) -> None:
    assert _facts(said) == ["User is pregnant."]


@pytest.mark.parametrize(
    ("said", "plan"),
    [
        ("big news!! I'm moving to Graz next month... wait sorry, I meant Linz not Graz 😅",
         "User is moving to Linz"),
        ("I'm moving to Graz next month, no wait, Linz not Graz", "User is moving to Linz"),
        ("I'm moving to Graz next month. sorry, Linz, not Graz!", "User is moving to Linz"),
    ],
)
def test_a_correction_in_the_same_message_corrects_what_was_just_said_not_the_stored_home(
    ungated: RecallEngine, said: str, plan: str
) -> None:
    valid, ended = _captured(ungated, "I live in Graz.", said)
    assert ended == [] and "User lives in Graz." in valid
    assert any(f.startswith(plan) for f in valid) and not any("Graz" in f for f in valid if f != "User lives in Graz.")


def test_a_correction_no_clause_of_the_message_holds_still_corrects_the_stored_fact(ungated: RecallEngine) -> None:
    valid, ended = _captured(ungated, "I live in Graz.", "oh and I'm a nurse. sorry, I meant Linz, not Graz")
    assert valid == ["User is a nurse.", "User lives in Linz."] and ended == ["User lives in Graz."]


@pytest.mark.parametrize("said", ["I'm tired, long day at work", "I'm fine, thanks for asking", "I'm done, 34 to go"])
def test_a_word_before_a_list_that_is_no_name_gives_no_name(said: str) -> None:
    assert not any("name" in f for f in _facts(said))


def test_a_layoff_after_an_introduction_ends_only_the_job(ungated: RecallEngine) -> None:
    valid, ended = _captured(ungated, "I'm Raj, software dev at Shopify, living in Toronto",
                             "I got laid off from Shopify today")
    assert ended == ["User is a software dev at Shopify."]
    assert "User's name is Raj." in valid and "User lives in Toronto." in valid


@pytest.mark.parametrize("said", ["Dev moved out, I live alone now", "I live with two flatmates now",
                                  "I'm living on my own now"])
def test_with_whom_the_user_lives_leaves_where_they_live(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I'm Raj, software dev at Shopify, living in Toronto", said)
    assert "User lives in Toronto." in valid and ended == []


@pytest.mark.parametrize("said", ["I moved to Montreal", "I live with my parents in Stockport now"])
def test_a_new_home_still_ends_where_the_user_lived(ungated: RecallEngine, said: str) -> None:
    valid, ended = _captured(ungated, "I live in Toronto.", said)
    assert ended == ["User lives in Toronto."]
