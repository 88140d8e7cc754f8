"""An optional judge for the relevance gate: one model call that says which candidates matter.

The offline gate reads cosines and BM25, so it misses needs the question does not name ("Is a ham
sandwich OK for me?" does not look like "User is vegetarian."). An app that can afford one extra
model call per recall passes ``RecallEngine(judge=...)``: the judge is shown the question, the
``RecallConfig.judge_candidates`` best candidates (ungated) and the earlier turns, and answers with
the indices of the facts relevant to a good answer. Recall keeps those, in rank order.

A judge is any callable ``judge(query, facts, context) -> indices`` (:class:`Judge`): a plain Python
function, or a model wrapped by ``memori_langchain.chat_model_judge`` / ``memori_llamaindex.llm_judge``,
which send :func:`judge_prompt` and read the reply with :func:`parse_judgement`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from numbers import Integral
from typing import Any, Protocol, runtime_checkable

__all__ = ["Judge", "as_indices", "judge_prompt", "parse_judgement"]


@runtime_checkable
class Judge(Protocol):
    """Decides which of a recall's best candidates are relevant to the query."""

    def __call__(self, query: str, facts: Sequence[str], context: Sequence[str]) -> Sequence[int]:
        """The 0-based indices into ``facts`` of the facts relevant to answering ``query`` (``[]``: none).

        ``context`` holds the earlier turns of the conversation, oldest first (may be empty). An
        exception, or a value that is not a sequence of indices into ``facts``, makes recall fall back
        to the gate's own decision.
        """
        ...


_INSTRUCTIONS = (
    "Which of these facts would change or inform a good answer to the user's message? Count implicit "
    "needs: a fact matters when a careful assistant should take it into account even though the message "
    "does not mention it, e.g. an allergy, a diet, a medication, a health condition, family, where the "
    "user lives or what they are planning. A fact that is merely on a related topic but would not affect "
    "the answer does not count.\n"
    'Answer with the numbers of the relevant facts separated by commas (for example: 1, 3), or "none" if '
    "no fact matters. Answer with nothing else."
)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def judge_prompt(query: str, facts: Sequence[str], context: Sequence[str] = ()) -> str:
    """The prompt a model judge is sent: the earlier turns (if any), the message, the facts numbered
    from 1, and the instructions (answer with the numbers of the relevant facts, or ``none``)."""
    parts = ["You decide which stored facts about a user matter for answering the user's latest message."]
    turns = [_one_line(t) for t in context if t.strip()]
    if turns:
        parts.append("Earlier in the conversation (oldest first):\n" + "\n".join(f"- {t}" for t in turns))
    parts.append(f"The user's message:\n{query.strip()}")
    parts.append("Stored facts:\n" + "\n".join(f"{i}. {_one_line(f)}" for i, f in enumerate(facts, start=1)))
    parts.append(_INSTRUCTIONS)
    return "\n\n".join(parts)


_NUMBER = re.compile(r"(?<![\w.])(\d+)(?:\s*(?:-|–|to)\s*(\d+))?(?![\w]|\.\d)")
_NONE_FIRST = re.compile(r"^\W*(none|nothing|no (relevant )?facts?)\b", re.IGNORECASE)
_NONE_WORD = re.compile(r"\b(none|nothing|no (relevant )?facts?|not relevant|irrelevant)\b", re.IGNORECASE)
_EMPTY_LIST = re.compile(r"^\W*\[\s*\]\W*$")


def parse_judgement(text: Any, n: int) -> list[int] | None:
    """The 0-based indices a model's reply names, for a prompt that numbered ``n`` facts from 1.

    Reads ``"1, 3"``, ``"[2]"``, ``"Facts 2 and 4."``, ``"1-3"``, ``"none"`` / ``"[]"`` and replies with
    prose around them. A reply that starts with "none", "nothing" or "no facts" is ``[]``; otherwise the
    numbers in it count, those outside 1..``n`` ignored (a reply naming only such numbers is not
    understood); a reply without numbers that says "none", "nothing" or "not relevant" is ``[]``.
    Returns the indices sorted, each once, or ``None`` when the reply cannot be understood (not a str,
    blank, no usable number and no "none").
    """
    if not isinstance(text, str) or not text.strip():
        return None
    if _NONE_FIRST.search(text) or _EMPTY_LIST.match(text):
        return []
    numbers: set[int] = set()
    found = False
    for m in _NUMBER.finditer(text):
        found = True
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo or hi - lo > n:
            hi = lo
        numbers.update(k for k in range(lo, hi + 1) if 1 <= k <= n)
    if numbers:
        return sorted(k - 1 for k in numbers)
    if not found and _NONE_WORD.search(text):
        return []
    return None


def as_indices(value: Any, n: int) -> list[int] | None:
    """A judge's answer checked: the distinct indices in ``0..n-1`` it names, in rank order (sorted), or
    ``None`` when it is not a sequence (list, tuple, set, array...) of ints all within that range."""
    if isinstance(value, (str, bytes, bytearray)) or not hasattr(value, "__iter__") or hasattr(value, "keys"):
        return None
    try:
        items = list(value)
    except Exception:
        return None
    out: set[int] = set()
    for item in items:
        if isinstance(item, bool) or not isinstance(item, Integral):
            return None
        k = int(item)
        if not 0 <= k < n:
            return None
        out.add(k)
    return sorted(out)
