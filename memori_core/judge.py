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

__all__ = ["Judge", "UnreadableJudgement", "answer_part", "as_indices", "judge_prompt", "parse_judgement",
           "read_judgement"]


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


# a number, or a range "1-3" / "1 to 3"; a minus sign right before it ("-1", a common "none") makes it negative
_NUMBER = re.compile(r"(?<![\w.])(?P<minus>[-−](?=\d))?(\d+)(?:\s*(?:-|–|to)\s*(\d+))?(?![\w]|\.\d)")
_NUMBERS = r"[-−]?\d+(?:\s*(?:-|–|to)\s*\d+)?(?:\s*(?:,|;|and|&)\s*[-−]?\d+(?:\s*(?:-|–|to)\s*\d+)?)*"
# a line that is only an answer: "2", "[1, 3]", "1-3", "none", "[]", "Answer: 2", "Relevant: 1 and 3"
_BARE = re.compile(
    r"^(?:(?![-−]\d)\W)*(?:(?:final\s+)?answer|relevant(?:\s+facts?)?|facts?)?\s*:?\s*"
    rf"(?:[\[(]?\s*(?P<answer>{_NUMBERS}|none|nothing)\s*[\])]?|\[\s*\])\W*$",
    re.IGNORECASE,
)
_NONE_FIRST = re.compile(r"^\W*(none|nothing|no (relevant )?facts?)\s*(?:[.!;,:\n]|$)", re.IGNORECASE)
_NONE_WORD = re.compile(r"\b(none|nothing|no (relevant )?facts?|not relevant|irrelevant)\b|\[\s*\]", re.IGNORECASE)
_CLAUSE_END = re.compile(  # where one clause ends: its numbers are read as accepted or rejected together
    r"[;\n!?]|\.(?!\d)|,(?!\s*\d)|\b(?:because|since|whereas)\b"
    r"|\b(?:but|while|whereas)\b(?=\s+(?:facts?\s+|numbers?\s+)?\d)",
    re.IGNORECASE,
)
_NEGATED = re.compile(
    r"\b(?:not|irrelevant|unrelated|none|neither|nor|nothing|never|except|excluding|without)\b|n['’]t\b"
    r"|\bno\s+(?:bearing|relevance|effect|impact|role)\b",
    re.IGNORECASE,
)
_COUNTS = re.compile(  # a number that counts facts ("There are 3 facts", "2 of them", "all 3") names none of them
    r"\b\d+(?=\s+(?:(?!(?:and|or|to)\b)[a-z]+\s+)?(?:facts?|items?|statements?|ones?)\b|\s+of\b)"
    r"|(?<=\ball )\d+\b|(?<=\bamong )\d+\b|(?<=\bout of )\d+\b|(?<=\bthere are )\d+\b",
    re.IGNORECASE,
)


# what ends the prompt: a reply that echoes it (LlamaIndex's MockLLM, a chatty model) answers only after it
_PROMPT_END = _INSTRUCTIONS.rsplit(". ", 1)[-1]
# a line of a numbered list ("2. User gets seasick on boats."): the prompt's facts quoted back, unless it says a
# verdict ("2. relevant", "1. Yes")
_LISTED = re.compile(r"^\s*(?:[-*]\s*)?\d+[.)]\s+(?P<rest>\S.*?)\s*$")
_VERDICT = re.compile(
    r"\b(?:relevant|irrelevant|matters?|important|affects?|informs?|applies|useful|yes|no|not|none)\b|n['’]t\b",
    re.IGNORECASE,
)


def answer_part(text: str, facts: Sequence[str] = ()) -> str:
    """The part of a model's reply that answers: what follows the prompt when the reply echoes it, without the lines
    that only quote the prompt's numbered facts (a line that is one of ``facts``, or a numbered line that says no
    verdict), whose numbers repeat the prompt's list and name no choice."""
    if _PROMPT_END in text:
        text = text.rsplit(_PROMPT_END, 1)[1]
    quoted = {_one_line(f).casefold() for f in facts}
    kept = []
    for line in text.split("\n"):
        listed = _LISTED.match(line)
        if listed and (listed.group("rest").casefold() in quoted or not _VERDICT.search(listed.group("rest"))):
            continue
        kept.append(line)
    return "\n".join(kept)


def _numbers(text: str, n: int) -> tuple[set[int], bool]:
    """The fact numbers (1..``n``) that ``text`` names, ranges ("1-3") spread; and whether it held any number.
    A negative number ("-1") names no fact, like 0 or one past ``n``."""
    numbers: set[int] = set()
    found = False
    for m in _NUMBER.finditer(text):
        found = True
        if m.group("minus"):
            continue
        lo = int(m.group(2))
        hi = int(m.group(3)) if m.group(3) is not None else lo
        if hi < lo or hi - lo > n:
            hi = lo
        numbers.update(k for k in range(lo, hi + 1) if 1 <= k <= n)
    return numbers, found


