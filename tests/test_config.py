"""RecallConfig: shipped defaults, immutability, memori_compat, from_env, validation."""

from __future__ import annotations

import dataclasses
import logging
import re
import warnings
from pathlib import Path

import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallEngine
import memori_core.config as config_module
from memori_core.config import ENV_FIELDS, OTHER_ENV_VARIABLES, RecallConfig

# The product defaults, as docs/ranking.md explains them: the Unicode tokenizer
# with Snowball stemming (section 1), the union pool (2), BM25 k1 = 1.2, b = 0.4,
# the lexical floor 0.5 and lexical weight 0.35 for every query length (3),
# session smoothing 0.4 / 0.15 / 0.3 scaled for facts longer than 500
# characters (4), the relevance gate (5). The rank-score threshold of
# gate="threshold" is calibrated on LoCoMo (issue 5), so it is only checked for range.
SHIPPED_DEFAULTS = {
    "limit": 5,
    "dense_limit": None,
    "lex_weight": 0.35,
    "lex_weight_short": 0.35,
    "short_query_max_tokens": 2,
    "weight_clamp": (0.05, 0.40),
    "candidate_multiplier": 5,
    "candidate_floor": 50,
    "k1": 1.2,
    "b": 0.4,
    "tokenizer": "unicode",
    "stemmer": "english",
    "pool": "union",
    "neighbour_weight": 0.4,
    "second_neighbour_weight": 0.15,
    "session_weight": 0.3,
    "neighbour_length_ref": 500,
    "lexical_floor": 0.5,
    "gate": "relevance",
    "gate_open": 0.31,
    "gate_keep": 0.31,
    "gate_confident": 0.44,
    "gate_band": 0.5,
    "gate_words": 0.7,
    "gate_words_cosine": 0.25,
    "gate_words_bm25": 1.0,
    "time_zone_label": True,
    "one_per_text": True,
    "quantized_above": 8_000,
    "core_limit": 3,
    "core_when": "always",
    "judge_candidates": 8,
    "context_turns": 3,
    "context_weight": 0.5,
    "context_weight_leaning": 1.0,
    "affinity_weight": 0.0,
    "slot_recency_weight": 0.0,
    "restatement_terms": 4,
    "gate_care": 0.6,
    "gate_care_cosine": 0.1,
    "gate_general": 0.7,
    "gate_general_bm25": 8.0,
    "gate_world": 0.5,
    "gate_followup": 0.25,
    "gate_followup_top": 3,
    "gate_carried": 2,
    "gate_carried_cosine": 0.2,
    "gate_third_person": 0.05,
    "gate_implied": True,
    "gate_spread": None,
    "gate_implied_yield": True,
}


# Upstream Memori 3.3.6's constants (memori/search/_lexical.py and _core.py):
# memori_compat() must keep them whatever the product defaults become.
MEMORI_VALUES = {
    "tokenizer": "memori",
    "dense_limit": 1000,
    "lex_weight": 0.15,
    "lex_weight_short": 0.30,
    "short_query_max_tokens": 2,
    "weight_clamp": (0.05, 0.40),
    "candidate_multiplier": 10,
    "candidate_floor": 50,
    "k1": 1.2,
    "b": 0.75,
    "relevance_threshold": 0.1,
    "stemmer": None,
    "pool": "dense",
    "neighbour_weight": 0.0,
    "second_neighbour_weight": 0.0,
    "session_weight": 0.0,
    "lexical_floor": 0.0,
    "gate": "threshold",
    "core_limit": 0,  # no core facts upstream: nothing is appended
    "context_turns": 0,  # upstream reads the last message only
    "restatement_terms": None,  # upstream orders by score alone
}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for var in ENV_FIELDS:
        monkeypatch.delenv(var, raising=False)


def test_defaults_are_the_shipped_defaults():
    cfg = RecallConfig()
    for name, value in SHIPPED_DEFAULTS.items():
        assert getattr(cfg, name) == value, name
    assert isinstance(cfg.relevance_threshold, float) and 0.0 < cfg.relevance_threshold < 1.0


def test_every_field_has_a_shipped_default():
    assert {f.name for f in dataclasses.fields(RecallConfig)} == set(SHIPPED_DEFAULTS) | {"relevance_threshold"}


