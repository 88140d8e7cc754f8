"""A follow-up carries over the facts recall kept for the turn before it (docs/ranking.md item 59): bounded by the
rank and gate cosine it has on the follow-up, only on a turn that leans on its conversation and is read with it.

The pure parts run in the fast tier; a conversation is recalled with the real MiniLM (model tier).
"""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.carried import carried_rows
from memori_core.ranking.gate import decide, rule_names

TAXI = [
    "User has gout and takes allopurinol every day.",
    "User has a bad left knee from an old baseball injury.",
    "User likes enka music and follows the Hanshin Tigers.",
    "User sleeps from about 5 a.m. to noon.",
    "User drives a taxi in Osaka on the night shift, 6 p.m. to 4 a.m., four nights a week.",
    "User is new to smartphones and likes instructions one step at a time.",
    "User's daughter Mai is getting married in Kyoto in November.",
    "User's wife Keiko works day shifts at a supermarket bakery.",
    "User is putting aside 300,000 yen as a wedding gift for Mai.",
    "User plays shogi at a club in Tennoji on Sunday afternoons.",
    "User is 58 and plans to stop driving at 62.",
    "User plans to walk the Shikoku 88-temple pilgrimage in sections, starting next spring.",
]
GOUT = TAXI[0]
KNEE_ASKED = "my knee is swollen again, is it fine to take loxonin"
KNEE_FOLLOW_UP = "its red and hot and came on overnight, not like my usual knee"


def test_a_fact_kept_before_is_carried_only_when_it_ranks_near_with_the_cosine_floor():
    cos = np.array([0.5, 0.4, 0.25, 0.3])
    near = np.array([0, 1, 2])  # the limit + gate_carried best; row 3 ranks beyond
    ids = ["a", "b", "c"]
    assert carried_rows(4, near, ids, {"c"}, cos, 0.2).tolist() == [False, False, True, False]
    assert carried_rows(4, near[:2], ids[:2], {"c"}, cos, 0.2) is None  # ranked beyond the near ones
    assert carried_rows(4, near, ids, {"c"}, cos, 0.3) is None  # under the cosine floor
    assert carried_rows(4, near, ids, set(), cos, 0.2) is None
    assert carried_rows(4, near[:0], [], {"c"}, cos, 0.2) is None  # limit 0: nothing is near


def test_gate_keeps_a_carried_fact_as_a_follow_ups_but_not_on_a_general_question():
    cfg = RecallConfig()
    cosine = np.array([0.40, 0.20, 0.18])
    score = np.array([0.5, 0.3, 0.2])
    carried = np.array([False, False, True])
    d = decide(cosine, score, cfg, followup=True, carried=carried)
    assert d.keep.tolist() == [True, False, True]
    assert rule_names(d.rules())[2] == "follow-up"
    assert "carried over from the turn before" in d.note
    general = decide(cosine, score, cfg, general=True, carried=carried)
    assert not general.keep[2]


def test_config_rejects_a_negative_carry_naming_the_argument():
    with pytest.raises(ValueError, match="gate_carried"):
        RecallConfig(gate_carried=-1)


def _taxi(minilm, **config) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(**config))
    engine.add("u", TAXI)
    return engine


@pytest.mark.model
def test_engine_carries_the_gout_the_knee_question_kept_into_its_follow_up(minilm):
    engine = _taxi(minilm)
    assert GOUT in [f.content for f in engine.recall(KNEE_ASKED, "u")]
    got = {f.content: f.passed_by for f in engine.recall(KNEE_FOLLOW_UP, "u", context=[KNEE_ASKED])}
    assert GOUT in got
    off = _taxi(minilm, gate_carried=None)
    assert GOUT not in [f.content for f in off.recall(KNEE_FOLLOW_UP, "u", context=[KNEE_ASKED])]
    report = engine.explain(KNEE_FOLLOW_UP, "u", context=[KNEE_ASKED])
    if got[GOUT] == "follow-up":
        assert "carried over from the turn before" in report.gate_note


@pytest.mark.model
def test_engine_carries_nothing_into_an_off_topic_question_after_a_personal_turn(minilm):
    engine = _taxi(minilm)
    got = [f.content for f in engine.recall("What's the capital of Peru?", "u", context=[KNEE_ASKED])]
    assert GOUT not in got


LUCKY_FACTS = ["User has a dog named Lucky.", "User's cat is called Bean.", "User's son Max is 8.",
               "User's horse Rocky is 20.", "User is vegetarian.", "User lives in Denver.", "User has asthma.",
               "User works as a teacher.", "User has gout and takes allopurinol every day.",
               "User is allergic to penicillin.", "User's mother Ana lives in Lisbon.", "User is saving for a house deposit."]


@pytest.mark.model
@pytest.mark.parametrize("turn", ["and how long do horses usually live?", "also, how long do horses live?"])
def test_engine_carries_nothing_into_a_general_question_opened_by_a_connective(minilm, turn):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", LUCKY_FACTS)
    before = "Is it ok to give Lucky some chocolate?"
    got = {f.content: f.passed_by for f in engine.recall(turn, "u", context=[before])}
    assert got.get("User is vegetarian.") != "follow-up"
    assert "carried over from the turn before" not in engine.explain(turn, "u", context=[before]).gate_note


