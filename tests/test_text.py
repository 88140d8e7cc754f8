"""Tokenizers: upstream-compatible ASCII mode and the Unicode/CJK mode."""

from __future__ import annotations

import random

import numpy as np
import pytest

from _memori_upstream import load_memori_search
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.text import ENGLISH_STOPWORDS, STOPWORDS, get_tokenizer, memori_tokenize, normalize_fact_text, unicode_tokenize
from memori_core.engine.fact_ids import derived_fact_id

MEMORI_STOPWORDS = (
    "a an and are as at be by did do does for from had has have how i in is it of on or that the "
    "their then there to was were what when where which who why with you your"
).split()


@pytest.fixture(scope="module")
def upstream_tokenize():
    return load_memori_search()._lexical._tokenize


# -- memori mode ----------------------------------------------------------


def test_stopwords_are_upstream_memoris_41():
    assert MEMORI_STOPWORDS == sorted(MEMORI_STOPWORDS)
    assert len(MEMORI_STOPWORDS) == 41
    assert STOPWORDS == frozenset(MEMORI_STOPWORDS)
    assert STOPWORDS == frozenset(load_memori_search()._lexical._STOPWORDS)


# Characters whose lowercase form is (or contains) ASCII although they are not:
# the Kelvin sign, dotted capital I, fullwidth letters, ligatures, long s.
TRICKY = "\u212aİıſß\ufb01\uff21\uff41éÉñÑüÜæøÅ東京コーヒー한국어\u00a0\u2009\u200b²³½Ⅻ𝐀🍕"
ASCII = "abcxyzABCXYZ0123456789 _-.,;:!?'\"()[]{}<>/\\@#$%^&*+=~`|\t\n"


def _random_string(rng: random.Random, alphabet: str, max_len: int = 40) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, max_len)))


def test_memori_tokenizer_equals_upstream_on_random_ascii_strings(upstream_tokenize):
    rng = random.Random(1)
    words = MEMORI_STOPWORDS + ["Coffee", "x86_64", "it's", "2024", "THE", "Then"]
    for _ in range(2000):
        text = _random_string(rng, ASCII)
        if rng.random() < 0.5:
            text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8))) + text
        assert memori_tokenize(text) == upstream_tokenize(text), repr(text)


def test_memori_tokenizer_equals_upstream_on_random_non_ascii_strings(upstream_tokenize):
    rng = random.Random(2)
    for _ in range(2000):
        text = _random_string(rng, ASCII + TRICKY * 3)
        assert memori_tokenize(text) == upstream_tokenize(text), repr(text)
    for _ in range(500):  # arbitrary code points of the whole BMP (no surrogates)
        text = "".join(chr(rng.choice([rng.randint(0x20, 0xD7FF), rng.randint(0xE000, 0xFFFD)])) for _ in range(20))
        assert memori_tokenize(text) == upstream_tokenize(text), repr(text)


def test_memori_tokenizer_drops_non_ascii_and_keeps_digits():
    assert memori_tokenize("The café in Zürich, 2024!") == ["caf", "z", "rich", "2024"]
    assert memori_tokenize("我喜欢咖啡") == []
    assert memori_tokenize("") == []
    assert memori_tokenize(None) == []  # type: ignore[arg-type]  # upstream tolerates None too


