"""The ``<memori_context>`` block written into system prompts."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from .validate import parse_utc

OPEN_TAG = "<memori_context>"
CLOSE_TAG = "</memori_context>"
PREAMBLE = (
    "Only use the relevant context if it is relevant to the user's query. "
    "Relevant context about the user:"
)

# Any spelling of the block's tags that a model might read as one: case,
# inner spaces, a closing slash, attributes.
_TAG_LIKE = re.compile(r"<(\s*/?\s*memori_context\b[^<>]*)>", re.IGNORECASE)
# The start of such a tag without its '>' (which a later line could supply).
_TAG_START = re.compile(r"<(?=\s*/?\s*memori_context\b)", re.IGNORECASE)


# Chat-template control tokens (ChatML and its kin: <|im_end|>, <|endoftext|>, <|eot_id|> ...).
_CONTROL_TOKEN = re.compile(r"<\|([^<>|]{0,64})\|>")


def _skeleton(text: str) -> str:
    """What a model may read: NFKC (fullwidth ＜ is <) without invisible format characters
    (zero-width spaces, soft hyphens, joiners, bidi marks), which can hide inside a tag."""
    folded = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")


def sanitize_fact(content: str) -> str:
    """Make stored text safe inside the block: one line, no tag that could open or close it (in any
    lookalike spelling), no chat-template control token."""
    one_line = " ".join(content.split())
    seen = _skeleton(one_line)
    if seen != one_line and (_TAG_START.search(seen) or _CONTROL_TOKEN.search(seen)):
        one_line = seen  # only a fact that hides a tag or token is rewritten to what the model would see
    escaped = _TAG_LIKE.sub(lambda m: f"&lt;{m.group(1)}&gt;", one_line)
    escaped = _CONTROL_TOKEN.sub(lambda m: f"&lt;|{m.group(1)}|&gt;", escaped)
    return _TAG_START.sub("&lt;", escaped)


def format_timestamp(created_at: Any, *, zone: bool = True) -> str | None:
    """``YYYY-MM-DD HH:MM UTC`` for a datetime or ISO 8601 string (``zone=False``: without the
    ``UTC``, upstream Memori's format); ``None`` if absent or unreadable."""
    if created_at is None or created_at == "":
        return None
    try:
        dt = parse_utc(created_at if isinstance(created_at, datetime) else str(created_at))
    except ValueError:
        return None
    return dt.strftime("%Y-%m-%d %H:%M UTC" if zone else "%Y-%m-%d %H:%M")


def format_fact_line(content: str, created_at: Any = None, *, zone: bool = True) -> str:
    """``- {content}. Stated at {YYYY-MM-DD HH:MM} UTC``; no timestamp gives ``- {content}``.

    ``zone=False`` leaves out the ``UTC`` (upstream Memori's line, what
    ``RecallConfig.memori_compat()`` asks for through ``time_zone_label``).
    """
    text = sanitize_fact(content)
    stamp = format_timestamp(created_at, zone=zone)
    if stamp is None:
        return f"- {text}"
    end = "" if text.endswith((".", "!", "?", "\u3002", "\uff01", "\uff1f")) else "."
    return f"- {text}{end} Stated at {stamp}"


def format_context(facts: Iterable[Any], *, zone: bool = True) -> str:
    """The ``<memori_context>`` block for recalled facts, or ``""`` when there are none.

    Accepts :class:`~memori_core.RecalledFact` objects or anything with
    ``content`` and ``created_at`` attributes (or such mapping keys). Times are
    UTC and say so (``zone=False``: Memori's format, without the label).
    """
    lines = []
    for fact in facts:
        if isinstance(fact, dict):
            content, created = fact.get("content"), fact.get("created_at")
        else:
            content, created = getattr(fact, "content", None), getattr(fact, "created_at", None)
        if not isinstance(content, str) or not content.strip():
            continue
        lines.append(format_fact_line(content, created, zone=zone))
    if not lines:
        return ""
    return "\n".join([OPEN_TAG, PREAMBLE, *lines, CLOSE_TAG])


def append_block(text: str | None, block: str) -> str:
    """Append ``block`` to existing prompt text, after a blank line; the block alone if ``text`` is empty."""
    if not text:
        return block
    return f"{text}\n\n{block}"
