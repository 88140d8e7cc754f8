"""Questions about memory itself: "What do you know about me?", "What do you remember about me?", "Who am I?".

Such a question asks for everything memory holds about the user, not for the facts relevant to a topic: no
stored fact is near it in meaning ("User lives in Lisbon." is no answer to "what do you know about me" by
cosine), so recall's relevance gate rightly passes none. The agent tools' ``recall_memory`` lists the user's
facts for it instead (:class:`memori_core.memory_tools.MemoryTools`). English rules, pure.
"""

from __future__ import annotations

import re
import unicodedata

from .validate import check_str

__all__ = ["asks_what_memory_holds"]

_ME = r"(?:me|myself|my\s+(?:life|profile|preferences|details))"
_KNOW = r"(?:know|remember|recall|have(?:\s+(?:stored|saved|noted|on\s+file|in\s+memory))?|store|stored|keep|kept)"
# what is said about the user, with no topic narrower than the user ("about me", "so far", "last week")
_WHEN = r"(?:\s+(?:so\s+far|before|until\s+now|up\s+to\s+now|earlier|already|last\s+(?:time|week|month)|ever))?"
_META = re.compile(
    "|".join([
        # "What do you know about me?", "what else do you remember about me", "What did you store about me?"
        rf"^what\s+(?:else\s+)?(?:do|did|can|could)\s+you\s+(?:\w+\s+)?{_KNOW}\s+(?:about|of|on)\s+{_ME}{_WHEN}$",
        # "Tell me everything you know about me.", "Show me what you remember about me", "list all you know on me"
        rf"^(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?(?:tell|show|give|list|summari[sz]e|remind)\s+(?:me\s+)?"
        rf"(?:everything|all|what|all\s+(?:the\s+)?(?:things|facts))\s+(?:that\s+)?you\s+(?:\w+\s+)?{_KNOW}"
        rf"\s+(?:about|of|on)\s+{_ME}{_WHEN}$",
        # "Do you remember anything about me?", "Do you know me?", "Do you remember me?"
        rf"^(?:do|did)\s+you\s+(?:still\s+)?(?:know|remember|recall)\s+(?:(?:anything|something|stuff)\s+"
        rf"(?:about|of)\s+)?{_ME}{_WHEN}$",
        # "What have I told you so far?", "Remind me what I told you last week.", "What did I tell you about myself?"
        rf"^(?:(?:please\s+)?remind\s+me\s+)?what\s+(?:have|did|had)?\s*i\s+(?:told|tell|said|say|shared|share)"
        rf"(?:\s+(?:to\s+)?you)?(?:\s+about\s+{_ME})?{_WHEN}$",
        # "Who am I?", "Who do you think I am?"
        r"^who\s+(?:am\s+i|do\s+you\s+think\s+i\s+am)$",
        # "everything about me", "everything you know about me", "all about me"
        rf"^(?:everything|all)\s+(?:(?:that\s+)?you\s+{_KNOW}\s+)?(?:about|on)\s+{_ME}$",
        # "What's in your memory (about me)?", "What is stored about me?", "What are my memories?"
        rf"^what(?:'s|\s+is)\s+(?:in\s+(?:your\s+)?memory|stored|saved|remembered)(?:\s+(?:about|on)\s+{_ME})?$",
        r"^what\s+(?:are|is)\s+(?:my|the\s+user's)\s+(?:memories|stored\s+facts|profile)$",
        # a memory search's keywords for the whole user: "my information", "user profile" (read as "my profile")
        r"^(?:my|the\s+user's)\s+(?:(?:personal\s+)?(?:information|info|details|data)|profile|preferences|memories"
        r"|facts)$",
        # "Summarize what you know about me", "summarise my profile"
        rf"^summari[sz]e\s+(?:what\s+you\s+{_KNOW}\s+about\s+{_ME}|my\s+(?:profile|memories))$",
    ]))
_LEAD = re.compile(r"^(?:(?:hey|hi|hello|so|ok|okay|well|and|also|btw|by\s+the\s+way)\b[\s,!.]*)+")


def asks_what_memory_holds(query: str) -> bool:
    """Whether ``query`` asks what memory holds about the user as a whole ("What do you know about me?", "What
    do you remember about me?", "Do you remember anything about me?", "What have I told you so far?", "Who am
    I?", "Tell me everything you know about me."), not about a topic ("What do you know about my sister?",
    "What have I told you about my diet?", "Do you know a good pizza place?").

    >>> asks_what_memory_holds("What do you know about me?"), asks_what_memory_holds("Where do I live?")
    (True, False)
    """
    check_str(query, "query")
    text = " ".join(unicodedata.normalize("NFKC", query).casefold().replace("\u2019", "'").split())
    text = _LEAD.sub("", text.strip()).rstrip(" ?!.")
    return _META.match(text) is not None
