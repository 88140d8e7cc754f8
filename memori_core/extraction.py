"""From conversation turns to long-term facts: keep what the user states about themselves, never questions.

Capture (``capture=True`` in the adapters) hands the latest turn to a
:class:`FactExtractor`, which returns the facts worth storing:

- :class:`RuleBasedFactExtractor` (the default) keeps only first-person
  statements ("I'm vegetarian", "my daughter Mia starts school in September")
  and rewrites them as "User ..." facts where the rewrite is reliable. It drops
  questions, greetings / thanks / small talk, instructions and requests to the
  assistant, hypotheticals and opinions. Allergies, intolerances, medication
  and dietary restrictions come back ``core`` (:func:`is_core_fact`; its
  ``core_rule=`` replaces the rule, ``None`` marks nothing).
- An LLM extractor (``memori_langchain.LLMFactExtractor``,
  ``memori_llamaindex.LLMFactExtractor``) asks a model, with the prompt of
  :func:`build_extraction_prompt`, and reads its reply with
  :func:`parse_extraction_reply`. It also sees the user's most similar stored
  facts, so it can say which ones a new fact replaces (``supersedes``), and it
  marks the same kinds of facts ``core`` (``mark_core=False`` turns that off).

Capture stores a ``core`` fact with ``engine.add(..., core=True)``: recall
then appends it on every turn (``RecallConfig.core_limit``).

This module is pure: no framework, no engine, no I/O.

>>> RuleBasedFactExtractor().extract([("user", "I'm training for a marathon. What should I eat before my run?")])
[ExtractedFact(text='User is training for a marathon.', supersedes=(), core=False)]
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .ranking.care import is_care_fact
from .text import normalize_fact_text

__all__ = [
    "DEFAULT_MAX_FACT_CHARS",
    "ExtractedFact",
    "FactExtractor",
    "KnownFact",
    "Message",
    "MessageLike",
    "RuleBasedFactExtractor",
    "SentenceVerdict",
    "as_messages",
    "build_extraction_prompt",
    "check_core_rule",
    "check_max_facts",
    "is_core_fact",
    "parse_extraction_reply",
    "split_sentences",
]

DEFAULT_MAX_FACT_CHARS = 300
"""Longest fact (in characters) an extractor returns; longer text is a paste, not a fact."""


# -- data types ---------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """One conversation message: ``role`` is ``"user"``, ``"assistant"``, ``"system"`` or ``"tool"``."""

    role: str
    text: str


MessageLike = Message | tuple[str, str]
"""A :class:`Message` or a ``(role, text)`` pair."""


def as_messages(items: Iterable[MessageLike]) -> list[Message]:
    """``items`` as :class:`Message` objects (``(role, text)`` pairs are converted; roles are lower-cased)."""
    out: list[Message] = []
    for item in items:
        if isinstance(item, Message):
            role, text = item.role, item.text
        elif isinstance(item, tuple) and len(item) == 2:
            role, text = item
        else:
            raise TypeError(f"expected a Message or a (role, text) pair, got {type(item).__name__}")
        if not isinstance(role, str) or not isinstance(text, str):
            raise TypeError("a message's role and text must be str")
        out.append(Message(role.strip().lower(), text))
    return out


@dataclass(frozen=True)
class ExtractedFact:
    """A fact to store, the ids of the user's stored facts it replaces (they stop being recalled), and
    whether it is a core fact (an allergy, a medication, a diet: stored with ``core=True``, injected on every turn)."""

    text: str
    supersedes: tuple[str, ...] = ()
    core: bool = False


class KnownFact(Protocol):
    """A stored fact shown to an extractor: anything with an ``id`` and a ``content`` (e.g. a ``RecalledFact``)."""

    @property
    def id(self) -> str: ...

    @property
    def content(self) -> str: ...


@runtime_checkable
class FactExtractor(Protocol):
    """Turns the latest messages of a conversation into facts about the user.

    ``messages`` are the new turn(s), oldest first: facts come from the user
    messages; an assistant message is context only (what a short answer
    replies to). ``existing`` are the user's stored facts most similar to the
    turn (given only when ``uses_existing_facts`` is true); a returned fact may
    name some of their ids in ``supersedes``. Capture keeps only ids that were
    given, whatever an extractor returns.
    """

    uses_existing_facts: bool
    """Whether capture should look up the user's similar stored facts and pass them as ``existing``."""

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        """The facts worth keeping from ``messages`` (``[]`` when there are none)."""
        ...


# -- sentences ----------------------------------------------------------------

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'", "`": "'"})
_ABBREVIATIONS = re.compile(
    r"(?:\b(?:mr|mrs|ms|dr|prof|st|jr|sr|vs|etc|approx|e\.g|i\.e)|(?-i:\b[A-Z]))\.$", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"(?<=[.!?\u2026])[\"')\]]*\s+|\n+")
