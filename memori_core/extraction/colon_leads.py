"""A lead that ends at a colon, before the user's own statement: "small update since you'll be giving me recipes:
I'm not vegan anymore", "quick rundown before you plan anything: we've got twins", "note for myself: I'm allergic
to penicillin".

What stands before the colon says why the user tells it (news, context, a note for the chat), never a fact of the
user's: it has no first-person subject ("I", "we"; nor does it open with "my" or "our": "my sister is visiting:").
What follows starts with one. The rules read the
statement alone (:func:`cut_colon_lead`), as they read it after the leads :mod:`.leads` names ("Quick update: ...").
A lead holding the user's own words ("I have two things to say: I'm ...") and a list after a label ("Diet: vegan,
no nuts") are left as they are. Pure: one pattern, English only (issue 21, capprec6: read from dev18's
"small update since you'll be giving me recipes:").
"""

from __future__ import annotations

import re

from ..validate import check_str

__all__ = ["COLON_LEAD", "cut_colon_lead"]

_FIRST_PERSON = r"(?:i|i'm|i've|i'd|i'll|im|ive|my|me|myself|we|we're|we've|we'd|we'll|our|us)"
COLON_LEAD = re.compile(
    rf"^(?!(?:my|our)\b)(?![^:]*\b(?:i|i'm|i've|i'd|i'll|im|ive|we|we're|we've|we'd|we'll)\b)"  # no first-person subject
    rf"[^:.!?\n]{{3,90}}:\s+(?={_FIRST_PERSON}\b)",
    re.IGNORECASE,
)
"""Matches a lead of up to 90 characters with no first-person subject, ending at a colon before a first-person
statement, and the space after the colon."""


def cut_colon_lead(text: str) -> str:
    """``text`` without a lead that ends at a colon before the user's own statement, or ``text`` as it is.

    >>> cut_colon_lead("small update since you'll be giving me recipes: I'm not vegan anymore")
    "I'm not vegan anymore"
    >>> cut_colon_lead("I have two things to say: I'm vegan and I'm 40")
    "I have two things to say: I'm vegan and I'm 40"
    >>> cut_colon_lead("Diet: vegan, no nuts")
    'Diet: vegan, no nuts'
    """
    check_str(text, "text")
    m = COLON_LEAD.match(text)
    return text[m.end():] if m is not None else text
