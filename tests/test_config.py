"""RecallConfig: design defaults, immutability, memori_compat, from_env, validation."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from memori_core.config import ENV_FIELDS, RecallConfig

# The product defaults: DESIGN.md section 2 ("Defaults", and "Beyond Memori":
# union pool, Snowball stemming, b = 0.4, lexical weight 0.35 for every query
# length, neighbour smoothing 0.3) and the tokenizer of section 3. The relevance
# threshold is calibrated on LoCoMo (issue 5), so it is only checked for range.
DESIGN_DEFAULTS = {
    "limit": 5,
    "dense_limit": None,
    "lex_weight": 0.35,
    "lex_weight_short": 0.35,
    "short_query_max_tokens": 2,
    "weight_clamp": (0.05, 0.40),
    "candidate_multiplier": 10,
    "candidate_floor": 50,
    "k1": 1.2,
    "b": 0.4,
    "tokenizer": "unicode",
    "stemmer": "english",
    "pool": "union",
    "neighbour_weight": 0.3,
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
}


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for var in ENV_FIELDS:
        monkeypatch.delenv(var, raising=False)


def test_defaults_are_the_design_defaults():
    cfg = RecallConfig()
    for name, value in DESIGN_DEFAULTS.items():
        assert getattr(cfg, name) == value, name
    assert isinstance(cfg.relevance_threshold, float) and 0.0 < cfg.relevance_threshold < 1.0


def test_every_field_has_a_design_default():
    assert {f.name for f in dataclasses.fields(RecallConfig)} == set(DESIGN_DEFAULTS) | {"relevance_threshold"}


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
    cfg = RecallConfig.memori_compat(relevance_threshold=None, dense_limit=20)
    assert cfg.relevance_threshold is None
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
    ("MEMORI_RECALL_RELEVANCE_THRESHOLD", "none", "relevance_threshold", None),
    ("MEMORI_RECALL_RELEVANCE_THRESHOLD", "OFF", "relevance_threshold", None),
    ("MEMORI_RECALL_DENSE_LIMIT", "all", "dense_limit", None),
    ("MEMORI_RECALL_LEX_WEIGHT", " 0.2 ", "lex_weight", 0.2),
    # An out-of-range weight is stored as given; the fusion clamps it (as upstream does).
    ("MEMORI_RECALL_LEX_WEIGHT", "0.9", "lex_weight", 0.9),
])
def test_from_env_special_values(monkeypatch, var, raw, field, value):
    monkeypatch.setenv(var, raw)
    assert getattr(RecallConfig.from_env(), field) == value


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
    base = RecallConfig.memori_compat(relevance_threshold=None)
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


def test_valid_edge_values_are_accepted():
    cfg = RecallConfig(limit=0, dense_limit=1, relevance_threshold=None, weight_clamp=(0.0, 1.0),
                       candidate_floor=0, k1=0.0, b=0.0, short_query_max_tokens=0)
    assert cfg.limit == 0 and cfg.relevance_threshold is None
    assert RecallConfig(relevance_threshold=-1.0).relevance_threshold == -1.0