def test_config_is_frozen_and_hashable():
    cfg = RecallConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.limit = 10  # type: ignore[misc]
    assert hash(cfg) == hash(RecallConfig())
    assert cfg == RecallConfig()


def test_replace_returns_a_validated_copy():
    cfg = RecallConfig()
    other = cfg.replace(limit=8, tokenizer="memori")
    assert (other.limit, other.tokenizer) == (8, "memori")
    assert cfg.limit == 5
    with pytest.raises(ValueError):
        cfg.replace(b=2.0)


def test_memori_compat_is_upstream_behaviour():
    cfg = RecallConfig.memori_compat()
    for name, value in MEMORI_VALUES.items():
        assert getattr(cfg, name) == value, name


def test_memori_compat_overrides_win():
    cfg = RecallConfig.memori_compat(gate="off", dense_limit=20)
    assert cfg.gate == "off"
    assert cfg.dense_limit == 20
    assert cfg.tokenizer == "memori"


# -- from_env -------------------------------------------------------------


def test_from_env_without_variables_gives_defaults():
    assert RecallConfig.from_env() == RecallConfig()


def test_from_env_reads_the_environment_at_call_time(monkeypatch):
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT", "0.2")
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT_SHORT", "0.25")
    first = RecallConfig.from_env()
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT", "0.33")
    monkeypatch.delenv("MEMORI_RECALL_LEX_WEIGHT_SHORT")
    second = RecallConfig.from_env()
    assert (first.lex_weight, first.lex_weight_short) == (0.2, 0.25)
    assert (second.lex_weight, second.lex_weight_short) == (0.33, RecallConfig().lex_weight_short)


def test_from_env_reads_every_documented_variable(monkeypatch):
    monkeypatch.setenv("MEMORI_RECALL_RELEVANCE_THRESHOLD", "0.25")
    monkeypatch.setenv("MEMORI_RECALL_LIMIT", "7")
    monkeypatch.setenv("MEMORI_RECALL_DENSE_LIMIT", "300")
    monkeypatch.setenv("MEMORI_RECALL_TOKENIZER", "memori")
    cfg = RecallConfig.from_env()
    assert (cfg.relevance_threshold, cfg.limit, cfg.dense_limit, cfg.tokenizer) == (0.25, 7, 300, "memori")


@pytest.mark.parametrize(("var", "raw", "field", "value"), [
    ("MEMORI_RECALL_RELEVANCE_THRESHOLD", "none", "gate", "off"),
    ("MEMORI_RECALL_RELEVANCE_THRESHOLD", "OFF", "gate", "off"),
    ("MEMORI_RECALL_DENSE_LIMIT", "all", "dense_limit", None),
    ("MEMORI_RECALL_LEX_WEIGHT", " 0.2 ", "lex_weight", 0.2),
    # An out-of-range weight is stored as given; the fusion clamps it (as upstream does).
    ("MEMORI_RECALL_LEX_WEIGHT", "0.9", "lex_weight", 0.9),
])
def test_from_env_special_values(monkeypatch, var, raw, field, value):
    monkeypatch.setenv(var, raw)
    assert getattr(RecallConfig.from_env(), field) == value


@pytest.mark.parametrize(("var", "raw", "field", "value"), [
    ("MEMORI_RECALL_GATE", "OFF", "gate", "off"),
    ("MEMORI_RECALL_GATE", " off ", "gate", "off"),
    ("MEMORI_RECALL_GATE", "Relevance", "gate", "relevance"),
    ("MEMORI_RECALL_TOKENIZER", "MEMORI", "tokenizer", "memori"),
    ("MEMORI_RECALL_POOL", " Dense", "pool", "dense"),
    ("MEMORI_RECALL_STEMMER", "English", "stemmer", "english"),
    ("MEMORI_RECALL_STEMMER", "NONE", "stemmer", None),
])
def test_from_env_reads_names_in_any_case_with_whitespace_stripped(monkeypatch, var, raw, field, value):
    monkeypatch.setenv(var, raw)
    assert getattr(RecallConfig.from_env(), field) == value


