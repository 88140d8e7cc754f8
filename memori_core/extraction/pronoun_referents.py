"""Whom a "he" / "she" that opens a message is, from what the user told just before: "She has high blood pressure
and takes amlodipine." right after "My mum is moving in with us next month." is the mum's fact.

A message read alone has no one for its first "she"; capture shows the rules the stored facts, among them those of
the user's previous turn. When those facts name exactly one person of the user's of that gender ("User's mum ...",
"User's son Obi is 6."), the pronoun is that person (:func:`with_opening_pronoun_resolved`: "My mum has high blood
pressure ..."); when they name none, or more than one ("User's mum and sister are visiting."), the sentence is left
as it is, and the rules keep nothing of it rather than guess. A partner counts among them, but one named alone is
left to :func:`~memori_core.extraction.named.partner_of` and the partner rules, as before. Pure: English patterns.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..slots import NAME, PARTNERS, holder, placed
from .grammar import contracted_verb
from .genders import gendered_words, may_be
from .leads import strip_lead
from .named import partner_of
from .other_referents import others_named

__all__ = ["newest_told", "opens_with_pronoun", "referent", "said_of_one", "with_opening_pronoun_resolved"]

# Someone of the user's a stored fact names: "User's mum", "User's older sister Ana", "their husband Emeka".
_KIN = rf"(?:user's|their)\s+{placed('late', 'baby')}"
_NAME = rf"(?:\s+(?P<name>{NAME}))?"
_GENDERED = gendered_words()
_PEOPLE = re.compile(rf"\b{_KIN}(?P<kin>{_GENDERED})\b(?!'s\s+(?:{_GENDERED})\b){_NAME}", re.IGNORECASE)
# A message opening with "he" / "she": "She has ...", "she's on ...", "He is ...".
_OPENING = re.compile(r"^(?P<lead>\W*)(?P<p>he|she)(?P<rest>(?:'s|\u2019s)?\s+\S.*)$", re.IGNORECASE | re.DOTALL)
# Not a name: a word after the kin word that is a verb or a function word ("User's mum Is", "User's son Arjun").
_NOT_A_NAME = frozenset("is was has had and but who lives works".split())


def referent(pronoun: str, facts: Sequence[str]) -> str | None:
    """The one person of the user's of ``pronoun``'s gender ("he", "she") ``facts`` name, as the user says them
    ("my mum", "my husband Emeka"); ``None`` when they name none, or more than one.

    >>> referent("she", ["User's mum is moving in with them in November 2026 from Lagos."])
    'my mum'
    >>> referent("she", ["User's mum and User's sister Ana are visiting."]) is None
    True
    >>> referent("he", ["User and their husband Emeka have two kids.", "User's son Obi is 6."]) is None
    True
    >>> referent("he", ["User's son Obi is 6."])
    'my son Obi'
    >>> referent("he", ["User's husband is a long-haul trucker."])
    'my husband'
    """
    found: dict[str, str] = {}
    for text in facts:
        for m in _PEOPLE.finditer(text):
            kin, name = m.group("kin").lower(), m.group("name")
            if not may_be(pronoun, kin, ungendered=False):
                continue
            name = name if name is not None and name.lower() not in _NOT_A_NAME else None
            who = holder(f"User's {kin}")
            said = found.get(who)
            found[who] = f"my {kin} {name}" if name else said or f"my {kin}"
    # a partner counts as someone a pronoun may be, but is read by the partner rules (.named.partner_of, .events)
    if len(found) != 1:
        return None  # none, or more than one
    who, said = next(iter(found.items()))
    if who in PARTNERS and (said != f"my {who}" or partner_of(facts, pronoun) is not None):
        return None  # the partner by name, whom the partner rules read ("SHE SAID YES!!!")
    return said  # an unnamed partner ("my husband") the partner rules have no name for


def with_opening_pronoun_resolved(text: str, facts: Sequence[str]) -> str:
    """``text`` (a user message) with a "he" / "she" that opens it said as the one person of the user's of that
    gender ``facts`` name (:func:`referent`); ``text`` as it is otherwise.

    >>> with_opening_pronoun_resolved("She has high blood pressure.", ["User's mum lives with the user."])
    'My mum has high blood pressure.'
    >>> with_opening_pronoun_resolved("She has high blood pressure.", ["User's dad lives with the user."])
    'She has high blood pressure.'
    >>> with_opening_pronoun_resolved("Good news, she's off the ward!", ["User's mum is in hospital."])
    'Good news, My mum is off the ward!'
    """
    m = _OPENING.match(text)
    lead = ""
    if m is None:  # "Good news on the home front, he took a job with FedEx": the pronoun opens the news
        body = strip_lead(text)
        m = _OPENING.match(body) if body != text and text.endswith(body) else None
        if m is None:
            return text
        lead = text[: len(text) - len(body)]
    who = referent(m.group("p"), facts)
    if who is None:
        return text
    rest = m.group("rest")
    contracted = re.match(r"(?:'s|\u2019s)\s+(?P<after>\S.*)$", rest, re.DOTALL)
    if contracted is not None:  # "she's moved to Leeds": "My sister Ana has moved ...", not "... Ana's moved ..."
        rest = f" {contracted_verb(contracted.group('after'))} {contracted.group('after')}"
    return f"{lead}{m.group('lead')}{who[:1].upper()}{who[1:]}{rest}"


def newest_told(facts: Sequence[Any]) -> list[str]:
    """The texts of the ``facts`` shown to an extractor that were stated last (the same ``stated_at``, else
    ``created_at``: what the user's previous turn stored); all of them when none says when it was stated."""
    when = [getattr(f, "stated_at", None) or getattr(f, "created_at", None) for f in facts]
    stamps = [w for w in when if isinstance(w, str) and w]
    if not stamps:
        return [f.content for f in facts]
    last = max(stamps)
    return [f.content for f, w in zip(facts, when) if w == last]


def opens_with_pronoun(text: str) -> bool:
    """Whether the user message ``text`` opens with "he" / "she" ("She has high blood pressure.")."""
    return _OPENING.match(text) is not None


_SAID_PERSON = re.compile(rf"\b(?:my|our|and|&)\s+(?:[\w-]+\s+)?(?P<kin>{_GENDERED})\b", re.IGNORECASE)


def said_of_one(pronoun: str, said: Sequence[str]) -> bool:
    """Whether the user's own words ``said`` (the clauses of a message before a "he" / "she") name exactly one
    person of the user's of ``pronoun``'s gender, and no one else the pronoun may be: "My mum and sister live in
    Leeds." names two for "she", "My wife and I had dinner with Tom's sister" someone else's sister, and a "she"
    after either is no one's the rules can tell.

    >>> said_of_one("she", ["My mum and sister live in Leeds."])
    False
    >>> said_of_one("she", ["My wife and I both work in Bengaluru."])
    True
    >>> said_of_one("she", ["My wife and I had dinner with Tom's sister"])
    False
    """
    others = [word for text in said for word in others_named(text)]
    if any(not word or may_be(pronoun.lower(), word, ungendered=True) for word in others):
        return False  # someone else of that gender, or by a name, whom the "she" may be
    kin = {holder(f"User's {m.group('kin').lower()}") for text in said for m in _SAID_PERSON.finditer(text)
           if may_be(pronoun.lower(), m.group("kin").lower(), ungendered=False)}
    return len(kin) == 1
