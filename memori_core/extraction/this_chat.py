"""Talk about the chat itself: what the user will use the assistant for, trying it out, the message being typed.

"I will be using this to draft leaflets", "I intend to use this service to review my calculations", "I'm only testing
whether this thing remembers anything", "my grandkids set this thing up for me", "I'm typing this from the airport at
2am", "my English is not so good, sorry": each reads as a "User ..." fact once rewritten, and each is about the conversation, which memory does not need
(the app knows how it is used). What the user does with another app, named or owned ("I use this app called Strava
for my runs", "I built this app for my shop"), is theirs and is kept. Pure: patterns, English only.
"""

from __future__ import annotations

from ..slots import PERSON
from .patterns import rx
from .rewrite import article

__all__ = ["about_this_chat", "who_set_it_up"]

# What the assistant is called when the user speaks of it ("this thing", "this bot"); a use of it may also call it a
# tool or a platform, a try of it a tool.
_ASSISTANT = r"thing|service|app|chat|chatbot|bot|assistant|ai"
_THE_ASSISTANT = rf"this(?:\s+(?:{_ASSISTANT}|tool|platform))?"
# "this app called Strava", "this app that tracks my runs": another app the user names, not the assistant.
_ANOTHER_APP = rx(r"\bthis\s+(?:app|tool|service|platform|bot)\s+(?:called|named|that|which)\b")
# The chat itself spoken of (see the module's doc).
_ABOUT_THIS_CHAT = rx(
    r"^(?:i|we|my\s+(?:[\w'-]+\s+){0,2}?[\w'-]+)\b.*?\b(?:"
    # a use of the assistant, with what for: "using this to draft", "use this service for my essays"
    rf"(?:use|using|used|try|trying|tried|test|testing|tested)\s+(?:out\s+)?{_THE_ASSISTANT}\s+(?:out\s+)?"
    r"(?:to|for|as|with)\b(?!\s+(?:my|our)\s+(?:runs?|shop|business|work|team|clients?|customers?)\b)"
    # trying it out: "testing whether this thing remembers anything", "seeing if this bot works"
    rf"|(?:testing|checking|seeing|see|check|test)\s+(?:whether|if)\s+this(?:\s+(?:{_ASSISTANT}|tool))?"
    r"\s+(?:remembers|knows|works|can|actually|really)\b"
    # set up or signed up for the user: "my grandkids set this thing up for me"
    rf"|(?:set|put)\s+(?:up\s+)?this\s+(?:{_ASSISTANT})\b"
    rf"|signed\s+(?:me\s+)?up\s+(?:for|to)\s+this\s+(?:{_ASSISTANT})\b"
    # the message itself: "I'm typing this from OR Tambo", "writing this at 3am"
    r"|(?:typing|writing|sending)\s+this\s+(?:from|at|on|in|with|while|because|now)\b)"
    # an apology for how the message is written: "my English is not so good", "my english is bad, sorry"
    r"|^my\s+english\s+(?:is|isn't|is\s+not)\s+(?:(?:so|very|that|too|really)\s+)?"
    r"(?:not\s+)?(?:so\s+)?(?:good|great|bad|poor|perfect|the\s+best|fluent|strong|weak)\b"
)


def about_this_chat(body: str) -> bool:
    """Whether ``body`` (a clause of the user's, its lead cut) is about the chat itself: the assistant's use, a try
    of it, who set it up, the message being typed (see the module's doc).

    >>> about_this_chat("I will be using this to draft leaflets for parents.")
    True
    >>> about_this_chat("my grandkids set this thing up for me"), about_this_chat("I use this app called Strava")
    (True, False)
    """
    return bool(_ABOUT_THIS_CHAT.match(body)) and not _ANOTHER_APP.search(body)


# "my grandkids set this thing up for me": who of the user's set the assistant up, the one fact it tells.
_SET_UP_BY = rx(
    rf"^(?:my|our)\s+(?P<who>(?:[\w-]+\s+)?{PERSON})\s+(?:(?:has|have|just|finally|kindly)\s+)*"
    r"(?:set\s+(?:up\s+)?this|put\s+this|signed\s+me\s+up\s+(?:for|to)\s+this|got\s+me\s+(?:on(?:to)?|using)\s+this)\b"
)


def who_set_it_up(body: str) -> str | None:
    """What "my grandkids set this thing up for me" (``body``) tells for good: that the user has them ("User has
    grandkids."); ``None`` when ``body`` says no one of the user's set the assistant up.

    >>> who_set_it_up("my grandkids set this thing up for me"), who_set_it_up("I set this up for my mum")
    ('User has grandkids.', None)
    """
    m = _SET_UP_BY.match(body)
    if m is None:
        return None
    who = " ".join(m.group("who").split()).lower()
    return f"User has {who}." if who.endswith(("s", "children", "in-laws")) else f"User has {article(who)} {who}."
