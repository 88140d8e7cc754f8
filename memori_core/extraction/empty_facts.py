"""Rewritten facts that keep nothing a later conversation needs, and are dropped.

"User got this.", "User is obsessed with those.", "User's doctor suggested it.", "User is hopeless.", "User
caved.": encouragement, a pointer to what was said before, a self-rating, a bare past verb. Read on the rewritten
fact ("User ..."), where the user's words are already in one form. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from .passing_remarks import is_passing_remark
from ..ranking.care import is_care_fact
from ..calendar_words import ANY_WEEKDAY as _DAYS
from ..slots import PERSON, placed
from .dates import DATED
from .grammar import is_past
from .patterns import rx
from .cues import content_words, is_change, is_ended
from .endings import is_loss
from .slots import slots_of
from .tails import plain
from .verdicts import DROP_SMALL_TALK, DROP_UNCLEAR, DROP_UNRESOLVED, KEPT_REWRITTEN

__all__ = ["is_vague_remark", "judge_rewritten", "object_is_a_pointer"]

# "User got this.", "User won't give up on their dreams.", "User is gonna keep pushing.": encouragement and
# resolve, read on the rewritten fact; nothing a later conversation needs. "User quit smoking." is a fact.
_RESOLVE = rx(
    r"^user\s+(?:(?:will|can|could|is|are|won't|isn't|not|cannot|can't|has|have|just|really|definitely|totally|so|"
    r"still|gonna|going\s+to|never|always|also|too|both|all|surely|sure|gotta|got\s+to|have\s+to|"
    r"need\s+to|needs\s+to|must|'ll)\s+)*"
    r"(?:got\s+(?:this|it)|do\s+(?:it|this|that)|make\s+it(?:\s+happen)?|get\s+through\s+(?:it|this|that)|"
    r"(?:try|do)\s+their\s+best|"
    r"(?:give|giving|quit|quitting|stop|stopping)(?:\s+up)?(?=\s*(?:[,.!]|$|on\s+(?:their|it|this|that|them|now)\b|"
    r"now\b|yet\b|ever\b|even\b|just\s+yet\b|no\s+matter\b))|"
    r"keep(?:s|ing)?\s+(?:(?:on\s+)?going|pushing|trying|believing|chasing|fighting|pursuing|plugging\s+away|moving|"
    r"hustling|grinding|smiling|at\s+it|it\s+up)|"
    r"(?:stay|staying|stays|remain|remaining)\s+(?:positive|strong|motivated|optimistic|upbeat|focused|determined)\b|"
    r"(?:going|go)\s+for\s+(?:it|their\s+dreams)|make\s+their\s+dreams\s+(?:come\s+true|happen|a\s+reality)|"
    r"chas\w+\s+(?:after\s+)?(?:those\s+|their\s+)?dreams|in\s+this\s+together|rock(?:s)?\s*[.!]*$|"
    r"makes?\s+a\s+great\s+team|works?\s+well\s+together|has\s+each\s+other's\s+back|"
    r"(?:pushing|moving)\s+forward)"
)
# What may follow the resolve: "... and never give up", "... on their dreams", "..., no matter what".
_RESOLVE_TAIL = content_words(
    """dream dreams goal goals forward ahead together way matter hard tough path believing believe themselves each
    other hang there going pushing staying motivated positive best reach strong never quit give up whatever
    comes even when it's and keep keeping moving grinding what no matter happens happen"""
)


def _is_resolve(fact: str) -> bool:
    """Whether the rewritten ``fact`` is only encouragement or resolve (:data:`_RESOLVE` and a tail of
    :data:`_RESOLVE_TAIL` words): "User will keep going, no matter what." but not "User will keep pursuing
    their passion for writing."."""
    m = _RESOLVE.match(fact)
    tail = re.sub(r"\b[A-Z][a-z]+\b", " ", fact[m.end():]) if m is not None else ""  # "..., Gina!"
    return m is not None and content_words(tail) <= _RESOLVE_TAIL


# "User is obsessed with those.", "User just did it yesterday.": a pointer to something said before, and at
# most one word of its own.
# lower case: "User works in IT." points nowhere; "this week" is a time, not a pointer ("User is in Rome this week.")
_POINTER = re.compile(
    r"\b(?:it|this(?!\s+(?:week|weekend|month|year|morning|afternoon|evening|term|semester)\b)|that|those|these|them)\b")
