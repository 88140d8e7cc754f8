"""Memory tools and the write path, leftovers of issues 20 and 21 (helper toolfix40), each checked through the
surface a model uses over a real in-memory Chroma store:

1. The tools' query rewrite read every "the user" as the memory's user: "where does the user get redirected after
   login" (an app's user) became "where do I get redirected after login".
2. A greeting ("good morning") was rewritten as a question about the user ("my good morning?") and recalled facts.
3. Whether a query is a courtesy turn was read with the default analyzer, not the engine's.
4. "User lives in a houseboat." was ended by "User moved to Lisbon.": a home that travels with the user is not a
   place (a flat, a house or a room stays where it is and is left by a move; a sale of the boat ends it).
5. After a restore, forgetting the fact that had replaced the restored one left the restored fact's kept period
   named as superseded (by the fact itself, once the one that ended it was gone).
"""

from __future__ import annotations

import anyio
import pytest

from _helpers import tools_told, ungated_engine
from memori_core import ChromaStore, RecallConfig, RecallEngine, StoredFact
from memori_core.memory_tools import NOTHING_RELEVANT, MemoryTools
from memori_core.tool_queries import as_the_user_asks, is_courtesy_turn, names_a_products_user


# -- 4. a kind of home is not a place ----------------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "ends"), [
    # a home that travels and a place do not end each other
    pytest.param("User lives in a houseboat.", "User moved to Lisbon.", False, id="a-houseboat-and-a-move"),
    pytest.param("User lives on a narrowboat.", "User moved to Bristol.", False, id="a-narrowboat-and-a-move"),
    pytest.param("User lives in Lisbon.", "User lives in a houseboat.", False, id="a-place-and-a-houseboat"),
    pytest.param("User lives in a camper van.", "User moved to Lyon.", False, id="a-camper-van-and-a-move"),
    # a kind still ends a kind, a place a place, and a move a home that stays
    pytest.param("User lives in a houseboat.", "User moved into a flat.", True, id="a-flat-ends-a-houseboat"),
    pytest.param("User lives in a houseboat.", "User moved to a flat in Porto.", True,
                 id="a-flat-in-a-place-ends-a-houseboat"),
    pytest.param("User lives in a houseboat in Lisbon.", "User moved to Porto.", True,
                 id="a-move-ends-a-houseboat-in-a-place"),
    pytest.param("User lives in Lisbon.", "User lives in Porto.", True, id="a-place-ends-a-place"),
    pytest.param("User lives in a studio apartment.", "User relocated to Berlin.", True,
                 id="a-move-ends-a-studio-apartment"),
    pytest.param("User rents a flat.", "User moved to Leeds.", True, id="a-move-ends-a-rented-flat"),
    pytest.param("User lives on a narrowboat.", "User sold the boat.", True, id="selling-ends-a-narrowboat"),
])
def test_a_home_that_travels_and_a_place_stand_together_and_a_kind_a_place_or_a_move_ends_a_home_that_stays(
        hash_embedder, old: str, new: str, ends: bool) -> None:
    tools, said = tools_told(hash_embedder, old, new)
    assert ("replaces" in said) is ends
    assert sorted(f.content for f in tools.engine.list("u")) == sorted([new] if ends else [old, new])


# -- 1-3. the tools' query rewrite ------------------------------------------------------------------------------

_FACTS = ["User lives in Lisbon.", "User is vegetarian.", "User works as a nurse.", "User has a dog called Bo.",
          "User's morning routine starts with a run."]


def _tools(hash_embedder, **config: object) -> MemoryTools:
    """Memory tools over a gated engine (``RecallConfig(**config)``) holding :data:`_FACTS`."""
    tools = MemoryTools(RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder,
                                     config=RecallConfig(**config)))
    for text in _FACTS:
        tools.remember("u", text)
    return tools


@pytest.mark.parametrize("query", ["where does the user get redirected after login",
                                   "what happens when the user clicks submit"])