_BULLET = re.compile(r"^\s*(?:[-*\u2022>]+|\d{1,2}[.)])\s+")


def split_sentences(text: str) -> list[str]:
    """``text`` cut into sentences (at ``. ! ?`` followed by a space, and at line breaks; "Dr. X" stays whole)."""
    pieces = [p.strip() for p in _SENTENCE_END.split(text.strip())]
    out: list[str] = []
    for piece in pieces:
        if not piece:
            continue
        if out and _ABBREVIATIONS.search(out[-1]) and not out[-1].endswith(("?", "!")):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


# -- the rule-based extractor -------------------------------------------------

KEPT_REWRITTEN = "rewritten as a User fact"
KEPT_AS_SAID = "kept as said"
DROP_EMPTY = "empty"
DROP_TOO_LONG = "too long"
DROP_QUESTION = "question"
DROP_SMALL_TALK = "greeting / thanks / small talk"
DROP_INSTRUCTION = "instruction or request to the assistant"
DROP_SECOND_PERSON = "about the assistant or the other person (you/your)"
DROP_HYPOTHETICAL = "hypothetical, wish or conditional"
DROP_OPINION = "opinion, not about the user"
DROP_NOT_FIRST_PERSON = "no first-person statement"


@dataclass(frozen=True)
class SentenceVerdict:
    """What the rule-based extractor decided for one sentence: the fact kept (``None`` if dropped) and why."""

    sentence: str
    fact: str | None
    reason: str


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _words(*items: str) -> str:
    """An alternation of words/phrases, longest first (spaces match any run of spaces)."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(items, key=len, reverse=True))


# Interjections and discourse markers in front of what is said: "Oh, ...", "Thanks! ...", "FYI ...".
_SOCIAL = _words(
    "hi", "hello", "hey", "heya", "hiya", "yo", "good morning", "good afternoon", "good evening", "good night",
    "thanks", "thank you", "thanks a lot", "many thanks", "thx", "ty", "cheers", "bye", "goodbye", "see ya",
    "ok", "okay", "cool", "great", "nice", "awesome", "perfect", "sure", "yes", "yeah", "yep", "yup", "no", "nope",
    "lol", "haha", "hahaha", "wow", "omg", "oh", "ah", "aw", "aww", "hmm", "um", "uh", "well", "alright", "right",
    "me too", "same", "same here", "got it", "sounds good", "no problem", "of course", "totally", "exactly",
    "absolutely", "definitely", "indeed", "agreed", "congrats", "congratulations", "welcome", "sorry", "please",
)
_CONNECTIVE = _words(
    "so", "and", "but", "also", "actually", "anyway", "anyways", "btw", "by the way", "honestly", "fyi",
    "for context", "for the record", "fun fact", "just so you know", "so you know", "just to let you know",
    "as i said", "as i mentioned", "like i said",
)
# "Remember that I'm vegan", "I forgot to mention: my son is 4": what follows is the statement.
_REMINDER = _words(
    "remember", "please remember", "note", "please note", "keep in mind", "bear in mind", "don't forget",
    "do not forget", "i forgot to mention", "i should mention", "i should add", "i wanted to mention",
    "i want to mention", "i forgot to say", "i should say", "i wanted to say", "i want to say",
)
_LEAD_SOCIAL = _rx(rf"^(?:{_SOCIAL})\b(?:\s+(?-i:[A-Z][a-z]+))?\s*(?:[,!.:;\u2014\u2013-]+\s*|\s+(?=[a-z])|$)")
_LEAD_CONNECTIVE = _rx(rf"^(?:{_CONNECTIVE})\b(?:\s*,\s*|\s*:\s*|\s+that\b\s*|\s+|$)")
_LEAD_REMINDER = _rx(
    rf"^(?:{_REMINDER})(?:\s*[,:]\s*|\s+that\s+|\s+)(?=(?:i|i'm|i've|i'll|we|we're|we've|my|our)\b)"
)

_FIRST_PERSON_START = _rx(r"^(?:i|i'm|im|i've|ive|i'll|i'd|my|we|we're|we've|we'll|we'd|our|me and|mine)\b")
_OPENER_THEN_FIRST_PERSON = _rx(
    r"^(?:last|next|this|yesterday|today|tonight|recently|lately|since|in|on|at|for|after|before|when|while|as|"
    r"once|growing up|nowadays|these days|every|each|most|over|during|back|two|three|a few|a couple|"
    r"currently|now|at the moment|right now)\b[^?]{0,60}?,?\s+(?P<subject>(?:i|i'm|i've|my|we|we're|we've|our)\b)"
)
_SECOND_PERSON = _rx(r"\b(?:you|you're|you've|you'll|you'd|your|yours|yourself|yourselves|u|ur|ya)\b")

_QUESTION_OPENER = _rx(
    r"^(?:(?:what|how|why|when|where|which|who|whom|whose)(?:'s|'re|'d|'ll)?\s+"
    r"(?:is|are|was|were|do|does|did|can|could|should|would|will|shall|may|might|about|if|kind|sort|type|much|"
    r"many|long|often|far|old|else)\b"
    r"|(?:what|how|why|who|where)'s\b"
    r"|(?:do|does|did|is|are|was|were|am|can|could|would|will|should|shall|may|might|have|has|had|isn't|aren't|"
    r"don't|doesn't|didn't|won't|wouldn't|can't|couldn't|shouldn't)\s+"
    r"(?:i|you|we|they|he|she|it|there|this|that|these|those|my|your|anyone|someone|any|u)\b"
    r"|any\s+(?:tips|ideas|suggestions|recommendations|advice|thoughts)\b)"
)
# "I'm vegetarian, what should I cook?": the statement before the question clause is kept.
_QUESTION_TAIL = _rx(
    r"^(?P<head>.+?)(?:\s*[,;:\u2014\u2013]\s*|\s+-\s+|\s+(?=so\s))(?:so|but|and|then)?\s*"
    r"(?P<tail>(?:what|how|why|when|where|which|who|can|could|would|will|should|shall|do|does|did|is|are|am|any|"
    r"anything|ideas|thoughts|suggestions|recommendations)\b.*)$"
)
_CONDITIONAL = _rx(
    r"^(?:if|unless|suppose|supposing|imagine|assuming|what if|in case|say|hypothetically|even if|whether|"
    r"let's say|pretend)\b"
)
_IMPERATIVE = _rx(
    r"^(?:please|pls|plz|kindly|let's|lets|let us|let me know|write|tell|give|show|explain|help|make|create|list|"
    r"summari[sz]e|translate|suggest|find|describe|generate|draft|compose|plan|remind|check|search|"
    r"look up|calculate|compare|convert|fix|rewrite|edit|proofread|review|book|order|schedule|set|add|remove|"
    r"delete|send|call|draw|design|outline|brainstorm|name|define|teach|try|use|consider|continue|stop|don't|"
    r"do not|keep|act as|go ahead|go on|answer|respond|reply|ignore|forget|assume|note down|save|store|"
    r"remember|note|tell me|give me|show me|walk me|guide me|can you|could you|would you|will you|"
    r"i want you to|i need you to|i'd like you to|i would like you to)\b"
)
_FIRST_PERSON_REQUEST = _rx(
    r"^(?:i\s+(?:really\s+|just\s+|also\s+)?(?:need|want|would\s+like|'d\s+like|would\s+love|'d\s+love)\s+"
    r"(?:(?:a|an|some|the|more|any|few|couple\s+of|a\s+few|new|good|quick|simple|short|detailed)\s+)*"
    r"(?:help|advice|tips?|ideas?|suggestions?|recommendations?|recipes?|options?|list|plan|summary|poem|story|"
    r"email|letter|essay|answer|explanation|examples?|information|info|guidance|feedback|overview|outline|"
    r"assistance|something|anything)\b"
    r"|i\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+"
    r"(?:know|ask|learn\s+about|find\s+out|understand|see|get\s+some)\b"
    r"|i(?:'m|\s+am)\s+(?:looking\s+for|searching\s+for|wondering|asking|curious\s+(?:about|whether|if|what|how|which)|"
    r"not\s+sure\s+(?:whether|if|what|how|which|where|when|about)|"
    r"trying\s+to\s+(?:decide|figure\s+out|find|choose|pick|"
    r"think\s+of|come\s+up\s+with|understand|learn\s+about))\b"
    r"|i\s+(?:was\s+)?wonder(?:ing|ed)?\b"
    r"|i\s+have\s+(?:a|another|one\s+more|some|a\s+quick)\s+(?:question|request|favou?r)\b)"
)
_HYPOTHETICAL = _rx(
    r"^(?:i'd|i\s+would|i\s+could|i\s+should|i\s+wish|i\s+might\s+have|we\s+(?:should|could|would|might)|we'd)\b"
)
# "I think ...": kept as said when what follows is about the user ("I think I'm allergic"), else an opinion.
_HEDGE = _rx(
    r"^i\s+(?:(?:really|just|kind\s+of|sort\s+of)\s+)?"
    r"(?:think(?!\s+(?:about|of)\b)|guess|believe(?!\s+in\b)|suppose|feel\s+like|reckon|assume|hope|doubt)\b"
    r"(?:\s+that)?\s*(?P<rest>.*)$"
)
_REACTION = _rx(
    r"^i(?:'m|\s+am)\s+(?:(?:so|really|very|just|pretty|truly|super|quite|all)\s+)*"
    r"(?:glad|sorry|sure|not\s+sure|happy|excited|thankful|grateful|proud|impressed|jealous|curious|confused|"
    r"relieved|amazed|touched|thrilled|fine|good|great|ok|okay|well|alright|back|here|done|ready|in|down|"
    r"all\s+set|doing\s+(?:well|good|great|fine|ok|okay|alright))"
    r"(?:,?\s+(?:to\s+(?:hear|see|know|read|help|go|bed)|too|now|then|thanks|thank\s+you|"
    r"(?:about|of|with)\s+(?:that|it|this|you|him|her|them)|"
    r"for\s+(?:that|it|this|him|her|them|you))\b.*)?\s*[.!]*$"
    r"|^i(?:'m|\s+am)\s+(?:just\s+|now\s+)?(?:off|heading\s+out|leaving)\b"
)
_SHORT_FIRST_PERSON_TALK = _rx(
    r"^i\s+(?:(?:totally|really|completely|just|so|do|also)\s+)*"
    r"(?:see|agree|understand|know|mean|bet|hope\s+so|think\s+so|guess\s+so|suppose\s+so|"
    r"appreciate\s+(?:it|that|this)|"
    r"get\s+it|got\s+it|feel\s+(?:that|the\s+same)|hear\s+(?:that|ya)|can't\s+wait|cannot\s+wait|"
    r"(?:love|like|loved|liked|enjoy|enjoyed|adore)\s+(?:it|that|this|those|these)|"
    r"(?:have|gotta|got|need|must)\s+(?:to\s+)?(?:go|run|leave|head\s+out|get\s+going))"
    r"(?:\s+(?:too|as\s+well|right|now|though))?\s*[.!]*$"
)

_ADVERBS = (
    r"(?:also|really|just|recently|still|always|never|often|usually|sometimes|currently|actually|mostly|only|now|"
    r"finally|already|even|generally|normally|rarely|seldom|occasionally|absolutely|totally|definitely|truly|"
    r"mainly|barely|hardly|no\s+longer|not|once|first|eventually|regularly|previously|typically|both|strongly|"
    r"deeply|greatly|highly|much|personally|especially|particularly|certainly|simply|genuinely|honestly|"
    r"seriously|kind\s+of|sort\s+of|pretty\s+much)"
)
# A bare auxiliary is an answer to something said before, not a fact: "I did.", "I definitely will."
_SHORT_ANSWER = _rx(
    rf"^(?:i|we)\s*(?:{_ADVERBS}\s+)*(?:am|'m|are|'re|do|did|will|'ll|can|have|'ve|was|were|would|could|should|"
    r"must|might|may|won't|don't|didn't|can't|haven't|wasn't)"
    r"(?:\s+(?:too|not|so|as\s+well|either|indeed))?\s*[.!]*$"
)
# "My bad.", "My pleasure!", "my dog's name": too short to say anything about the user.
_MY_FRAGMENT = _rx(r"^my\s+\S+(?:\s+\S+)?\s*[.!]*$")
# Auxiliaries after "I" and their form after "User".
_AUX = {
    "am": "is", "'m": "is", "im": "is", "have": "has", "'ve": "has", "ive": "has", "do": "does", "don't": "doesn't",
    "haven't": "hasn't", "was": "was", "wasn't": "wasn't", "had": "had", "did": "did", "didn't": "didn't",
    "will": "will", "'ll": "will", "won't": "won't", "can": "can", "can't": "can't", "cannot": "cannot",
    "must": "must", "might": "might", "may": "may", "used": "used", "need": "needs", "ain't": "isn't",
}
# Present-tense verbs that rewrite reliably ("I work" -> "User works"); anything else is kept as said.
_PRESENT_VERBS = frozenset(
    """live work love like prefer hate dislike enjoy play own study teach speak eat drink cook bake want use
    volunteer practice practise collect paint write swim cycle bike drive walk hike travel visit go take keep sing
    dance watch listen follow avoid attend belong care come commute coach grow knit meditate support suffer struggle
    rent raise run sleep wake wear manage lead mentor know feel get make fly miss plan intend try sell buy shop save
    earn spend host train research design build fix repair code serve share stay celebrate adore identify
    garden camp surf ski climb fish hunt sew draw""".split()
)
_IRREGULAR_PAST = frozenset(
    """went became got took made began bought brought left met grew found felt saw ran gave came knew lost won wrote
    taught spent sold broke chose drove fell forgot quit built caught sang swam rode flew wore held kept slept led
    paid sent spoke stood understood woke drank ate told heard threw hid fed dug""".split()
)
# "I'm visiting Rome next month and would love some tips": the request after the statement is cut off.
_REQUEST_TAIL = _rx(
    r"(?:,\s*|\s+)(?:and|so|but)\s+(?:i\s+|i'm\s+|i\s+am\s+)?(?:really\s+)?"
    r"(?:(?:would|'d)\s+(?:like|love)\b|(?:need|want)\s+(?:\S+\s+){0,5}?"
    r"(?:ideas|suggestions|recommendations|advice|tips|help|options|recipes)\b"
    r"|(?:am\s+|'m\s+)?(?:looking\s+for|wondering)\b)"
    r".*$"
)
# A second verb without its own subject ("... and love it") would need conjugating too: no rewrite then.
_AND_VERB = _rx(
    rf"\b(?:and|or|but|then)\s+(?:{_ADVERBS}\s+)*(?:am|have|do|don't|need|"
    + "|".join(sorted(_PRESENT_VERBS)) + r")\b"
)
# "Due to my allergy, I avoid nuts": a short lead-in, a comma, then the user as subject.
_LEAD_IN_THEN_FIRST_PERSON = _rx(r"^[^,?!]{1,60},\s*(?P<subject>(?:i|i'm|i've|i'll|i'd|my|we|we're|we've|our)\b)")
_OTHER_FIRST_PERSON = _rx(r"\b(?:i|i'm|im|i've|i'll|i'd|me|we|we're|we've|we'll|us|our|ours|mine)\b")
_I_SUBJECT = _rx(rf"^i(?:\s+|(?='))(?P<adv>(?:{_ADVERBS}\s+)*)(?P<verb>'m|'ve|'ll|[a-z']+)(?P<tail>.*)$")
_IM_SUBJECT = _rx(r"^(?P<verb>im|ive)(?P<tail>\s.*)$")


def _clean(sentence: str) -> str:
    text = " ".join(sentence.translate(_APOSTROPHES).split())
    return _BULLET.sub("", text).strip(" \"'")


def _strip_lead(text: str) -> tuple[str, bool]:
    """``text`` without leading interjections and discourse markers; and whether a greeting/thanks/etc. was cut."""
    social = False
    while True:
        m = _LEAD_SOCIAL.match(text)
        if m and m.end() > 0:
            text, social = text[m.end():].lstrip(" ,!.-"), True
            continue
        m = _LEAD_CONNECTIVE.match(text) or _LEAD_REMINDER.match(text)
        if m and m.end() > 0:
            text = text[m.end():].lstrip(" ,:-")
            continue
        return text, social


def _third_person(verb: str) -> str:
    v = verb.lower()
    if v in ("have", "do", "go"):
        return {"have": "has", "do": "does", "go": "goes"}[v]
    if v.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(v) > 1 and v.endswith("y") and v[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _is_past(verb: str) -> bool:
    v = verb.lower()
    return v in _IRREGULAR_PAST or (len(v) > 3 and v.endswith("ed") and not v.endswith("eed"))


def _end(text: str) -> str:
    text = text.rstrip(" .!\u2026,;:-")
    return text[:1].upper() + text[1:] + "."


_LOWER_I = re.compile(r"(?<![\w.'])i(?=\s|'|$|[,;:!])")


def _as_said(text: str) -> str:
    """The sentence as the user said it, with a capital "I" and a final period."""
    return _end(_LOWER_I.sub("I", text))


def _rewrite(statement: str) -> str | None:
    """``statement`` (first person) as a "User ..." fact, or ``None`` when no rewrite is reliable."""
    if statement[:3].lower() == "my ":
        rest = statement[3:]
        if _OTHER_FIRST_PERSON.search(rest) or re.search(r"\bmy\b", rest, re.IGNORECASE):
            return None
        return _end(f"User's {rest}")
    m = _I_SUBJECT.match(statement) or _IM_SUBJECT.match(statement)
    if m is None:
        return None
    adv = m.groupdict().get("adv") or ""
    verb, tail = m.group("verb"), m.group("tail")
    key = verb.lower()
    if key in _AUX:
        new_verb = _AUX[key]
    elif key in _PRESENT_VERBS:
        new_verb = _third_person(verb)
    elif _is_past(key):
        new_verb = verb
    else:
        return None
    if _OTHER_FIRST_PERSON.search(tail) or _AND_VERB.search(tail):
        return None
    tail = re.sub(r"\bmyself\b", "themselves", tail, flags=re.IGNORECASE)
    tail = re.sub(r"\bmy\b", "their", tail, flags=re.IGNORECASE)
    return _end(f"User {adv}{new_verb}{tail}")


# -- core facts: worth a few tokens on every turn ------------------------------

def is_core_fact(text: str) -> bool:
    """Whether a fact is worth injecting on every turn: an allergy or intolerance, a medication, or a dietary
    restriction (vegetarian, vegan, halal, kosher, gluten-free, coeliac, lactose-free, no alcohol...).

    >>> is_core_fact("User is allergic to peanuts."), is_core_fact("User lives in Leeds.")
    (True, False)

    A term right after a negation does not count ("User is not vegan.", "User has no allergies.").
    The rule reads words, not meaning: pass your own ``core_rule`` to an extractor to change it. It is
    the relevance gate's care-fact rule (:func:`memori_core.ranking.care.is_care_fact`).
    """
    return is_care_fact(text)


CoreRule = Callable[[str], bool]
"""``rule(fact_text) -> bool``: whether an extracted fact is core."""


def check_core_rule(rule: Any) -> CoreRule | None:
    """``core_rule`` of an extractor: a callable ``(text) -> bool``, or ``None`` (no fact is marked core)."""
    if rule is not None and not callable(rule):
        raise TypeError(f"core_rule must be a callable(text) -> bool or None, got {type(rule).__name__}")
    return rule


class RuleBasedFactExtractor:
    """The default extractor: first-person statements about the user, as "User ..." facts; no model, no I/O.

    >>> RuleBasedFactExtractor().extract([("user", "Thanks! I'm vegetarian and my daughter Mia is 7. Any ideas?")])
    [ExtractedFact(text='User is vegetarian and their daughter Mia is 7.', supersedes=(), core=True)]

    Each user message is cut into sentences; a sentence is kept only when,
    once leading interjections ("Oh,", "Thanks!", "Just so you know,") are
    cut, it is a statement whose subject is the user ("I ...", "My ...",
    "We ...", or "Last month I ..."). Dropped: questions (a question clause
    after a statement is cut off: "I'm vegetarian, what should I cook?" keeps
    "I'm vegetarian"), greetings / thanks / small talk ("I'm good", "I see"),
    instructions and requests ("write me a poem", "can you ...", "I need a
    recipe", "I'm looking for ..."), anything addressed to the assistant
    (you / your: "I think you should ..."), hypotheticals and wishes ("If I
    were rich ...", "I'd love ...", "I wish ..."), opinions that are not about
    the user ("I think it will rain"). A hedged statement about the user ("I
    think I'm allergic to cats") is kept as said.

    Rewrites: "I'm/I am X" -> "User is X", "I have" -> "User has", "I work"
    -> "User works" (for common verbs), "I moved" -> "User moved", "My X" ->
    "User's X"; a later "my" becomes "their". When the sentence has another
    first-person pronoun, or an unknown verb, it is kept as said. Curly
    apostrophes count as straight ones. Assistant messages are ignored.

    A kept fact is ``core`` when ``core_rule(fact_text)`` says so (default
    :func:`is_core_fact`: allergies, intolerances, medication, dietary
    restrictions); capture then stores it with ``core=True`` and recall
    injects it on every turn. ``core_rule=None`` marks no fact core.
    """

    uses_existing_facts = False
    """The rules never look at stored facts (and never supersede any)."""

    def __init__(
        self, *, max_chars: int = DEFAULT_MAX_FACT_CHARS, core_rule: CoreRule | None = is_core_fact
    ) -> None:
        """``max_chars``: a longer sentence is not a fact (a paste, a story) and is dropped. ``core_rule``:
        which kept facts are core (``None``: none)."""
        if isinstance(max_chars, bool) or not isinstance(max_chars, int) or max_chars < 1:
            raise ValueError(f"max_chars must be a positive int, got {max_chars!r}")
        self.max_chars = max_chars
        self.core_rule = check_core_rule(core_rule)

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        """The kept facts of the user messages in ``messages``, in order, without repeats."""
        facts: list[ExtractedFact] = []
        seen: set[str] = set()
        for message in as_messages(messages):
            if message.role not in ("user", "human"):
                continue
            for verdict in self.explain(message.text):
                if verdict.fact is None:
                    continue
                key = normalize_fact_text(verdict.fact)
                if key not in seen:
                    seen.add(key)
                    core = self.core_rule is not None and bool(self.core_rule(verdict.fact))
                    facts.append(ExtractedFact(verdict.fact, core=core))
        return facts

    def explain(self, text: str) -> list[SentenceVerdict]:
        """The decision for every sentence of one user message: the fact kept (or ``None``) and the reason."""
        return [self.judge(sentence) for sentence in split_sentences(text)]

    def judge(self, sentence: str) -> SentenceVerdict:
        """The decision for one sentence."""
        fact, reason = self._judge(_clean(sentence))
        return SentenceVerdict(sentence, fact, reason)

    def _judge(self, text: str) -> tuple[str | None, str]:
        # One check after the other, first match wins: what is not a statement by the user is dropped
        # before anything is rewritten. Each rule is a named pattern above.
        if not re.search(r"\w", text):
            return None, DROP_EMPTY
        if len(text) > self.max_chars:
            return None, DROP_TOO_LONG
        if text.rstrip(" )\"'").endswith("?"):
            m = _QUESTION_TAIL.match(text)
            if m is not None:
                fact, reason = self._judge(m.group("head"))
                if fact is not None:
                    return fact, reason
            return None, DROP_QUESTION
        body, social = _strip_lead(text)
        if not re.search(r"\w", body):
            return None, DROP_SMALL_TALK
        if _QUESTION_OPENER.match(body):
            return None, DROP_QUESTION
        if _CONDITIONAL.match(body):
            return None, DROP_HYPOTHETICAL
        if _IMPERATIVE.match(body):
            return None, DROP_INSTRUCTION
        if any(rx.match(body) for rx in (_REACTION, _SHORT_FIRST_PERSON_TALK, _SHORT_ANSWER, _MY_FRAGMENT)):
            return None, DROP_SMALL_TALK
        if _SECOND_PERSON.search(body):
            return None, DROP_SECOND_PERSON
        if _FIRST_PERSON_REQUEST.match(body):
            return None, DROP_INSTRUCTION
        hedge = _HEDGE.match(body)
        if hedge is not None:
            rest = hedge.group("rest")
            about_user = _FIRST_PERSON_START.match(rest) or rest.lower().startswith("to ")
            if about_user and not _HYPOTHETICAL.match(rest):
                return _as_said(body), KEPT_AS_SAID
            return None, DROP_OPINION
        if _HYPOTHETICAL.match(body):
            return None, DROP_HYPOTHETICAL
        if _FIRST_PERSON_START.match(body):
            body = _REQUEST_TAIL.sub("", body) or body
            rewritten = _rewrite(body)
            if rewritten is not None:
                return rewritten, KEPT_REWRITTEN
            return _as_said(body), KEPT_AS_SAID
        lead = _OPENER_THEN_FIRST_PERSON.match(body) or _LEAD_IN_THEN_FIRST_PERSON.match(body)
        if lead is not None:
            said = body[lead.start("subject"):]  # what the user says after "Last month," / "Due to X,"
            if _FIRST_PERSON_REQUEST.match(said):
                return None, DROP_INSTRUCTION
            if _HYPOTHETICAL.match(said):
                return None, DROP_HYPOTHETICAL
            if _REACTION.match(said) or _SHORT_FIRST_PERSON_TALK.match(said) or _SHORT_ANSWER.match(said):
                return None, DROP_SMALL_TALK
            return _as_said(_REQUEST_TAIL.sub("", body) or body), KEPT_AS_SAID
        return None, DROP_SMALL_TALK if social else DROP_NOT_FIRST_PERSON


# -- LLM extraction: the prompt and the reply parser -------------------------

_TAG = re.compile(r"</?\s*(?:conversation|known_facts)\s*>", re.IGNORECASE)


def check_max_facts(value: Any) -> int:
    """``max_facts`` of an LLM extractor, checked as a positive int."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"max_facts must be a positive int, got {value!r}")
    return value


def _alias(i: int) -> str:
    return f"F{i + 1}"


def _one_line(text: str) -> str:
    return " ".join(_TAG.sub(" ", str(text)).split())


def build_extraction_prompt(
    messages: Sequence[MessageLike], existing: Sequence[KnownFact] = (), *, max_facts: int = 10, core: bool = True
) -> str:
    """The prompt asking a model for the user's facts in ``messages`` as JSON.

    Stored facts in ``existing`` are listed under short ids (``F1``, ``F2``
    ... in order) that :func:`parse_extraction_reply` maps back to their real
    ids. The model is asked for a JSON array of
    ``{"fact": "User ...", "supersedes": ["F1"], "core": false}`` objects
    (``[]`` when nothing is worth keeping); with ``core`` (default) it is told
    to set ``"core": true`` on allergies, intolerances, medication and dietary
    restrictions (without, the key is not asked for).
    """
    lines = [
        "You maintain a long-term memory about a user. Read the new conversation turn below and write down the "
        "facts the USER states about themselves that are worth remembering in later conversations: "
        "preferences, diet and allergies, health, work, family and pets, places, plans, routines.",
        "",
        "Rules:",
        "- Only facts the user states about themselves. Never questions, requests or instructions to the "
        "assistant, greetings, thanks, small talk, hypotheticals, or anything the assistant said "
        "(assistant messages are context only).",
        '- One short third-person sentence per fact, starting with "User" '
        '(for example "User is vegetarian." or "User\'s daughter Mia starts school in September.").',
        '- If a new fact updates or contradicts one of the known facts, put that known fact\'s id in "supersedes". '
        "Use only ids from the list of known facts.",
        f"- At most {max_facts} facts.",
    ]
    if core:
        lines.append(
            '- Set "core" to true for a fact that must be remembered in every conversation whatever the topic: '
            "allergies and intolerances, medications, and dietary restrictions (vegetarian, vegan, halal, kosher, "
            "gluten-free, coeliac, lactose-free, does not drink alcohol). Set it to false for every other fact."
        )
    lines += [
        "",
        "<known_facts>",
    ]
    known = [f"{_alias(i)}: {_one_line(f.content)}" for i, f in enumerate(existing)]
    lines += known or ["(none)"]
    lines += ["</known_facts>", "", "<conversation>"]
    for message in as_messages(messages):
        if message.role in ("user", "human", "assistant", "ai") and message.text.strip():
            role = "user" if message.role in ("user", "human") else "assistant"
            lines.append(f"{role}: {_one_line(message.text)}")
    lines += [
        "</conversation>",
        "",
        "Reply with a JSON array only, each item an object with a "
        + ('"fact" string, a "supersedes" list of ids and a "core" boolean' if core
           else '"fact" string and a "supersedes" list of ids')
        + "; reply with an empty array when there is nothing worth remembering.",
    ]
    return "\n".join(lines)


_FENCE = re.compile(r"```[ \t]*(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)
_LIST_KEYS = ("facts", "memories", "items", "results")
_TEXT_KEYS = ("fact", "text", "content", "memory")
_SUPERSEDE_KEYS = ("supersedes", "replaces", "supersede")


def _flag(value: Any) -> bool:
    """A model's ``"core"`` value: JSON ``true`` (or the string ``"true"`` / ``"yes"``) is true, anything else false."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes")
    return value is True


def _decoded_values(text: str) -> Iterable[Any]:
    """JSON values found in ``text``: the whole text, else each value starting at a ``[`` or ``{``."""
    stripped = text.strip()
    try:
        yield json.loads(stripped)
        return
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    for m in re.finditer(r"[\[{]", stripped):
        try:
            value, _ = decoder.raw_decode(stripped, m.start())
        except ValueError:
            continue
        yield value


def _items(value: Any) -> list[Any] | None:
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        for key in _LIST_KEYS:
            if isinstance(value.get(key), list):
                return value[key]
        if any(isinstance(value.get(k), str) for k in _TEXT_KEYS):
            return [value]
    return None


def parse_extraction_reply(
    reply: str,
    existing: Sequence[KnownFact] = (),
    *,
    max_chars: int = DEFAULT_MAX_FACT_CHARS,
    max_facts: int = 20,
    core: bool = True,
) -> list[ExtractedFact]:
    """The facts in a model's reply to :func:`build_extraction_prompt`; ``[]`` for a reply it cannot read.

    Accepts a JSON array (or ``{"facts": [...]}``) bare, inside a
    ````json ... ```` fence, or among other text; items may be objects
    (``fact`` / ``text``, ``supersedes``) or plain strings. A ``supersedes``
    id is kept only if it names one of ``existing`` (by its short id ``F1``
    ... or its real id), and not a fact with the same text as the new one: a
    model can never point at another user's facts or invent ids. Empty,
    over-long (``max_chars``) and question facts are dropped, repeats merged,
    and at most ``max_facts`` are returned. An object's ``"core": true``
    makes the fact core (read only with ``core``; a repeat is core if any copy is).
    """
    if not isinstance(reply, str) or not reply.strip():
        return []
    ids: dict[str, str] = {}
    content_key: dict[str, str] = {}
    for i, fact in enumerate(existing):
        ids[_alias(i).casefold()] = fact.id
        ids[str(fact.id).casefold()] = fact.id
        content_key[fact.id] = normalize_fact_text(str(fact.content))
    items: list[Any] | None = None
    for candidate in [m.group(1) for m in _FENCE.finditer(reply)] + [reply]:
        for value in _decoded_values(candidate):
            items = _items(value)
            if items is not None:
                break
        if items is not None:
            break
    if not items:
        return []

    out: dict[str, tuple[str, list[str]]] = {}
    cores: set[str] = set()
    for item in items:
        is_core = False
        if isinstance(item, str):
            text, raw_ids = item, []
        elif isinstance(item, dict):
            text = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str)), "")
            raw = next((item[k] for k in _SUPERSEDE_KEYS if k in item), [])
            raw_ids = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
            is_core = core and _flag(item.get("core"))
        else:
            continue
        text = " ".join(text.split())
        if not text or len(text) > max_chars or text.endswith("?"):
            continue
        key = normalize_fact_text(text)
        if not key:
            continue
        replaced = [ids[r.strip().casefold()] for r in raw_ids if isinstance(r, str) and r.strip().casefold() in ids]
        replaced = [r for r in replaced if content_key.get(r) != key]
        if key in out:
            out[key][1].extend(r for r in replaced if r not in out[key][1])
        elif len(out) < max_facts:
            out[key] = (text, list(dict.fromkeys(replaced)))
        else:
            continue
        if is_core:
            cores.add(key)
    return [ExtractedFact(text, tuple(replaced), core=key in cores) for key, (text, replaced) in out.items()]
