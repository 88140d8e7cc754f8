"""The rankings and relevance gates an evaluation compares, as recall configs."""

from __future__ import annotations

from typing import Any

from ..config import RecallConfig

RANKINGS = ("default", "memori_compat", "dense", "bm25", "rrf")
"""Rankings scored by R@5 / R@10 / nDCG@10; ``rrf`` fuses the ``dense`` and ``bm25`` lists."""

GATES = ("default", "memori_compat", "default_no_threshold", "dense_no_threshold")
"""What ``recall()`` would inject: the shipped config and Memori's with their thresholds, two without."""


def _smoothing_off() -> dict[str, Any]:
    """Every knob that lets a fact borrow score from (or move past) other facts, turned off.

    Add any new such field (second hop, session prior, recency between facts...) here: the plain
    ``dense`` and ``bm25`` baselines then stay plain.
    """
    return {"neighbour_weight": 0.0, "second_neighbour_weight": 0.0, "session_weight": 0.0,
            "restatement_terms": None, "slot_recency_weight": 0.0}


def baseline_configs(default: RecallConfig) -> dict[str, RecallConfig]:
    """The compared rankings, every one with the threshold off (rankings are compared whole).

    ``default`` is the config under test; ``memori_compat`` upstream Memori's
    ranking; ``dense`` plain cosine (lexical part and smoothing off);
    ``bm25`` lexical only (BM25 over the whole memory, max-normalised).
    """
    return {
        "default": default.replace(gate="off"),
        "memori_compat": RecallConfig.memori_compat(gate="off"),
        "dense": default.replace(
            pool="dense", lex_weight=0.0, lex_weight_short=0.0, weight_clamp=(0.0, 0.0),
            **_smoothing_off(), gate="off",
        ),
        "bm25": default.replace(
            pool="union",  # BM25's own top P over the whole memory, whatever the default's pool
            lex_weight=1.0, lex_weight_short=1.0, weight_clamp=(1.0, 1.0),
            **_smoothing_off(), gate="off",
        ),
    }


def gate_configs(default: RecallConfig) -> dict[str, RecallConfig]:
    """The injections measured: ``default`` as given (its threshold on), ``memori_compat`` with its
    own threshold, and the ``default`` and plain-cosine rankings with the threshold off."""
    rankings = baseline_configs(default)
    return {
        "default": default,
        "memori_compat": RecallConfig.memori_compat(),
        "default_no_threshold": rankings["default"],
        "dense_no_threshold": rankings["dense"],
    }


def describe_gate(config: RecallConfig) -> str:
    """The gate of ``config`` in a few words, for report tables."""
    if config.gate == "off":
        return "no gate"
    if config.gate == "threshold":
        return f"threshold {config.relevance_threshold:g}"
    return (f"relevance gate: open {config.gate_open:g}, keep {config.gate_keep:g}, "
            f"confident {config.gate_confident:g}, band {config.gate_band:g}, words {config.gate_words:g}")