def test_env_variables_names_what_from_env_applies_and_warns_of_nothing(monkeypatch, caplog):
    for var in ENV_FIELDS:
        monkeypatch.delenv(var, raising=False)
    assert RecallConfig.env_variables() == {}
    monkeypatch.setenv("MEMORI_RECALL_GATE", "OFF")
    monkeypatch.setenv("MEMORI_RECALL_LIMIT", " 1 ")
    monkeypatch.setenv("MEMORI_RECALL_POOL", "bogus")  # invalid: from_env ignores it, so it is not named
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT", "  ")  # blank: not set
    monkeypatch.setenv("MEMORI_RECALL_RELEVANCE_THRESHOLD", "none")  # applied: the gate is off
    with caplog.at_level(logging.WARNING, logger="memori_core.config"):
        applied = RecallConfig.env_variables()
    assert applied == {"MEMORI_RECALL_RELEVANCE_THRESHOLD": "none", "MEMORI_RECALL_LIMIT": "1",
                       "MEMORI_RECALL_GATE": "OFF"}
    assert caplog.text == ""
    assert RecallConfig.from_env() == RecallConfig(gate="off", limit=1)


def test_from_env_warns_once_of_an_unknown_variable_naming_the_one_meant(monkeypatch, caplog):
    # A tester's MEMORI_RECALL_LIMT=1 MEMORI_RECALL_GAT=off left limit 5 and the relevance gate, without a word.
    monkeypatch.setattr(config_module, "_unknown_warned", set())
    monkeypatch.setenv("MEMORI_RECALL_LIMT", "1")
    monkeypatch.setenv("MEMORI_RECALL_gate", "off")
    monkeypatch.setenv("MEMORI_RECALL_ZZZ", "1")
    monkeypatch.setenv("MEMORI_RECALL_PATH", "/tmp/elsewhere")  # read by the store: known, no warning
    with caplog.at_level(logging.WARNING, logger="memori_core.config"):
        assert RecallConfig.from_env().limit == 5
        RecallConfig.from_env()  # once per name
    assert caplog.messages == [
        "ignoring MEMORI_RECALL_LIMT: memori reads no such variable (did you mean MEMORI_RECALL_LIMIT?)",
        "ignoring MEMORI_RECALL_ZZZ: memori reads no such variable",
        "ignoring MEMORI_RECALL_gate: memori reads no such variable (did you mean MEMORI_RECALL_GATE?)",
    ]


def test_every_memori_recall_variable_the_code_reads_is_known_to_the_unknown_name_warning():
    root = Path(config_module.__file__).resolve().parent
    named = {m for path in root.rglob("*.py") for m in re.findall(r"MEMORI_RECALL_[A-Z_]+[A-Z]", path.read_text())}
    assert named == {*ENV_FIELDS, *OTHER_ENV_VARIABLES}


def test_an_engine_without_config_ignores_memori_recall_variables(monkeypatch):
    """Only RecallConfig.from_env() reads them (README, Configuration): an app passes it to apply them."""
    monkeypatch.setenv("MEMORI_RECALL_GATE", "off")
    monkeypatch.setenv("MEMORI_RECALL_LIMIT", "1")
    plain = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    from_env = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), config=RecallConfig.from_env())
    assert plain.config == RecallConfig()
    assert (from_env.config.gate, from_env.config.limit) == ("off", 1)


def test_from_env_gate_threshold_selects_the_rank_score_rule(monkeypatch):
    monkeypatch.setenv("MEMORI_RECALL_GATE", "threshold")
    monkeypatch.setenv("MEMORI_RECALL_RELEVANCE_THRESHOLD", "0.25")
    cfg = RecallConfig.from_env()
    assert (cfg.gate, cfg.relevance_threshold) == ("threshold", 0.25)
    assert cfg == RecallConfig(gate="threshold", relevance_threshold=0.25)  # nothing else moved
    monkeypatch.setenv("MEMORI_RECALL_GATE", "relevance")
    assert RecallConfig.from_env(base=RecallConfig.memori_compat()).gate == "relevance"


def test_from_env_ignores_an_unknown_gate_name(monkeypatch, caplog):
    monkeypatch.setenv("MEMORI_RECALL_GATE", "cosine")
    with caplog.at_level(logging.WARNING, logger="memori_core.config"):
        cfg = RecallConfig.from_env()
    assert cfg.gate == "relevance"
    assert "MEMORI_RECALL_GATE" in caplog.text