def test_a_products_user_is_not_read_as_the_memorys_user(query: str) -> None:
    assert names_a_products_user(query)
    assert as_the_user_asks(query) == query


@pytest.mark.parametrize(("query", "read"), [("what does the user eat", "what do I eat?"),
                                             ("where does the user live", "where do I live?")])
def test_a_stored_kind_of_fact_asked_of_the_user_is_the_memorys_user(query: str, read: str) -> None:
    assert not names_a_products_user(query)
    assert as_the_user_asks(query) == read


# review rev40b: any word after "does the user" outside the user's own verbs, adverbs included, read "the user" as
# a product's user, and these memory questions went to recall as written.
_REVIEWED = [("where does the user currently live", "where do I currently live"),
             ("what does the user usually eat for breakfast", "what do I usually eat for breakfast"),
             ("does the user still smoke", "do I still smoke?"),
             ("does the user also play tennis", "do I also play tennis"),
             ("does the user follow a diet", "do I follow a diet"),
             ("what time does the user wake up", "what time do I wake up"),
             ("what does the user think about cats", "what do I think about cats")]


# review rev40d finding 3: a person or a thing of the user's after "the user" makes it a modifier ("my"), after an
# auxiliary or a conjunction too.
@pytest.mark.parametrize(("query", "read"), [
    ("did the user mom visit", "did my mom visit?"),
    ("can the user kids swim", "can my kids swim?"),
    ("if the user dog gets sick", "if my dog gets sick"),
    ("after the user surgery", "after my surgery?"),
    ("once the user baby arrives", "once my baby arrives?"),
    ("did the user move", "did I move?"),
    ("when the user visits Paris", "when I visit Paris"),
])
def test_a_person_or_thing_after_the_user_is_the_users_after_an_auxiliary_or_a_conjunction(query: str,
                                                                                         read: str) -> None:
    assert as_the_user_asks(query) == read


@pytest.mark.parametrize(("query", "read"), _REVIEWED)
def test_an_adverb_or_any_everyday_verb_after_the_user_is_the_memorys_user(query: str, read: str) -> None:
    assert not names_a_products_user(query)
    assert as_the_user_asks(query) == read


@pytest.mark.parametrize("query", ["can the user reset the password", "when the user signs up what email is sent",
                                   "what happens if the user enters a wrong password",
                                   "does the user see an error after submitting",
                                   "what does the user see on the settings page"])
def test_an_app_action_or_an_app_thing_names_a_products_user(query: str) -> None:
    assert names_a_products_user(query)
    assert as_the_user_asks(query) == query


@pytest.mark.model
@pytest.mark.parametrize(("query", "fact"), [("where does the user currently live", "User lives in Leeds."),
                                             ("does the user still smoke", "User quit smoking in 2021."),
                                             ("does the user also play tennis", "User plays tennis on Sundays.")])
def test_the_tools_recall_for_the_memorys_user_leaves_out_facts_matched_by_user_alone(minilm, query: str,
                                                                                       fact: str) -> None:
    # As written ("where does the user currently live"), recall also gave the job, the diet and the alarm: every
    # fact says "User".
    facts = ["User lives in Leeds.", "User quit smoking in 2021.", "User plays tennis on Sundays.",
             "User works as a nurse.", "User is vegetarian.", "User wakes up at 5:30 for work."]
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", facts)
    answer = MemoryTools(engine).recall("u", query)
    assert [f for f in facts if f in answer] == [fact]


@pytest.mark.parametrize("query", ["good morning", "Good morning!", "good afternoon all", "have a nice day"])
def test_a_greeting_recalls_nothing_through_the_tools(hash_embedder, query: str) -> None:
    tools = _tools(hash_embedder)
    assert as_the_user_asks(query) == query
    assert tools.recall("u", query) == NOTHING_RELEVANT


@pytest.mark.parametrize("query", ["Morning or evening?", "what day is it", "good morning routine ideas"])
def test_a_greeting_word_that_asks_something_is_no_courtesy(query: str) -> None:
    assert not is_courtesy_turn(query)


