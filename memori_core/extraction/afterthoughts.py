"""Afterthoughts typed after a statement, left out of the fact: "I'm allergic to shellfish, forgot to say", "i've
decided to go vegan, watched a documentary and that was it". They say why or how the user tells it, not what holds;
kept in a core fact they would ride along on every turn. Pure: patterns, English only.
"""

from __future__ import annotations

from .patterns import rx

__all__ = ["without_afterthought"]

_AFTERTHOUGHT = rx(
    r"(?:\s*,\s*|\s+-\s+|\s*[\u2014\u2013]\s*)(?:"
    # "..., forgot to say", "..., meant to mention that earlier", "..., should have said"
    r"(?:i\s+)?(?:forgot|meant|wanted|should\s+have|should've)\s+(?:to\s+)?(?:say|said|mention|mentioned|tell\s+you|"
    r"told\s+you)(?:\s+(?:that|this|it|earlier|before|sooner))*"
    # "..., watched a documentary and that was it": the story of how it came about
    r"|(?!and\b|but\b)[^,;]{1,60}?\s+and\s+that\s+was\s+(?:it|that))"
    r"[\s.!]*$"
)


def without_afterthought(text: str) -> str:
    """``text`` without an afterthought after its statement; ``text`` itself when it has none.

    >>> without_afterthought("I'm allergic to shellfish, forgot to say.")
    "I'm allergic to shellfish"
    >>> without_afterthought("i've decided to go vegan, watched a documentary and that was it")
    "i've decided to go vegan"
    """
    cut = _AFTERTHOUGHT.sub("", text)
    return cut if len(cut.split()) >= 2 else text
