"""Turns the relevance gate must not answer from cosines: courtesy turns, turns without a word, and questions in
a script the embedder does not read (tester h1, finding 2: MiniLM put every CJK, Korean and Cyrillic text near
every other, so "👍" or "谢谢!" injected a Chinese user's whole memory)."""

from __future__ import annotations

import numpy as np
import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.embedders import LocalMiniLM, as_embedder, embedder_scripts
from memori_core.evaluation.embedding import CachingEmbedder
from memori_core.ranking.gate import decide
from memori_core.text import main_script


@pytest.mark.parametrize("text, script", [
    ("Where do I live?", "LATIN"),
    ("¿Dónde vivo?", "LATIN"),
    ("我住在上海。", "HAN"),
    ("ありがとう!", "KANA"),
    ("フランスの首都はどこですか?", "KANA"),  # more kana than kanji
    ("나는 서울에 산다.", "HANGUL"),
    ("Я живу в Москве.", "CYRILLIC"),
    ("👍", None),
    ("?! 42", None),
    ("", None),
])
def test_main_script_is_the_script_of_most_letters(text, script):
    assert main_script(text) == script


class LatinHashEmbedder(HashEmbedder):
    """The hash embedder, saying (as MiniLM does) that it reads Latin script only."""

    scripts = frozenset({"LATIN"})


def test_an_embedders_scripts_are_read_through_the_adapters_that_wrap_it():
    assert LocalMiniLM.scripts == frozenset({"LATIN"})
    assert embedder_scripts(LatinHashEmbedder()) == frozenset({"LATIN"})
    assert embedder_scripts(as_embedder(LatinHashEmbedder())) == frozenset({"LATIN"})
    assert embedder_scripts(CachingEmbedder(LatinHashEmbedder())) == frozenset({"LATIN"})
    assert embedder_scripts(HashEmbedder()) is None  # says nothing: any script


def _decide(**kw):
    cosine = np.array([0.45, 0.40, 0.35])
    return decide(cosine, cosine.copy(), RecallConfig(), np.array([0.0, 1.0, 0.2]), np.array([0.0, 2.0, 0.4]),
                  pool_size=50, **kw)


def test_the_gate_keeps_nothing_for_a_turn_that_asks_nothing_whatever_the_cosines():
    usual = _decide()
    assert usual.keep.any()
    closed = _decide(nothing_asked="a courtesy turn")
    assert not closed.keep.any() and not closed.opened
    assert "a courtesy turn" in closed.note


def test_in_an_unread_script_only_facts_holding_the_questions_words_are_kept():
    got = _decide(unread_script="HAN")
    assert got.keep.tolist() == [False, True, False]
    assert "Han" in got.note


@pytest.fixture
def zh_engine():
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=LatinHashEmbedder())
    engine.add("zh", ["我住在上海。", "我对花生过敏。", "我的女儿叫小美。", "我在银行工作。"])
    engine.add("en", ["User lives in Lyon.", "User plays the cello.", "用户对花生过敏。"])
    return engine


@pytest.mark.parametrize("user, turn", [("zh", "👍"), ("zh", "谢谢!"), ("zh", "法国的首都是哪里?"),
                                        ("en", "👍"), ("en", "😂😂😂"), ("en", "Thanks!"), ("en", "¡Gracias!")])
def test_courtesy_wordless_and_unmatched_unread_turns_recall_nothing(zh_engine, user, turn):
    assert zh_engine.recall(turn, user) == []


def test_an_unread_question_still_recalls_the_fact_holding_its_words(zh_engine):
    assert [f.content for f in zh_engine.recall("我对什么过敏?", "zh")] == ["我对花生过敏。"]
    report = zh_engine.explain("我对什么过敏?", "zh")
    assert "does not read" in report.gate_note


def test_an_embedder_that_reads_any_script_is_judged_by_its_cosines():
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    engine.add("zh", ["我对花生过敏。", "我住在上海。"])
    report = engine.explain("我对花生过敏吗?", "zh")
    assert "does not read" not in report.gate_note


@pytest.mark.model
@pytest.mark.parametrize("facts, turns", [
    (["我住在上海。", "我对花生过敏。", "我的女儿叫小美。", "我在银行工作。", "我每天早上跑步。"], ["👍", "谢谢!", "法国的首都是哪里?"]),
    (["나는 서울에 산다.", "나는 땅콩 알레르기가 있다.", "내 딸의 이름은 지우이다.", "나는 은행에서 일한다."],
     ["감사합니다!", "프랑스의 수도는 어디인가요?"]),
    (["Я живу в Москве.", "У меня аллергия на арахис.", "Мою дочь зовут Маша.", "Я работаю в банке."],
     ["Спасибо!", "Какая столица Франции?"]),
])
def test_with_minilm_non_latin_memories_stay_out_of_turns_that_do_not_ask_for_them(minilm, facts, turns):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", facts)
    for turn in turns:
        assert engine.recall(turn, "u") == [], turn
    # ...while a question sharing a fact's words gets it
    assert engine.recall(facts[1].rstrip("。."), "u")[0].content == facts[1]
