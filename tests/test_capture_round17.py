"""Round 17 of the capture rules, from the misses of dev6 (the blind heldout4, read once promoted): general patterns
of how people type, each with phrasings that must be read and phrasings that must not. Through the shipped rules
(``RuleBasedFactExtractor``), and real capture into an embedded Chroma store where a stored fact must end."""

from __future__ import annotations

import pytest

from memori_core import RecallEngine, RuleBasedFactExtractor
from memori_core.extraction import Message
from tests._capture import SAID_AT, texts_after


def _facts(said: str) -> list[str]:
    return [f.text for f in RuleBasedFactExtractor().extract([Message("user", said, created_at=SAID_AT)])]


# -- a news lead-in typed without its punctuation; a vague tail after the fact --------------------------------------


@pytest.mark.parametrize(("said", "fact"), [
    ("heads up I'm allergic to peanuts", "User is allergic to peanuts."),
    ("Heads up I am allergic to penicillin", "User is allergic to penicillin."),
    ("plot twist my sister moved to Leeds", "User's sister lives in Leeds."),
    ("quick update I've switched to decaf", "User has switched to decaf."),
    ("For background, I have type 2 diabetes.", "User has type 2 diabetes."),
    ("some background: I work nights as a nurse", "User works nights as a nurse."),
])
def test_a_news_lead_in_without_punctuation_is_cut_before_a_first_person_subject(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize("said", [
    "guess what I did last night",  # a riddle: the bare "I" may be the object of "guess what"
    "heads up",
    "plot twist",
    "update my address book please",  # "update" and "correction" are verbs too: a request, not news
    "correction my last message had a typo",
])
def test_a_news_lead_in_before_a_bare_i_an_imperative_or_nothing_gives_no_fact(said: str) -> None:
    assert _facts(said) == []


@pytest.mark.parametrize(("said", "fact"), [
    ("I'm allergic to peanuts, like properly, epipen and everything", "User is allergic to peanuts."),
    ("I have a peanut allergy, like really bad", "User has a peanut allergy."),
    ("I'm vegan, like properly vegan", "User is vegan."),
    ("I love Italian food, pasta and all that", "User loves Italian food."),
    ("I like rock and stuff", "User likes rock."),
])
def test_a_vague_tail_of_how_much_or_what_else_is_cut(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize(("said", "fact"), [
    ("I love cats and dogs and everything", "User loves cats and dogs."),  # only the vague end is cut
    ("I eat fish, like salmon and tuna", "User eats fish, like salmon and tuna."),  # "like" as "such as" stays
])
def test_what_the_vague_tail_rule_leaves_alone(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


def test_a_listed_like_before_a_noun_is_still_a_verb_of_the_user() -> None:
    assert _facts("I'm Tom, 34, like dogs") == ["User's name is Tom.", "User is 34.", "User likes dogs."]


@pytest.mark.parametrize(("said", "facts"), [
    ("i'm Oluwaseun, 29, originally from Ibadan",
     ["User's name is Oluwaseun.", "User is 29.", "User is originally from Ibadan."]),
    ("I'm Ana, 40, originally from Porto", ["User's name is Ana.", "User is 40.", "User is originally from Porto."]),
    ("I'm 52, from Dunedin", ["User is 52.", "User is from Dunedin."]),
])
def test_where_the_user_is_originally_from_is_an_item_of_a_listed_introduction(said: str, facts: list[str]) -> None:
    assert _facts(said) == facts



# -- a correction followed by a remark; "we split" ------------------------------------------------------------------


@pytest.mark.parametrize("said", [
    "it's Bristol not Bath, office is right by the station.",
    "wait no sorry it's Bristol not Bath lol, office is right by temple meads",
    "Bristol not Bath, the commute is easier",
])
def test_a_correction_followed_by_a_remark_after_a_comma_corrects_the_stored_fact(engine: RecallEngine, said: str) -> None:
    assert texts_after(engine, "I just started at an architecture firm in Bath.", said, at=SAID_AT) == [
        "User works at an architecture firm in Bristol."]


@pytest.mark.parametrize("said", [
    "I like Bristol, not Bath, we visit often",  # what the user likes, no correction of a stored fact
    "the office is in Bath, not far from the station, parking is awful",  # "not far": no wrong words
    "Bath not Bristol, office is right by the station",  # what it names as wrong is not what is stored
])
def test_a_not_before_a_remark_that_corrects_no_stored_fact_keeps_it(engine: RecallEngine, said: str) -> None:
    assert "User works at an architecture firm in Bath." in texts_after(
        engine, "I work at an architecture firm in Bath.", said, at=SAID_AT)


@pytest.mark.parametrize(("partner", "said"), [
    ("I'm dating Leo.", "we split last week"),
    ("I'm dating Leo.", "we split."),
    ("My boyfriend is Leo.", "we've split for good"),
    ("I'm dating Leo.", "Leo and I split last month"),
])
def test_we_split_ends_the_relationship(engine: RecallEngine, partner: str, said: str) -> None:
    facts = texts_after(engine, partner, said, at=SAID_AT)
    assert not any("dating" in f or "boyfriend" in f for f in facts)
    assert any("split up" in f for f in facts)


@pytest.mark.parametrize("said", [
    "we split the bill at dinner",
    "we split it three ways",
    "we split into two teams at the quiz",
    "they split last week",  # someone else's couple
])
def test_split_with_an_object_or_of_others_ends_no_relationship(engine: RecallEngine, said: str) -> None:
    assert "User is dating Leo." in texts_after(engine, "I'm dating Leo.", said, at=SAID_AT)


# -- a role begun "as of today"; "long story" as a lead-in -----------------------------------------------------------


@pytest.mark.parametrize(("said", "fact"), [
    ("officially a registered nurse as of this morning!!!", "User is a registered nurse."),
    ("I'm officially a registered nurse as of this morning", "User is a registered nurse."),
    ("as of today I'm a qualified plumber", "User is a qualified plumber."),
    ("I'm a teacher from today", "User is a teacher."),
])
def test_a_job_begun_as_of_today_is_the_users_job_not_a_passing_moment(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize("said", [
    "I'm a mess as of this morning",  # no job: a passing state stays one
    "I'm a bit tired as of this morning",
    "a nurse told me as of this morning the ward is closed",
])
def test_what_is_no_role_as_of_today_stays_no_lasting_fact(said: str) -> None:
    assert _facts(said) == []


def test_a_role_begun_today_ends_the_role_before_it(engine: RecallEngine) -> None:
    facts = texts_after(engine, "I'm a nursing student on placement.", "officially a registered nurse as of this morning!",
                        at=SAID_AT)
    assert "User is a registered nurse." in facts


@pytest.mark.parametrize(("said", "facts"), [
    ("long story but basically i quit my job at the bank, sold the flat",
     ["User quit their job at the bank.", "User sold the flat."]),
    ("long story, we moved to Leeds", ["User lives in Leeds."]),
])
def test_long_story_is_a_lead_in(said: str, facts: list[str]) -> None:
    assert _facts(said) == facts


def test_a_long_story_as_the_statement_itself_gives_no_fact() -> None:
    assert _facts("it's a long story") == [] and _facts("long story") == []


# -- "no more X" ends the stored habit that names X; "I keep doing X" is a remark on the moment ---------------------


@pytest.mark.parametrize(("habit", "said", "now"), [
    ("i wear glasses, like -6 in both eyes", "had laser eye surgery a month ago and no more glasses!!!",
     "User stopped wearing glasses."),
    ("I drink coffee every morning.", "no more coffee for me", "User stopped drinking coffee."),
    ("I wear glasses, can't see a thing without them", "no more glasses!", "User stopped wearing glasses."),
    ("I smoke cigars at weekends.", "no more cigars now", "User stopped smoking cigars."),
    ("I use an inhaler for my asthma.", "new meds and no more inhaler!", "User stopped using inhaler."),
])
def test_no_more_a_thing_ends_the_stored_habit_that_names_it(engine: RecallEngine, habit: str, said: str,
                                                           now: str) -> None:
    facts = texts_after(engine, habit, said, at=SAID_AT)
    assert now in facts and habit.rstrip(".") not in " ".join(facts)


@pytest.mark.parametrize(("habit", "said"), [
    ("I drink coffee every morning.", "no more excuses, I'm going to the gym"),  # names nothing stored
    ("I drink coffee every morning.", "no more than two coffees a day though"),  # a limit, not an end
    ("My sister wears glasses.", "no more glasses!"),  # the stored habit is someone else's
    ("I drink coffee every morning.", "no more tea for me"),  # another thing
    ("I don't drink coffee.", "no more coffee for me"),  # a habit not held
])
def test_no_more_what_no_stored_habit_of_the_users_names_ends_nothing(engine: RecallEngine, habit: str,
                                                                     said: str) -> None:
    stored = texts_after(engine, habit)
    assert set(stored) <= set(texts_after(engine, said, at=SAID_AT))


@pytest.mark.parametrize("said", [
    "i keep reaching for my face lol",
    "I keep forgetting my keys",
    "we keep losing the remote",
    "I keep running into my ex",
])
def test_what_the_user_keeps_doing_is_a_remark_on_the_moment(said: str) -> None:
    assert _facts(said) == []


@pytest.mark.parametrize(("said", "fact"), [
    ("I keep bees", "User keeps bees."),  # no "-ing": what the user keeps
    ("I keep a journal", "User keeps a journal."),
    ("I keep kosher", "User keeps kosher."),
    ("I keep getting migraines", "User keeps getting migraines."),  # a condition that recurs
    ("I keep going to the gym every morning", "User keeps going to the gym every morning."),  # a habit, said so
])
def test_what_the_user_keeps_or_keeps_getting_stays_a_fact(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


# -- "Name here, 19, ..."; "I've been in Cork ten years"; "working at X now, and happier"; "guess who ..." ----------


@pytest.mark.parametrize(("said", "facts"), [
    ("hiya, Ren here, 19, studying game design at Abertay",
     ["User's name is Ren.", "User is 19.", "User studies game design at Abertay."]),
    ("Maya here, 34, based in Leeds", ["User's name is Maya.", "User is 34.", "User is based in Leeds."]),
])
def test_a_name_here_then_an_age_is_a_listed_introduction(said: str, facts: list[str]) -> None:
    assert _facts(said) == facts


@pytest.mark.parametrize("said", [
    "Ren here, thanks for the help",  # no age: no list of who the user is
    "hi, Paris, 19 days left",
])
def test_a_name_here_without_an_age_is_no_listed_introduction(said: str) -> None:
    assert not any(f.startswith("User's name is") for f in _facts(said))


@pytest.mark.parametrize(("said", "fact"), [
    ("I've been in Cork about ten years now", "User has lived in Cork for about ten years."),
    ("we've been in Leeds for six months", "User has lived in Leeds for six months."),
    ("I have been in Porto for 3 years", "User has lived in Porto for 3 years."),
])
def test_years_in_a_named_place_are_how_long_the_user_has_lived_there(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


def test_years_in_a_named_place_end_with_a_move(engine: RecallEngine) -> None:
    facts = texts_after(engine, "I've been in Cork about ten years now", "I moved to Limerick last week", at=SAID_AT)
    assert facts == ["User lives in Limerick."]


@pytest.mark.parametrize("said", [
    "I've been in Rome for a week",  # a stay
    "I've been in hospital for two weeks",  # no named place
    "I've been in Paris a few months",  # too short to say
    "my sister has been in Cork for ten years",
])
def test_a_stay_or_someone_elses_years_are_not_where_the_user_has_lived(said: str) -> None:
    assert not any(f.startswith("User has lived in") for f in _facts(said))


@pytest.mark.parametrize(("said", "fact"), [
    ("working full time at the national aquarium now and weirdly happier",
     "User is working full time at the national aquarium."),
    ("doing deliveries for a florist in Old Town now, way less soul destroying",
     "User is doing deliveries for a florist in Old Town."),
])
def test_what_the_user_does_now_told_without_i_keeps_its_fact_before_a_remark(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize("said", [
    "working from home now and my boss said no",  # a statement of its own after "and", not a remark to cut
    "working from home now, my wife isn't happy",
])
def test_a_statement_after_what_the_user_does_now_is_not_cut_as_a_remark(said: str) -> None:
    assert "User is working from home." not in _facts(said)


@pytest.mark.parametrize(("said", "fact"), [
    ("guess who turned 20 on saturday", "User is 20."),
    ("guess who got promoted!", "User got promoted."),
    ("guess who just got engaged?", "User just got engaged."),
    ("guess who quit smoking", "User quit smoking."),
])
def test_guess_who_with_news_of_a_life_is_the_users_news(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize("said", [
    "guess who I saw today",  # the user is the one who saw
    "guess who called me today",
    "guess who came to dinner",  # no news of the user's life
    "guess who won the match",
])
def test_guess_who_of_someone_else_gives_no_fact_of_the_users(said: str) -> None:
    assert _facts(said) == []
