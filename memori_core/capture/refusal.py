"""Why a text is not stored: the one check by which capture, the memory tools and the LangGraph store refuse.

A fact that carries a secret (:func:`~memori_core.capture.secret_in`) or prompt markup
(:func:`~memori_core.capture.prompt_markup_in`) is not stored: kept, it would be put in later prompts.
:func:`refused_because` runs both checks and says what the text carries and why memory does not keep it, in the
words every surface's error uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from .markup import prompt_markup_in
from .secrets import secret_in

__all__ = ["MARKUP", "SECRET", "Refusal", "refused_because"]

SECRET = "secret"
""":attr:`Refusal.kind` of a text carrying a secret (a password, a card, account or ID number, a key)."""

MARKUP = "markup"
""":attr:`Refusal.kind` of a text carrying prompt markup or an instruction to a model."""

_NOT_KEPT = {
    SECRET: "passwords, card, account and ID numbers and keys are not kept in memory",
    MARKUP: "memory keeps statements about the user, not prompt markup or instructions to a model",
}


@dataclass(frozen=True)
class Refusal:
    """Why a text is refused: its :attr:`kind` (:data:`SECRET` or :data:`MARKUP`) and what it :attr:`carries`
    ("a password or PIN", "a role label": never the text itself)."""

    kind: str
    carries: str

    @property
    def not_kept(self) -> str:
        """Why memory does not keep such a text, as the refusals say it."""
        return _NOT_KEPT[self.kind]


def refused_because(text: str) -> Refusal | None:
    """Why ``text`` may not be stored, or ``None``: a secret (checked first), else prompt markup or an
    instruction to a model."""
    kind = secret_in(text)
    if kind:
        return Refusal(SECRET, kind)
    found = prompt_markup_in(text)
    return Refusal(MARKUP, found) if found else None
