"""Memory searches a model writes about "the user", read as the user would ask them.

A model calling a memory tool (the agent tools' ``recall_memory``, MCP ``recall``) writes its query about the
user in the third person, often as keywords: "user allergies", "user's city", "the user's diet", "information
about the user". Stored facts name the user the same way ("User is allergic to peanuts.", "User's partner is
called Sam."), so the word "user" brings every fact closer in meaning by the same amount: the relevance gate
then keeps unrelated facts next to the one asked for. The user asking themselves would say "my allergies",
"my city", which reach the fact that answers and no other. Bare keywords ("hobbies", "where live") name no
one, and the gate reads them as a general question; "my hobbies" is the user's. :func:`as_the_user_asks`
rewrites the query so.

Only the tool surfaces rewrite (a model's query is about the user by construction); a user's own message is
recalled as written ("How do I add a user in Django?" keeps its word). English rules, pure.
"""

from __future__ import annotations

import re

__all__ = ["as_the_user_asks"]

# Words after "user" that make it the subject of a verb ("the user lives in ...", "does the user like ..."):
# "user" then becomes "I", not "my".
_VERBS = (
    "is|was|has|had|have|does|did|do|can|could|will|would|should|might|may|must|likes|liked|loves|loved|"
    "lives|lived|works|worked|prefers|preferred|eats|ate|drinks|wants|wanted|needs|needed|owns|owned|plays|"
    "played|said|says|told|tells|mentioned|mentions|studies|studied|takes|took|goes|went|uses|used|knows|"
    "hates|dislikes|enjoys|avoids|speaks|drives|cooks|like|live|work|prefer|eat|drink|want|need|own|play|"
    "study|take|go|use|know|hate|dislike|enjoy|avoid|speak|drive|cook|mean|means|said|feel|feels|am|are"
)
# A word before "user" that makes it some user, not this one ("add a user", "every user", "the admin user").
_SOME = r"(?<!\ba )(?<!\ban )(?<!\bany )(?<!\bone )(?<!\bper )(?<!\bnew )(?<!\bthis )(?<!\bthat )(?<!\beach )" \
        r"(?<!\bevery )(?<!\bother )(?<!\badmin )(?<!\banother )"
_POSSESSIVE = re.compile(rf"{_SOME}\b(?:the\s+)?users?['\u2019]s?(?![\w'\u2019])", re.IGNORECASE)
_SUBJECT = re.compile(rf"{_SOME}\b(?:the\s+)?user\b(?=\s+(?:{_VERBS})\b)", re.IGNORECASE)
_MODIFIER = re.compile(rf"{_SOME}\b(?:the\s+)?user\b(?=\s+[^\W\d_])(?!\s+(?:and|or|to|of|in|on|about|for|with|"
                       rf"from|at|by|as)\b)", re.IGNORECASE)
_OBJECT = re.compile(rf"{_SOME}\b(?:the\s+)?user\b(?!['\u2019])", re.IGNORECASE)


KEYWORDS = 4
"""A query of at most this many words, without a question mark or a person, is read as keywords about the user."""
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")
_PERSONS = frozenset(
    "i me my mine myself i'm i've i'd i'll we us our ours you your yours he him his she her hers they them their "
    "theirs it its someone somebody people everyone anyone".split()
)


def as_the_user_asks(query: str) -> str:
    """``query`` with "the user" written as the user asking would say it: "user's" / "the user's" -> "my",
    "user" before a noun -> "my" ("user allergies" -> "my allergies"), "the user" as a verb's subject -> "I"
    ("does the user like sushi" -> "does I like sushi": read for its words, not its grammar), any other
    "(the) user" -> "me" ("allergies of the user" -> "allergies of me"). "a user", "every user", "users" and
    other users are left alone. A few keywords naming no one are the user's ("hobbies", "diet restrictions",
    "where live": "my hobbies" ...; at most :data:`KEYWORDS` words in lower case, no question mark, no person).

    >>> as_the_user_asks("user allergies"), as_the_user_asks("The user's city"), as_the_user_asks("hobbies")
    ('my allergies', 'my city', 'my hobbies')
    >>> as_the_user_asks("How do I add a user in Django?")
    'How do I add a user in Django?'
    """
    if not isinstance(query, str):
        raise TypeError(f"query must be a str, got {type(query).__name__}")
    out = query
    if "user" in query.casefold():
        out = _POSSESSIVE.sub("my", out)
        out = _SUBJECT.sub("I", out)
        out = _MODIFIER.sub("my", out)
        out = _OBJECT.sub("me", out)
    words = _WORD.findall(out)
    named = any(not w.islower() for w in words[1:]) or (len(words) > 1 and not words[0].islower())
    if 0 < len(words) <= KEYWORDS and "?" not in out and not named and not any(w.casefold() in _PERSONS
                                                                                for w in words):
        # Keywords naming no one ("hobbies", "diet restrictions", "where live"): what the user's own
        # memory holds on them, as "my hobbies" asks (the gate reads a subjectless phrase as a general question).
        # A capital may be a name ("Bob allergies", "weather Paris"): those are left as written.
        out = "my " + out.strip()
    return out