_NOT_ITS_OWN = content_words(
    """it this that those these them sometime someday soon later yesterday tomorrow ago today tonight once twice
    again ever never just really definitely totally so too also very much might could would will may must should
    can gonna kind sort bit little pretty quite give go shot whirl"""
)


def _only_a_pointer(fact: str) -> bool:
    """Whether the rewritten ``fact`` points to what was said before and says at most one word of its own."""
    return bool(_POINTER.search(fact)) and len(content_words(fact) - _NOT_ITS_OWN) <= 1


# "User turned it down.", "User gave them away.", "User put it off again.": a verb (and its particle) whose only
# object is a pronoun; lower case only ("User works in IT." names a field).
_POINTER_OBJECT = re.compile(
    r"^User\s+(?:(?:just|finally|also|really|already|eventually|politely)\s+)*(?:[a-z']+\s+){1,3}?"
    r"(?:it|this|that|them|those|these)(?:\s+(?:down|up|off|out|back|over|away|in|on|again|too|anyway|already))*"
    r"\s*[.!]*$"
)


def object_is_a_pointer(fact: str) -> bool:
    """Whether the rewritten ``fact``'s only object is a pronoun ("User turned it down."): said with nothing before
    it in the turn, it points to nothing a later conversation could read.

    >>> object_is_a_pointer("User turned it down."), object_is_a_pointer("User works in IT.")
    (True, False)
    """
    return bool(_POINTER_OBJECT.match(fact))


# "User's doctor suggested it.", "User's landlord doesn't allow them.": someone else's view of what was just said.
_THEIRS_ON_A_POINTER = re.compile(r"^User's\s.*\b(?:it|this|that|them|those|these)\s*[.!]*$")
_HE_SHE = re.compile(r"\b(?:he|she|him|his|her|hers|himself|herself)\b", re.IGNORECASE)
_SOMEONE = re.compile(rf"\b(?:{PERSON}|(?<!^)(?-i:[A-Z])[a-z\u00e0-\u00ff]+)\b", re.IGNORECASE)
# "User met at a friend's wedding." ("We met at a wedding"): a meeting with no one it names.
_MET_NO_ONE = rx(r"^user\s+(?:first\s+|just\s+)?met\s+(?:at|in|on|through|via|online|when|while|during|back|years|last)\b")
# "User is moving up there in January 2027.": a move to a place the message did not name (.bare_plans names it).
_MOVE_THERE = rx(r"^user\s+(?:is\s+|has\s+|just\s+)*(?:moving|moved|relocating|relocated|emigrating)\s+"
                 r"(?:(?:up|down|over|out|back)\s+)?there\b")


def moves_to_no_place(fact: str) -> bool:
    """Whether ``fact`` tells of a move "there" to a place its message did not name ("User is moving there in
    January 2027."): a fact that leans on what was said before (:mod:`.bare_plans` names the place when it can).

    >>> moves_to_no_place("User is moving up there in January 2027."), moves_to_no_place("User lives there.")
    (True, False)
    """
    return bool(_MOVE_THERE.match(fact))


def _unresolved(fact: str) -> bool:
    """Whether the rewritten ``fact`` leans on what was said before: someone else's words on a pointer ("User's
    doctor suggested it."), a "he" / "her" of the user's fact with no one named before it ("User shares his
    apartment."), a meeting with no one ("User met at a wedding.")."""
    if _THEIRS_ON_A_POINTER.match(fact) or _MET_NO_ONE.match(fact):
        return True
    pronoun = _HE_SHE.search(fact)
    return pronoun is not None and fact.startswith("User ") and not _SOMEONE.search(fact[5:pronoun.start()])