@pytest.mark.parametrize(("var", "raw"), [
    ("MEMORI_RECALL_LEX_WEIGHT", "abc"),
    ("MEMORI_RECALL_LEX_WEIGHT", "nan"),
    ("MEMORI_RECALL_LEX_WEIGHT_SHORT", "0,3"),
    ("MEMORI_RECALL_RELEVANCE_THRESHOLD", "inf"),
    ("MEMORI_RECALL_LIMIT", "5.5"),
    ("MEMORI_RECALL_LIMIT", "-3"),  # parses, but is invalid: the default stays
    ("MEMORI_RECALL_DENSE_LIMIT", "0"),
    ("MEMORI_RECALL_TOKENIZER", "whitespace"),
    ("MEMORI_RECALL_LEX_WEIGHT", ""),
    ("MEMORI_RECALL_LEX_WEIGHT", "   "),
])
def test_from_env_ignores_bad_values(monkeypatch, caplog, var, raw):
    monkeypatch.setenv(var, raw)
    with caplog.at_level(logging.WARNING, logger="memori_core.config"):
        cfg = RecallConfig.from_env()
    assert cfg == RecallConfig()
    if raw.strip():
        assert var in caplog.text  # the user is told which variable was ignored


def test_a_bad_value_warning_says_why_and_the_value_used_instead(monkeypatch, caplog):
    monkeypatch.setenv("MEMORI_RECALL_LIMIT", "-3")
    monkeypatch.setenv("MEMORI_RECALL_POOL", "bogus")
    with caplog.at_level(logging.WARNING, logger="memori_core.config"):
        assert RecallConfig.from_env(base=RecallConfig(limit=7)).limit == 7
    assert caplog.messages == [
        "ignoring MEMORI_RECALL_LIMIT='-3': not a valid value for limit (limit must be >= 0, got -3); using 7",
        "ignoring MEMORI_RECALL_POOL='bogus': not a valid value for pool (pool must be 'union' or 'dense', got "
        "'bogus'); using 'union'",
    ]


def test_a_bad_value_warning_names_the_value_the_config_really_uses(monkeypatch, caplog):
    """Not base's: an override, or another variable (a threshold number selects gate="threshold"), decides it."""
    monkeypatch.setenv("MEMORI_RECALL_GATE", "bogus")
    monkeypatch.setenv("MEMORI_RECALL_RELEVANCE_THRESHOLD", "0.4")
    monkeypatch.setenv("MEMORI_RECALL_LIMIT", "-3")
    with caplog.at_level(logging.WARNING, logger="memori_core.config"):
        cfg = RecallConfig.from_env(limit=7)
    assert (cfg.gate, cfg.limit) == ("threshold", 7)
    said = {m.split("=", 1)[0]: m.rsplit("; ", 1)[1] for m in caplog.messages if m.startswith("ignoring MEMORI_")}
    assert said == {"ignoring MEMORI_RECALL_GATE": "using 'threshold'", "ignoring MEMORI_RECALL_LIMIT": "using 7"}


def test_from_env_keeps_good_values_next_to_bad_ones(monkeypatch):
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT", "oops")
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT_SHORT", "0.22")
    cfg = RecallConfig.from_env()
    assert (cfg.lex_weight, cfg.lex_weight_short) == (RecallConfig().lex_weight, 0.22)


@pytest.mark.parametrize(("raw", "value"), [("inf", 1.0), ("-inf", 0.0), ("1e999", 1.0)])
def test_from_env_infinite_lexical_weight_goes_to_the_clamp_bound(monkeypatch, raw, value):
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT", raw)
    assert RecallConfig.from_env().lex_weight == value


def test_from_env_overrides_win_over_the_environment(monkeypatch):
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT", "0.2")
    monkeypatch.setenv("MEMORI_RECALL_TOKENIZER", "memori")
    cfg = RecallConfig.from_env(lex_weight=0.3, tokenizer="unicode", k1=1.5)
    assert (cfg.lex_weight, cfg.tokenizer, cfg.k1) == (0.3, "unicode", 1.5)


