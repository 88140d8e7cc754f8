"""Prompt markup in an extracted fact: :func:`prompt_markup_in` says what; capture drops such facts before it stores
a turn (stored, they would be injected into later prompts)."""

from __future__ import annotations

import re
from functools import lru_cache

from ..context import fold_for_detection, hides_tag_or_token

_ROLES = ("system", "assistant", "developer", "human", "ai", "user", "model", "tool")
_SHOUTED_ROLE = re.compile(r"\b(?:SYSTEM|ASSISTANT|DEVELOPER)\s*:")


@lru_cache(maxsize=1)
def _markup_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The role-label and instruction patterns, over text as :func:`~memori_core.context.fold_for_detection`
    reads it (so their words are folded the same way: its prototypes spell "m" as "rn")."""

    def words(*ws: str) -> str:
        return "(?:" + "|".join(re.escape(fold_for_detection(w)) for w in ws) + ")"

    # A role label as a transcript or a prompt writes it: at the start of the text, a line or a sentence, or
    # after a tag or bracket ("User's operating system: Linux" is not one).
    role = re.compile(rf"(?:^|[\n.!?;>\])}}]\s*|\s\s){words(*_ROLES)}\s*:(?!\S)")
    # Instructions addressed to the model rather than statements about the user.
    instruction = re.compile(
        rf"\b{words('ignore', 'disregard', 'forget', 'override', 'bypass')}\s+"
        rf"(?:{words('all', 'any', 'the', 'your', 'of', 'my', 'every', 'these', 'those')}\s+)*"
        rf"{words('previous', 'prior', 'above', 'earlier', 'preceding', 'former', 'system', 'original', 'initial', 'safety', 'developer')}\s+"
        rf"{words('instruction', 'instructions', 'prompt', 'prompts', 'message', 'messages', 'rule', 'rules', 'directions', 'directives', 'context', 'guidelines')}\b"
        rf"|\b{words('reveal', 'print', 'show', 'repeat', 'leak', 'output', 'dump')}\s+(?:{words('me')}\s+)?"
        rf"(?:{words('the', 'your')}\s+)?(?:{words('full')}\s+)?{words('system')}\s+{words('prompt')}"
        rf"|\b{words('new')}\s+(?:{words('system')}\s+)?{words('instructions')}\s*:")
    return role, instruction


def prompt_markup_in(text: str) -> str | None:
    """What in ``text`` (an extracted fact) is prompt markup or an instruction to a model rather than a statement
    about the user, or ``None``: a ``<memori_context>`` tag or a chat-template control token (in any lookalike
    spelling), a role label ("SYSTEM:", "assistant:") or instruction text ("ignore (all) previous instructions",
    "reveal the system prompt"). Capture refuses such a fact: stored, it would be injected into later prompts."""
    if hides_tag_or_token(text):
        return "a prompt tag or control token"
    if _SHOUTED_ROLE.search(text):
        return "a role label"
    folded = fold_for_detection(text)
    role, instruction = _markup_patterns()
    if role.search(folded):
        return "a role label"
    if instruction.search(folded):
        return "an instruction to the model"
    return None