# -- unicode mode ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # Chinese: overlapping character bigrams.
        ("我喜欢咖啡", ["我喜", "喜欢", "欢咖", "咖啡"]),
        # Japanese: Han + Hiragana in one run.
        ("東京に住む", ["東京", "京に", "に住", "住む"]),
        # Katakana with the prolonged sound mark ー stays inside the run.
        ("コーヒー", ["コー", "ーヒ", "ヒー"]),
        # Halfwidth katakana is NFKC-folded to fullwidth first.
        ("ｺｰﾋｰ", ["コー", "ーヒ", "ヒー"]),
        # Korean: Hangul syllables, spaces separate runs.
        ("커피 좋아해요", ["커피", "좋아", "아해", "해요"]),
        # A single CJK character is a unigram.
        ("猫", ["猫"]),
        ("A 猫 B", ["猫", "b"]),
        # Mixed runs: CJK and Latin/digits inside one word are split.
        ("abc東京def", ["abc", "東京", "def"]),
        ("2024年", ["2024", "年"]),
        # Accented Latin stays whole.
        ("Café Zürich naïve", ["café", "zürich", "naïve"]),
        # Decomposed accents (e + combining acute) compose under NFKC.
        ("cafe\u0301", ["café"]),
        # Underscore and punctuation separate words.
        ("foo_bar baz-qux e.mail it's", ["foo", "bar", "baz", "qux", "e", "mail"]),
        # NFKC + casefold: fullwidth letters and digits, ligatures, ß.
        ("ＡＢＣ １２３", ["abc", "123"]),
        ("ﬁle Straße", ["file", "strasse"]),
        # Stopwords are dropped after folding (fullwidth "THE" is "the").
        ("The cat and THE dog ＴＨＥ", ["cat", "dog"]),
        # Devanagari words with their combining vowel signs and viramas stay whole.
        ("नमस्ते दुनिया", ["नमस्ते", "दुनिया"]),
        ("हिन्दी", ["हिन्दी"]),
        # Other scripts: Cyrillic, Greek, Arabic, Thai words.
        ("Привет, Мир!", ["привет", "мир"]),
        ("Ελλάδα", ["ελλάδα"]),
        ("مرحبا بالعالم", ["مرحبا", "بالعالم"]),
        # Emoji and symbols are not words.
        ("🍕 pizza ★", ["pizza"]),
        ("", []),
        ("   ...!!! ", []),
    ],
)
def test_unicode_tokenizer(text, tokens):
    assert unicode_tokenize(text) == tokens


def test_unicode_tokenizer_agrees_with_memori_on_plain_lowercase_ascii():
    rng = random.Random(3)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 .,!?;:-()"
    for _ in range(1000):
        text = _random_string(rng, alphabet)
        # Without underscores, case, apostrophes or non-ASCII the two modes differ only by the longer stoplist.
        assert unicode_tokenize(text) == [t for t in memori_tokenize(text) if t not in ENGLISH_STOPWORDS], repr(text)


def test_unicode_tokenizer_never_emits_empty_tokens_or_stopwords():
    rng = random.Random(4)
    for _ in range(1000):
        text = _random_string(rng, ASCII + TRICKY * 3 + "the and of ", 60)
        toks = unicode_tokenize(text)
        assert all(toks), repr(text)
        assert not ENGLISH_STOPWORDS.intersection(toks), repr(text)
        assert all(t == t.casefold() for t in toks), repr(text)


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("What's the capital of Australia?", ["capital", "australia"]),
        ("I'm vegan and you'd know", ["vegan", "know"]),
        ("we'll go, they're here, I've been", ["go"]),
        ("I can\u2019t eat nuts, I won\u2019t, don\u2019t ask", ["eat", "nuts", "ask"]),
        ("CAN'T, Shouldn't, isn't", []),
        ("User's daughter Mia's school", ["user", "daughter", "mia", "school"]),
        # Letters that are not contraction tails stay: vitamin D, o'clock, rock'n'roll.
        ("vitamin D, five o'clock, rock'n'roll", ["vitamin", "d", "five", "o", "clock", "rock", "n", "roll"]),
    ],
)
def test_unicode_tokenizer_drops_contraction_tails(text, tokens):
    assert unicode_tokenize(text) == tokens


def test_function_words_never_reach_bm25_in_unicode_mode_but_do_in_memori_mode():
    query = "Can you recommend something for me and my will, should I?"
    assert unicode_tokenize(query) == ["recommend", "something"]
    assert {"can", "me", "my", "will", "should"} <= set(memori_tokenize(query))  # upstream's list is kept as is
    assert STOPWORDS < ENGLISH_STOPWORDS


