"""Asides of the moment told around a question: what happened in the conversation's moment, not a lasting fact.

"I need to fill in a form" (why the user asks "Where do I work again?"), "The pharmacist asked and I went blank",
"Just got off a night shift and I can't sleep", "we only told family last weekend", "My granddaughter set this up
for me": each is true of a moment and says nothing memory needs later. :func:`passing_aside` tells them; the rules
drop them as passing moments (:func:`~memori_core.extraction.moments.moment`). What changes, ends or matters for
care is never one (the caller checks). Pure: English patterns.
"""

from __future__ import annotations

from ..number_words import number_words
from .patterns import rx

__all__ = ["lost_track", "passing_aside"]

_ADVERBS = r"(?:(?:just|totally|completely|literally|only|also|still|finally|already|honestly|kind\s+of|sort\s+of)\s+)*"
# "I went blank", "my mind went blank", "I froze", "I panicked", "I lost my train of thought": a reaction of the
# moment.
_REACTION = rx(
    rf"^(?:(?:i|we)\s+{_ADVERBS}(?:went\s+(?:blank|quiet|red|bright\s+red|pale|white)|blanked|froze|panicked|"
    r"zoned\s+out|lost\s+my\s+(?:train\s+of\s+thought|nerve|words)|"
    r"(?:couldn't|could\s+not|can't|cannot)\s+(?:remember|think\s+of\s+it|answer|for\s+the\s+life\s+of\s+me))|"
    r"my\s+mind\s+(?:just\s+|totally\s+|completely\s+)?went\s+blank)"
    r"(?:\s+(?:again|there|then|on\s+the\s+spot|lol|haha))*\W*$"
)
# "I can't sleep", "I can't get to sleep tonight": a night's trouble, not a condition ("I can't sleep without a fan",
# "I can't sleep at night lately" say more, and are read by the other rules).
_NO_SLEEP_NOW = rx(
    rf"^(?:i|we)\s+{_ADVERBS}(?:can't|cant|cannot|can\s+not|couldn't|could\s+not)\s+(?:get\s+to\s+|seem\s+to\s+)?"
    r"(?:sleep|get\s+any\s+sleep|switch\s+off|drop\s+off|nod\s+off)"
    r"(?:\s+(?:at\s+all|again|tonight|today|right\s+now|now|yet|a\s+wink))*\W*$"
)
# "I need to fill in a form", "I have to send an email": an errand of the day, told to say why the user asks.
_ERRAND = rx(
    rf"^(?:i|we)\s+{_ADVERBS}(?:need\s+to|have\s+to|'ve\s+got\s+to|have\s+got\s+to|got\s+to|gotta|must)\s+"
    r"(?:fill\s+(?:in|out)|sign|send|submit|print|post|email|reply\s+to|answer|finish|pay|renew|return|"
    r"pick\s+up|drop\s+off|hand\s+in|update|complete|write)\s+(?:(?:a|an|the|this|that|some|my|our|their)\s+)?"
    r"(?:[\w'-]+\s+){0,2}?(?:form|forms|email|emails|letter|card|application|survey|questionnaire|paperwork|"
    r"document|report|bill|invoice|text|message|reply|note|cheque|check|parcel|package|prescription)\b"
    r"(?:\s+(?:for|at|from|to)\s+[\w' -]+?)?(?:\s+(?:today|tonight|tomorrow|now|soon|later|lol|haha))*\W*$"
)
# "we only told family last weekend", "I asked my GP about it", "I texted my sister yesterday": the act of telling
# someone, a moment of the conversation's story (what was told is read by the other rules when it is said).
_TOLD_SOMEONE = rx(
    rf"^(?:i|we)\s+{_ADVERBS}(?:told|asked|texted|messaged|emailed|called|rang|phoned|mentioned\s+it\s+to)\s+"
    r"(?:(?:my|our|the|his|her|their)\s+)?(?:[\w'-]+\s+){0,1}?[\w'-]+"
    r"(?:\s+(?:about\s+(?:it|this|that|the\s+news)|yet|already|too|first))?"
    r"(?:\s+(?:last\s+\w+|yesterday|today|this\s+(?:morning|week|weekend)|on\s+\w+|a\s+(?:few|couple\s+of)\s+\w+\s+ago|"
    r"\w+\s+(?:days|weeks)\s+ago))?\W*$"
)
# "My granddaughter set this up for me", "my son showed me this": how the user came to the assistant.
_SET_UP_THIS = rx(
    r"^(?:my|our)\s+(?:[\w'-]+\s+){1,3}?(?:set\s+(?:this|it)\s+up|showed\s+me\s+(?:this|how\s+to\s+use\s+(?:this|it))|"
    r"put\s+(?:this|it)\s+on\s+my\s+(?:phone|tablet|computer|laptop)|installed\s+(?:this|it))"
    r"(?:\s+for\s+(?:me|us))?(?:\s+(?:last\s+\w+|yesterday|today|this\s+(?:morning|week)))?\W*$"
)
# "My wife corrected me", "my son reminded me": someone put the user right, a moment of the conversation's story
# (what was right is read by the other rules when it is said).
_PUT_RIGHT = rx(
    r"^(?:(?:my|our)\s+(?:[\w'-]+\s+){0,1}?[\w'-]+|he|she|they)\s+(?:just\s+|already\s+|also\s+)?"
    r"(?:corrected|reminded|put\s+me\s+right|pointed\s+(?:it|that)\s+out|caught\s+(?:it|that|the\s+mistake))"
    r"(?:\s+me)?(?:\s+(?:on\s+(?:it|that)|about\s+(?:it|that)|just\s+now|again))*\W*$"
)
# "I've got about 20 minutes", "I only have an hour before work": the time the user has for what they ask, a
# moment's budget (not "I have 30 minutes a day for exercise", a habit).
_TIME_BUDGET = rx(
    rf"^(?:i|we)\s*(?:'ve|\s+have|\s+'ve)?\s+{_ADVERBS}(?:got|have|had)\s+(?:only\s+|just\s+)?"
    r"(?:(?:about|around|roughly|maybe|max|at\s+most|like|less\s+than|under|barely|only|just)\s+)?"
    rf"(?:(?:a|an|{number_words('five')}|ten|fifteen|twenty|thirty|forty|forty-five|sixty|ninety|half\s+an?|"
    r"a\s+couple\s+of|a\s+few|\d+)\s+(?:minutes?|mins?|hours?|hrs?)|half\s+an\s+hour|an\s+hour\s+or\s+so)"
    r"(?!.*\b(?:a|per|each|every)\s+(?:day|night|week|weekday|morning|evening)\b)"
    r"(?:\s+(?:left|spare|free|tops|max|or\s+so|tonight|today|now|before\s+[\w' -]+|to\s+[\w' -]+|"
    r"for\s+[\w' -]+|until\s+[\w' -]+|lol|haha))*\W*$"
)

