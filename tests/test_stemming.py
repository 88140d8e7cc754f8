"""Snowball stemming of Latin-script tokens; every other script passes through unchanged."""

from __future__ import annotations

import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.text import analyzer, get_stemmer
from memori_core.text import unicode_tokenize


def test_english_stems_latin_tokens() -> None:
    run = analyzer("unicode", "english")
    assert run("Running runners ran quickly") == ["run", "runner", "ran", "quick"]
    assert run("hiking") == run("hikes") == ["hike"]


def test_stemming_makes_inflections_match() -> None:
    run = analyzer("unicode", "english")
    assert set(run("she went hiking in the mountains")) >= set(run("mountain hikes"))


def test_accented_latin_is_stemmed_as_latin() -> None:
    # Tokens with accented Latin letters count as Latin script and are stemmed.
    assert analyzer("unicode", "french")("éléphants") == ["éleph"]
    assert analyzer("unicode", "german")("Häuser") == ["haus"]
    assert analyzer("unicode", "english")("naïvely") == ["naïv"]


def test_cjk_bigrams_are_never_stemmed() -> None:
    text = "東京タワーに行きました"
    assert analyzer("unicode", "english")(text) == unicode_tokenize(text)


@pytest.mark.parametrize(
    "text",
    ["Бегущий человек бегал", "दौड़ने वाले लोग", "Τρέχοντας γρήγορα", "ركض الأطفال"],
    ids=["cyrillic", "devanagari", "greek", "arabic"],
)
def test_non_latin_scripts_pass_through(text: str) -> None:
    assert analyzer("unicode", "english")(text) == unicode_tokenize(text)
    # Even with a stemmer of that language: only Latin-script tokens are stemmed.
    assert analyzer("unicode", "russian")(text) == unicode_tokenize(text)


def test_mixed_text_stems_only_the_latin_tokens() -> None:
    assert analyzer("unicode", "english")("running 東京 Бегущий") == ["run", "東京", "бегущий"]


def test_stemmer_none_is_the_plain_tokenizer() -> None:
    assert analyzer("unicode", None)("Running runners") == ["running", "runners"]
    assert analyzer("memori", None)("Running runners") == ["running", "runners"]


def test_memori_tokenizer_with_stemmer() -> None:
    assert analyzer("memori", "english")("The runners were running") == ["runner", "run"]


def test_unknown_language_is_a_clear_value_error() -> None:
    with pytest.raises(ValueError, match="klingon") as exc:
        analyzer("unicode", "klingon")
    assert "english" in str(exc.value)  # the message lists the choices


def test_unknown_language_is_rejected_when_the_config_is_built() -> None:
    with pytest.raises(ValueError, match="klingon"):
        RecallConfig(stemmer="klingon")


def test_default_config_recall_matches_inflected_words(engine: RecallEngine) -> None:
    engine.add("u1", ["I went hiking in the Alps last summer.", "My cat is called Tom."])
    report = engine.explain("Do you like hikes?", entity_id="u1")
    top = report.candidates[0]
    assert "hiking" in top.content
    assert top.bm25 > 0


def test_stemming_off_does_not_match_inflected_words(hash_embedder) -> None:
    engine = RecallEngine(
        store=ChromaStore.in_memory(), embedder=hash_embedder, config=RecallConfig(stemmer=None)
    )
    engine.add("u1", ["I went hiking in the Alps last summer.", "My cat is called Tom."])
    report = engine.explain("Do you like hikes?", entity_id="u1")
    assert all(c.bm25 == 0 for c in report.candidates)


def test_stemmer_gives_serial_results_under_concurrent_use() -> None:
    from concurrent.futures import ThreadPoolExecutor

    words = [f"{stem}{suffix}" for stem in ("run", "hike", "connect", "swim", "jump") for suffix in ("", "s", "ing", "ed", "er")]
    words = [w + "x" * (i % 7) for i, w in enumerate(words * 40)]
    stem = get_stemmer("english")
    serial = [stem(w) for w in words]
    with ThreadPoolExecutor(8) as pool:
        parallel = list(pool.map(stem, words))
    assert parallel == serial


@pytest.mark.parametrize(
    "family",
    [
        ("allergy", "allergies", "allergic"),
        ("pregnant", "pregnancy", "pregnancies"),
        ("anaemia", "anaemic", "anemia", "anemic"),
        ("asthma", "asthmatic"),
        ("epilepsy", "epileptic"),
        ("coeliac", "celiac"),
        ("injury", "injured", "injuries"),
        ("anxiety", "anxious"),
        ("diet", "dietary"),
        ("child", "children"),
        ("grandchild", "grandchildren"),
        ("wife", "wives"),
        ("tooth", "teeth"),
    ],
    ids=lambda f: f[0],
)
def test_english_word_families_the_stemmer_splits_are_folded_into_one_term(family: tuple[str, ...]) -> None:
    run = analyzer("unicode", "english")
    assert len({tuple(run(word)) for word in family}) == 1, [run(w) for w in family]


def test_folds_join_no_unrelated_words() -> None:
    run = analyzer("unicode", "english")
    assert run("allergic") != run("allegory")
    assert run("children") != run("chill")
    assert run("dietary") != run("dietitian") or run("dietitian") == run("diet")  # a dietitian is about diet anyway
    assert run("men") != run("menu")


def test_only_the_english_stemmer_folds_and_no_stemmer_means_no_folds() -> None:
    assert analyzer("unicode", None)("allergies allergic") == ["allergies", "allergic"]
    assert analyzer("unicode", "english")("children") == ["child"]
    assert analyzer("unicode", "french")("children") != ["child"]  # the table is English's


def test_a_question_about_my_allergies_matches_an_allergic_fact_lexically(engine: RecallEngine) -> None:
    engine.add("u1", ["User is allergic to peanuts.", "User's children are called Mia and Leo."])
    report = engine.explain("Do I have any allergies?", entity_id="u1")
    allergic = next(c for c in report.candidates if "allergic" in c.content)
    assert allergic.bm25 > 0
    report = engine.explain("What should I get my child for her birthday?", entity_id="u1")
    children = next(c for c in report.candidates if "children" in c.content)
    assert children.bm25 > 0
