"""Kept for evaluation.py until it uses the public API; the module is :mod:`memori_core.ranking.dense`."""

from .ranking.dense import *  # noqa: F403