# "i've moved so much i forget", "I've had so many jobs I lose track", "I forget": why the user asks again, a joke
# about memory; what it tells in passing ("moved so much") is no change, so it ends nothing either.
_LOST_TRACK = rx(
    r"^(?:(?:i|we)\b[^,;]*?\b(?:so\s+(?:much|often|many\s+(?:times|\w+))|too\s+(?:much|often|many\s+(?:times|\w+))|"
    r"that\s+(?:much|often))\s+(?:that\s+)?)?"
    rf"(?:i|we)\s+{_ADVERBS}(?:forget|forgot|can't\s+remember|cant\s+remember|can't\s+keep\s+track|lose\s+track|"
    r"lost\s+track|lose\s+count|lost\s+count|get\s+(?:them\s+)?(?:confused|mixed\s+up))"
    r"(?:\s+(?:lol|haha|sometimes|now|again|already|where|which|what))*\W*$"
)


def lost_track(body: str) -> bool:
    """Whether ``body`` (a clause of the user's) only says the user forgets or lost track ("i've moved so much i
    forget"): an aside to a question asked again, which keeps nothing and, whatever change it mentions, ends
    nothing.

    >>> lost_track("i've moved so much i forget"), lost_track("I've moved to Leeds")
    (True, False)
    """
    return bool(_LOST_TRACK.match(body.strip()))


def passing_aside(body: str) -> bool:
    """Whether ``body`` (a clause of the user's) is an aside of the moment: a reaction ("I went blank"), a night
    without sleep ("I can't sleep"), an errand ("I need to fill in a form"), the act of telling someone ("we only
    told family last weekend"), someone putting the user right ("My wife corrected me"), how the assistant was set
    up ("My granddaughter set this up for me") or the time the user has for what they ask ("I've got about 20
    minutes").

    >>> passing_aside("I went blank"), passing_aside("I need to fill in a form lol"), passing_aside("I can't sleep")
    (True, True, True)
    >>> passing_aside("I can't sleep without a fan"), passing_aside("I need to avoid gluten")
    (False, False)
    """
    said = body.strip()
    return any(p.match(said) for p in (_REACTION, _NO_SLEEP_NOW, _ERRAND, _TOLD_SOMEONE, _SET_UP_THIS,
                                          _TIME_BUDGET, _PUT_RIGHT))
