"""Introductions typed the chat way, which the rules of names and profiles did not read: "it's Dev, 19, ...", "it's
Oluwaseun but everyone just calls me Seun", "Thabo here - maths teacher at a secondary school in Soweto", and the
role typed alone in the sentence after the name ("... calls me Seun. final-year med student in Enugu").

:func:`as_self_introduced` says each as the statements the rules read ("I'm Dev, 19, ...", "My name is Thabo", "I'm
a maths teacher at ..."). "it's <Name>" is a name only at the start of a message's sentence, followed by an age, a
"but everyone calls me ..." or "here" ("it's Monday, 9am", "it's Paris, 2019" name no one: no age ends the item, or
the word is a day). A role typed alone is the user's only right after a sentence that gave their name: alone, "ICU
nurse, nights mostly." may be anyone's (issue 21, caprec3 tried it and kept it out). Pure: patterns, English only.
"""

from __future__ import annotations

import re
from ..calendar_words import CALENDAR_NAMES
from collections.abc import Sequence

from .profile_items import profile_statement
from .patterns import rx

__all__ = ["as_self_introduced"]

# Words of greeting before an introduction ("yo", "hey there", "Sawubona,"): one or two words and a comma, or a
# greeting word alone.
_GREETING = r"(?:(?:(?:hi|hey|hello|hiya|heya|yo|oh|ok|okay|so|morning|evening)(?:\s+there)?\s*[,!.]?\s+)|(?:[A-Z][a-z]+\s*[,!]\s+))?"
_NOT_NAMES = frozenset((*CALENDAR_NAMES, "me", "just", "not",
                        "ok", "okay", "fine", "been", "only", "still", "christmas", "easter", "time", "late", "early",
                        "raining", "cold", "hot", "true", "fine", "done", "over", "here", "there", "that", "this"))
# "it's Dev, 19", "it's Oluwaseun but everyone just calls me Seun", "it's Nkem here": the user's name, typed with a
# capital ("it's sunny, 25, perfect beach day" is the weather). After an age, the next item is the user's too: not
# "and it's lovely", "who broke the window", "perfect beach day" ("it's Paris, 19, and it's lovely").
_ITS_NAME = re.compile(
    rf"^(?P<greet>{_GREETING})(?:[Ii]t'?s|[Ii]t\s+is)\s+(?P<name>[A-Z][a-z\u00e0-\u00ff'-]+)"
    r"(?P<rest>\s*,\s*\d{1,2}(?:\s*(?:yo|y/o|years?\s+old))?\s*(?:[.!]|$|,(?!\s*(?:and(?!\s+i\b|\s+i'm\b)|who|which|"
    r"that|so|but|perfect|lovely|great|nice|degrees|already|and\s+it)\b)).*"
    r"|\s+but\s+(?:everyone|everybody|people|most\s+people|all\s+my\s+friends|my\s+friends|folks)\b.*)$",
    re.DOTALL,
)
# "it's Nkem here", "it's Jess here - quick question": a name, and what follows a dash or colon passed on; not
# "it's Python here, not Java".
_ITS_NAME_HERE = re.compile(
    rf"^(?P<greet>{_GREETING})(?:[Ii]t'?s|[Ii]t\s+is)\s+(?P<name>[A-Z][a-z\u00e0-\u00ff'-]+)\s+here\b"
    r"(?!\s*,?\s*not\b)(?:\s*(?:-|\u2013|\u2014|:)\s*(?P<rest>\S.*)|.*)$",
    re.DOTALL,
)
# "Thabo here - maths teacher at ...", "Sawubona, Thabo here: nurse in Durban": a name, then what the user is.
_NAME_HERE_DASH = re.compile(
    rf"^(?P<greet>{_GREETING})(?P<name>[A-Z][a-z\u00e0-\u00ff'-]+(?:\s+[A-Z][a-z\u00e0-\u00ff'-]+)?)\s+here"
    r"\s*(?:-|\u2013|\u2014|:)\s*(?P<rest>\S.*)$",
    re.DOTALL,
)
# A sentence that gives the user's name: after it, a role typed alone is theirs.
_GIVES_NAME = rx(r"^(?:\W*\w+\W+)?(?:i'm|i\s+am|im|my\s+name\s+is|name's|call\s+me)\s+(?-i:[A-Z])"
                 r"|\bcalls?\s+me\s+(?-i:[A-Z])|^(?-i:[A-Z])[a-z]+\s+here\b")