def parse_judgement(text: Any, n: int, facts: Sequence[str] = ()) -> list[int] | None:
    """The 0-based indices a model's reply names as relevant, for a prompt that numbered ``n`` facts from 1
    (``facts``: those facts, when known).

    The verdict is read from the answer part (:func:`answer_part`): a reply that echoes the prompt is read after it,
    and lines that only quote the numbered facts ("1. User lives in Lyon.") name nothing, so "Looking at the
    facts: 1. ... 2. ... 3. ... None of these matter." is ``[]``, and the prompt echoed with nothing after it is
    ``None``.

    Reads ``"1, 3"``, ``"[2]"``, ``"Facts 2 and 4."``, ``"1-3"``, ``"none"`` / ``"[]"`` / ``"Answer: []"`` and
    replies with prose around them:

    - a first line that is only an answer (``"2"``, ``"Answer: [1, 3]"``, ``"none"``) is the answer, whatever
      explanation follows (``"2\n\nExplanation: 1 is about location, 3 about food."`` is fact 2);
    - a reply that starts with "none", "nothing" or "no facts" as its own phrase (``"None."``) is ``[]``;
    - otherwise the reply is read clause by clause (split at ``. ; ! ?``, line breaks, commas before words,
      "because", and "but" / "while" before a number): the numbers of a clause that says "not", "n't",
      "irrelevant", "none", "neither", "except"... are rejected, the others are the answer
      (``"Fact 2 is relevant; facts 1 and 3 are not."`` is fact 2). A number that counts facts
      (``"There are 3 facts"``, ``"2 of them"``, ``"all 3"``) names none. Numbers outside 1..``n``, negative
      ones (``"-1"``) and 0 included, name no fact: they are ignored, never read as another number.

    Returns the indices sorted, each once; ``[]`` when the reply says no fact matters (without numbers, or
    rejecting every fact by number); ``None`` when it cannot be understood or is ambiguous (not a str, blank,
    only numbers outside the range, a number both accepted and rejected, or only rejections that leave some
    facts unjudged), so that recall falls back to the gate rather than guess.
    """
    if not isinstance(text, str) or not text.strip():
        return None
    answer = answer_part(text, facts)
    picked = _parse(answer, n) if answer.strip() else None
    if picked is None:
        # only the quoted list says anything ("Relevant:\n3. User is allergic to peanuts."): the list is the
        # answer, unless it quotes every fact (an echo, or no choice made)
        listed = text.rsplit(_PROMPT_END, 1)[1] if _PROMPT_END in text else text
        picked = _parse(listed, n) if listed.strip() and listed != answer else None
        if picked is not None and len(picked) == n:
            return None
    return picked


def _parse(text: str, n: int) -> list[int] | None:
    """:func:`parse_judgement` of a reply's answer part."""
    first_line = text.strip().split("\n", 1)[0]
    bare = _BARE.match(first_line)
    if bare:
        answer = bare.group("answer")
        if not answer or answer.lower() in ("none", "nothing"):
            return []
        numbers, _ = _numbers(answer, n)
        return sorted(k - 1 for k in numbers) if numbers else None
    if _NONE_FIRST.search(text):
        return []
    accepted: set[int] = set()
    rejected: set[int] = set()
    found = False
    for clause in _CLAUSE_END.split(_COUNTS.sub(" ", text)):
        numbers, any_number = _numbers(clause, n)
        found = found or any_number
        (rejected if _NEGATED.search(clause) else accepted).update(numbers)
    if accepted & rejected:
        return None  # the same fact said relevant and not: not understood
    if accepted:
        return sorted(k - 1 for k in accepted)
    if rejected and rejected == set(range(1, n + 1)):
        return []  # every fact rejected by number
    if not found and _NONE_WORD.search(text):
        return []
    return None


class UnreadableJudgement(ValueError):
    """A model judge's reply that :func:`parse_judgement` cannot read (no fact number and not "none", or
    ambiguous). Something models do routinely, not a bug: recall logs it as one WARNING line, without a
    traceback, and lets its gate decide."""


def read_judgement(text: Any, n: int, facts: Sequence[str] = ()) -> list[int]:
    """:func:`parse_judgement` for a judge to return: the 0-based indices ``text`` names among ``n`` facts (``facts``:
    their texts, so that a reply quoting them is read right), or :class:`UnreadableJudgement` (quoting the start of
    the reply) where that gives ``None``."""
    picked = parse_judgement(text, n, facts)
    if picked is None and isinstance(text, str) and text.rstrip().endswith(_PROMPT_END):
        raise UnreadableJudgement("the judge's reply only repeats its prompt (a mock model that echoes it?)")
    if picked is None:
        shown = " ".join(str(text).split())
        raise UnreadableJudgement(
            f"the judge's reply names no fact number and not 'none': {shown[:200]!r}"
            + (" (cut)" if len(shown) > 200 else "")
        )
    return picked


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