def test_a_courtesy_turn_is_read_with_the_engines_analyzer(hash_embedder) -> None:
    # "muchas" is "much" to a Spanish stemmer: the engine reads "muchas gracias" as thanks, and so must the tools
    tools = _tools(hash_embedder, stemmer="spanish")
    assert is_courtesy_turn("muchas gracias", stemmer="spanish")
    assert tools.engine.recall("muchas gracias", "u") == []
    assert tools.recall("u", "muchas gracias") == NOTHING_RELEVANT


def test_mcp_recall_reads_a_courtesy_turn_with_the_engines_analyzer(hash_embedder) -> None:
    pytest.importorskip("mcp")
    from mcp.shared.memory import create_connected_server_and_client_session

    from memori_core.mcp_server import build_server

    engine = _tools(hash_embedder, stemmer="spanish").engine

    async def run() -> str:
        async with create_connected_server_and_client_session(build_server(engine, entity="u")) as session:
            result = await session.call_tool("recall", {"query": "muchas gracias"})
            assert not result.isError
            return result.content[0].text

    assert '"facts": []' in anyio.run(run)


# -- 5. the history of a restored fact once the fact that replaced it is forgotten --------------------------------

def _porto_replaced_by_lisbon(hash_embedder) -> tuple[MemoryTools, StoredFact, str]:
    """Tools told "User lives in Porto." then "User lives in Lisbon.": the Lisbon fact and the ended Porto one's id."""
    tools, _ = tools_told(hash_embedder, "User lives in Porto.", "User lives in Lisbon.")
    [lisbon] = tools.engine.list("u")
    porto = next(f.id for f in tools.engine.history("u", lisbon.id) if f.content == "User lives in Porto.")
    return tools, lisbon, porto


def _porto_restored_then_lisbon_forgotten(hash_embedder) -> tuple[MemoryTools, str]:
    tools, lisbon, porto = _porto_replaced_by_lisbon(hash_embedder)
    assert "Restored" in tools.restore("u", porto)
    assert tools.forget("u", lisbon.id).startswith(f"Forgot fact {lisbon.id}")
    return tools, porto


def test_a_restored_facts_kept_period_names_no_forgotten_successor(hash_embedder) -> None:
    tools, porto = _porto_restored_then_lisbon_forgotten(hash_embedder)
    history = tools.engine.history("u", porto)
    stored = {f.id for f in tools.engine.history("u", porto)}
    assert [f.content for f in history] == ["User lives in Porto."] * 2
    period, now = history
    assert period.valid_to is not None and period.superseded_by is None  # ended, by no fact that exists
    assert now.id == porto and now.valid_to is None and now.restored_at is not None  # valid again
    assert all(f.superseded_by is None or f.superseded_by in stored for f in history)


def test_the_history_keeps_naming_a_successor_that_exists(hash_embedder) -> None:
    tools, lisbon, porto = _porto_replaced_by_lisbon(hash_embedder)
    tools.restore("u", porto)
    period = tools.engine.history("u", porto)[0]
    assert period.superseded_by == lisbon.id


def test_a_fact_superseded_by_a_deleted_one_names_no_successor(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    [porto] = engine.add("u", ["User lives in Porto."])
    [lisbon] = engine.add("u", ["User lives in Lisbon."], supersedes=[porto])
    engine.delete("u", [lisbon])
    [old] = engine.history("u", porto)
    assert old.valid_to is not None and old.superseded_by is None


def test_an_updates_old_text_stays_superseded_by_its_fact(hash_embedder) -> None:
    engine = ungated_engine(hash_embedder)
    [fid] = engine.add("u", ["User lives in Porto."])
    engine.update("u", fid, text="User lives in Porto with Sam.")
    old, now = engine.history("u", fid)
    assert old.content == "User lives in Porto." and old.superseded_by == fid
    assert now.content == "User lives in Porto with Sam."