def test_get_tokenizer_by_name():
    assert get_tokenizer("memori") is memori_tokenize
    assert get_tokenizer("unicode") is unicode_tokenize
    with pytest.raises(ValueError, match="unknown tokenizer"):
        get_tokenizer("whitespace")


def test_normalize_fact_text_is_the_duplicate_key():
    assert normalize_fact_text("  User LIKES   tea. ") == normalize_fact_text("user likes tea")
    assert normalize_fact_text("ＵＳＥＲ likes tea") == "user likes tea"
    assert normalize_fact_text("User likes tea") != normalize_fact_text("User likes coffee")


@pytest.mark.parametrize(
    ("said", "key"),
    [
        ("The user is vegan.", "user is vegan"),
        ("User is vegan.", "user is vegan"),
        ("I'm vegan.", "user is vegan"),
        ("I am vegan", "user is vegan"),
        ("The user's sister lives in Rome.", "user's sister lives in rome"),
        ("User\u2019s sister lives in Rome.", "user's sister lives in rome"),
        ("My sister lives in Rome.", "user's sister lives in rome"),
        ("I live in Lisbon.", "user lives in lisbon"),
        ("I've got two cats.", "user has got two cats"),
        ("The username is taken.", "the username is taken"),  # no subject of the user's
        ("Sam is the user's wife.", "sam is the user's wife"),  # only the subject at the start
    ],
)
def test_normalize_fact_text_names_the_user_one_way_whatever_the_subjects_phrasing(said: str, key: str) -> None:
    assert normalize_fact_text(said) == key
    assert normalize_fact_text(key) == key  # a key is its own key (ids are derived from keys)


# -- through the engine ---------------------------------------------------


def test_chinese_query_gets_a_lexical_score_in_unicode_mode_only(hash_embedder):
    """Upstream's ASCII tokenizer gives a Chinese query no lexical signal; the unicode tokenizer matches bigrams."""
    facts = ["用户对花生过敏", "用户喜欢喝咖啡", "User lives in Berlin"]
    qv = np.random.default_rng(3).standard_normal(hash_embedder.dim).astype(np.float32)
    results = {}
    for mode in ("memori", "unicode"):
        engine = RecallEngine(
            store=ChromaStore.in_memory(),
            embedder=hash_embedder,
            config=RecallConfig.memori_compat(tokenizer=mode, gate="off"),
        )
        engine.add("zh", facts, ids=["peanut", "coffee", "berlin"])
        results[mode] = {f.id: f for f in engine.recall("花生过敏", "zh", 3, query_vector=qv)}
    assert set(results["memori"]) == set(results["unicode"]) == {"peanut", "coffee", "berlin"}
    assert all(f.lexical == 0.0 for f in results["memori"].values())
    uni = results["unicode"]
    assert uni["peanut"].lexical == pytest.approx(1.0)
    assert uni["coffee"].lexical == 0.0 and uni["berlin"].lexical == 0.0
    # Three bigram tokens make a long query: lexical weight 0.15.
    assert uni["peanut"].rank_score == pytest.approx(0.85 * uni["peanut"].cosine + 0.15, abs=1e-6)
    # In memori mode the query has no tokens (a "short" query) and only the cosine counts.
    mem = results["memori"]["peanut"]
    assert mem.rank_score == pytest.approx(0.7 * mem.cosine, abs=1e-6)


@pytest.mark.parametrize("text, fact_id", [
    ("I like jazz.", "77ef4ee76190aef526d67ded12747055"),
    ("The user is vegan.", "9ffaa08f1e46bfacf197664a2ccaefe1"),
    ("User\u2019s sister lives in Rome.", "d0e67912ae6bd6058810410db0041be2"),
    ("User is vegan.", "09d6a3407e1609b549c38087327a9309"),
])
def test_derived_fact_ids_are_those_earlier_versions_stored(text, fact_id):
    # the ids an earlier version derived (computed with it): adding a fact again must find its row, whatever the
    # key under which two facts count as the same says
    assert derived_fact_id(text) == fact_id
