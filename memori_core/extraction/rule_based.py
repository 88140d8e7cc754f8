"""The default extractor: the user's first-person statements as "User ..." facts, by the English rules."""

from __future__ import annotations

from collections.abc import Sequence

from ..text import normalize_fact_text
from .core_facts import CoreRule, check_core_rule, is_core_fact
from .rules import SentenceVerdict, judge_sentence
from .sentences import split_sentences
from .types import DEFAULT_MAX_FACT_CHARS, ExtractedFact, KnownFact, MessageLike, as_messages

__all__ = ["RuleBasedFactExtractor"]


class RuleBasedFactExtractor:
    """The default extractor: first-person statements about the user, as "User ..." facts; no model, no I/O.

    >>> RuleBasedFactExtractor().extract([("user", "Thanks! I'm vegetarian and my daughter Mia is 7. Any ideas?")])
    [ExtractedFact(text='User is vegetarian and their daughter Mia is 7.', supersedes=(), core=True)]

    Each user message is cut into sentences; a sentence is kept only when,
    once leading interjections ("Oh,", "Thanks!", "Just so you know,") are
    cut, it is a statement whose subject is the user ("I ...", "My ...",
    "We ...", or "Last month I ..."). Dropped: questions (a question clause
    after a statement is cut off: "I'm vegetarian, what should I cook?" keeps
    "I'm vegetarian"), greetings / thanks / small talk ("I'm good", "I see"),
    instructions and requests ("write me a poem", "can you ...", "I need a
    recipe", "I'm looking for ..."), anything addressed to the assistant
    (you / your: "I think you should ..."), hypotheticals and wishes ("If I
    were rich ...", "I'd love ...", "I wish ..."), opinions that are not about
    the user ("I think it will rain"). A hedged statement about the user ("I
    think I'm allergic to cats") is kept as said.

    Rewrites: "I'm/I am X" -> "User is X", "I have" -> "User has", "I work"
    -> "User works" (for common verbs), "I moved" -> "User moved", "My X" ->
    "User's X"; a later "my" becomes "their". When the sentence has another
    first-person pronoun, or an unknown verb, it is kept as said. Curly
    apostrophes count as straight ones. Assistant messages are ignored.

    A kept fact is ``core`` when ``core_rule(fact_text)`` says so (default
    :func:`is_core_fact`: allergies, intolerances, medication, dietary
    restrictions); capture then stores it with ``core=True`` and recall
    injects it on every turn. ``core_rule=None`` marks no fact core.
    """

    uses_existing_facts = False
    """The rules never look at stored facts (and never supersede any)."""

    def __init__(
        self, *, max_chars: int = DEFAULT_MAX_FACT_CHARS, core_rule: CoreRule | None = is_core_fact
    ) -> None:
        """``max_chars``: a longer sentence is not a fact (a paste, a story) and is dropped. ``core_rule``:
        which kept facts are core (``None``: none)."""
        if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
            raise ValueError(f"max_chars must be a positive int, got {max_chars!r}")
        self.max_chars = max_chars
        self.core_rule = check_core_rule(core_rule)

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        """The kept facts of the user messages in ``messages``, in order, without repeats."""
        facts: list[ExtractedFact] = []
        seen: set[str] = set()
        for message in as_messages(messages):
            if message.role not in ("user", "human"):
                continue
            for verdict in self.explain(message.text):
                if verdict.fact is None:
                    continue
                key = normalize_fact_text(verdict.fact)
                if key not in seen:
                    seen.add(key)
                    core = self.core_rule is not None and bool(self.core_rule(verdict.fact))
                    facts.append(ExtractedFact(verdict.fact, core=core))
        return facts

    def explain(self, text: str) -> list[SentenceVerdict]:
        """The decision for every sentence of one user message: the fact kept (or ``None``) and the reason."""
        return [self.judge(sentence) for sentence in split_sentences(text)]

    def judge(self, sentence: str) -> SentenceVerdict:
        """The decision for one sentence (:func:`~memori_core.extraction.rules.judge_sentence`)."""
        return judge_sentence(sentence, self.max_chars)