# "User is rubbish but it's fun.", "User is hopeless.": how the user rates themselves, not a fact.
_RATED = rx(
    r"^User\s+(?:is|are)\s+(?:(?:so|really|pretty|very|totally|kinda|kind\s+of|such|absolutely|quite|a\s+bit)\s+)*"
    r"(?:rubbish|terrible|awful|hopeless|useless|bad|good|great|amazing|brilliant|crap|shit|pants|decent|ok|okay|"
    r"fine|mediocre|average|lucky|unlucky|doomed|screwed|a\s+mess|chaos|chaotic|hilarious|funny|weird|crazy|"
    r"the\s+worst|the\s+best|a\s+disaster|a\s+joke|trash)"
    r"(?:\s*,?\s+(?:but|and|though|lol|haha)\b.*)?\.$"
)
# "User is a bad grandfather.", "User is the worst friend ever.": how the user rates themselves as someone's, a
# joke or a sigh, never what memory needs (that they are a grandfather is told apart, plainly).
_RATED_AS_KIN = rx(
    r"^User\s+(?:is|are)\s+(?:(?:such|so|really|honestly|officially|clearly|just)\s+)*(?:a|an|the)\s+"
    r"(?:(?:world's|really|very|total|complete|bit\s+of\s+a)\s+)*"
    r"(?:bad|terrible|awful|useless|rubbish|hopeless|lousy|crap|crappy|shit|horrible|worst|best|great|good|"
    r"shocking|dreadful|forgetful|neglectful|appalling)\s+"
    rf"(?:{PERSON})(?:\s+ever|\s+in\s+the\s+world)?\s*[.!]*$"
)
# "User doesn't know what to do with themselves.", "User is at a loose end.": a mood of the moment, said in a figure.
_AT_A_LOOSE_END = rx(
    r"^User\s+(?:(?:just|really|honestly|literally|kind\s+of|kinda)\s+)*(?:"
    r"(?:doesn't|does\s+not|didn't|did\s+not)\s+know\s+what\s+to\s+do(?:\s+with\s+(?:themselves|their\s+time)|"
    r"(?=\s*[.!]*$))|"
    r"(?:is|was|has\s+been)\s+(?:a\s+bit\s+)?at\s+(?:a\s+loose\s+end|sixes\s+and\s+sevens)|"
    r"(?:is|was|has\s+been)\s+(?:bored\s+out\s+of\s+their\s+(?:mind|skull)|twiddling\s+their\s+thumbs|"
    r"climbing\s+the\s+walls|rattling\s+around))\b"
)
# "User is careful about food.", "User is really careful with what they eat.": a vague caution told beside what it
# comes of ("I have coeliac disease so I'm really careful about food"): that condition is the fact; "User is careful
# with money." and "User has to be careful with dairy." name what they are careful of.
_VAGUE_CAUTION = rx(
    r"^User\s+(?:is|was|has\s+to\s+be|tries\s+to\s+be)\s+(?:(?:really|very|extra|super|so|quite|pretty|always|"
    r"always\s+really)\s+)*(?:careful|cautious|mindful|wary)\s+(?:about|with|of)\s+(?:"
    r"food|foods|eating(?:\s+out)?|what\s+(?:they|the\s+user)\s+eats?|their\s+(?:food|diet|eating)|"
    r"everything|things|it\s+all)\s*[.!]*$"
)

# "User has no idea what to cook.", "User isn't sure which to pick.": not knowing, said of the moment.
_NOT_KNOWING = rx(
    r"^User\s+(?:has\s+(?:absolutely\s+)?no\s+(?:idea|clue)|(?:is|was)\s+not\s+sure|isn't\s+sure|"
    r"(?:does\s+not|doesn't)\s+know)\s+(?:what|which|where|when|whether|if|who)\b"  # not "how": an ability
)

# "User starts in three weeks.", "User starts on Monday.": a start told with no what but when, leaning on what was
# said before ("User starts work on Monday.", "User is starting on insulin next week." and "User starts at Monzo in
# May." say what).
_BARE_START = rx(
    r"^User\s+(?:(?:only|just|finally|actually)\s+)?(?:starts|begins|is\s+starting|will\s+start)\s+(?:"
    rf"in\s+(?:a|an|{number_words('six')}|\d+|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?)|"
    rf"on\s+(?:{_DAYS}|the\s+\d{{1,2}}(?:st|nd|rd|th))|next\s+(?:week|month|{_DAYS})|tomorrow|"
    rf"this\s+(?:week|month|{_DAYS}))\s*[.!]*$"
)


