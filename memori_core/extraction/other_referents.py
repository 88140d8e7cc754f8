"""Whether a clause names someone or something a later "he" / "she" may point at, other than the user's partner.

"he's coeliac" after "User is seeing Leo." is the partner's; but in "We adopted a cat from the shelter! Her name is
Mishi, she is 3 years old" the "she" is the cat, and in "my son is 5. he's in reception" the son. When a clause
before the pronoun names an animal, another person of the user's, or gives someone a name, the pronoun is not read
as the partner: nothing is stored of a named person rather than a guess (:func:`~.named.as_the_users`). Pure:
English patterns.
"""

from __future__ import annotations

from ..slots import PARTNERS, PERSON
from .activities import PETS
from .genders import gendered_words
from .patterns import rx, words

__all__ = ["names_someone_else"]

_SOMEONE_ELSE = rx(
    # someone of the user's other than a partner: "my son", "our neighbour", "my manager"
    rf"\b(?:my|our)\s+(?:[\w-]+\s+)?(?!(?:{words(*PARTNERS)})\b)(?:{PERSON}|{gendered_words()}|mate|manager|teacher|"
    r"doctor)\b|\b(?:someone|somebody)\b"
    # an animal: "a cat", "the new puppy", "our dog"
    rf"|\b(?:a|an|the|my|our|this|that)\s+(?:[\w-]+\s+){{0,2}}?(?:{PETS})\b"
    # a name given: "her name is Mishi", "a kitten called Mochi"
    r"|\b(?:his|her|its|their)\s+name\b|\b(?:called|named)\s+(?-i:[A-Z])"
)


def names_someone_else(clause: str) -> bool:
    """Whether ``clause`` names someone or something a "he" / "she" after it may be, other than the user's partner.

    >>> names_someone_else("We adopted a cat from the shelter!")
    True
    >>> names_someone_else("My wife and I went to Valencia")
    False
    """
    return _SOMEONE_ELSE.search(clause) is not None
