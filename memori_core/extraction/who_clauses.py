"""Someone of the user's named first, then a "who" clause set off by commas: "My brother Sam, who is a nurse, just
moved to Leeds", "My mum, whose hip is bad, is moving in with us", "Our neighbour Raj, who I carpool with, just
had a baby"; or the user: "I, who never cook, just bought a wok".

Cut at its commas as two clauses, the part after the "who" clause was read without its subject ("just moved to
Leeds") and kept as the user's own move, ending the user's stored home. The person stays the subject of the main
clause; what the "who" clause tells of them is a statement of its own ("My brother Sam is a nurse", "My mum's hip
is bad"), or nothing when the person is its object ("who I carpool with"). Pure: patterns, English only.
"""

from __future__ import annotations

from ..slots import PERSON
from .activities import PETS
from .genders import may_be
from .patterns import rx

__all__ = ["split_who_clause"]

# "my brother", "our eldest daughter", "my sister-in-law", "my dog", each with a name after it or not ("My brother
# Sam"); or a name alone ("Sam"), told with "who" (a "which" after a name is of a place or a thing).
_SOMEONE = (
    rf"(?:(?:my|our)\s+(?:[\w-]+\s+)?(?:{PERSON}|{PETS})(?:-in-law)?(?:\s+(?-i:[A-Z])[\w\u00e0-\u00ff'-]+)?"
    r"|(?P<name>(?-i:[A-Z])[a-z\u00e0-\u00ff]+)"
    r"|(?P<me>(?-i:I)))"
)
# One more of the user's before the one the clause tells of: "My wife Priya and our daughter Anika, she's 4, ...".
_ONE_MORE = (
    rf"(?:my|our)\s+(?:[\w-]+\s+)?(?:{PERSON}|{PETS})(?:-in-law)?(?:\s+(?-i:[A-Z])[\w\u00e0-\u00ff'-]+)?"
    r"|(?-i:[A-Z])[a-z\u00e0-\u00ff]+"
)
# The "who" clause set off by commas, dashes or brackets, then the main clause's verb phrase in lower case; or a
# "she's" / "he's" aside in its place ("..., she's 4, ...").
_OPENED_BY_SOMEONE = rx(
    rf"^(?P<first>(?:{_ONE_MORE})\s+and\s+)?(?P<someone>{_SOMEONE})"
    r"(?:(?P<bracket>\s+\()|(?P<dash>\s+[-\u2013\u2014]+\s+)|\s*,\s+)"
    r"(?P<who>(?:(?P<pronoun>who|whose|which)\s+|(?P<aside>she|he)(?:'s|\s+is)\s+)[^,()\u2013\u2014]+?)"
    r"(?(bracket)\)\s*,?\s+|(?(dash)\s+[-\u2013\u2014]+\s+|\s*,\s+))"
    # the main clause: a verb phrase (not a new subject: "..., we look after her")
    r"(?P<rest>(?!(?:i|we|you|he|she|they|it|it's|this|that|there|my|our)\b)(?-i:[a-z])[\w'-]*\b.*)$"
)
_ASIDE_VERB = rx(r"^(?:she|he)(?:'s|\s+is)\s+")
# "who I carpool with", "who we adore", "whom Sam met": the person is the object of the "who" clause.
_OBJECT_OF_IT = rx(r"^(?:who|which|whom)\s+(?:i|i've|i'd|we|we've|you|he|she|they|my|our|(?-i:[A-Z])\w+)\b")
# "Honestly, who knew, ...", "Sam, who cares, ...": said in wonder, nothing told of anyone.
_IN_WONDER = rx(r"^who\s+(?:knew|cares|would\s+have\s+(?:thought|guessed)|'d\s+have\s+thought)\b")
# Words that open a sentence in capitals and are no one's name.
_NOT_NAMES = frozenset(
    "so well ok okay oh yes yeah no anyway also and but then now today yesterday tomorrow honestly basically "
    "actually apparently anyhow hey hi hello thanks update btw fyi ps".split()
)


def _role_of(someone: str) -> str:
    """The word for whom ``someone`` is ("our daughter Anika" -> "daughter"; a bare name -> "")."""
    said = someone.split()
    return said[-2] if len(said) > 2 or (len(said) == 2 and said[-1][:1].isupper()) else \
        said[-1] if said[0].lower() in ("my", "our") else ""


def split_who_clause(sentence: str) -> list[str] | None:
    """``sentence`` opened by someone of the user's and a "who" clause set off by commas, cut as the main clause
    with that person as its subject and what the "who" clause tells of them; ``None`` for any other sentence.

    >>> split_who_clause("My brother Sam, who is a nurse, just moved to Leeds.")
    ['My brother Sam just moved to Leeds.', 'My brother Sam is a nurse']
    >>> split_who_clause("My mum, whose hip is bad, is moving in with us.")
    ['My mum is moving in with us.', "My mum's hip is bad"]
    >>> split_who_clause("Our neighbour Raj, who I carpool with, just had a baby.")
    ['Our neighbour Raj just had a baby.']
    >>> split_who_clause("I, who never cook, just bought a wok.")
    ['I just bought a wok.', 'I never cook']
    >>> split_who_clause("My wife Priya and our daughter Anika, she's 4, live with me in London.")
    ['My wife Priya and our daughter Anika live with me in London.', 'Our daughter Anika is 4']
    >>> split_who_clause("I have a daughter, Sofia, who is 14.") is None
    True
    """
    m = _OPENED_BY_SOMEONE.match(sentence.strip())
    if m is None or (m.group("me") is not None and (m.group("first") or m.group("aside"))):
        if m is not None and m.group("first") and m.group("aside"):  # "My sister and I, she's 30, live ...": left out
            return [f"{m.group('first')}{m.group('someone')} {m.group('rest')}"]
        return None
    name, who = m.group("name"), m.group("who").strip()
    aside = m.group("aside")
    if aside is not None:  # "she's 4" after "our daughter Anika": a "who is 4" of the one named last
        if not may_be(aside.lower(), _role_of(m.group("someone")), ungendered=True):
            return [f"{m.group('first') or ''}{m.group('someone')} {m.group('rest')}"]  # not told of whom: left out
        who = _ASIDE_VERB.sub("who is ", who, count=1)
    pronoun = (m.group("pronoun") or "who").lower()
    if name is not None and (name.lower() in _NOT_NAMES or name.endswith("ly") or pronoun == "which"
                             or _IN_WONDER.match(who)):
        return None
    someone = m.group("someone")
    main = f"{m.group('first') or ''}{someone} {m.group('rest')}"
    if _OBJECT_OF_IT.match(who):
        return [main]
    told = who.split(maxsplit=1)[1] if len(who.split()) > 1 else ""
    if not told:
        return [main]
    if m.group("me") is not None:  # "I, who never cook, ..." tells "I never cook"; "I, whose back ..." "My back ..."
        return [main, f"My {told}" if pronoun == "whose" else f"I {told}"]
    someone = someone[:1].upper() + someone[1:]  # "our daughter Anika" told after "My wife Priya and"
    return [main, f"{someone}'s {told}" if pronoun == "whose" else f"{someone} {told}"]
