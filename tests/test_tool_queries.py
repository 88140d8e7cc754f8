"""Memory searches a model writes about "the user" (tester j4, finding 19): the word "user" matches no fact by
itself, and the tools read "user allergies", "user's city" or bare keywords ("hobbies", "where live") as the
user asking ("my allergies", "my city", "my hobbies"); rows of how one query is read are in the rule book
tests/rules/tool_queries.toml, run by test_rule_books.py."""

from __future__ import annotations

import pytest
from mcp.shared.memory import create_connected_server_and_client_session

from _helpers import HashEmbedder, ungated_engine
from memori_core import ChromaStore, RecallEngine
from memori_core.mcp_server import build_server
from memori_core.memory_tools import MemoryTools
from memori_core.meta_questions import asks_what_memory_holds
from memori_core.tool_queries import as_the_user_asks

FACTS = ["User is allergic to peanuts.", "User lives in Lisbon.", "User has a dog named Rex.", "User works as a nurse.",
         "User's partner is called Sam.", "User is vegetarian.", "User plays the cello."]


@pytest.mark.parametrize("query", [
    "How do I add a user in Django?",  # a question of the user's own: a question mark
    "add a user", "every user", "the admin user",  # some user, not this one (still keywords: "my ..." only)
    "Bob allergies", "weather Paris",  # a capital may name someone or somewhere
    "Where do I live?", "my allergies", "what my sister likes",  # a person already named
    "plan a week of dinners for two people with little time",  # more than a few keywords
])
def test_other_users_questions_names_and_long_queries_are_left_alone(query: str) -> None:
    if query in ("add a user", "every user", "the admin user"):
        assert as_the_user_asks(query) == "my " + query + "?"  # (still keywords: asked)
    elif query in ("my allergies", "what my sister likes"):
        assert as_the_user_asks(query) == query + "?"  # (still keywords: asked)
    else:
        assert as_the_user_asks(query) == query


def test_as_the_user_asks_refuses_a_non_string_naming_query() -> None:
    with pytest.raises(TypeError, match="query must be a str"):
        as_the_user_asks(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("query", ["user information", "user profile", "my info", "the user's personal details"])
def test_keywords_for_the_whole_user_ask_what_memory_holds(query: str) -> None:
    assert asks_what_memory_holds(as_the_user_asks(query))


def test_the_word_user_in_a_query_gives_no_fact_a_lexical_match() -> None:
    # Every fact starts with "User": the term matched them all, and normalised BM25 made it a near-perfect
    # lexical match for each (lex 0.87-1.00 for the partner, the job and the city on "user allergies").
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    engine.add("alice", FACTS)
    report = engine.explain("user allergies", "alice")
    assert report.query_tokens == ["allerg"]  # "allergies" and "allergic" are one term (the stem folds)
    assert [c.content for c in report.candidates if c.lexical > 0] == ["User is allergic to peanuts."]
    report = engine.explain("user's dog", "alice")
    assert report.query_tokens == ["dog"]
    assert [c.content for c in report.candidates if c.lexical > 0] == ["User has a dog named Rex."]


def test_the_mcp_recall_tool_searches_as_the_user_asks() -> None:
    import anyio

    async def run() -> dict:
        engine = ungated_engine()
        engine.add("ann", FACTS)
        async with create_connected_server_and_client_session(build_server(engine, entity="ann")) as s:
            result = await s.call_tool("recall", {"query": "user's dog", "explain": True})
        return result.structuredContent

    out = anyio.run(run)
    assert out["explain"]["query"] == "my dog?"
    assert out["facts"][0]["text"] == "User has a dog named Rex."


@pytest.mark.model
@pytest.mark.parametrize(("query", "wanted"), [
    ("allergies", {"User is allergic to peanuts."}),
    ("user allergies", {"User is allergic to peanuts."}),
    ("allergies of the user", {"User is allergic to peanuts."}),
    ("diet restrictions", {"User is allergic to peanuts.", "User is vegetarian."}),
    ("where live", {"User lives in Lisbon."}),
    ("user's city", {"User lives in Lisbon."}),
    ("hobbies", {"User plays the cello."}),
    ("does the user have pets", {"User has a dog named Rex."}),
    ("user job", {"User works as a nurse."}),  # j11 finding 8: the bare "my job" missed it
    ("job", {"User works as a nurse."}),
    ("where does the user work", {"User works as a nurse."}),
])
def test_recall_memory_finds_the_facts_keyword_queries_name_and_no_unrelated_ones(minilm, query, wanted) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("alice", FACTS)
    answer = MemoryTools(engine).recall("alice", query)
    found = {f for f in FACTS if f in answer}
    assert wanted <= found
    unrelated = {"User works as a nurse.", "User's partner is called Sam.", "User plays the cello.",
                 "User has a dog named Rex.", "User lives in Lisbon."} - wanted
    assert not found & unrelated, (query, found)


@pytest.mark.model
@pytest.mark.parametrize("query", ["user job", "job", "where does the user work"])
def test_a_keyword_search_for_the_job_finds_the_only_job_fact_beside_a_core_one(minilm, query) -> None:
    """j11 finding 8: "user job" was read as the bare "my job" (best cosine 0.305, gate 0.31, no slot asked), and
    the model was shown only the core "User is vegetarian.", as if no job were stored."""
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    tools = MemoryTools(engine)
    for text in ["User lives in Porto.", "User is vegetarian.", "User works as a data analyst at Feedzai."]:
        tools.remember("alice", text)
    assert "User works as a data analyst at Feedzai." in tools.recall("alice", query)
