"""Conversation-aware recall: which earlier turns are read, and how they move the query vector.

A follow-up ("What should I order there?") names its need only in an earlier turn ("I'm going to a
seafood restaurant tonight."). Recall then searches with the question's embedding moved towards the
embedding of the recent conversation (the question, then the read turns newest first): one extra embedding
per recall, none when there is no context. Newest first, because the embedder reads a bounded number of
tokens (MiniLM: 256) and drops the rest: a long earlier turn must not push the question and the turn that
named its need out of what is read. (A turn that leans on its conversation may embed the turn before too, to
carry what recall kept for it, unless recall answered that turn already: :mod:`.carried`.) The BM25 side reads the question's own words only, so a word
said turns ago cannot open the gate by itself.

The ranking uses the moved direction; the relevance gate reads, per fact, the larger of its cosine to the
question and its cosine to the conversation (:func:`gate_cosine`): moving the direction dilutes both, and
a follow-up's need is often clear only from the conversation as a whole. Measured on the app-memory
development set (evals/app_memory), follow-up hit 0.375 -> 0.646 for off-topic clean 0.561 -> 0.545.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..text import analyzer

__all__ = ["CONVERSATION_WORDS", "COURTESY_WORDS", "GREETING", "GREETING_WORDS", "SHORT_TURN", "accepts", "asks_something", "blend_query", "conversation_text",
           "conversation_turns", "gate_cosine", "goes_on_from_the_conversation", "is_courtesy", "without_connectives", "without_greeting", "offers_a_choice", "leans_on_the_conversation", "points_back", "tells_news", "tells_something", "told_in",
           "reads_as_courtesy", "terms_of"]

COURTESY_WORDS = frozenset({
    "thanks", "thank", "thx", "ty", "cheers", "ok", "okay", "k", "great", "cool", "nice", "perfect", "awesome",
    "good", "sounds", "got", "bye", "goodbye", "hi", "hello", "hey", "lol", "yes", "yeah", "yep", "no", "nope",
    "please", "much", "lot", "one", "right", "sure", "fine", "alright", "wonderful", "brilliant", "amazing",
    # who the thanks go to, and the British and Irish ways of saying it ("Cheers pal", "ta very much")
    "pal", "mate", "buddy", "bud", "dude", "ta", "appreciate", "appreciated", "legend", "lovely", "ace", "tnx", "thnx",
    "thankyou", "cya", "later", "see", "soon", "ttyl", "goodnight", "night",
    # the assistant's answer to thanks, read among the earlier turns ("You're welcome!", "Anytime!")
    "welcome", "anytime",
    # the same in the languages most chats are in besides English
    "gracias", "merci", "danke", "grazie", "obrigado", "obrigada", "dank", "bedankt", "tack", "takk", "kiitos",
    "dziękuję", "спасибо", "спс", "谢谢", "謝謝", "多谢", "ありがとう", "ありがと", "どうも", "감사합니다", "고마워",
    "고맙습니다", "شكرا", "תודה", "hola", "bonjour", "salut", "ciao", "hallo", "adiós", "adios", "привет", "пока",
    "你好", "こんにちは", "안녕하세요", "vale", "oui", "sí", "si", "ja", "да", "好的", "好",
    "hasta", "luego", "pronto", "tschüss", "tschuss", "arrivederci", "revoir", "tchau", "chau", "doei", "hej",
})
"""Words of a courtesy turn ("Thanks!", "Okay, great", "Bye", "¡Gracias!", "谢谢!"): such a turn reads no context,
and the relevance gate keeps nothing for it, since it
asks for nothing the conversation's facts would answer (the words are run through the engine's analyzer,
so stems and stopwords match)."""


GREETING_WORDS = frozenset({"morning", "afternoon", "evening", "day", "weekend", "have", "a", "to", "you", "all",
                            "everyone", "there"})
"""Words that are a courtesy only inside a greeting (:data:`GREETING`): "Good morning!", "good afternoon all",
"Have a nice day!". Alone they ask something ("Morning or evening?", "What day is it?")."""

GREETING = re.compile(
    r"\b(?:good|lovely|nice|great|happy)\s+(?:morning|afternoon|evening|day|weekend)\b|"
    r"\bhave\s+a\s+(?:good|nice|great|lovely|wonderful)\s+(?:one|day|evening|weekend|night|morning|afternoon)\b",
    re.IGNORECASE,
)
"""A greeting or a wish said in parting: "good morning", "Good afternoon", "have a nice day"."""


CONVERSATION_WORDS = 160
"""The words the read turns of the conversation text may hold in all, the newest turn's included (the newest
is read whatever its length): about what a 256-token embedder such as MiniLM reads, with the question."""


def conversation_turns(read: Sequence[str], words: int = CONVERSATION_WORDS) -> list[str]:
    """The turns of ``read`` (oldest first, as :func:`memori_core.query.recent_turns` picks them) that the
    conversation text holds, newest first: the newest always, an older one only while the turns taken hold at
    most ``words`` words in all, so that a long paste three turns ago does not fill what the embedder reads."""
    if not read:
        return []
    turns = [read[-1]]
    used = len(read[-1].split())
    for turn in reversed(read[:-1]):
        used += len(turn.split())
        if used > words:
            break
        turns.append(turn)
    return turns


def conversation_text(query: str, read: Sequence[str], words: int = CONVERSATION_WORDS) -> str | None:
    """``query`` and then the :func:`conversation_turns` of ``read``, newest first, one per line; ``None`` when
    no turn is read. Newest first, because an embedder reads a bounded number of tokens and drops the rest."""
    if not read:
        return None
    return "\n".join([query.strip(), *conversation_turns(read, words)])


def blend_query(query_vector: np.ndarray, conversation_vector: np.ndarray, weight: float) -> np.ndarray:
    """``normalise(normalise(q) + weight * normalise(c))`` as float32: the search direction of a turn
    read with its conversation (``weight`` 0: the question alone)."""
    q = np.asarray(query_vector, dtype=np.float32)
    c = np.asarray(conversation_vector, dtype=np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    c = c / max(float(np.linalg.norm(c)), 1e-12)
    v = q + np.float32(weight) * c
    return (v / max(float(np.linalg.norm(v)), 1e-12)).astype(np.float32)


def gate_cosine(question_cosine: np.ndarray, conversation_cosine: np.ndarray) -> np.ndarray:
    """Per fact, what the relevance gate reads with context: the larger of the two cosines."""
    return np.maximum(question_cosine, conversation_cosine)


def is_courtesy(query: str, query_terms: Sequence[str], courtesy_terms: frozenset[str],
                greeting_terms: frozenset[str] = frozenset()) -> bool:
    """True for a courtesy turn, which reads no context: every analysed term of ``query`` is a courtesy word's
    ("Thanks!", "ok", "Sounds good"), or, in a turn that greets (:data:`GREETING`: "Good morning!", "have a nice
    day, thanks"), a greeting word's (``greeting_terms``: :data:`GREETING_WORDS` as the same analyzer reads them),
    or it has no word at all ("👍", "?!"). A greeting followed by a request ("good evening, what should I do this
    weekend", no "?") is no courtesy: its greeting words count only when nothing else in the turn asks.

    A turn whose words are all stopwords is no courtesy: "Should I let them?" or "What about him?" has no
    analysed term, and is the turn that most needs its conversation; nor is a question about the asker
    ("And me? I have one too lol" after what someone else can take for a headache).
    """
    if not query_terms:
        return not any(ch.isalnum() for ch in query)
    if ("?" in query or asks_something(query)) and _THE_ASKER.search(query) is not None:
        return False
    if (greeting_terms and "?" not in query and GREETING.search(query)
            and not _ASKS_AFTER_GREETING.search(_HOW_ARE_YOU.sub(" ", query))):
        courtesy_terms = courtesy_terms | greeting_terms
    return all(t in courtesy_terms for t in query_terms)


@lru_cache(maxsize=16)
def terms_of(words: frozenset[str], tokenizer: str, stemmer: str | None) -> frozenset[str]:
    """``words`` (a word list: :data:`COURTESY_WORDS`, :data:`GREETING_WORDS`) as the analyzer of ``tokenizer`` and
    ``stemmer`` (an engine's :class:`~memori_core.config.RecallConfig`'s) turns them into terms, read once per list
    and analyzer.

    >>> sorted(terms_of(frozenset({"Thanks", "greetings"}), "unicode", "english"))
    ['greet', 'thank']
    """
    analyse = analyzer(tokenizer, stemmer)
    return frozenset(t for word in words for t in analyse(word))


def reads_as_courtesy(turn: str, tokenizer: str, stemmer: str | None, turn_terms: Sequence[str] | None = None) -> bool:
    """:func:`is_courtesy` as an engine with this ``tokenizer`` and ``stemmer`` reads ``turn``: the courtesy and the
    greeting words read by its analyzer (:func:`terms_of`); ``turn_terms``: the turn's own terms when the caller
    has them already, else the analyzer reads them. A blank turn is one (it has no word): a caller that wants
    none says so.

    >>> reads_as_courtesy("Thanks, have a nice day!", "unicode", "english")
    True
    >>> reads_as_courtesy("Thanks, and Lisbon?", "unicode", None)
    False
    """
    terms = analyzer(tokenizer, stemmer)(turn) if turn_terms is None else turn_terms
    return is_courtesy(turn, terms, terms_of(COURTESY_WORDS, tokenizer, stemmer),
                       terms_of(GREETING_WORDS, tokenizer, stemmer))


_THE_ASKER = re.compile(r"\b(?:me|i|my|mine|myself)\b", re.IGNORECASE)

# a greeting with a request after it: a wh-word, a modal or a request word left in the turn ("good evening, what
# should I do this weekend", "good morning what day is it"): the greeting's words are then no courtesy
_ASKS_AFTER_GREETING = re.compile(
    r"\b(?:what|what's|whats|which|who|whose|where|when|how|why|can|could|should|shall|would|will|any|anything|"
    r"suggest|recommend|remind|tell|ideas?|plans?)\b", re.IGNORECASE)
# a greeting's own question asks nothing of the memory: "good morning, how are you"
_HOW_ARE_YOU = re.compile(r"\bhow(?:'s|\s+is)\s+it\s+going\b|\bhow\s+(?:are|r)\s+(?:you|u|ya|things)\b|"
                          r"\bhow\s+have\s+you\s+been\b|\bhow\s+do\s+you\s+do\b", re.IGNORECASE)


_ACCEPTING = frozenset({"ok", "okay", "k", "yes", "yeah", "yep", "yup", "sure", "please", "go", "ahead", "continue",
                        "proceed", "alright", "do", "it", "that", "sounds", "good", "great", "perfect", "fine", "lets",
                        "let's", "let", "us", "one", "then", "works"})
_ACCEPTS = frozenset({"ok", "okay", "k", "yes", "yeah", "yep", "yup", "sure", "please", "ahead", "continue", "proceed",
                      "alright", "do"})
_ACCEPTING_EMOJI = ("\U0001f44d", "\U0001f44c", "\u2705", "\u2714")  # thumbs up, OK hand, check marks
_WORD = re.compile(r"[\w']+")


def accepts(turn: str) -> bool:
    """Whether a turn only accepts what the conversation was doing ("ok", "yes please", "sounds good, do it",
    "perfect, continue", "👍"): the model is about to act on the turn it accepts (write the satay recipe), so recall
    reads the accepted turn. A turn that thanks or says goodbye ("ok thanks", "Great, thanks!") closes the
    conversation instead, and "no" turns it down.

    >>> accepts("yes please"), accepts("Sounds good, do it!"), accepts("ok thanks"), accepts("Thanks!")
    (True, True, False, False)
    """
    words = _WORD.findall(turn.lower().replace("\u2019", "'"))
    if not words:
        return any(e in turn for e in _ACCEPTING_EMOJI)
    return all(w in _ACCEPTING for w in words) and any(w in _ACCEPTS for w in words)


def told_in(fact_terms: Sequence[str], turns_terms: Sequence[frozenset[str]], ignore: frozenset[str]) -> bool:
    """Whether one read turn holds every analysed term of a fact (less ``ignore``, such as "user"): the
    conversation told that fact itself ("I get seasick on boats." and "User gets seasick on boats."), so the
    model already sees it, and the conversation should not widen the gate for it."""
    terms = set(fact_terms) - ignore
    return bool(terms) and any(terms <= turn for turn in turns_terms)


# ... or accepts what the assistant offered and asks for it: "Sure, write the full recipe.", "Yes, add a dessert."
# ("Please explain how vaccines work." opens a request of its own).
_GOES_ON = re.compile(r"^\W*(?:and|but|so|also|then|ok|okay|what\s+about|how\s+about|what\s+if|if|yes|yeah|yep|sure|"
                      r"go\s+ahead)\b", re.IGNORECASE)
_POINTS_BACK = re.compile(
    r"\b(?:it|its|that|this|those|these|them|they|their|there|he|she|him|her|one|ones|same|instead)\b", re.IGNORECASE
)


SHORT_TURN = 4
"""A turn of at most this many words ("Train or coach?", "Which is cheaper?") leans on the turns before it."""


def leans_on_the_conversation(turn: str) -> bool:
    """Whether a turn reads as going on from the turns before it: it opens with "and", "what about", "if"...,
    points back ("it", "that", "there", "them"), or is too short to stand alone ("Train or coach?"). "How long do
    homemade empanadas keep in the fridge?" stands on its own; "What should I order there?" does not.

    >>> leans_on_the_conversation("What should I order there?"), leans_on_the_conversation("Who won the Booker Prize?")
    (True, False)
    """
    return (_GOES_ON.search(turn) is not None or points_back(turn) or len(turn.split()) <= SHORT_TURN
            or offers_a_choice(turn))


_CONNECTIVE = re.compile(r"^\W*(?:and|also|ok|okay|so|plus|what\s+about|how\s+about)\b[\s,.:;!-]*", re.IGNORECASE)


def without_connectives(turn: str) -> str:
    """``turn`` without the connectives that open it ("and", "also", "ok and", "what about"): the question it asks
    in its own words, which may stand alone.

    >>> without_connectives("ok and how long do horses usually live?"), without_connectives("Who won?")
    ('how long do horses usually live?', 'Who won?')
    """
    rest = turn
    while (m := _CONNECTIVE.match(rest)) is not None and re.search(r"\w", rest[m.end():]) is not None:
        rest = rest[m.end():]
    return rest


# A greeting that opens a turn ("good morning", "hi there", "hello again", "morning all"), with the greeting's own
# question after it ("how are you"), then the punctuation before the rest. A word that also opens a noun phrase is a
# greeting only where one ends: a bare "morning" / "evening" before punctuation or a greeting's word ("Morning!",
# "morning all", not "Morning sickness remedies?"), "hi" / "hello" / "hey" before a separator, a greeting's word or
# a question word in lower case ("hey what's ...", not "Hey Jude chords?", "Hello Kitty ...", "hi-fi"), "good day",
# "greetings" and "gm" only before punctuation ("Good day! ...", not "Good day for a hike?", "gm crops").
_GREETING_TAIL = r"(?:\s+(?:there|all|everyone|again|friend|folks|team))"
_CLAUSE_ENDS = r"(?=\s*[,.:;!]|\s+[-\u2013\u2014]\s|\s*$)"
_OPENING_GREETING = re.compile(
    r"^\W*(?:(?:good|lovely|happy)\s+(?:morning|afternoon|evening)" + _GREETING_TAIL + r"?\b"
    r"|(?:morning|afternoon|evening)(?:" + _GREETING_TAIL + r"\b|" + _CLAUSE_ENDS + r")"
    r"|(?:hi|hiya|hello|hey|heya|howdy)(?:" + _GREETING_TAIL + r"\b|" + _CLAUSE_ENDS +
    r"|(?=\s+(?-i:what|what's|whats|which|who|whose|where|when|how|why|can|could|should|would|will|is|are|do|"
    r"does|did|any)\b))"
    r"|(?:good\s+day|greetings|gm)" + _CLAUSE_ENDS + r")[\s,.:;!\u2013\u2014-]*"
    r"(?:(?:how(?:'s|\s+is)\s+it\s+going|how\s+(?:are|r)\s+(?:you|u|ya|things)(?:\s+today)?)\b[\s,.:;!?-]*)?",
    re.IGNORECASE)


def without_greeting(turn: str) -> str:
    """``turn`` without the greeting that opens it, when a request or a question follows ("good morning what
    should we do today" -> "what should we do today", "Hi! Where do I live?"): the greeting's words say nothing
    of what is asked, and in one embedding with a short request they pull it towards every fact alike. A turn
    that is only a greeting, or goes on with courtesy or news ("good morning, thanks", "hi, I moved to Cork"), is
    left as written: what asks nothing stays a courtesy turn, and what tells is read by the rules for telling.

    >>> without_greeting("good morning what should we do today"), without_greeting("Good morning!")
    ('what should we do today', 'Good morning!')
    >>> without_greeting("Hi there, how are you? Any ideas for dinner?"), without_greeting("Hi, I moved to Cork.")
    ('Any ideas for dinner?', 'Hi, I moved to Cork.')
    """
    m = _OPENING_GREETING.match(turn)
    if m is None or m.end() == 0:
        return turn
    rest = turn[m.end():]
    return rest if re.search(r"\w", rest) is not None and asks_something(rest) else turn


def points_back(turn: str) -> bool:
    """Whether a turn points back at something the conversation named ("it", "that", "there", "them", "the same").

    >>> points_back("How long will it take to get there?"), points_back("What's my job?")
    (True, False)
    """
    return _POINTS_BACK.search(turn) is not None


_CHOICE = re.compile(r"\w\s+or\s+\w", re.IGNORECASE)
CHOICE_WORDS = 6
"""A turn of at most this many words that offers two things and asks nothing else ("Pad thai or green curry?")."""


def offers_a_choice(turn: str) -> bool:
    """Whether a turn is a bare choice between two things ("Pad thai or green curry?", "Train or coach?"): at most
    :data:`CHOICE_WORDS` words holding "... or ...", not opening with a question word ("Is a tomato a fruit or a
    vegetable?" asks about the world).

    >>> offers_a_choice("Pad thai or green curry?"), offers_a_choice("Is a tomato a fruit or a vegetable?")
    (True, False)
    """
    return (len(turn.split()) <= CHOICE_WORDS and _CHOICE.search(turn) is not None
            and _QUESTION_WORD.match(turn) is None)


def goes_on_from_the_conversation(turn: str) -> bool:
    """Whether a turn can only be read as going on from the turns before it: it opens with "and", "how about",
    "what about", "what if"... ("How about the satay skewers?", "And a main course?"), it is a short choice
    between two things ("Pad thai or green curry?"), it speaks of someone as "he" or "her", it ends on "then"
    ("What kind of breed would fit then?") or picks among "the ones" named ("Which ones are easiest to carry?").
    Such a turn is never a general-knowledge question, whatever its shape: it asks about what the conversation
    is about. Narrower than :func:`leans_on_the_conversation` ("How long does it take?" points back, yet may ask
    about the world).

    >>> goes_on_from_the_conversation("How about the satay?"), goes_on_from_the_conversation("Who won the Cup?")
    (True, False)
    """
    return (_GOES_ON.search(turn) is not None or offers_a_choice(turn) or _SOMEONE_NAMED.search(turn) is not None
            or _DRAWS_ON.search(turn) is not None)


def changes_the_plan(turn: str) -> bool:
    """Whether a turn asks the answer just given to change one thing of the plan, keeping the rest: "make it
    cheaper", "what if we take the train?", "what if we look in Walsall instead". The plan's concerns (a diet, a
    child, a long drive) still hold, beside the turn's own (the money, a train's steps).

    >>> changes_the_plan("make it cheaper, we're saving this month"), changes_the_plan("What if it rains?")
    (True, False)
    """
    return _CHANGES.search(turn) is not None


_CHANGES = re.compile(
    r"^\W*(?:(?:ok|okay|actually|hmm|so|and|but|or|now|please|pls|can\s+you|could\s+you)\W+)*"
    r"(?:make\s+(?:it|them|that|this|those)\b|what\s+if\s+(?:we|i|only)\b)|\binstead\W*$",
    re.IGNORECASE)
_DRAWS_ON = re.compile(r"\bthen\W*$|\b(?:which|the|these|those)\s+ones\b", re.IGNORECASE)
"""A turn that draws on what was just said: "... then?" (given that), "which ones" (of those named)."""
_SOMEONE_NAMED = re.compile(r"\b(?:he|she|him|her|his|hers)\b", re.IGNORECASE)
"""A person spoken of by a pronoun: the one the conversation named ("Where is she going to sleep?", "the simplest way
from the airport to her place?"); "they" and "their" are as often anyone ("What currency do they use in Turkey?")."""


_QUESTION_WORD = re.compile(
    r"^\W*(?:what|which|who|whose|where|when|how|why|is|are|was|were|do|does|did|can|could|should|would|will)\b",
    re.IGNORECASE,
)
_ASKS = re.compile(
    r"\?|^\W*(?:what|which|who|whose|where|when|how|why|can|could|should|shall|would|will|is|are|do|does|did|"
    r"any|anything|plan|suggest|recommend|help|find|give|ideas|tell|explain|remind|pick|choose)\b",
    re.IGNORECASE,
)


def asks_something(turn: str) -> bool:
    """Whether a user's turn asks or requests something: a question mark, or the word a question or a request
    starts with ("What should I grab?", "Suggest a wine.", "Tell me what to order."). "I get seasick on boats."
    does not.

    >>> asks_something("Stopping for lunch. What should I grab?"), asks_something("I get seasick on boats.")
    (True, False)
    """
    return _ASKS.search(turn) is not None


def tells_news(turn: str) -> bool:
    """Whether a turn tells something new rather than going on from the conversation: it neither asks anything
    (:func:`asks_something`) nor leans on the turns before it (:func:`leans_on_the_conversation`). "We moved to
    Slack at work." after "I moved to Porto last month." is news; "I'm thinking of taking it instead." is not.
    Recall reads such a turn on its own words: the conversation neither widens the gate nor makes it a
    follow-up.

    >>> tells_news("We moved to Slack at work."), tells_news("And if it rains?"), tells_news("Suggest a wine.")
    (True, False, False)
    """
    return not asks_something(turn) and not leans_on_the_conversation(turn)


def tells_something(turn: str) -> bool:
    """Whether a turn tells rather than asks: more than :data:`SHORT_TURN` words ("my cello weekends" is a search),
    or fewer said as news of the asker, "I" or "we" then a verb of news in the past ("I moved to Cork.", "We got a
    puppy!"; a state or a plan asks: "I'm hungry.", "I have guests tonight.");
    no question or request (:func:`asks_something`), and no acceptance of what the conversation offered
    (:func:`accepts`). "Big news, I got the job at Monzo!!" tells; "Can I take my iron with coffee?" asks.

    >>> tells_something("Big news, I got the job at Monzo!!"), tells_something("my cello weekends")
    (True, False)
    >>> tells_something("I moved to Cork."), tells_something("I need a recipe"), tells_something("I'm hungry.")
    (True, False, False)
    """
    return ((len(turn.split()) > SHORT_TURN or _SAID_OF_THE_ASKER.match(turn) is not None)
            and not asks_something(turn) and not accepts(turn))


# A short sentence telling news of the asker: "I" or "we", then a verb of news in the past ("I moved to Cork.", "We
# got a puppy!", "I've quit smoking.", "I just sold the car."). A state or a plan is no news, and asks for what it
# needs ("I'm hungry.", "I have guests tonight.", "I'm flying tomorrow."); so does a want or a need, after "just"
# or "finally" too ("I just need ideas"); "I've got" is one's state ("I've got a cold").
_NEWS_VERB = (r"(?:moved|got|quit|sold|started|bought|adopted|married|engaged|divorced|retired|graduated|passed|"
              r"failed|lost|won|broke|finished|joined|left|signed|booked|switched|changed|landed|found|began|"
              r"became|split|stopped|gave\s+up|took\s+up|came\s+back|went\s+back|returned|arrived|received|"
              r"accepted|launched|opened|closed|hired|fired|promoted|resigned|enrolled|applied|moved\s+in|"
              r"(?!(?:need|want|wish|hop|wonder)ed\b)[a-z]{3,}ed)")
_SAID_OF_THE_ASKER = re.compile(
    r"^\W*(?:i|we)(?:(?:'ve|\s+have|\s+has)(?!\s+got\b))?(?:\s+(?:just|finally|recently|already|officially))?\s+"
    + _NEWS_VERB + r"\b[^?]*[.!]?\s*$", re.IGNORECASE)
