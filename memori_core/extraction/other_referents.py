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

__all__ = ["names_someone_else", "others_named"]

# Someone other than the user's own people, and the word that says who (its gender, if any): "his grandmother",
# "Tom's sister", "her boss Sarah" (kin), "a woman at the park" (person).
_OTHERS = (rf"\b(?:(?:his|her|their)|(?-i:[A-Z])[\w-]+'s)\s+(?:[\w-]+\s+)?(?P<kin>{PERSON}|{gendered_words()})\b"
           r"|\b(?:a|an|this|that|some)\s+(?:[\w-]+\s+)?(?P<person>woman|man|girl|boy|lady|guy|gentleman)\b")
# Someone told by name alone ("dinner with Sarah"), who may be the user's partner told by name: not among _OTHERS.
_OTHER = rx(rf"{_OTHERS}|\b(?:with|met|meet|visited|saw|and)\s+(?P<name>(?-i:[A-Z])[a-z]+)\b(?!'s)")
_SOMEONE_ELSE = rx(
    # someone of the user's other than a partner: "my son", "our neighbour", "my manager"
    rf"\b(?:my|our)\s+(?:[\w-]+\s+)?(?!(?:{words(*PARTNERS)})\b)(?:{PERSON}|{gendered_words()}|mate|manager|teacher|"
    r"doctor)\b|\b(?:someone|somebody)\b"
    # an animal: "a cat", "the new puppy", "our dog"
    rf"|\b(?:a|an|the|my|our|this|that)\s+(?:[\w-]+\s+){{0,2}}?(?:{PETS})\b"
    # a name given: "her name is Mishi", "a kitten called Mochi"
    r"|\b(?:his|her|its|their)\s+name\b|\b(?:called|named)\s+(?-i:[A-Z])"
    # someone of another's: "his grandmother", "Tom's sister", "her boss Sarah"; someone met: "a woman at the park"
    rf"|{_OTHERS}"
)


def names_someone_else(clause: str) -> bool:
    """Whether ``clause`` names someone or something a "he" / "she" after it may be, other than the user's partner.

    >>> names_someone_else("We adopted a cat from the shelter!")
    True
    >>> names_someone_else("My wife and I went to Valencia")
    False
    """
    return _SOMEONE_ELSE.search(clause) is not None


def others_named(clause: str) -> list[str]:
    """The people ``clause`` names who are not the user's own, each as the word that says who ("grandmother",
    "woman"), or ``""`` for one told by name alone, whose gender the rules do not know.

    >>> others_named("My wife and I had dinner with Tom's sister")
    ['sister']
    >>> others_named("My wife and I both work in Bengaluru")
    []
    """
    return [(m.group("kin") or m.group("person") or "").lower() for m in _OTHER.finditer(clause)]