def test_from_env_on_a_base_config(monkeypatch):
    base = RecallConfig.memori_compat(gate="off")
    assert RecallConfig.from_env(base=base) == base
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT", "0.2")
    monkeypatch.setenv("MEMORI_RECALL_LEX_WEIGHT_SHORT", "junk")  # ignored: the base's 0.30 stays
    cfg = RecallConfig.from_env(base=base, limit=9)
    assert cfg == base.replace(lex_weight=0.2, limit=9)
    assert cfg.lex_weight_short == 0.30


def test_from_env_overrides_are_validated(monkeypatch):
    with pytest.raises(ValueError):
        RecallConfig.from_env(limit=-1)


# -- validation -----------------------------------------------------------


@pytest.mark.parametrize(("changes", "error"), [
    ({"limit": -1}, ValueError),
    ({"limit": 2.5}, TypeError),
    ({"limit": True}, TypeError),
    ({"dense_limit": 0}, ValueError),
    ({"dense_limit": "10"}, TypeError),
    ({"relevance_threshold": float("nan")}, ValueError),
    ({"relevance_threshold": "0.1"}, TypeError),
    ({"lex_weight": float("inf")}, ValueError),
    ({"lex_weight_short": None}, TypeError),
    ({"short_query_max_tokens": -1}, ValueError),
    ({"weight_clamp": (0.5, 0.2)}, ValueError),
    ({"weight_clamp": (-0.1, 0.4)}, ValueError),
    ({"weight_clamp": (0.1, 1.5)}, ValueError),
    ({"candidate_multiplier": 0}, ValueError),
    ({"candidate_floor": -5}, ValueError),
    ({"k1": -0.1}, ValueError),
    ({"b": 1.1}, ValueError),
    ({"b": -0.1}, ValueError),
    ({"tokenizer": "whitespace"}, ValueError),
])
def test_invalid_values_raise(changes, error):
    with pytest.raises(error):
        RecallConfig(**changes)


@pytest.mark.parametrize("field", ["neighbour_weight", "second_neighbour_weight", "session_weight", "lexical_floor"])
def test_negative_smoothing_weights_and_floor_raise_naming_the_field(field):
    with pytest.raises(ValueError, match=rf"^{field} must be >= 0"):
        RecallConfig(**{field: -0.1})
    with pytest.raises(ValueError, match=rf"^{field} must be finite"):
        RecallConfig(**{field: float("nan")})
    assert getattr(RecallConfig(**{field: 0.0}), field) == 0.0  # 0 turns the part off


@pytest.mark.parametrize("value", [0, -5])
def test_neighbour_length_ref_below_one_raises_naming_the_field(value):
    with pytest.raises(ValueError, match=r"^neighbour_length_ref must be >= 1"):
        RecallConfig(neighbour_length_ref=value)


def test_neighbour_length_ref_must_be_an_int_or_none():
    with pytest.raises(TypeError, match=r"^neighbour_length_ref must be an int"):
        RecallConfig(neighbour_length_ref=500.0)  # type: ignore[arg-type]
    assert RecallConfig(neighbour_length_ref=None).neighbour_length_ref is None
    assert RecallConfig(neighbour_length_ref=1).neighbour_length_ref == 1


@pytest.mark.parametrize("gate", ["cosine", "", "Relevance", "none", None])
def test_unknown_gate_name_raises_naming_the_field(gate):
    with pytest.raises(ValueError, match=r"^gate must be 'relevance', 'threshold' or 'off'"):
        RecallConfig(gate=gate)  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["gate_open", "gate_keep", "gate_confident", "gate_band", "gate_words",
                                   "gate_words_cosine", "gate_words_bm25"])
def test_gate_cutoffs_must_be_finite_numbers(field):
    with pytest.raises(TypeError, match=rf"^{field} must be a number"):
        RecallConfig(**{field: "0.3"})
    with pytest.raises(ValueError, match=rf"^{field} must be finite"):
        RecallConfig(**{field: float("inf")})


def test_valid_edge_values_are_accepted():
    cfg = RecallConfig(limit=0, dense_limit=1, gate="off", weight_clamp=(0.0, 1.0),
                       candidate_floor=0, k1=0.0, b=0.0, short_query_max_tokens=0)
    assert cfg.limit == 0 and cfg.gate == "off"
    assert RecallConfig(relevance_threshold=-1.0).relevance_threshold == -1.0