# "Oluwaseun is my name, though only my grandmother uses it, it's Seun to everyone else": the name told last, and
# the one the user goes by.
_IS_MY_NAME = re.compile(r"(?:^|(?<=[\s,.!]))(?P<name>[A-Z][a-z\u00e0-\u00ff'-]+)\s+is\s+my\s+(?:real\s+|full\s+)?name\b"
                         r"(?P<rest>.*)$", re.DOTALL)
_GOES_BY = rx(r"\bit'?s\s+(?P<nick>(?-i:[A-Z])[a-z'-]+)\s+to\s+(?:everyone|everybody|most\s+people|my\s+friends)\b")
# What follows the name that is the user's own clause ("..., and I'm a nurse").
_OWN_CLAUSE_AFTER = rx(r"^\s*[,.;]?\s*(?:and\s+|but\s+)?(?P<clause>(?:i|i'm|i've|i'd|im)\b.*)$")


def _its_name(sentence: str) -> list[str] | None:
    """``sentence`` with an opening "it's <Name>" said "I'm <Name>" ("it's <Name> here" as "My name is <Name>." and
    what follows its dash), ``None`` when it opens with none."""
    m = _ITS_NAME.match(sentence.strip())
    if m is not None and m.group("name").lower() not in _NOT_NAMES:
        return [f"{m.group('greet')}I'm {m.group('name')}{m.group('rest')}"]
    m = _ITS_NAME_HERE.match(sentence.strip())
    if m is None or m.group("name").lower() in _NOT_NAMES:
        return None
    return [f"My name is {m.group('name')}."] + ([m.group("rest")] if m.group("rest") else [])


def _name_here_told(sentence: str) -> list[str] | None:
    """``sentence`` "<Name> here - <what the user is>" as "My name is <Name>." and the role said as the user's
    ("I'm a maths teacher at ..."), ``None`` when it is not so."""
    m = _NAME_HERE_DASH.match(sentence.strip())
    if m is None or m.group("name").split()[0].lower() in _NOT_NAMES:
        return None
    rest = m.group("rest").strip()
    role = profile_statement(rest.rstrip(" .!"))
    return [f"My name is {m.group('name')}.", f"{role}." if role is not None else rest]


def _name_told_last(sentence: str) -> list[str] | None:
    """``sentence`` holding "<Name> is my name" as "My name is <Name>." (and "I go by <Nick>." of "it's <Nick> to
    everyone else"), with a clause of the user's after it kept; what else it says of the name is left out.
    ``None`` when it holds no such name."""
    m = _IS_MY_NAME.search(sentence)
    if m is None or m.group("name").lower() in _NOT_NAMES:
        return None
    said = [f"My name is {m.group('name')}."]
    nick = _GOES_BY.search(m.group("rest"))
    if nick is not None and nick.group("nick") != m.group("name"):
        said.append(f"I go by {nick.group('nick')}.")
    own = _OWN_CLAUSE_AFTER.match(m.group("rest"))
    return said + ([own.group("clause")] if own is not None else [])


def as_self_introduced(sentences: Sequence[str]) -> list[str]:
    """``sentences`` (one message's, in order) with the introductions above said the way the rules read them; any
    other sentence as it is.

    >>> as_self_introduced(["it's Oluwaseun but everyone just calls me Seun.", "final-year med student in Enugu"])
    ["I'm Oluwaseun but everyone just calls me Seun.", "I'm a final-year med student in Enugu."]
    >>> as_self_introduced(["it's Monday, 9 o'clock.", "nurse in Leeds"])
    ["it's Monday, 9 o'clock.", 'nurse in Leeds']
    """
    out: list[str] = []
    named = False  # the sentence before gave the user's name
    for sentence in sentences:
        its = _its_name(sentence)
        here = _name_here_told(sentence) or _name_told_last(sentence) if its is None else None
        role = profile_statement(sentence.strip().rstrip(" .!")) if named and its is None and here is None else None
        if its is not None:
            out += its
        elif here is not None:
            out += here
        elif role is not None:
            out.append(f"{role}.")
        else:
            out.append(sentence)
        named = its is not None or here is not None or bool(_GIVES_NAME.search(sentence))
    return out