def is_vague_remark(fact: str) -> bool:
    """Whether the "User ..." ``fact`` is a mood said in a figure ("User doesn't know what to do with themselves."),
    a vague caution ("User is careful about what they eat."), a start with no what ("User starts in three
    weeks.") or not knowing something of the moment ("User has no idea what to cook."): nothing a later
    conversation needs.

    >>> is_vague_remark("User is careful about food."), is_vague_remark("User is careful with money.")
    (True, False)
    """
    return bool(_AT_A_LOOSE_END.match(fact) or _VAGUE_CAUTION.match(fact) or _BARE_START.match(fact)
                or _NOT_KNOWING.match(fact))


# "User caved.", "User panicked.": a bare past verb, told of nothing the rules keep ("User retired." is a change).
_BARE_PAST = rx(r"^User\s+(?:(?:just|finally|totally|kinda|kind\s+of|basically|literally)\s+)*(?P<verb>[a-z]+)\.$")
# "we did arthur's seat" -> "User did arthur's seat.": the household's outing, without a day or a part of the user's
# life ("I did an MBA" is kept).
_DID_SOMETHING = rx(r"^User\s+(?:(?:just|finally|also|even)\s+)*did\s+(?!not\b)")
_WE = rx(r"^we\b")
# Past verbs that tell a life event on their own ("User remarried.", "User relapsed."): kept bare.
_LIFE_EVENTS = frozenset("""remarried emigrated immigrated married eloped converted qualified enlisted recovered
    relapsed transitioned graduated retired divorced separated resigned moved relocated""".split())
# "User went to a gluten free place.": an outing, whatever the place serves (no diet of the user's).
_OUTING = rx(
    r"^User\s+(?:(?:just|finally|also|even)\s+)*(?:went|headed|popped)\s+(?:out\s+)?(?:to|for)\s+(?:a|an|the|this|that)\s+"
    r"(?:[\w'-]+\s+){0,3}(?:place|restaurant|cafe|caf\u00e9|bar|pub|party|gig|concert|show|movie|cinema|meal|"
    r"dinner|lunch|brunch|breakfast|drink|drinks)\b"
)
# "User's boyfriend Tom would just order pizza.", "User's girlfriend Ana says hi.": a passing remark about someone
# named, which says who they are and nothing memory keeps; kept as who they are ("User's boyfriend is Tom.").
_REMARK_OF_NAMED = re.compile(
    rf"^User's\s+(?P<role>{placed('best')}(?:{PERSON}))\s+"
    r"(?P<name>[A-Z][a-z\u00e0-\u00ff]+)\s+(?P<rest>(?:would|'d|could|might|says|said|sends|sent|texted|messaged|"
    r"called|wants|thinks|reckons|got\s+the\s+user|gave\s+the\s+user|bought\s+the\s+user|made\s+the\s+user|"
    r"is\s+being|was\s+being|laughed|loved|hated)\b.*)\.$"
)
# "User loves.", "User has a.", "User got a.", "User takes.", "User lives in.": a verb that needs an object, a verb
# of place with its "in" and nothing after, or a last word that needs one after it, with none (an emoji object cut:
# "I love 🍕", "I got a 🐱!"); "User smokes." and "User gave in." say something. A going, coming or visiting with no
# where ("User can't go.", "User is only visiting.", "User isn't coming.") and a home denied with no place ("User
# doesn't live here."): the moment's answer to what was said before, nothing lasting of the user's (issue 21;
# "User doesn't live in Leeds." names the place).
_NO_OBJECT = rx(
    r"^User\s+(?:(?:just|also|really|finally|totally|absolutely|still)\s+)*(?:"
    r"(?:loves|likes|hates|enjoys|adores|prefers|has|owns|wants|needs|misses|uses|dislikes|loathes|detests|fancies|"
    r"takes|wears|speaks|got|bought|ordered|adopted|is\s+allergic\s+to|is\s+into|is\s+obsessed\s+with)"
    r"|(?:lives|stays|works|studies|is\s+based|was\s+born|grew\s+up)\s+(?:in|on|near|as)"
    r"|(?:is|are|isn't|is\s+not|can't|cannot|can\s+not|couldn't|could\s+not|won't|will\s+not)\s+"
    r"(?:(?:only|just|even|really|definitely)\s+)?(?:visiting|going|coming|go|come)"
    r"|(?:doesn't|does\s+not|don't|do\s+not)\s+(?:actually\s+)?(?:live|stay)\s+(?:here|there)"
    r"|.*\s(?:a|an|the|their|to|of|with|and|or|for|at|from))\s*[.!]*$"
)
# "User is taking metformin for it.": a medicine for what was said before, the medicine is the fact.
_FOR_A_POINTER = rx(r"\s+for\s+(?:it|that|this|them)\s*\.$")