def test_a_numeric_threshold_from_the_environment_selects_the_threshold_gate(monkeypatch) -> None:
    monkeypatch.setenv("MEMORI_RECALL_RELEVANCE_THRESHOLD", "0.3")
    cfg = RecallConfig.from_env()
    assert (cfg.gate, cfg.relevance_threshold) == ("threshold", 0.3)
    monkeypatch.setenv("MEMORI_RECALL_GATE", "relevance")
    assert RecallConfig.from_env().gate == "relevance"
    monkeypatch.setenv("MEMORI_RECALL_RELEVANCE_THRESHOLD", "none")
    monkeypatch.delenv("MEMORI_RECALL_GATE")
    assert (RecallConfig.from_env().gate, RecallConfig.from_env().relevance_threshold) == ("off", 0.19)


def test_a_threshold_the_relevance_gate_ignores_is_warned_about(caplog) -> None:
    with caplog.at_level("WARNING", logger="memori_core.config"):
        RecallConfig(relevance_threshold=0.3)
    assert "has no effect with gate='relevance'" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="memori_core.config"):
        RecallConfig(gate="threshold", relevance_threshold=0.3)
        RecallConfig(gate="off")
        RecallConfig()
    assert caplog.text == ""


def test_groups_hold_every_field_exactly_once_in_declaration_order() -> None:
    names = [f.name for f in dataclasses.fields(RecallConfig)]
    grouped = [name for group in RecallConfig.GROUPS.values() for name in group]
    assert sorted(grouped) == sorted(names) and len(grouped) == len(set(grouped))
    assert grouped == names  # the class declares its fields group by group, in GROUPS' order


def test_gate_off_keeps_the_limit_best_and_the_old_none_spelling_warns_and_means_the_same() -> None:
    off = RecallConfig(gate="off")
    with pytest.warns(DeprecationWarning, match="gate='off'"):
        old = RecallConfig(relevance_threshold=None)
    assert old == off and old.gate == "off" and isinstance(old.relevance_threshold, float)
    with pytest.warns(DeprecationWarning):
        old_compat = RecallConfig.memori_compat(relevance_threshold=None)
    # The number is not read with the gate off; everything else is the compat config with gate="off".
    assert old_compat.replace(relevance_threshold=0.1) == RecallConfig.memori_compat(gate="off")


def test_env_threshold_none_selects_gate_off_without_a_deprecation_warning(monkeypatch) -> None:
    monkeypatch.setenv("MEMORI_RECALL_RELEVANCE_THRESHOLD", "none")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        cfg = RecallConfig.from_env(base=RecallConfig.memori_compat())
    assert cfg.gate == "off" and cfg.relevance_threshold == RecallConfig.memori_compat().relevance_threshold


def test_the_configuration_doc_names_every_environment_variable():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert [var for var in ENV_FIELDS if f"`{var}`" not in doc] == []


def test_from_env_reads_the_candidate_multiplier_and_ignores_one_below_one(monkeypatch, caplog):
    # Reviewer leftover: every formula knob tuned in docs/ranking.md had its variable but the pool's multiplier.
    monkeypatch.setenv("MEMORI_RECALL_CANDIDATE_MULTIPLIER", " 7 ")
    assert RecallConfig.from_env().candidate_multiplier == 7
    monkeypatch.setenv("MEMORI_RECALL_CANDIDATE_MULTIPLIER", "0")
    assert RecallConfig.from_env().candidate_multiplier == RecallConfig().candidate_multiplier
    assert "ignoring MEMORI_RECALL_CANDIDATE_MULTIPLIER='0'" in caplog.text
    assert "MEMORI_RECALL_CANDIDATE_MULTIPLIER" not in caplog.text.split("'0'")[-1]  # not "no such variable"


def test_a_bad_keyword_override_raises_and_the_bad_variables_are_still_warned_of(monkeypatch, caplog):
    monkeypatch.setenv("MEMORI_RECALL_LIMIT", "-3")
    with caplog.at_level(logging.WARNING, logger="memori_core.config"), pytest.raises(ValueError, match="limit"):
        RecallConfig.from_env(limit=-1)
    assert any("MEMORI_RECALL_LIMIT='-3'" in m for m in caplog.messages), caplog.messages