def test_without_connectives_leaves_the_question_a_turn_asks_in_its_own_words():
    from memori_core.ranking.conversation import without_connectives
    assert without_connectives("ok and how long do horses usually live?") == "how long do horses usually live?"
    assert without_connectives("also, how long do horses live?") == "how long do horses live?"
    assert without_connectives("and?") == "and?"


@pytest.mark.model
def test_engine_carries_from_the_askers_last_turn_not_the_assistants_reply_ending_the_context(minilm):
    engine = _taxi(minilm)
    assert GOUT in [f.content for f in engine.recall(KNEE_ASKED, "u")]  # the app's own recall of the turn
    reply = "Enjoy the music! The Hanshin Tigers play on Sunday and the shogi club meets then too."
    got = {f.content: f.passed_by for f in engine.recall(KNEE_FOLLOW_UP, "u", context=[KNEE_ASKED, reply])}
    assert GOUT in got  # carried from the knee question (main read the reply: gout out, shogi carried)
    assert got.get(TAXI[9]) != "follow-up"


def test_a_lookups_answer_is_kept_only_in_a_free_place_and_pushes_no_answer_out():
    from memori_core.cache.entity import EntityCache
    from memori_core.engine.answers import ANSWERS_KEPT, _Answer, _answered, _Asked, _remember_answer

    cache = EntityCache("u")
    answer = _Answer(None, float("inf"), (), ())
    asked = [_Asked.of(f"question {i}", 5, None, []) for i in range(ANSWERS_KEPT)]
    _remember_answer(cache, asked[0], answer)
    looked_up = _Asked.of("the turn before", 5, None, [])
    _remember_answer(cache, looked_up, answer, push=False)  # a place is free: kept, as the oldest
    assert list(cache.answers) == [looked_up, asked[0]]
    for a in asked[1:]:
        _remember_answer(cache, a, answer)
    assert list(cache.answers) == asked  # the lookup's answer went first
    _remember_answer(cache, looked_up, answer, push=False)  # no place free: not kept, nothing pushed out
    assert list(cache.answers) == asked
    assert _answered(cache, asked[0], (), 0.0, touch=False) == ()
    assert list(cache.answers) == asked  # a lookup's hit leaves the order be
    _answered(cache, asked[0], (), 0.0)
    assert list(cache.answers) == [*asked[1:], asked[0]]


def test_a_lookup_leaves_an_answer_already_kept_for_its_key_where_and_as_it_is():
    # the app's own recall of the turn stored its answer while the lookup was scoring: the lookup, finishing
    # after it, neither overwrites that answer nor moves it to the oldest place where the next question evicts it
    from memori_core.cache.entity import EntityCache
    from memori_core.engine.answers import ANSWERS_KEPT, _Answer, _Asked, _remember_answer

    cache = EntityCache("u")
    real, looked = _Answer(None, float("inf"), (), ()), _Answer(None, float("inf"), (), ())
    others = [_Asked.of(f"question {i}", 5, None, []) for i in range(ANSWERS_KEPT - 1)]
    turn_before = _Asked.of("my knee is swollen again, is it fine to take loxonin", 5, None, [])
    for a in others:
        _remember_answer(cache, a, real)
    _remember_answer(cache, turn_before, real)
    _remember_answer(cache, turn_before, looked, push=False)
    assert list(cache.answers) == [*others, turn_before]
    assert cache.answers[turn_before] is real
    _remember_answer(cache, _Asked.of("next question", 5, None, []), real)
    assert turn_before in cache.answers


class _CountingEmbedder:
    """The real MiniLM, counting the texts it is asked to embed."""

    def __init__(self, inner) -> None:
        self.inner, self.calls = inner, 0
        self.name = inner.name

    def __getattr__(self, attr):
        return getattr(self.inner, attr)

    def embed_query(self, text):
        self.calls += 1
        return self.inner.embed_query(text)

    def embed_documents(self, texts):
        self.calls += 1
        return self.inner.embed_documents(texts)


@pytest.mark.model
def test_a_repeated_loop_of_follow_ups_embeds_nothing_once_its_answers_are_kept(minilm):
    # Each follow-up's carry reads the turn before on its own words; its answer used to push the app's own
    # kept answers out, so every turn of the loop was embedded again on every round (10 embeddings a round).
    counting = _CountingEmbedder(minilm)
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=counting)
    engine.add("u", TAXI)
    turns = [KNEE_ASKED, KNEE_FOLLOW_UP, "does that mean I should skip the shogi club on sunday",
             "and can I still drive the taxi tonight with it"]
    for _ in range(2):
        for i, turn in enumerate(turns):
            engine.recall(turn, "u", context=turns[:i])
    before = counting.calls
    for i, turn in enumerate(turns):
        engine.recall(turn, "u", context=turns[:i])
    assert counting.calls == before