def _without_filler(fact: str, body: str) -> str | None:
    """The rewritten ``fact`` of ``body``, or ``None`` when it keeps nothing a later conversation needs: a rating of
    the user (:data:`_RATED`), a verb with no object (:data:`_NO_OBJECT`: "User loves."), a mood said in a figure
    (:data:`_AT_A_LOOSE_END`), a vague caution (:data:`_VAGUE_CAUTION`: "User is careful about food."), a bare past verb that is no change ("User caved."), an outing told with no day
    ("User did arthur's seat.", "User went to a gluten free place."). A passing remark about someone named is kept as
    who they are (:data:`_REMARK_OF_NAMED`), a care fact without its pointer ("for it")."""
    if _NO_OBJECT.match(fact) or is_vague_remark(fact) or is_passing_remark(fact):  # .passing_remarks
        return None
    lasting = slots_of(fact) or is_care_fact(fact)
    if _RATED_AS_KIN.match(fact) or (not lasting and _RATED.match(fact)):
        return None
    bare = _BARE_PAST.match(fact)
    if bare is not None and is_past(bare.group("verb")) and bare.group("verb").lower() not in _LIFE_EVENTS \
            and not (is_change(body) or is_ended(body) or lasting):
        return None
    if _DID_SOMETHING.match(fact) and _WE.match(body) and not (lasting or DATED.search(body) or is_change(body)):
        return None
    if _OUTING.match(fact) and not (DATED.search(body) or is_change(body)):
        return None
    remark = _REMARK_OF_NAMED.match(fact)
    if remark is not None and not (slots_of(remark.group("rest")) or is_care_fact(fact) or is_change(fact)
                                   or is_loss(fact)):
        return f"User's {remark.group('role')} is {remark.group('name')}."
    if is_care_fact(fact):
        fact = _FOR_A_POINTER.sub(".", fact)
    return fact



# "User is the chaos.", "User is the planner.": a part the user plays among people the fact does not name (said beside
# "she's the planner"); not a job ("User is the manager."), a place among siblings ("User is the eldest.") or a part
# told with what it is of ("User is the treasurer of the PTA.").
_THE_PART = rx(r"^User\s+is\s+(?:(?:just|always|basically|definitely|totally|literally|clearly|obviously)\s+)*"
               r"the\s+(?P<part>[a-z-]+)\s*[.!]*$")
_RANK = rx(r"^(?:\w+est|first|second|third|fourth|fifth|last|middle|only|one)$")


def _part_of_nothing(fact: str) -> bool:
    """Whether ``fact`` gives the user a part among people it does not name ("User is the chaos."): it leans on what
    was said before it."""
    m = _THE_PART.match(fact)
    return m is not None and not _RANK.match(m.group("part")) and not slots_of(fact)


def judge_rewritten(rewritten: str, body: str) -> tuple[str | None, str]:
    """The verdict for ``rewritten``, the "User ..." fact of the first-person statement ``body``: dropped when it is
    only encouragement or a pointer (``DROP_SMALL_TALK``), leans on what was said before (``DROP_UNRESOLVED``)
    or keeps nothing (``DROP_UNCLEAR``); else kept without its words of emphasis and fillers."""
    if _is_resolve(rewritten) or _only_a_pointer(rewritten):
        return None, DROP_SMALL_TALK
    if _unresolved(rewritten) or _part_of_nothing(rewritten):
        return None, DROP_UNRESOLVED
    kept = _without_filler(plain(rewritten), body)
    return (kept, KEPT_REWRITTEN) if kept is not None else (None, DROP_UNCLEAR)
