"""Recall quality on benchmark files: the ``memori eval`` tasks, through the public API only.

A task is a list of :class:`Memory` (an entity's facts, added session by
session, and queries with their evidence fact ids, some of them abstention
queries with none). :func:`evaluate` adds every memory once to one in-memory
Chroma store and compares, with one engine per config over that store:

- rankings (threshold off): R@5, R@10, nDCG@10 per category and overall, over
  answerable queries, for the configs of :func:`baseline_configs` and RRF;
- injection: what ``recall()`` returns for the gates of :func:`gate_configs`
  (hit@k, R@1, facts per answerable query, clean abstentions, facts per
  abstention query).

Loaders: :func:`load_locomo` (LoCoMo conversations, see
:func:`conversation_memory`), :func:`load_memory` (LongMemEval-style chat
memories), :func:`load_prefeval` (PrefEval preferences among persona facts).
"""

from .app_memory import (
    KINDS,
    OFFTOPIC_KINDS,
    AppDialogue,
    AppFact,
    AppMemory,
    AppTurn,
    AppUser,
    evaluate_app_memory,
    load_app_memory,
)
from .configs import GATES, RANKINGS, baseline_configs, gate_configs
from .data import Fact, Memory, Query, count
from .embedding import CachingEmbedder, load_embedder
from .locomo import (
    CATEGORY_LABELS,
    CATEGORY_NAMES,
    Conversation,
    Question,
    Turn,
    conversation_memory,
    load_locomo,
    parse_session_date,
)
from .longmemeval import load_memory
from .metrics import Injection, Scores, ndcg_at, recall_at, reciprocal_rank_fusion, threshold_report
from .prefeval import load_prefeval, topic_category
from .report import app_memory_table, format_table, injection_table, progress_bar, rankings_table
from .runner import RANKING_DEPTH, RRF_DEPTH, RRF_K, evaluate

__all__ = [
    "CATEGORY_LABELS",
    "CATEGORY_NAMES",
    "GATES",
    "KINDS",
    "OFFTOPIC_KINDS",
    "RANKINGS",
    "RANKING_DEPTH",
    "RRF_DEPTH",
    "RRF_K",
    "AppDialogue",
    "AppFact",
    "AppMemory",
    "AppTurn",
    "AppUser",
    "CachingEmbedder",
    "Conversation",
    "Fact",
    "Injection",
    "Memory",
    "Query",
    "Question",
    "Scores",
    "Turn",
    "app_memory_table",
    "baseline_configs",
    "conversation_memory",
    "count",
    "evaluate",
    "evaluate_app_memory",
    "format_table",
    "gate_configs",
    "injection_table",
    "load_app_memory",
    "load_embedder",
    "load_locomo",
    "load_memory",
    "load_prefeval",
    "ndcg_at",
    "parse_session_date",
    "progress_bar",
    "rankings_table",
    "recall_at",
    "reciprocal_rank_fusion",
    "threshold_report",
    "topic_category",
]
