"""Memory searches a model writes about "the user", read as the user would ask them.

A model calling a memory tool (the agent tools' ``recall_memory``, MCP ``recall``) writes its query about the
user in the third person, often as keywords: "user allergies", "user's city", "the user's diet", "information
about the user". Stored facts name the user the same way ("User is allergic to peanuts.", "User's partner is
called Sam."), so the word "user" brings every fact closer in meaning by the same amount: the relevance gate
then keeps unrelated facts next to the one asked for. The user asking themselves would say "my allergies",
"where do I work", which reach the fact that answers and no other. Bare keywords ("hobbies", "where live") name
no one, and the gate reads them as a general question; "my hobbies" is the user's. And a few keywords are a
question, which the gate reads for the slot it names ("my job?"), where "my job" asks nothing.
:func:`as_the_user_asks` rewrites the query so.

Only the tool surfaces rewrite (a model's query is about the user by construction); a user's own message is
recalled as written ("How do I add a user in Django?" keeps its word). A LangGraph store's search may be any
app's ("where does the user get redirected after login" about its software's users), so the store only turns
"the user" that reads as the memory's user into "I" / "my" (:func:`the_user_in_first_person`). A courtesy turn
("thanks", "ok", "good morning") is left as it is everywhere: the engine keeps nothing for it, which "my thanks?"
would undo; it is read with the engine's analyzer (its tokenizer and stemmer). The tools read "the user" as the
memory's user unless the query names a product's user (:func:`names_a_products_user`: an app action after "the
user", such as "gets redirected" or "clicks", or a thing an app has, such as a page or a button).
English rules, pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from .ranking.conversation import COURTESY_WORDS, reads_as_courtesy
from .slots import PERSON
from .validate import check_str

__all__ = ["as_the_user_asks", "courtesy_test", "is_courtesy_turn", "names_a_products_user", "the_user_in_first_person"]

# Words after "user" that make it the subject of a verb ("the user lives in ...", "the user is vegan"): "user"
# then becomes "I", and the verb the first person's ("I live in ...", "I am vegan").
_VERBS = (
    "is|was|has|had|have|does|did|do|can|could|will|would|should|might|may|must|likes|liked|loves|loved|"
    "lives|lived|works|worked|prefers|preferred|eats|ate|drinks|wants|wanted|needs|needed|owns|owned|plays|"
    "played|said|says|told|tells|mentioned|mentions|studies|studied|takes|took|goes|went|uses|used|knows|"
    "hates|dislikes|enjoys|avoids|speaks|drives|cooks|like|live|work|prefer|eat|drink|want|need|own|play|"
    "study|take|go|use|know|hate|dislike|enjoy|avoid|speak|drive|cook|mean|means|said|feel|feels|am|are|"
    "sleep|sleeps|run|runs|swim|swims|read|reads|smoke|smokes|wear|wears|teach|teaches|travel|travels|rent|rents|"
    "attend|attends|volunteer|volunteers|cycle|cycles|exercise|exercises"
)
_BASE_VERBS = frozenset(v for v in _VERBS.split("|") if not v.endswith(("s", "ed")) and v not in {
    "had", "did", "can", "could", "will", "would", "should", "might", "may", "must", "ate", "told", "took", "went",
    "am", "are"})
# The first person of the verbs above that is not their third person without its "s".
_FIRST_PERSON = {"is": "am", "was": "was", "has": "have", "does": "do", "goes": "go"}
# An auxiliary before "the user" ("does the user have pets", "is the user vegan"): the first person's.
_AUXILIARIES = {"does": "do", "doesn't": "don't", "is": "am", "isn't": "aren't", "has": "have", "hasn't": "haven't"}
# A word before "user" that makes it some user, not this one ("add a user", "every user", "the admin user").
_SOME = r"(?<!\ba )(?<!\ban )(?<!\bany )(?<!\bone )(?<!\bper )(?<!\bnew )(?<!\bthis )(?<!\bthat )(?<!\beach )" \
        r"(?<!\bevery )(?<!\bother )(?<!\badmin )(?<!\banother )" \
        r"(?<!\bmy )(?<!\byour )(?<!\bour )(?<!\btheir )(?<!\bhis )(?<!\bher )(?<!\bits )"  # someone's user
_POSSESSIVE = re.compile(rf"{_SOME}\b(?:the\s+)?users?['\u2019]s?(?![\w'\u2019])", re.IGNORECASE)
_ASKED = re.compile(rf"\b(?P<aux>{'|'.join(_AUXILIARIES)})\s+{_SOME}(?:the\s+)?user\b(?!['\u2019])",
                    re.IGNORECASE)
# Words that may stand between "the user" and its verb ("does the user still smoke", "the user currently lives").
_ADVERB = (r"(?:[^\W\d_]{3,}ly|only|still|also|ever|never|always|often|sometimes|now|just|already|first|then|"
           r"again|even|not|too|once|mostly|rarely|seldom)")
_ADVERBS = rf"(?:{_ADVERB}\s+)*"
_SUBJECT = re.compile(rf"{_SOME}\b(?:the\s+)?user\s+(?P<adv>{_ADVERBS})(?P<verb>{_VERBS})\b", re.IGNORECASE)
_MODIFIER = re.compile(rf"{_SOME}\b(?:the\s+)?user\b(?=\s+[^\W\d_])(?!\s+(?:and|or|to|of|in|on|about|for|with|"
                       rf"from|at|by|as)\b)", re.IGNORECASE)
_OBJECT = re.compile(rf"{_SOME}\b(?:the\s+)?user\b(?!['\u2019])", re.IGNORECASE)
_WH = frozenset("where what when who which how".split())
# What a product's user does: the verb after "the user" (its adverbs skipped) that is an action in an app ("clicks
# submit", "signs up", "gets redirected", "sees an error", "lands on", "enters their password"). Words with an
# everyday sense too are taken only in the app's ("enter" an input, not "enter university"; "see" an error;
# "register" / "subscribe" not "for" or "to": "register to vote", "subscribe to a magazine" are the user's own).
_APP_ACTION = (
    r"(?:double-|right-)?click(?:s|ed|ing)?|tap(?:s|ped|ping)?|reset(?:s|ting)?|submit(?:s|ted|ting)?"
    r"|(?:up|down)load(?:s|ed|ing)?|navigat(?:e|es|ed|ing)|select(?:s|ed|ing)?|authenticat(?:e|es|ed|ing)"
    r"|(?:sign|log)(?:s|ged|ed|ging|ing)?\s+(?:in|into|up|out|on|off)"
    r"|(?:register(?:s|ed|ing)?|(?:un)?subscrib(?:e|es|ed|ing))(?!\s+(?:for|to)\b)"
    r"|(?:get|gets|got|gotten|getting|is|was|be|been|being)\s+(?:redirected|logged|signed|locked|prompted|"
    r"authenticated|routed|kicked|bounced|timed|notified|shown)"
    r"|(?:see|sees|saw|seeing|hit|hits|get|gets|got)\s+(?:an?|the|this|that)\s+(?:[^\W\d_]+\s+)?"
    r"(?:error|warning|prompt|popup|pop-up|banner|modal|toast|404|500)s?"
    r"|land(?:s|ed|ing)?\s+on"
    r"|verif(?:y|ies|ied|ying)|exist(?:s|ed)?"
    r"|(?:enter|type)(?:s|d|ed|ing)?\s+(?:(?:an?|the|their|his|her|its|wrong|invalid|incorrect|new|same|old|"
    r"correct|valid)\s+){0,2}(?:password|e-?mail|code|pin|username|credentials|details|value|text|otp|url)"
)
_PRODUCT_ACTION = re.compile(rf"\buser\s+{_ADVERBS}(?:{_APP_ACTION})\b", re.IGNORECASE)
# Things an app has: a query naming one with "the user" is about the app's user. "screen time", "a form of" and a
# "session" that is a meeting ("our last session") are the user's own.
_APP_THING = re.compile(
    r"\b(?:pages?|screens?(?!\s+time\b)|buttons?|forms?(?!\s+of\b)|log-?ins?|log-?outs?|sign-?ins?|sign-?ups?|"
    r"dashboards?|apis?|endpoints?|account\s+settings|urls?|"
    # an app, an email or an account as a thing the user has in it ("rate the app", "verify their email"; not "the
    # user's email", which the memory holds)
    r"(?:the|this|that|our|their|an?)\s+(?:apps?|e-?mails?|accounts?|profiles?|passwords?|usernames?)|"
    r"(?:login|auth|browser|user|web)\s+sessions?|sessions?\s+(?:tokens?|cookies?|ids?|timeouts?|expir\w*|"
    r"storage|data|state|keys?))\b", re.IGNORECASE)
_THE_USER = re.compile(r"\buser\b", re.IGNORECASE)
# An auxiliary that is the first person's as it is ("did the user move" -> "did I move", "can the user swim" -> "can
# I swim"): the tools' reading only (the store may search an app's "can the user reset the password").
_SAME_AUXILIARIES = ("did|didn't|can|can't|could|couldn't|will|won't|would|wouldn't|should|shouldn't|must|might|"
                     "may|was|wasn't")
# A person or a thing of the user's right after "the user" makes it a modifier, not a subject ("did the user mom
# visit" -> "did my mom visit", "after the user surgery" -> "after my surgery": rev40d finding 3).
_USERS_NOUN = (rf"(?!\s+(?:{PERSON}|pets?|dogs?|cats?|puppy|kitten|surgery|operation|appointments?|doctor|dentist|"
               r"hospital|gp|school|job|flight|trip|wedding|birthday|diet|allergy|allergies|medication|meds|car|house|"
               r"flat|home|family)\b)")
# "does the user" / "did the user" with a verb after it, its adverbs skipped ("does the user still smoke", "did the
# user already pay"): the store's reading, where a query may be about an app's users ("does the user get
# redirected"), so it reads the verb as the user's own only when the query names no product's user.
_ASKED_VERB = re.compile(rf"\b(?P<aux>does|doesn't|did|didn't)\s+{_SOME}(?:the\s+)?user{_USERS_NOUN}\s+"
                         rf"(?P<adv>{_ADVERBS})(?P<verb>[^\W\d_]+)\b", re.IGNORECASE)
_ASKED_AS_IT_IS = re.compile(rf"\b(?P<aux>{_SAME_AUXILIARIES})\s+{_SOME}(?:the\s+)?user\b(?!['\u2019]){_USERS_NOUN}",
                             re.IGNORECASE)
# "the user" after a conjunction, the subject of the verb after it ("when the user visits Paris" -> "when I visit
# Paris"), whichever verb it is.
_CLAUSE_SUBJECT = re.compile(
    rf"\b(?P<conj>when|whenever|if|after|before|once|until|unless|while|since|because)\s+{_SOME}(?:the\s+)?user"
    rf"{_USERS_NOUN}\s+(?P<adv>{_ADVERBS})(?P<verb>[^\W\d_]+)\b", re.IGNORECASE)


def names_a_products_user(query: str) -> bool:
    """Whether ``query`` names "the user" as some product's user, not the memory's: the verb after "the user" (its
    adverbs skipped) is an action in an app (click, tap, sign in / up / out, log in / out, get redirected, reset,
    submit, upload, download, navigate, select, see an error, land on, enter a password ...: "where does the user
    get redirected after login", "what happens when the user clicks submit"), or the query names a thing an app
    has (a page, a screen, a button, a form, a login, a dashboard, an API, an endpoint, account settings). Any
    other "the user" is the memory's user ("where does the user currently live", "does the user still smoke").

    >>> names_a_products_user("where does the user get redirected after login")
    True
    >>> names_a_products_user("where does the user currently live"), names_a_products_user("user allergies")
    (False, False)
    """
    if not _THE_USER.search(query):
        return False
    return bool(_PRODUCT_ACTION.search(query) or _APP_THING.search(query))


def _first_person(verb: str) -> str:
    """``verb`` (a word of the subject's verbs) as said after "I": "lives" -> "live", "is" -> "am", "studies" ->
    "study"; a past or a base form as it is."""
    low = verb.casefold()
    if low in _FIRST_PERSON:
        return _FIRST_PERSON[low]
    if low.endswith("ies"):
        return low[:-3] + "y"
    if low.endswith(("ches", "shes", "sses", "xes", "zes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return low[:-1]
    return low


def _capitalized(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


KEYWORDS = 4
"""A query of at most this many words, without a question mark, is read as keywords: a question about the user."""
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)?")
_PERSONS = frozenset(
    "i me my mine myself i'm i've i'd i'll we us our ours you your yours he him his she her hers they them their "
    "theirs it its someone somebody people everyone anyone".split()
)


def as_the_user_asks(query: str, *, tokenizer: str = "unicode", stemmer: str | None = "english") -> str:
    """``query`` with "the user" written as the user asking would say it: "user's" / "the user's" -> "my",
    "the user" as a verb's subject -> "I", with the verb (or the auxiliary before it) the first person's ("where
    does the user work" -> "where do I work", "the user lives in" -> "I live in", "is the user vegan" -> "am I
    vegan"), "user" before a noun -> "my" ("user allergies" -> "my allergies"), any other "(the) user" -> "me"
    ("allergies of the user" -> "allergies of me"). "a user", "every user", "users" and other users are left
    alone. A few keywords (at most :data:`KEYWORDS` words, no question mark, no capital but "I") are a question
    about the user, as a model's memory search is: asked as one ("my job?": the relevance gate reads a question
    for the slot it names, where the bare "my job" read as nothing asked); those naming no one are the user's
    ("hobbies" -> "my hobbies?", a verb after a question word "where live" -> "where do I live?").

    Which user: "the user" is the memory's user unless the query names it as a product's user, the subject of an
    action in an app or beside a thing an app has (:func:`names_a_products_user`: "where does the user get
    redirected after login", "what happens when the user clicks submit"); such a query is about an app's users,
    and is left as written, whatever else it says. Any other verb, adverbs before it included, is the memory's
    user's ("where does the user currently live" -> "where do I currently live", "does the user still smoke" ->
    "do I still smoke?"); an auxiliary that the first person shares stays ("did the user move" -> "did I move"),
    and after a conjunction any verb is the first person's ("when the user visits Paris" -> "when I visit Paris").

    A courtesy turn or a greeting ("thanks", "ok", "good morning": :func:`is_courtesy_turn`, read with the
    engine's ``tokenizer`` and ``stemmer``, its :class:`~memori_core.config.RecallConfig`'s) is left as written:
    the engine recalls nothing for it, where "my good morning?" would recall facts.

    >>> as_the_user_asks("user allergies"), as_the_user_asks("The user's city"), as_the_user_asks("hobbies")
    ('my allergies?', 'my city?', 'my hobbies?')
    >>> as_the_user_asks("where does the user work"), as_the_user_asks("How do I add a user in Django?")
    ('where do I work?', 'How do I add a user in Django?')
    >>> as_the_user_asks("where does the user get redirected after login"), as_the_user_asks("good morning")
    ('where does the user get redirected after login', 'good morning')
    >>> as_the_user_asks("does the user still smoke"), as_the_user_asks("what time does the user wake up")
    ('do I still smoke?', 'what time do I wake up')
    """
    check_str(query, "query")
    if is_courtesy_turn(query, tokenizer=tokenizer, stemmer=stemmer) \
            or all(w.casefold() in COURTESY_WORDS for w in _WORD.findall(query)):
        return query  # "thanks", "ok", "no", "good morning": asked as "my thanks?" it would recall facts
    if names_a_products_user(query):
        return query  # "where does the user get redirected after login": an app's user, not the memory's
    out = query
    if "user" in query.casefold():
        out = _POSSESSIVE.sub("my", out)
        out = _ASKED.sub(lambda m: _capitalized(_AUXILIARIES[m["aux"].casefold()], m["aux"]) + " I", out)
        out = _ASKED_AS_IT_IS.sub(lambda m: m["aux"] + " I", out)
        out = _CLAUSE_SUBJECT.sub(lambda m: f"{m['conj']} I {m['adv']}{_first_person(m['verb'])}", out)
        out = _SUBJECT.sub(_i_verb, out)
        out = _MODIFIER.sub("my", out)
        out = _OBJECT.sub("me", out)
    words = _WORD.findall(out)
    named = any(not w.islower() for w in words[1:] if w != "I") or (
        len(words) > 1 and words[0] != "I" and not words[0].islower())
    if not 0 < len(words) <= KEYWORDS or "?" in out or named:
        return out
    # Keywords: what the user's own memory holds on them, asked. A capital may be a name ("Bob allergies",
    # "weather Paris"): those are left as written.
    out = out.strip()
    if not any(w.casefold() in _PERSONS for w in words):  # naming no one ("hobbies", "where live"): the user's
        if words[0].casefold() in _WH and words[1:2] and words[1].casefold() in _BASE_VERBS:
            out = re.sub(r"^(\W*\w+)\s+", r"\1 do I ", out, count=1)
        else:
            out = "my " + out
    return out.rstrip(" .!") + "?"


def the_user_in_first_person(query: str) -> str:
    """``query`` with "the user" that reads as the memory's user in the first person, and nothing else changed:
    "user's" / "the user's" -> "my", "the user" before one of the user's own verbs -> "I" with the verb the
    first person's ("the user lives in" -> "I live in", "where does the user work" -> "where do I work", "is the
    user vegan" -> "am I vegan"), adverbs between kept ("does the user still smoke" -> "do I still smoke", "did the
    user already pay" -> "did I already pay", "is the user logged in" -> "am I logged in"). Someone's user ("my user's password"), a user of software ("where does the
    user get redirected after login", "user roles"), a user spoken of beside "me" or "their" ("did the user tell me
    their name"), other users and bare keywords are left as written, and no
    question mark is added: a LangGraph store's search may be any app's, and its first page is
    ``engine.recall`` of this query.

    >>> the_user_in_first_person("where does the user live"), the_user_in_first_person("The user's city")
    ('where do I live', 'my city')
    >>> the_user_in_first_person("My user's password reset"), the_user_in_first_person("thanks")
    ("My user's password reset", 'thanks')
    >>> the_user_in_first_person("where does the user get redirected after login")
    'where does the user get redirected after login'
    """
    check_str(query, "query")
    if "user" not in query.casefold() or _SOMEONE_ELSES_USER.search(query) is not None:
        return query
    out = _POSSESSIVE.sub("my", query)
    out = _ASKED_VERB.sub(partial(_do_i, app=names_a_products_user(query)), out)
    out = _ASKED.sub(lambda m: m[0] if m["aux"].casefold() in ("does", "doesn't")
                     else _capitalized(_AUXILIARIES[m["aux"].casefold()], m["aux"]) + " I", out)
    return _SUBJECT.sub(_i_verb, out)


# "me" / "their" / "them" after "the user": the query's asker is someone else, and "the user" is spoken of in the
# third person ("did the user tell me their name", "did the user verify their email"): no "I" to read into it.
_SOMEONE_ELSES_USER = re.compile(r"\buser\b.*\b(?:me|their|theirs|them|themselves|they)\b", re.IGNORECASE)


def _i_verb(m: re.Match[str]) -> str:
    """ "the user currently lives" -> "I currently live"."""
    return f"I {m['adv']}{_first_person(m['verb'])}"


def _do_i(m: re.Match[str], app: bool) -> str:
    """ "does the user live" -> "do I live", "does the user still smoke" -> "do I still smoke", "did the user
    already pay" -> "did I already pay"; in a query about an app's user (``app``) only the user's own verbs
    ("does the user get redirected" as it is)."""
    if app and m["verb"].casefold() not in _BASE_VERBS:
        return m[0]
    aux = {"does": "do", "doesn't": "don't"}.get(m["aux"].casefold(), m["aux"])
    return f"{_capitalized(aux, m['aux'])} I {m['adv']}{m['verb']}"


def is_courtesy_turn(query: str, *, tokenizer: str = "unicode", stemmer: str | None = "english") -> bool:
    """Whether ``query`` is a courtesy turn as an engine with this ``tokenizer`` and ``stemmer`` (its
    :class:`~memori_core.config.RecallConfig`'s; default: the default config's) reads one: "thanks", "ok",
    "bye", "good morning", "👍" (:func:`~memori_core.ranking.conversation.is_courtesy`). The engine recalls
    nothing for it; rewritten as a question ("my thanks?") it would recall facts.

    >>> is_courtesy_turn("muchas gracias"), is_courtesy_turn("muchas gracias", stemmer="spanish")
    (False, True)
    """
    check_str(query, "query")
    return bool(query.strip()) and reads_as_courtesy(query, tokenizer, stemmer)


def courtesy_test(engine: object) -> Callable[[str], bool]:
    """:func:`is_courtesy_turn` with ``engine``'s tokenizer and stemmer (its ``config``'s; the default config's for
    an engine without one): the test an adapter cuts its context window with, so that it frees the turns the
    engine's own window frees (greetings included).

    >>> from memori_core import RecallConfig
    >>> class _Engine: config = RecallConfig(stemmer=None)
    >>> courtesy_test(_Engine())("good morning"), courtesy_test(None)("What day is it?")
    (True, False)
    """
    config = getattr(engine, "config", None)
    tokenizer, stemmer = getattr(config, "tokenizer", "unicode"), getattr(config, "stemmer", "english")
    if not isinstance(tokenizer, str) or not (stemmer is None or isinstance(stemmer, str)):
        tokenizer, stemmer = "unicode", "english"
    return partial(is_courtesy_turn, tokenizer=tokenizer, stemmer=stemmer)
