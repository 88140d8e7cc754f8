"""Someone else's words quoted in a user turn are not the user's facts: a line quoted with ">" (markdown, an e-mail
reply), first-person words in quotation marks, the lines after "My sister texted me:". Stored, "User is pregnant."
would be core and shown on every later turn (tester j4, finding 20). The rule extractor, and real capture into an
embedded Chroma store."""

from __future__ import annotations

import pytest

from memori_core import RecallEngine, RuleBasedFactExtractor
from memori_core.extraction import DROP_QUOTED
from memori_core.extraction.pasted import split_quoted
from tests._capture import capture_turns, core_texts, valid_texts


def _facts(said: str) -> list[str]:
    return [f.text for f in RuleBasedFactExtractor().extract([("user", said)])]


@pytest.mark.parametrize(
    "said",
    [
        "> I'm pregnant and live in Rome\nWhat does this quote from my sister mean for our trip?",
        "Bob wrote:\n> I'm allergic to cats and I take insulin.\nHow should I answer him?",
        ">> I take insulin twice a day\n> ok noted\nWhat does he mean?",
        "  > I moved to Madrid last week.\nIs that far from Lisbon?",
        "On Mon, 3 Jun 2024, Ana <ana@example.com> wrote:\n> I'm vegan now and I live in Oslo.\n\nWhat should I reply?",
    ],
)
def test_a_line_quoted_with_a_greater_than_sign_is_not_the_users(said: str) -> None:
    assert _facts(said) == []
    assert any(v.reason == DROP_QUOTED for v in RuleBasedFactExtractor().explain(said))


@pytest.mark.parametrize(
    "said",
    [
        "\"I'm pregnant\" - that's what my sister texted me. What should I get her?",
        "She wrote: 'I take insulin twice a day'",
        "\u201cI take insulin twice a day,\u201d she told me.",
        "She said \"I'm allergic to cats\" and left.",
        "Got a message saying \u2018I\u2019m moving to Berlin\u2019 from Ana.",
        "She wrote: \"I take insulin. I live in Rome.\"",
        "My sister texted me:\nI'm pregnant!\nWhat should I get her?",
        "Mum messaged:\nWe moved to Porto last week.",
    ],
)
def test_first_person_words_in_quotation_marks_or_after_a_relayed_colon_are_not_the_users(said: str) -> None:
    assert _facts(said) == []


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        # the user's own sentences around the quoted one are still read
        ("I'm vegan. My mom always says \"I'm so proud of you\". Any tips?", ["User is vegan."]),
        ("She wrote: \"I take insulin.\" I live in Leeds.", ["User lives in Leeds."]),
        ("> Are you vegan?\nI'm vegan.", ["User is vegan."]),
        # quoted words without a first person, a title, a single word: not someone's statement
        ("I work at a \"startup\" in Leeds.", ["User works at a \"startup\" in Leeds."]),
        ("My son calls me \"mama bear\". I have two kids.",
         ["User's son calls the user \"mama bear\".", "User has two kids."]),
        ("I'm a vegan and my kids' school is in Leeds.", ["User is a vegan.", "User's kids' school is in Leeds."]),
        ("My parents' house is in Leeds.", ["User's parents' house is in Leeds."]),
        # an arrow or a sign inside a line is no quote
        ("-> I live in Leeds now", ["User lives in Leeds."]),
        # what a clinician told the user is the user's, with a colon too
        ("My doctor said:\nI have type 2 diabetes.", ["User has type 2 diabetes."]),
        ("My doctor said: I have type 2 diabetes.", ["User has type 2 diabetes."]),
    ],
)
def test_the_users_own_words_beside_a_quote_and_words_quoted_without_a_first_person_are_read(
    said: str, facts: list[str]
) -> None:
    assert _facts(said) == facts


def test_a_quoted_title_is_not_someones_words() -> None:
    text, quoted = split_quoted('My favourite song is "I Will Survive". I love "Me Before You".')
    assert quoted == []
    assert text == 'My favourite song is "I Will Survive". I love "Me Before You".'


def test_split_quoted_leaves_out_the_whole_sentence_holding_the_quote() -> None:
    text, quoted = split_quoted("I'm so happy! My sister texted \"I'm pregnant!\" today. I live in Leeds.")
    assert quoted == ["My sister texted \"I'm pregnant!\" today."]
    assert text == "I'm so happy!\nI live in Leeds."


def test_quoted_health_words_are_never_stored_as_the_users_core_facts(engine: RecallEngine) -> None:
    capture_turns(
        engine,
        "> I'm pregnant and live in Rome\nWhat does this quote from my sister mean for our trip?",
        "Bob wrote:\n> I'm allergic to cats and I take insulin.\nHow should I answer him?",
        "\"I'm pregnant\" - that's what my sister texted me. What should I get her?",
        "I'm allergic to peanuts. My friend wrote \"I'm diabetic\" in the group chat.",
    )
    assert valid_texts(engine) == ["User is allergic to peanuts."]
    assert core_texts(engine) == ["User is allergic to peanuts."]
