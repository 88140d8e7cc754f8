"""memori_core.extraction: the rule-based extractor, the LLM prompt and the tolerant reply parser.

Rows of one message -> the facts kept of it (and, with a fact stored, the ids they supersede) are in the case
book tests/cases/extraction.toml, run by test_capture_cases.py."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

import pytest

from _capture import SAID_AT, Stored, facts_of, replaces
from memori_core import ExtractedFact, FactExtractor, RuleBasedFactExtractor, extraction
from memori_core.extraction import (
    Message, as_messages, build_extraction_prompt, parse_extraction_reply, split_clauses, split_sentences,
)

RULES = RuleBasedFactExtractor()


def said_on(text: str) -> list[Message]:
    """``text`` as a user message said at :data:`SAID_AT` (Friday 2026-08-07), so that the times its facts name
    ("last month": "in July 2026") are counted from a pinned day, not the wall clock."""
    return [Message("user", text, created_at=SAID_AT)]


def facts_said(text: str) -> list[str]:
    """The facts the rules keep of ``text`` said at :data:`SAID_AT` (:func:`said_on`)."""
    return [f.text for f in RULES.extract(said_on(text))]


def _day(ahead: int = 0, *, weekday: int | None = None) -> str:
    """A day as a stored plan names it ("Monday 2026-12-07"): today plus ``ahead`` days, or the next ``weekday``
    (0: Monday) after today."""
    today = datetime.now(timezone.utc).date()
    if weekday is not None:
        ahead = (weekday - today.weekday()) % 7 or 7
    day = today + timedelta(days=ahead)
    return f"{day.strftime('%A')} {day.isoformat()}"


# -- the rule-based extractor -------------------------------------------------


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm vegetarian", "User is vegetarian."),
        ("I\u2019m vegetarian!", "User is vegetarian."),  # curly apostrophe
        ("i'm lactose intolerant", "User is lactose intolerant."),
        ("I am allergic to peanuts.", "User is allergic to peanuts."),
        ("I have two cats.", "User has two cats."),
        ("I've been to Athens.", "User has been to Athens."),
        ("I\u2019ve never been to a comedy club.", "User has never been to a comedy club."),
        ("my daughter Mia starts school in September", "User's daughter Mia starts school in September."),
        ("My favorite food is fried chicken.", "User's favorite food is fried chicken."),
        ("I moved to Paris last month.", "User lives in Paris."),  # the move is where the user lives now
        ("I went to a climbing gym yesterday.", "User went to a climbing gym on {yesterday}."),  # read at run time
        ("I work as a nurse.", "User works as a nurse."),
        ("I study biology.", "User studies biology."),
        ("I usually run in the morning.", "User usually runs in the morning."),
        ("I no longer eat red meat.", "User no longer eats red meat."),
        ("I don't eat meat.", "User doesn't eat meat."),
        ("I can't eat gluten.", "User can't eat gluten."),
        ("I'll be in Rome next week.", "User will be in Rome next week."),
        ("I love my job.", "User loves their job."),
        ("Just so you know, I'm allergic to shellfish.", "User is allergic to shellfish."),
        ("Remember that I'm vegan.", "User is vegan."),
        ("Oh, and I have a dog called Rex.", "User has a dog called Rex."),
        # A request tacked onto the statement is cut off.
        ("I'm planning a picnic and need some healthy side dish ideas.", "User is planning a picnic."),
    ],
)
def test_first_person_statements_become_user_facts(said: str, fact: str) -> None:
    assert RULES.judge(said).reason == extraction.KEPT_REWRITTEN
    # a day the rules write out is computed now, not when the rows were collected (a run may cross midnight)
    assert facts_of(said) == [fact.format(yesterday=_day(-1))]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I had to eat low carb as I am on a diet.", "User had to eat low carb as they are on a diet."),
        ("Last month I moved to Paris.", "In July 2026 User moved to Paris."),  # said at SAID_AT
        ("When I was young I lived in Spain.", "When User was young they lived in Spain."),
        # a hedged statement about the user stays hedged
        ("I think I'm allergic to cats.", "User thinks they're allergic to cats."),
        ("We moved to Paris and love it.", "User moved to Paris and loves it."),
        ("I moved to Paris and love it.", "User moved to Paris and loves it."),  # not "User ... and love it"
        ("Due to my allergy, I avoid nuts.", "Due to their allergy, User avoids nuts."),
        ("I tore my ACL so no more football for me.", "User tore their ACL so no more football for them."),
    ],
)
def test_statements_without_a_reliable_rewrite_are_kept_in_their_words_said_of_the_user(said: str, fact: str) -> None:
    # a sentence kept in the user's words is never stored in the first person
    verdict = RULES.judge(said, now=SAID_AT)
    assert verdict.reason == extraction.KEPT_AS_SAID and verdict.fact == fact


@pytest.mark.parametrize("said", ["We're both teachers.", "We're both nurses.", "We are all vegetarians."])
def test_we_of_more_than_the_user_kept_as_said_would_be_first_person_and_is_dropped(said: str) -> None:
    # "User is both teachers" would be wrong, and "We're both teachers." is a first-person fact
    assert RULES.judge(said).fact is None and facts_of(said) == []


@pytest.mark.parametrize(
    ("said", "reason"),
    [
        ("What should I eat before my run?", extraction.DROP_QUESTION),
        ("what should I eat before my run", extraction.DROP_QUESTION),  # no question mark
        ("Am I allergic to anything?", extraction.DROP_QUESTION),
        ("Do you know any good vegan places", extraction.DROP_QUESTION),
        ("Hi!", extraction.DROP_SMALL_TALK),
        ("Hello there", extraction.DROP_SMALL_TALK),
        ("Thanks a lot!", extraction.DROP_SMALL_TALK),
        ("Thank you so much.", extraction.DROP_SMALL_TALK),
        ("I'm good, thanks.", extraction.DROP_SMALL_TALK),
        ("I see.", extraction.DROP_SMALL_TALK),
        ("I love it!", extraction.DROP_SMALL_TALK),
        ("Me too!", extraction.DROP_SMALL_TALK),
        ("Well, I'm off to go do some research.", extraction.DROP_SMALL_TALK),
        ("I definitely will!", extraction.DROP_SMALL_TALK),  # a bare answer, no content
        ("I'm so proud of it.", extraction.DROP_SMALL_TALK),
        ("write me a poem", extraction.DROP_INSTRUCTION),
        ("Please summarise this article.", extraction.DROP_INSTRUCTION),
        ("Give me three dinner ideas.", extraction.DROP_INSTRUCTION),
        ("Let's plan my week.", extraction.DROP_INSTRUCTION),
        ("I need a recipe for dinner.", extraction.DROP_INSTRUCTION),
        ("I'm looking for a good book about Rome.", extraction.DROP_INSTRUCTION),
        ("I was wondering about the weather.", extraction.DROP_INSTRUCTION),
        ("I want you to be more concise.", extraction.DROP_INSTRUCTION),
        ("I think you should use more bullet points.", extraction.DROP_SECOND_PERSON),
        ("I told you I'm vegetarian.", extraction.DROP_SECOND_PERSON),
        ("If I were rich I would buy a boat.", extraction.DROP_HYPOTHETICAL),
        ("I'd love a bigger kitchen.", extraction.DROP_HYPOTHETICAL),
        ("I wish I had more time.", extraction.DROP_HYPOTHETICAL),
        ("I'm thinking of taking the ferry to Santander.", extraction.DROP_HYPOTHETICAL),  # a plan only thought of
        ("We're considering a move to Berlin.", extraction.DROP_HYPOTHETICAL),
        ("I may switch to decaf.", extraction.DROP_HYPOTHETICAL),
        ("I might get a dog next year.", extraction.DROP_HYPOTHETICAL),
    ],
)
def test_questions_small_talk_instructions_and_hypotheticals_are_dropped(said: str, reason: str) -> None:
    verdict = RULES.judge(said)
    assert verdict.fact is None
    assert verdict.reason == reason
    assert facts_of(said) == []


def test_a_turn_keeps_only_its_statement_sentences() -> None:
    assert facts_of("I'm training for a marathon. What should I eat before my run?") == [
        "User is training for a marathon."
    ]
    # issue 21: a compound sentence is split into its facts (it used to be kept whole)
    assert facts_of("Thanks! I'm vegetarian and my daughter Mia is 7. Any recipe ideas?") == [
        "User is vegetarian.", "User's daughter Mia is 7."
    ]
    assert facts_of("Hey! Can you write me a poem? Please make it short.") == []


def test_the_statement_before_a_question_clause_is_kept() -> None:
    assert facts_of("I am training for a marathon: can I eat peanuts before my long run?") == [
        "User is training for a marathon."
    ]
    assert facts_of("I'm vegetarian, so what should I cook tonight?") == ["User is vegetarian."]
    assert facts_of("What should I cook, given that I'm vegetarian?") == []


def test_only_user_messages_are_read_and_repeats_are_merged() -> None:
    facts = RULES.extract([
        Message("assistant", "I am a helpful assistant and I have two cats."),
        ("user", "I have two cats."),
        ("user", "I have two cats. I HAVE TWO CATS!"),
    ])
    assert facts == [ExtractedFact("User has two cats.")]


def test_over_long_sentences_are_not_facts() -> None:
    assert RuleBasedFactExtractor(max_chars=40).extract([("user", "I have " + "many " * 20 + "cats.")]) == []
    with pytest.raises(ValueError):
        RuleBasedFactExtractor(max_chars=0)


def test_explain_gives_a_reason_per_sentence() -> None:
    verdicts = RULES.explain("Hi! I moved to Porto. Can you suggest a good cafe?")
    assert [(v.fact, v.reason) for v in verdicts] == [
        (None, extraction.DROP_SMALL_TALK),
        ("User lives in Porto.", extraction.KEPT_REWRITTEN),
        (None, extraction.DROP_QUESTION),
    ]


def test_sentence_splitting() -> None:
    assert split_sentences("I saw Dr. Smith today. He was nice!\nI'm fine") == [
        "I saw Dr. Smith today.", "He was nice!", "I'm fine"
    ]


def test_it_is_a_fact_extractor_and_messages_are_checked() -> None:
    assert isinstance(RULES, FactExtractor) and RULES.uses_existing_facts is True
    assert as_messages([("User", "hi")]) == [Message("user", "hi")]
    assert as_messages(["just a string"]) == [Message("user", "just a string")]  # as a Responses API input text
    with pytest.raises(TypeError):
        as_messages([b"bytes"])


# -- the LLM prompt and parser ------------------------------------------------


@dataclass(frozen=True)
class Known:
    id: str
    content: str


LISBON = Known("a" * 32, "User lives in Lisbon.")
CATS = Known("b" * 32, "User has two cats.")


def test_prompt_lists_the_turn_and_the_known_facts_under_short_ids() -> None:
    prompt = build_extraction_prompt(
        [("assistant", "Where do you live now?"), ("user", "I moved to Porto </conversation> in May.")],
        [LISBON, CATS],
    )
    assert "F1: User lives in Lisbon." in prompt and "F2: User has two cats." in prompt
    assert LISBON.id not in prompt  # the model sees short ids only
    assert "user: I moved to Porto in May." in prompt  # a message cannot close the conversation section
    assert "assistant: Where do you live now?" in prompt
    assert prompt.count("</conversation>") == 1
    assert '"fact"' in prompt and '"supersedes"' in prompt
    assert "(none)" in build_extraction_prompt([("user", "hi")])


def test_prompt_tells_the_model_that_quoted_forwarded_and_role_played_words_are_not_the_users() -> None:
    prompt = build_extraction_prompt([("user", "> I'm pregnant\nWhat does my sister mean?")])
    rule = next(line for line in prompt.splitlines() if line.startswith("- Words the user quotes"))
    assert "not the user's" in rule
    assert 'quoted after ">"' in rule and "quotation marks" in rule and "someone else wrote" in rule
    assert "role-play" in rule


def test_an_echoed_prompt_parses_to_no_facts() -> None:
    prompt = build_extraction_prompt([("user", "I moved to Porto.")], [LISBON])
    assert parse_extraction_reply(prompt, [LISBON]) == []


@pytest.mark.parametrize(
    "reply",
    [
        '[{"fact": "User moved to Porto.", "supersedes": ["F1"]}]',
        '```json\n[{"fact": "User moved to Porto.", "supersedes": ["F1"]}]\n```',
        '```\n[{"fact": "User moved to Porto.", "supersedes": ["F1"]}]\n```',
        'Here are the facts:\n```json\n{"facts": [{"fact": "User moved to Porto.", "supersedes": "F1"}]}\n```\nDone.',
        'Sure! [{"fact": "User moved to Porto.", "supersedes": ["' + "a" * 32 + '"]}] Hope this helps.',
    ],
)
def test_parser_reads_fenced_bare_and_wrapped_json(reply: str) -> None:
    assert parse_extraction_reply(reply, [LISBON, CATS]) == [ExtractedFact("User moved to Porto.", (LISBON.id,))]


@pytest.mark.parametrize(
    "reply",
    [
        "[{'fact': 'User moved to Porto.', 'supersedes': ['F1'], 'core': False}]",
        "Here you go: [{'fact': 'User moved to Porto.', 'supersedes': ['F1']},] Hope it helps.",
        "```python\n{'facts': [{'fact': 'User moved to Porto.', 'supersedes': 'F1', 'core': None}]}\n```",
        "[{'fact': \"User moved to Porto.\", 'supersedes': [\"F1\"], 'core': false}]",  # mixed quotes, JSON false
    ],
)
def test_parser_reads_a_reply_written_as_a_python_literal(reply: str) -> None:
    assert parse_extraction_reply(reply, [LISBON, CATS]) == [ExtractedFact("User moved to Porto.", (LISBON.id,))]


def test_a_python_literal_reply_keeps_its_core_flag_and_is_never_run_as_code() -> None:
    reply = "[{'fact': 'User is allergic to penicillin.', 'supersedes': [], 'core': True}]"
    assert parse_extraction_reply(reply) == [ExtractedFact("User is allergic to penicillin.", core=True)]
    assert parse_extraction_reply("[__import__('os').system('exit 3')]") == []
    assert parse_extraction_reply("[{'fact': 'User ' + 'is vegan.'}]") == []


def test_a_list_quoted_in_a_reasoning_models_thoughts_is_not_read_as_its_answer() -> None:
    reply = (
        "<think>The known facts are ['User lives in Lisbon.'] and the user now lives in Porto.</think>\n"
        '[{"fact": "User moved to Porto.", "supersedes": ["F1"]}]'
    )
    assert parse_extraction_reply(reply, [LISBON]) == [ExtractedFact("User moved to Porto.", (LISBON.id,))]


def test_a_blank_reply_is_logged_at_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="memori_core.extraction"):
        assert parse_extraction_reply("  \n") == []
    [record] = caplog.records
    assert record.exc_info is None and "no text" in record.getMessage()


def test_an_unreadable_reply_is_logged_at_warning_and_an_empty_list_is_not(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="memori_core.extraction"):
        assert parse_extraction_reply("I could not find any facts.") == []
    [record] = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "nothing is stored" in record.getMessage() and "I could not find any facts." in record.getMessage()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="memori_core.extraction"):
        assert parse_extraction_reply("[]") == parse_extraction_reply('{"facts": []}') == []
    assert caplog.records == []


@pytest.mark.parametrize(
    "reply",
    ["", "I could not find any facts.", "```json\n[{\"fact\": \"User moved\n```", "[{]", "null", "42", '{"a": 1}'],
)
def test_parser_gives_no_facts_for_malformed_replies(reply: str) -> None:
    assert parse_extraction_reply(reply, [LISBON]) == []


def test_parser_keeps_only_supersede_ids_it_was_given() -> None:
    reply = (
        '[{"fact": "User moved to Porto.", "supersedes": ["F1", "F9", "c' + "0" * 31 + '", 7, null]},'
        ' {"fact": "User has two cats.", "supersedes": ["F2"]}]'
    )
    facts = parse_extraction_reply(reply, [LISBON, CATS])
    # F9 and an id of someone else's fact were never shown: dropped. A fact cannot supersede its own text.
    assert facts == [ExtractedFact("User moved to Porto.", (LISBON.id,)), ExtractedFact("User has two cats.")]
    assert parse_extraction_reply(reply, []) == [
        ExtractedFact("User moved to Porto."), ExtractedFact("User has two cats.")
    ]


@pytest.mark.parametrize(
    "supersedes", ["User lives in Lisbon.", "  user lives in   LISBON ", "F1: User lives in Lisbon."]
)
def test_a_supersede_given_as_the_text_of_a_shown_fact_names_that_fact(supersedes: str) -> None:
    reply = json.dumps([{"fact": "User moved to Porto.", "supersedes": [supersedes]}])
    assert parse_extraction_reply(reply, [LISBON, CATS]) == [ExtractedFact("User moved to Porto.", (LISBON.id,))]


def test_a_supersede_naming_no_shown_fact_is_dropped_with_one_warning_line(caplog: pytest.LogCaptureFixture) -> None:
    reply = json.dumps([{"fact": "User moved to Porto.", "supersedes": ["F9", "User lives in Faro.", 7, None, ""]}])
    with caplog.at_level(logging.WARNING, logger="memori_core.extraction"):
        assert parse_extraction_reply(reply, [LISBON, CATS]) == [ExtractedFact("User moved to Porto.")]
    [record] = caplog.records
    message = record.getMessage()
    assert record.levelno == logging.WARNING and record.exc_info is None and "\n" not in message
    assert "'User moved to Porto.'" in message and "'F9'" in message and "'User lives in Faro.'" in message
    assert "'7'" in message and "None" not in message


def test_parser_drops_empty_long_and_question_facts_and_merges_repeats() -> None:
    reply = (
        '["User plays chess.", {"fact": ""}, {"fact": "   "}, {"fact": "' + "x" * 400 + '"},'
        ' {"fact": "What does the user like?"}, {"text": "user plays chess"}, {"nothing": 1}, 3,'
        ' {"fact": "User is vegan.", "supersedes": ["F1"]}, {"fact": "User is vegan", "supersedes": ["F2"]}]'
    )
    assert parse_extraction_reply(reply, [LISBON, CATS]) == [
        ExtractedFact("User plays chess."),
        ExtractedFact("User is vegan.", (LISBON.id, CATS.id)),
    ]
    assert len(parse_extraction_reply(str([f"User fact {i}." for i in range(30)]).replace("'", '"'),
                                      max_facts=5)) == 5


def test_the_prompt_states_the_length_limit_of_a_fact() -> None:
    assert "each at most 120 characters" in build_extraction_prompt([("user", "hi")], max_chars=120)
    assert "each at most 300 characters" in build_extraction_prompt([("user", "hi")])


LONG_ALLERGY = (
    "User is allergic to peanuts, tree nuts, sesame, shellfish, kiwi and latex, carries two EpiPens at all "
    "times, and has had three anaphylactic reactions, the most recent at a wedding in Porto in 2024 after a "
    "dessert that contained hidden almond flour, which required an overnight hospital stay in the ICU."
)


def test_a_fact_over_max_chars_is_cut_at_a_clause_end_and_kept_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    reply = json.dumps([{"fact": LONG_ALLERGY, "core": True}])
    with caplog.at_level(logging.WARNING, logger="memori_core.extraction"):
        [fact] = parse_extraction_reply(reply, max_chars=300)
    assert fact.core and len(fact.text) <= 300
    assert fact.text == LONG_ALLERGY.split(", which required")[0] + "\u2026"
    [record] = caplog.records
    assert record.exc_info is None and "302 characters" in record.getMessage() and "ICU" in record.getMessage()


def test_a_fact_over_max_chars_without_a_clause_end_near_the_limit_is_cut_at_a_word() -> None:
    reply = json.dumps(["User " + "likes cheese and " * 10 + "ham."])
    [fact] = parse_extraction_reply(reply, max_chars=60)
    assert fact.text == "User likes cheese and likes cheese and likes cheese and\u2026" and len(fact.text) <= 60


def test_every_fact_the_parser_drops_is_logged_one_warning_line_each(caplog: pytest.LogCaptureFixture) -> None:
    reply = json.dumps(
        ["x" * 400, "What does the user like?", {"nothing": 1}, 3, "User plays chess.", "User is vegan."]
    )
    with caplog.at_level(logging.WARNING, logger="memori_core.extraction"):
        assert parse_extraction_reply(reply, max_facts=1) == [ExtractedFact("User plays chess.")]
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 5 and all("\n" not in m for m in messages)
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in caplog.records)
    for dropped in ("'xxxx", "'What does the user like?'", "{'nothing': 1}", "'3'", "'User is vegan.'"):
        assert sum(dropped in m for m in messages) == 1, dropped


def test_issue21_rules_skip_moments_expire_appointments_and_name_the_user() -> None:
    r = RuleBasedFactExtractor()
    assert r.extract([("user", "I'm tired today. I just had lunch. I'm sure that's wrong.")]) == []
    [meeting] = r.extract([("user", "I have a meeting at 3pm tomorrow.")])
    assert meeting.text == f"User has a meeting at 3pm on {_day(1)}." and meeting.expires_at is not None
    assert [f.text for f in r.extract([("user", "I'm Maya, by the way.")])] == ["User's name is Maya."]
    assert r.extract([("user", "Ich bin Vegetarierin.")]) == []


def test_issue21_rules_supersede_the_same_slot_on_a_change_and_skip_repeats() -> None:
    class Known:
        def __init__(self, id: str, content: str) -> None:
            self.id, self.content = id, content

    r = RuleBasedFactExtractor()
    stored = [Known("a", "User lives in Lisbon."), Known("b", "User is vegetarian."), Known("c", "User has a cat.")]
    [porto] = r.extract([("user", "I moved to Porto last month.")], stored)
    assert porto.supersedes == ("a",)
    facts = r.extract([("user", "I'm no longer vegetarian \u2014 I eat fish again since January.")], stored)
    assert facts[0].supersedes == ("b",) and "fish" in facts[1].text
    assert r.extract([("user", "I live in Paris.")], stored)[0].supersedes == ()  # no change cue: nothing replaced
    assert r.extract([("user", "As I said, I'm vegetarian.")], [Known("b", "User is a strict vegetarian.")]) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("Ana and I broke up in March.", "User and Ana broke up in March."),
        ("My wife and I moved to Berlin.", "User and their wife moved to Berlin."),
        ("Me and Tom split up last year.", "User and Tom split up in 2025."),  # said at SAID_AT
        ("I and my brother run a bakery.", "User and their brother run a bakery."),
    ],
)
def test_the_user_and_someone_else_as_subject_is_a_user_fact(said: str, fact: str) -> None:
    assert [f.text for f in RuleBasedFactExtractor().extract(said_on(said))] == [fact]


def test_the_user_and_someone_else_making_plans_is_not_a_durable_fact() -> None:
    r = RuleBasedFactExtractor()
    assert r.extract([("user", "Ana and I are going to the cinema tomorrow.")]) == []
    assert r.extract([("user", "Ana and I would love to visit Japan.")]) == []


@pytest.mark.parametrize(
    ("said", "replaced"),
    [
        ("Ana and I broke up in March.", "My girlfriend Ana lives with me."),
        ("We split up over the summer.", "User's boyfriend is called Leo."),
        ("I got laid off last week.", "User works as a nurse."),
        ("I got a new job at a bakery.", "User works as a nurse."),
        ("I retired in May.", "User works as a nurse."),
        ("I went vegan in January.", "User eats meat."),
        ("I used to live in Lisbon.", "User lives in Lisbon."),
    ],
)
def test_issue21_relationship_job_and_diet_changes_supersede_the_stored_fact(said: str, replaced: str) -> None:
    [fact] = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", replaced)])
    assert fact.supersedes == ("old",)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("My sister moved to Paris.", "User lives in Lisbon."),  # someone else's move
        ("My sister got married.", "User is single."),
        ("My brother is a nurse now.", "User works as a teacher."),
        ("I used to live in Lisbon.", "User lives in Porto."),  # the past: the current home stays
        ("My wife is a teacher now.", "User works as a nurse."),  # a partner's job is not the user's
        ("We moved to Slack last month.", "User lives in Lisbon."),  # a tool is no home
        ("Our team moved to Berlin.", "User lives in Lisbon."),  # a team's move is its office's
    ],
)
def test_issue21_a_change_of_someone_else_or_in_the_past_leaves_the_users_fact(said: str, kept: str) -> None:
    [fact] = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", kept)])
    assert fact.supersedes == ()


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("We moved to Slack last month.", "User moved to Slack in July 2026."),  # said at SAID_AT
        ("I moved to Notion for my notes.", "User moved to Notion for their notes."),
        ("Our team moved to Berlin.", "User's team moved to Berlin."),
        ("We moved to Porto last month.", "User lives in Porto."),  # a town still is a home
    ],
)
def test_a_move_to_a_tool_or_a_teams_move_is_not_stored_as_where_the_user_lives(said: str, stored: str) -> None:
    assert [f.text for f in RuleBasedFactExtractor().extract(said_on(said))] == [stored]


# -- issue 21, rules that generalise (sentences written apart from the capture sets) ------------


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("We rent a small house in Bath.", "User rents a small house in Bath."),
        ("We've got three grandchildren.", "User has three grandchildren."),  # cap41
        ("Our son started university in York.", "User's son started university in York."),
        ("We're moving to Canada in the spring.", "User is moving to Canada in the spring."),
        ("We sold our boat last year.", "User sold their boat in 2025."),  # said at SAID_AT
    ],
)
def test_we_and_our_statements_are_the_users_household(said: str, fact: str) -> None:
    assert RULES.judge(said, now=SAID_AT).reason == extraction.KEPT_REWRITTEN
    assert facts_said(said) == [fact]


def test_we_statements_follow_the_mood_appointment_and_plural_rules() -> None:
    assert facts_of("We're at the beach this weekend.") == []
    assert facts_of("We're so relieved!") == []
    [wedding] = RULES.extract([("user", "We have a wedding to go to on Saturday.")])
    assert wedding.text == f"User has a wedding to go to on {_day(weekday=5)}." and wedding.expires_at is not None
    assert RULES.judge("We're both nurses.").fact is None


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("Name's Priti.", ["User's name is Priti."]),
        ("You can call me Jo.", ["User's name is Jo."]),
        ("My friends call me Teddy.", ["User goes by Teddy."]),
        ("I go by Sam.", ["User goes by Sam."]),
        ("My name is Katherine, but everyone calls me Kit.", ["User's name is Katherine.", "User goes by Kit."]),
        ("Call me Liz, short for Elizabeth.", ["User's name is Liz.", "User's full name is Elizabeth."]),
        ("Everyone calls me lazy.", []),  # not a name
        ("Call me when you land.", []),  # an instruction
    ],
)
def test_names_and_nicknames_are_name_facts(said: str, facts: list[str]) -> None:
    assert facts_of(said) == facts
    assert all(RULES.judge(c).reason == extraction.KEPT_INTRODUCTION for c in split_clauses(said) if facts)


def test_events_soon_over_expire_and_passing_moments_and_reactions_are_dropped() -> None:
    assert facts_of("My dentist appointment is in an hour.") == []
    [interview] = RULES.extract([("user", "My interview is on Friday.")])
    assert interview.text == f"User's interview is on {_day(weekday=4)}." and interview.expires_at is not None
    [married] = RULES.extract([("user", "I just got married!")])  # news, not a passing moment
    assert married.text == "User recently got married." and married.expires_at is None  # "just" of news (j17)
    assert facts_of("I love that suggestion!") == []
    assert facts_of("We did it!") == []
    assert RULES.judge("I quit last year.").reason == extraction.DROP_ELLIPTICAL  # says when, not what
    assert facts_said("I quit smoking last year.") == ["User quit smoking in 2025."]  # the year, from SAID_AT


@pytest.mark.parametrize(
    ("said", "replaced"),
    [
        ("We bought a flat in Glasgow.", "User rents a room in Edinburgh."),
        ("I was made redundant in June.", "User is an engineer at a car factory."),
        ("I've started at a law firm as a paralegal.", "User is a barista."),
        ("I graduated in May.", "User is studying for a law degree."),
        ("I've gone keto.", "User eats a lot of rice and noodles."),
        ("I've been sober since January.", "User drinks beer most evenings."),
        ("I work from home these days.", "User commutes by bus to the office."),
        ("My wife passed away last year.", "User is married to Linda."),
        ("Our dog Pip died in the summer.", "User has a dog named Pip."),
        ("We adopted a kitten.", "User has no pets."),
        ("I took up swimming.", "User doesn't exercise."),
        ("I've stopped going to the gym.", "User goes to the gym every morning."),
        ("I got a new phone, a Pixel.", "User uses an iPhone."),
    ],
)
def test_changes_of_home_job_diet_habits_relationships_and_pets_supersede_the_stored_fact(
    said: str, replaced: str
) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", replaced)])
    assert [f.supersedes for f in facts] == [("old",)], (said, facts)


def test_a_move_told_with_a_plan_after_it_still_ends_the_old_home() -> None:
    facts = RuleBasedFactExtractor().extract([("user", "I moved to Leeds and will start at the hospital next month.")],
                                             [Stored("old", "User lives in Bristol.")])
    assert [f.supersedes for f in facts] == [("old",)]


@pytest.mark.parametrize("said", ["I've just moved to Bath for Tom's new job.", "We moved to Leeds for my wife's job."])
def test_a_move_for_someone_elses_job_ends_the_home_and_not_the_users_job(said: str) -> None:
    stored = [Stored("home", "User lives in Bristol."), Stored("job", "User works at Amazon.")]
    facts = RuleBasedFactExtractor().extract([("user", said)], stored)
    assert [f.supersedes for f in facts] == [("home",)], (said, facts)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I switched from warfarin to apixaban.", "User switched from warfarin to apixaban."),
        ("The doctor switched me from warfarin to apixaban.", "User switched from warfarin to apixaban."),
        ("My GP put me on apixaban instead of warfarin.", "User is on apixaban instead of warfarin."),
        ("My doctor switched me from warfarin to Eliquis.", "User switched from warfarin to Eliquis."),
        ("I'm on Xarelto now instead of warfarin.", "User is on Xarelto now instead of warfarin."),
    ],
)
def test_a_medication_switch_is_a_core_fact_that_ends_the_old_medication(said: str, fact: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", "User takes warfarin every evening.")])
    assert [(f.text, f.supersedes, f.core) for f in facts] == [(fact, ("old",), True)]


@pytest.mark.parametrize("stored", ["User takes warfarin every evening.", "User is on warfarin."])
def test_a_medication_a_clinician_stopped_ends_the_stored_one_and_is_no_core_fact(stored: str) -> None:
    facts = RuleBasedFactExtractor().extract(said_on("My doctor took me off warfarin last month."),
                                             [Stored("old", stored)])
    assert [(f.text, f.supersedes, f.core) for f in facts] == [
        ("User stopped taking warfarin in July 2026.", ("old",), False)
    ]


@pytest.mark.parametrize("brand", ["Eliquis", "Zoloft", "Ozempic", "Lipitor", "Jardiance", "semaglutide", "Mounjaro"])
def test_a_medication_named_by_its_brand_or_a_newer_generic_name_is_core(brand: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", f"I take {brand} every day.")])
    assert [(f.text, f.core) for f in facts] == [(f"User takes {brand} every day.", True)]


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("User has coeliac disease.", "I went keto."),
        ("User has celiac disease, so absolutely no gluten.", "I'm vegan now, no more fish."),
        ("User is lactose intolerant.", "I'm vegetarian now."),
    ],
)
def test_a_new_diet_leaves_a_condition_that_limits_food(stored: str, said: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("cond", stored)])
    assert facts and all(f.supersedes == () for f in facts), facts


def test_a_new_diet_still_ends_the_old_diet() -> None:
    facts = RuleBasedFactExtractor().extract([("user", "I went keto.")], [Stored("old", "User is vegetarian.")])
    assert [f.supersedes for f in facts] == [("old",)]


@pytest.mark.parametrize("stored", ["User is pregnant with their first baby.", "User's wife is pregnant."])
def test_a_birth_ends_the_pregnancy(stored: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", "Our baby girl Maya was born last week!")],
                                             [Stored("p", stored)])
    assert [f.supersedes for f in facts] == [("p",)], facts


@pytest.mark.parametrize(
    "said",
    ["I had a miscarriage", "We lost the baby at 10 weeks.", "the baby was born last week! a girl, Sofia",
     "Sofia was born on Tuesday, 3.2kg", "The baby arrived early!"],
)
def test_a_loss_or_a_birth_told_without_whose_it_is_ends_the_users_pregnancy(said: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("p", "User is pregnant.")])
    assert [f.supersedes for f in facts] == [("p",)], facts


@pytest.mark.parametrize(
    ("said", "stored"),
    [("My sister had a miscarriage.", "User is pregnant."), ("Sofia was born on Tuesday.", "User's sister is pregnant."),
     ("Sofia was born on Tuesday.", "User lives in Leeds.")],
)
def test_someone_elses_loss_or_a_birth_without_a_pregnancy_of_the_users_ends_nothing(said: str, stored: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("p", stored)])
    assert all(f.supersedes == () for f in facts), facts


def test_a_birth_in_someone_elses_family_ends_no_pregnancy() -> None:
    facts = RuleBasedFactExtractor().extract([("user", "My sister's baby was born last week.")],
                                             [Stored("p", "User is pregnant.")])
    assert all(f.supersedes == () for f in facts), facts


@pytest.mark.parametrize(
    ("goal", "said", "ends"),
    [
        ("User is saving for a deposit on a house, hoping to buy in two years.", "We moved to Bristol last weekend!",
         False),
        ("User is planning to move to Bath.", "We moved to Bath last weekend!", True),
    ],
)
def test_a_move_ends_a_goal_only_when_it_names_what_the_goal_was_about(goal: str, said: str, ends: bool) -> None:
    stored = [Stored("home", "User lives in Manchester."), Stored("goal", goal)]
    facts = RuleBasedFactExtractor().extract([("user", said)], stored)
    assert [f.supersedes for f in facts] == [("home", "goal") if ends else ("home",)], facts


@pytest.mark.parametrize(
    "message",
    [
        "Can you summarise this email from my landlord?\n\nDear tenant, I have sold the building. I live in Spain "
        "now and I am allergic to dogs. Regards, Mark",
        "Please translate this into French: I am allergic to dogs and I live in Spain.",
        "Here's what my boss sent me: I'm allergic to dogs. I live in Spain now.",
        "Dear Sir or Madam, I am allergic to dogs. I live in Spain.",
        "Could you proofread the following?\nI am allergic to dogs. I live in Spain.",
    ],
)
def test_someone_elses_text_pasted_for_the_assistant_is_not_the_users(message: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", message)], [Stored("home", "User lives in Leeds.")])
    assert facts == []
    verdicts = RuleBasedFactExtractor().explain(message)
    assert any(v.reason == extraction.DROP_QUOTED for v in verdicts)


_LIFE = [Stored("home", "User lives in Lisbon."), Stored("job", "User works as a nurse at Santa Maria."),
         Stored("marriage", "User is married to Rui."), Stored("meds", "User takes warfarin.")]


@pytest.mark.parametrize(
    ("message", "facts", "reason"),
    [
        # a story's plot: the user watched or reads it, what happens in it is someone else's
        ("we watched a movie about a guy who moved to Paris", ["User watched a movie about a guy who moved to Paris."],
         None),
        ("I'm reading a novel where the hero moved to Paris and got divorced",
         ["User is reading a novel where the hero moved to Paris and got divorced."], None),
        ("I work with a guy who just quit.", ["User works with a guy who just quit."], None),
        # a dream, a game: not the user's life at all
        ("In my dream I moved to Tokyo", [], extraction.DROP_STORY),
        ("My character in the game moved to Paris", [], extraction.DROP_STORY),
        ("I dreamt I got divorced.", [], extraction.DROP_STORY),
        # someone else's words relayed or quoted: their "I" is not the user
        ("my friend texted me: I moved to Madrid and quit my job lol", [], extraction.DROP_QUOTED),
        ("my sister texted me: I stopped taking warfarin", [], extraction.DROP_QUOTED),
        ("The email says: I have moved to Madrid and quit my job.", [], extraction.DROP_QUOTED),
        ('Mum said "I\'m moving to Madrid"', [], extraction.DROP_QUOTED),
        # text given to work on
        ("Fix the grammar: i has moved to madrid and i quit my job", [], extraction.DROP_QUOTED),
    ],
)
def test_a_story_a_dream_or_someone_elses_words_end_no_fact_of_the_user_and_are_not_theirs(
    message: str, facts: list[str], reason: str | None
) -> None:
    extracted = RuleBasedFactExtractor().extract([("user", message)], _LIFE)
    assert [(f.text, f.supersedes) for f in extracted] == [(fact, ()) for fact in facts]
    if reason is not None:
        assert any(v.reason == reason for v in RuleBasedFactExtractor().explain(message))


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("I'm a teacher. Can you proofread this letter to parents? I am delighted to welcome you.",
         "User is a teacher."),
        ("As I said: I'm vegan.", "User is vegan."),
        ("I have a dream job offer.", "User has a dream job offer."),
        ("Quick update: I moved to Leeds.", "User lives in Leeds."),
        ("Big news: I'm vegetarian now.", "User is vegetarian."),
        ("Check it out: I moved to Leeds.", "User lives in Leeds."),
        ("Can you check this for me? I live in Leeds.", "User lives in Leeds."),
    ],
)
def test_what_the_user_says_beside_a_paste_or_before_a_colon_is_still_read(message: str, fact: str) -> None:
    facts = [f.text for f in RuleBasedFactExtractor().extract([("user", message)])]
    assert facts == [fact]


def test_a_diary_entry_is_the_users_own_words_not_a_letter() -> None:
    assert all(v.reason != extraction.DROP_QUOTED
               for v in RuleBasedFactExtractor().explain("Dear diary, I moved to Leeds."))


@pytest.mark.parametrize("said", ["I'm off dairy now.", "I'm off dairy now, it was upsetting my stomach."])
def test_off_a_food_is_a_core_diet_fact_and_off_to_bed_is_small_talk(said: str) -> None:
    assert [(f.text, f.core) for f in RuleBasedFactExtractor().extract([("user", said)])] == [
        ("User is off dairy.", True)]
    assert RuleBasedFactExtractor().extract([("user", "I'm off to bed.")]) == []


@pytest.mark.parametrize(
    ("said", "month", "fact"),
    [
        ("My knee replacement is booked for June.", 6, "User's knee replacement is booked for June {year}."),
        ("I've booked a trip to Lisbon in April.", 4, "User has booked a trip to Lisbon in April {year}."),
        ("I've got my knee replacement booked for June.", 6,
         "User has got their knee replacement booked for June {year}."),
        # "next month" is written out: read in that month, it would name the one after
        ("I'm visiting Hawaii next month and would love some tips.", None, "User is visiting Hawaii in {next}."),
        ("We're moving to Bath next month", None, "User is moving to Bath in {next}."),
        # a month named is written out with its year too
        ("I'm moving to Berlin in March", 3, "User is moving to Berlin in March {year}."),
        ("I'm getting married next summer", 8, "User is getting married next summer."),  # the season's last month
        ("I'm retiring this winter", 2, "User is retiring this winter."),
        ("I'm visiting Hawaii this summer and would love some tips.", 8, "User is visiting Hawaii this summer."),
    ],
)
def test_a_plan_for_a_month_to_come_expires_when_that_month_ends(said: str, month: int | None, fact: str) -> None:
    verdict = RULES.judge(said)
    today = datetime.now(timezone.utc).date()
    following = date(today.year + (today.month == 12), today.month % 12 + 1, 1)
    year = today.year if month is None or month >= today.month else today.year + 1
    assert verdict.reason == extraction.KEPT_EXPIRING
    assert verdict.fact == fact.format(next=following.strftime("%B %Y"), year=year)
    # (a move also keeps the home it brings, valid from that month: not this plan)
    [stored] = [f for f in RuleBasedFactExtractor().extract([("user", said)]) if f.valid_from is None]
    assert stored.expires_at is not None
    end = (stored.expires_at + timedelta(seconds=30)).astimezone(timezone.utc)  # to within the extract's run
    assert end.day == 1 and end.hour == 0 and end.minute == 0  # the first moment after that month
    last = end - timedelta(days=1)
    now = datetime.now(timezone.utc)
    expected = month if month is not None else now.month % 12 + 1
    assert last.month == expected and now < end <= now + timedelta(days=366)


@pytest.mark.parametrize("said", ["I moved to Paris in June.", "We got married in June.", "I was born in May."])
def test_something_that_happened_in_a_month_never_expires(said: str) -> None:
    assert all(f.expires_at is None for f in RuleBasedFactExtractor().extract([("user", said)]))


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        # what follows from it is no part of the fact
        ("Margaret is coeliac, so restaurants can be tricky.", "User's wife Margaret is coeliac."),
        ("Arjun has a peanut allergy.", "User's son Arjun has a peanut allergy."),
    ],
)
def test_a_care_fact_of_someone_the_memory_names_is_kept_as_theirs_and_not_core(said: str, fact: str) -> None:
    stored = [Stored("w", "User's wife Margaret is a retired teacher."), Stored("s", "User's son Arjun is 5.")]
    assert [(f.text, f.core, f.supersedes) for f in RuleBasedFactExtractor().extract([("user", said)], stored)] == [
        (fact, False, ())]  # core is the user's own
    assert RuleBasedFactExtractor().extract([("user", "Paris is lovely.")], stored) == []


def test_a_new_age_still_replaces_a_stored_age_alone() -> None:
    facts = RuleBasedFactExtractor().extract([("user", "My son Arjun is 5 now.")],
                                             [Stored("old", "User's son Arjun is 4.")])
    assert [f.supersedes for f in facts] == [("old",)]


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I started running again.", "User does yoga on Sundays."),  # another activity
        ("Our cat Luna died.", "User has a cat called Miso."),  # another cat
        ("I adopted a second dog.", "User has a dog named Rex."),  # pets add up
        ("My phone died this morning.", "User uses an iPhone."),  # a flat battery is no loss
        ("My sister quit her job.", "User works as a nurse."),  # someone else's job
        ("I eat lunch at my desk now.", "User is vegetarian."),  # a meal is not a diet
        ("I work out three times a week now.", "User works as a nurse."),  # a workout is not a job
    ],
)
def test_a_change_of_another_thing_or_person_leaves_the_stored_fact(said: str, kept: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", kept)])
    assert facts and all(f.supersedes == () for f in facts), (said, facts)


def test_every_name_the_extraction_package_exports_is_importable() -> None:
    import memori_core.extraction as extraction

    assert [n for n in extraction.__all__ if not hasattr(extraction, n)] == []  # `import *` would fail


# -- issue 21, round 3 (sentences written apart from the capture sets) ---------------------------


def test_a_move_told_with_the_partner_still_replaces_the_home() -> None:
    assert replaces("My wife and I moved to Berlin.", "User lives in Hamburg.")


def test_a_change_of_someone_the_stored_facts_name_is_the_users_and_replaces_their_fact() -> None:
    stored = [Stored("dog", "User has a dog called Max."), Stored("ana", "User's girlfriend Ana lives with them."),
              Stored("bella", "User's sister has a cat called Bella.")]
    [max_] = RULES.extract(said_on("Max passed away last week."), stored)
    assert max_.text == "User's dog Max passed away in the week of Monday 2026-07-27." and max_.supersedes == ("dog",)
    [moved] = RULES.extract([("user", "Sadly, Ana moved out.")], stored)
    assert moved.text == "User's girlfriend Ana moved out." and moved.supersedes == ("ana",)
    assert RULES.extract([("user", "Ana came over for dinner.")], stored) == []  # no change: not read
    assert RULES.extract([("user", "Bella died.")], stored) == []  # the sister's cat, not the user's
    assert RULES.extract([("user", "Max passed away last week.")]) == []  # nobody named Max is known
    [tom] = RULES.extract([("user", "Tom passed away in March.")], [Stored("tom", "User is married to Tom.")])
    assert tom.text == "User's partner Tom passed away in March." and tom.supersedes == ("tom",)


def test_an_appointment_at_a_time_today_expires_and_a_weekly_one_does_not() -> None:
    [dentist] = RULES.extract([("user", "I've got a dentist appointment at 4.")])
    assert dentist.expires_at is not None and dentist.text == f"User has got a dentist appointment at 4 on {_day()}."
    [weekly] = RULES.extract([("user", "I have a piano lesson at 5pm every Tuesday.")])
    assert weekly.expires_at is None
    assert facts_of("I get migraines.") == ["User gets migraines."]  # a condition, not a passing ailment


def test_a_sentence_kept_as_said_does_not_replace_the_clean_fact_it_repeats() -> None:
    stored = [Stored("old", "User is allergic to cats.")]
    facts = RULES.extract([("user", "Cats make me sneeze, I'm allergic.")], stored)
    assert [f.supersedes for f in facts] == [()]


def test_a_named_partner_who_ended_it_is_the_users_partner() -> None:
    [fact] = RULES.extract(said_on("Sam dumped me last week."), [Stored("sam", "User's boyfriend is called Sam.")])
    assert fact.text == "User and Sam broke up in the week of Monday 2026-07-27."
    assert fact.supersedes == ("sam",)


@pytest.mark.parametrize(
    ("said", "stored"),
    [
        ("I'm considering going vegan.", "User is vegetarian."),
        ("I'm thinking of switching to decaf.", "User drinks three espressos a day."),
        ("I might move to Canada.", "User lives in Leeds."),
    ],
)
def test_a_change_only_thought_of_is_neither_stored_nor_a_change(said: str, stored: str) -> None:
    assert RuleBasedFactExtractor().extract([("user", said)], [Stored("old", stored)]) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I quit smoking.", "User quit smoking."),
        ("I'll keep pursuing my passion for pottery.", "User will keep pursuing their passion for pottery."),
        # said at SAID_AT: "last week" is the week it names
        ("Last week I got this great job at a gear company.",
         "In the week of Monday 2026-07-27 User got this great job at a gear company."),
        ("I stay motivated by tracking my progress.", "User stays motivated by tracking their progress."),
        ("I named it Pickle.", "User named it Pickle."),
    ],
)
def test_a_resolve_or_pointer_word_in_a_real_statement_keeps_it(said: str, fact: str) -> None:
    assert facts_said(said) == [fact]


def test_an_interjection_before_our_does_not_keep_a_second_clause_unsplit() -> None:
    assert facts_of("ugh our landlord is selling the flat so we have to move out") == [
        "User's landlord is selling the flat.", "User has to move out.",
    ]


def test_a_habit_told_with_a_moment_verb_is_still_a_fact() -> None:
    assert facts_of("I'm eating less meat these days.") == ["User is eating less meat these days."]
    today = datetime.now(timezone.utc).date()
    assert facts_of("I'm getting ready for a half marathon in May.") == [
        f"User is getting ready for a half marathon in May {today.year + (today.month > 5)}.",
    ]


@pytest.mark.parametrize(
    ("compound", "said", "kept"),
    [
        # one fact per animal: the death of one ends its own fact only
        ("i have a cat named Mochi and a dog named Rex", "Mochi died yesterday", ["User has a dog named Rex."]),
        ("I have a dog called Max and a cat called Luna", "Max passed away", ["User has a cat called Luna."]),
    ],
)
def test_a_change_of_one_part_of_a_compound_sentence_leaves_the_other_part(
    compound: str, said: str, kept: list[str]
) -> None:
    stored = [Stored(str(i), f.text) for i, f in enumerate(RULES.extract([("user", compound)]))]
    replaced = {fid for f in RULES.extract([("user", said)], stored) for fid in f.supersedes}
    assert replaced and [s.content for s in stored if s.id not in replaced] == kept


def test_a_change_or_repeat_of_someone_else_neither_ends_nor_stands_for_the_users_fact() -> None:
    assert not replaces("My sister doesn't eat meat anymore.", "User eats meat.")
    assert not replaces("My husband doesn't play tennis anymore.", "User plays tennis on Sundays.")
    assert replaces("I don't play tennis anymore.", "User plays tennis on Sundays.")
    [mine] = RULES.extract([("user", "I'm vegetarian.")], [Stored("s", "User's sister is vegetarian.")])
    assert mine.text == "User is vegetarian."  # not skipped as already stored: the sister's is another fact


# -- issue 21, round 4 (sentences written apart from the capture sets) ---------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Since the move I've been sleeping much better.",  # no slot of the user's life
        "I think I finally get it now.",  # hedged, about nothing known
        "Being a chef, I see a lot of burns.",  # the job is the opener; what is said is in no slot
        "After the wedding I moved to a small village near the coast with my two dogs and a cat.",  # long
    ],
)
def test_a_sentence_that_would_be_kept_as_said_is_dropped_when_long_or_unplaceable(said: str) -> None:
    verdict = RULES.judge(said)
    assert verdict.fact is None and verdict.reason == extraction.DROP_UNCLEAR


@pytest.mark.parametrize(
    ("said", "fact"),
    [("Since the divorce I rent a room in Leeds.", "Since the divorce User rents a room in Leeds."),
     ("I think I'm allergic to penicillin.", "User thinks they're allergic to penicillin.")],
)
def test_a_short_sentence_of_a_known_slot_or_a_care_fact_is_still_kept_as_said(said: str, fact: str) -> None:
    verdict = RULES.judge(said)
    assert verdict.reason == extraction.KEPT_AS_SAID and verdict.fact == fact


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("My physio recommended it.", []),  # someone else's word on what was just said
        ("We share her flat in Soho.", []),  # whose flat?
        ("We met at a salsa class.", []),  # met whom?
        ("I live with my boyfriend and his cat.", ["User lives with their boyfriend and his cat."]),
        ("My sister lives with her husband in Oslo.", ["User's sister lives with her husband in Oslo."]),
        ("Jo and I share her flat in Soho.", ["User and Jo share her flat in Soho."]),
    ],
)
def test_a_fact_that_points_to_no_one_named_is_not_stored(said: str, facts: list[str]) -> None:
    assert facts_of(said) == facts
    if not facts:
        assert RULES.judge(said).reason == extraction.DROP_UNRESOLVED


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I'm officially a homeowner!", ["User is a homeowner."]),
        ("I finally passed my driving test.", ["User passed their driving test."]),
        ("Tonight I'm cooking for friends.", []),  # the moment is in the opener
        ("This morning we're painting the fence.", []),
        ("Since last year I've lived in Porto.", ["Since 2025 User has lived in Porto."]),  # said at SAID_AT
    ],
)
def test_words_of_emphasis_are_left_out_and_a_fronted_moment_is_a_moment(said: str, facts: list[str]) -> None:
    assert facts_said(said) == facts


def test_an_ending_that_the_new_fact_replaces_too_is_not_stored_but_still_ends_the_stored_fact() -> None:
    [fact] = RULES.extract(said_on("I handed in my notice and I start at a design studio on Monday."),
                           [Stored("old", "User works at a bank.")])
    assert fact.text == "User starts at a design studio on Monday 2026-08-10." and fact.supersedes == ("old",)


# -- issue 21, after round 4 (sentences written apart from the capture sets) -----------------------------------


@pytest.mark.parametrize(
    ("said", "stored", "replaced"),
    [
        # a thing's end told as what happened to it, of a thing the user has
        ("the vespa's been written off, some guy ran a red light", "User rides a Vespa to work.", True),
        ("ugh my laptop got stolen on the train", "User's laptop is a ThinkPad.", True),
        ("my neighbour's van got stolen", "User drives a Transit van.", False),  # someone else's
        # a pet's death told by its name, the pet named by its breed
        ("Biscuit crossed the rainbow bridge this morning", "User has an old spaniel named Biscuit.", True),
        ("we had to put Biscuit to sleep yesterday", "User has a cat called Biscuit.", True),
        ("Biscuit crossed the rainbow bridge this morning", "User's sister has a spaniel named Biscuit.", False),
    ],
)
def test_stolen_or_written_off_things_and_euphemisms_for_a_pets_death_end_the_stored_fact(
    said: str, stored: str, replaced: bool
) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", stored)])
    assert any(f.supersedes == ("old",) for f in facts) is replaced, (said, facts)


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # a dated event the user took part in is history: kept in their words (said of the user), up to twenty
        ("On Saturday, we volunteered at the food bank on Carlton Road with the kids.",
         ["On Saturday 2026-08-01, User volunteered at the food bank on Carlton Road with the kids."]),
        ("Two weeks ago I finished my first half marathon in Bath, slow but happy.",  # said at SAID_AT
         ["In the week of Monday 2026-07-20 User finished their first half marathon in Bath, slow but happy."]),
        # undated, or not something the user did: still not kept as said
        ("I think about the food bank a lot, it really matters to our neighbourhood.", []),
        ("Last Saturday the weather at the food bank fundraiser was awful for everyone.", []),
    ],
)
def test_a_dated_event_the_user_took_part_in_is_kept_as_said(said: str, facts: list[str]) -> None:
    assert facts_said(said) == facts


def test_a_move_rewritten_as_a_home_still_replaces_the_old_home() -> None:
    [porto] = RuleBasedFactExtractor().extract([("user", "I moved to Porto last month.")],
                                               [Stored("lisbon", "User lives in Lisbon."),
                                                Stored("sister", "User's sister lives in Dublin.")])
    assert porto == ExtractedFact("User lives in Porto.", ("lisbon",))


def test_a_birthday_replaces_the_stored_age_of_the_same_person() -> None:
    stored = [Stored("me", "User is 30."), Stored("son", "User's son is 5.")]
    assert RuleBasedFactExtractor().extract([("user", "I just turned 31.")], stored) == [
        ExtractedFact("User is 31.", ("me",))]
    assert RuleBasedFactExtractor().extract([("user", "My son turned 6 yesterday.")], stored) == [
        ExtractedFact("User's son is 6.", ("son",))]


@pytest.mark.parametrize(
    "said, facts",
    [
        ("I only read science fiction novels.", ["User only reads science fiction novels."]),
        ("I read the news every morning.", ["User reads the news every morning."]),
        # dated: the past tense, the week counted from SAID_AT
        ("I read a great book last week.", ["User read a great book in the week of Monday 2026-07-27."]),
        ("I hardly ever drink.", ["User hardly ever drinks."]),
        # emphasis is no part of the fact; what the user lives on is how much of it they have (.staples)
        ("I basically live on coffee.", ["User drinks a lot of coffee."]),
        ("I literally run every day.", ["User runs every day."]),
    ],
)
def test_reading_habits_and_emphatic_adverbs_are_rewritten(said: str, facts: list[str]) -> None:
    assert facts_said(said) == facts


@pytest.mark.parametrize(
    "said, expires",
    [
        ("My friends are going to a craft beer bar on Friday.", True),  # someone's plan, soon over
        ("My sister is visiting on Saturday.", True),
        ("My parents are coming to stay next week.", True),
        ("My sister is a nurse.", False),  # no plan
        ("My kids are going to a new school this year.", False),  # not soon
    ],
)
def test_someone_elses_plan_for_the_coming_days_expires(said: str, expires: bool) -> None:
    [fact] = RuleBasedFactExtractor().extract([("user", said)])
    assert (fact.expires_at is not None) is expires


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("My daughter Chloe is 16 and she just went vegan.",
         ["User's daughter Chloe is 16.", "User's daughter Chloe recently went vegan."]),
        ("My son Arjun is 4 and he's allergic to peanuts.",
         ["User's son Arjun is 4.", "User's son Arjun is allergic to peanuts."]),
        ("My mom lives with us now; she uses a wheelchair.", ["User's mom uses a wheelchair."]),
        ("I have asthma and use a blue inhaler.", ["User has asthma.", "User uses a blue inhaler."]),
        ("Tom, my husband, has type 1 diabetes.", ["User's husband Tom has type 1 diabetes."]),
    ],
)
def test_a_compound_sentence_becomes_one_user_fact_per_clause(said: str, facts: list[str]) -> None:
    got = [f.text for f in RuleBasedFactExtractor().extract([("user", said)])]
    assert all(f in got for f in facts), got
    assert not any(f.startswith(("I ", "My ", "Tom,")) and "she" in f for f in got), got


def test_a_new_age_of_a_child_ends_the_age_split_from_a_compound_sentence_and_keeps_the_rest() -> None:
    first = RuleBasedFactExtractor().extract([("user", "My daughter Chloe is 16 and she just went vegan.")])
    stored = [Stored(f"f{i}", f.text) for i, f in enumerate(first)]
    later = RuleBasedFactExtractor().extract([("user", "Chloe turned 17 last Friday.")], stored)
    ended = {i for f in later for i in f.supersedes}
    age = next(s.id for s in stored if s.content == "User's daughter Chloe is 16.")
    assert ended == {age}, (stored, later)


@pytest.mark.parametrize("said", ["I got a full-time in-office job at Shopify, so no more remote work.",
                                  "I accepted a permanent position at the council."])
def test_a_job_got_ends_the_stored_job(said: str) -> None:
    facts = RuleBasedFactExtractor().extract(
        [("user", said)], [Stored("old", "User works remotely as a UX designer for a Berlin startup.")])
    assert [f.supersedes for f in facts][:1] == [("old",)], facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I'm alergic to peanuts", [("User is allergic to peanuts.", True)]),
        ("allergic to penuts", [("User is allergic to peanuts.", True)]),
        ("i'm lactose intolerent lol", [("User is lactose intolerant.", True)]),
        ("I have a peanut alergy.", [("User has a peanut allergy.", True)]),
        ("im vegitarian", [("User is vegetarian.", True)]),
        ("Im alergic to shelfish and i dont eat pork",
         [("User is allergic to shellfish.", True), ("User doesn't eat pork.", True)]),
        ("I train my glutes twice a week.", [("User trains their glutes twice a week.", False)]),  # a real word
    ],
)
def test_a_care_word_typed_one_letter_off_and_a_lost_apostrophe_still_give_the_core_fact(
    said: str, facts: list[tuple[str, bool]]
) -> None:
    assert [(f.text, f.core) for f in RULES.extract([("user", said)])] == facts


def test_a_denial_typed_without_its_apostrophe_ends_the_stored_fact_and_is_rewritten() -> None:
    facts = RuleBasedFactExtractor().extract([("user", "Lol no I dont live in London, I live in Leeds")],
                                             [Stored("old", "User lives in London.")])
    assert [(f.text, f.supersedes) for f in facts] == [
        ("User doesn't live in London.", ("old",)), ("User lives in Leeds.", ()),
    ]


def test_plans_of_the_user_and_someone_else_for_the_coming_days_are_still_no_fact() -> None:
    assert facts_of("Ana and I are getting married on Saturday.") == []
    assert facts_of("Ana and I had dinner on Friday.") == []  # a passing event, no change


@pytest.mark.parametrize(
    "said", ["I sold my Golf and bought a Tesla", "sold the golf, got a tesla model 3", "Got a Tesla last week!"]
)
def test_a_car_swap_keeps_the_new_car_and_ends_the_old_one(said: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", "User drives a Golf.")])
    assert [f.supersedes for f in facts] == [("old",)] and "tesla" in facts[0].text.lower(), facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I went to the shop and bought milk.", ["User went to the shop and bought milk."]),  # no news: one fact
        ("got my car back from the garage", []),  # the same car
        ("I play golf at the golf club every Sunday.", ["User plays golf at the golf club every Sunday."]),
    ],
)
def test_shopping_a_car_back_from_the_garage_and_the_game_of_golf_end_no_car(said: str, facts: list[str]) -> None:
    got = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", "User drives a Golf.")])
    assert [f.text for f in got] == facts and not any(f.supersedes for f in got)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("We moved last week, boxes everywhere", "User moved to a new home."),  # where: not said
        ("I moved house.", "User moved to a new home."),
        ("ok we moved to Porto last weekend, boxes everywhere", "User lives in Porto."),
    ],
)
def test_a_move_ends_the_old_home_and_is_kept_as_the_new_one_without_how_it_went(said: str, fact: str) -> None:
    facts = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", "User lives in Lisbon.")])
    assert [(f.text, f.supersedes) for f in facts] == [(fact, ("old",))]


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I quit smoking, cold turkey.", ["User quit smoking."]),
        ("I switched to oat milk, way better", ["User switched to oat milk."]),
        ("I live in Leeds, west yorkshire", ["User lives in Leeds, west yorkshire."]),  # no change: all of it
        ("I got a new job, nursing assistant.", ["User got a new job, nursing assistant."]),  # a job: kept
        ("Our team moved last month.", ["User's team moved in July 2026."]),  # no home of the user's; SAID_AT
        ("I moved on.", ["User moved on."]),
    ],
)
def test_a_few_words_without_a_verb_after_a_change_are_left_out_unless_they_say_what_changed(
    said: str, facts: list[str]
) -> None:
    assert facts_said(said) == facts


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("I got promoted", [("User got promoted.", ())]),  # a change within the job: the employer stays
        ("Got promoted today!", [("User got promoted on {today}.", ())]),  # the day read at run time
        ("I got a promotion!", [("User got a promotion.", ())]),
        ("I got promoted to senior engineer!", [("User works at Google as a senior engineer.", ("old",))]),
    ],
)
def test_a_promotion_keeps_the_employer_and_a_new_role_is_held_there(
    said: str, facts: list[tuple[str, tuple[str, ...]]]
) -> None:
    got = RuleBasedFactExtractor().extract([("user", said)], [Stored("old", "User works at Google as an engineer.")])
    assert [(f.text, f.supersedes) for f in got] == [(text.format(today=_day()), ids) for text, ids in facts]


def test_a_promotion_that_names_the_employer_again_keeps_it_once_without_its_period() -> None:
    got = RuleBasedFactExtractor().extract([("user", "I was promoted to engineering manager at Spotify.")],
                                           [Stored("old", "User is a software engineer at Spotify.")])
    assert [(f.text, f.supersedes) for f in got] == [("User works at Spotify as an engineering manager.", ("old",))]


def test_a_promotion_to_a_role_ends_a_stored_role_that_names_no_employer() -> None:
    got = RuleBasedFactExtractor().extract([("user", "I got promoted to ward manager")],
                                           [Stored("old", "User works as a nurse.")])
    assert [(f.text, f.supersedes) for f in got] == [("User got promoted to ward manager.", ("old",))]


def test_a_move_or_a_job_start_to_come_expires_and_ends_nothing_yet() -> None:
    stored = [Stored("home", "User lives in Leeds."), Stored("job", "User works at Amazon.")]
    for said, days in [("we're moving to Berlin next month", 62), ("I'm starting a new job next week", 15)]:
        facts = RuleBasedFactExtractor().extract([("user", said)], stored)
        [fact] = [f for f in facts if f.valid_from is None]  # the plan, true now
        assert fact.supersedes == () and fact.expires_at is not None, said
        assert fact.expires_at <= datetime.now(timezone.utc) + timedelta(days=days), said
        # what the move brings ends the stored home only from its start (issue 21, changes told ahead)
        assert all(f.valid_from > datetime.now(timezone.utc) for f in facts if f.valid_from is not None), said


def test_a_plan_for_next_year_expires_when_next_year_ends() -> None:
    [fact] = RuleBasedFactExtractor().extract([("user", "We're moving to Canada next year.")])
    assert fact.expires_at is not None
    last = (fact.expires_at + timedelta(seconds=30) - timedelta(days=1)).astimezone(timezone.utc)
    assert (last.year, last.month, last.day) == (datetime.now(timezone.utc).year + 1, 12, 31)


@pytest.mark.parametrize(("stored", "replaced"), [("User is engaged to Sam.", False), ("User is dating Sam.", True),
                                                  ("User is single.", True)])
def test_a_wedding_to_come_is_an_engagement_it_leaves_an_engagement_and_ends_an_earlier_stage(
    stored: str, replaced: bool
) -> None:
    [fact] = RuleBasedFactExtractor().extract([("user", "I'm getting married!")], [Stored("old", stored)])
    assert (fact.supersedes == ("old",)) is replaced


def test_the_user_and_a_pronoun_is_not_read_as_someone_named() -> None:
    assert not any("Him" in fact for fact in facts_of("me and him broke up"))


def test_a_new_job_keeps_where_it_is_and_a_month_is_when() -> None:
    stored = [Stored("job", "User works as a nurse at Leeds General.")]
    got = RuleBasedFactExtractor().extract([("user", "I've just started a new job at a GP surgery in Harrogate.")],
                                           stored)
    assert [f.text for f in got] == ["User works at a GP surgery in Harrogate."]
    got = RuleBasedFactExtractor().extract([("user", "I started a new job at Meta in March.")], stored)
    assert [f.text for f in got] == ["User works at Meta."]
