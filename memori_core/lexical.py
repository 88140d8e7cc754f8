"""Kept for evaluation.py until it uses the public API; the module is :mod:`memori_core.ranking.lexical`."""

from .ranking.lexical import *  # noqa: F403
