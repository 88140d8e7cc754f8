"""A game the user sets up in a message: role-play, make-believe, "imagine I'm ...".

"Let's play a game: I am Captain Hook and you're Peter Pan", "Pretend you are a pirate. I am Captain Hook and I live
on a ship.", "imagine I'm a millionaire": from where the game is set up, what the user says of themselves is a role,
not their life. :func:`split_played` tells the sentences before it from the game. Pure: patterns, English only.
"""

from __future__ import annotations

from .patterns import rx

__all__ = ["split_played"]

_GAME = r"(?:game(?!\s+of\b)|role-?\s?play(?:ing\s+game)?|pretend|make-?\s?believe|rpg|scenario)"
_ROLE_PLAY = r"(?:role-?\s?play|roleplay)"
# What sets up a game, at the start of a sentence (after a greeting or an "ok"): "Let's play a game", "Let's
# pretend ...", "Can we role-play?", "Pretend you are a pirate", "Roleplay: ...", "imagine I'm a millionaire",
# "You be the waiter and I'll be the customer". Not "Let's play chess", "I pretended to be sick", "Imagine my
# surprise", "Act as my nutritionist" (a persona for the assistant: what the user then says of themselves holds).
_SETS_UP_A_GAME = rx(
    r"^\W*(?:(?:ok|okay|so|hey|hi|alright|right|now|new\s+idea)\b\W*)*(?:"
    rf"let(?:'s|s|\s+us)\s+(?:play|do|try|start)\s+(?:a\s+|an?\s+|some\s+)?(?:(?:little|fun|quick|new|silly)\s+)?{_GAME}\b"
    rf"|let(?:'s|s|\s+us)\s+(?:pretend|imagine|{_ROLE_PLAY})\b"
    rf"|(?:can|could|shall|will|would)\s+(?:you|we)\s+(?:please\s+)?(?:play\s+(?:a\s+)?{_GAME}|pretend|{_ROLE_PLAY})\b"
    rf"|play\s+(?:a\s+)?{_GAME}\s+with\s+me\b"
    rf"|pretend\b"
    rf"|{_ROLE_PLAY}\s*(?:[:!\u2014\u2013-]|time\b|$)"
    r"|imagine\s+(?:that\s+)?(?:i|i'm|i\s+am|i\s+was|i\s+were|i\s+have|we|we're|we\s+are|we\s+were)\b"
    r"|you(?:'ll|\s+will)?\s+(?:be|play)\s+[^.!?]{1,60}?\s+and\s+i(?:'ll|\s+will)\s+(?:be|play)\b"
    r"|i(?:'ll|\s+will)\s+(?:be|play)\s+[^.!?]{1,60}?\s+and\s+you(?:'ll|\s+will)?\s+(?:be|play)\b"
    r"|in\s+this\s+(?:game|role-?\s?play|roleplay|scenario)\b)"
)


def split_played(sentences: list[str]) -> tuple[list[str], list[str]]:
    """``sentences`` (one message's) before a game is set up in them, and the sentences from there on: what the
    user says in a role ("Pretend you are a pirate. I am Captain Hook." -> ``[]``, both played).

    >>> split_played(["I'm a teacher.", "Let's play a game: I'm a pirate.", "I live on a ship."])
    (["I'm a teacher."], ["Let's play a game: I'm a pirate.", 'I live on a ship.'])
    """
    for i, sentence in enumerate(sentences):
        if _SETS_UP_A_GAME.match(sentence):
            return sentences[:i], sentences[i:]
    return sentences, []
