"""The rule-based extractor's English rules: which sentence is a statement by the user, and its "User ..." rewrite.

:func:`judge_sentence` decides one sentence (kept as a fact, or dropped, and why); the patterns it
applies, one after the other, are named below. Pure: no model, no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone

from ..ranking.care import OFF_FOODS, is_care_fact
from ..slots import PERSON, TOOLS, speaks_of_a_group
from .dates import IN_SPAN, anchor_plan, day_label, span_days
from .slots import MONTH_NAMES, acquired_slots, content_words, is_change, is_ended, is_loss, slots_of, without_correction
from .typos import read_as_meant

__all__ = [
    "DROP_EMPTY",
    "DROP_ELLIPTICAL",
    "DROP_EPHEMERAL",
    "DROP_HYPOTHETICAL",
    "DROP_JOKE",
    "DROP_INSTRUCTION",
    "DROP_QUOTED",
    "DROP_NOT_FIRST_PERSON",
    "DROP_OPINION",
    "DROP_QUESTION",
    "DROP_SECOND_PERSON",
    "DROP_SMALL_TALK",
    "DROP_STORY",
    "DROP_TOO_LONG",
    "DROP_UNCLEAR",
    "DROP_UNRESOLVED",
    "KEPT_AS_SAID",
    "KEPT_EXPIRING",
    "KEPT_INTRODUCTION",
    "KEPT_REWRITTEN",
    "SentenceVerdict",
    "judge_sentence",
]

# Before the rules read a sentence: curly apostrophes count as straight ones, a list bullet is cut.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'", "`": "'"})
_BULLET = re.compile(r"^\s*(?:[-*\u2022>]+|\d{1,2}[.)])\s+")

# The reason of a verdict: two for a kept sentence, the others for a dropped one.
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
DROP_EPHEMERAL = "a passing state or moment (mood, 'today', 'right now')"
DROP_ELLIPTICAL = "says when something stopped, not what ('I quit in May')"
DROP_UNCLEAR = "no clean fact: as said it would be long, or in no known slot of the user's life"
DROP_UNRESOLVED = "points to what was said before ('my doctor suggested it', 'his flat') or to no one named"
DROP_QUOTED = "someone else's words, pasted for the assistant to work on ('summarise this email: ...')"
DROP_STORY = "a story, a dream or a game, not the user's own life ('In my dream I moved to Tokyo')"
DROP_JOKE = "said as a joke ('I'm moving to the moon, april fools', '... jk')"
KEPT_EXPIRING = "a plan or a passing mood: kept with an expiry"
KEPT_INTRODUCTION = "the user's name"


@dataclass(frozen=True)
class SentenceVerdict:
    """What the rule-based extractor decided for one sentence: the fact kept (``None`` if dropped) and why."""

    sentence: str
    fact: str | None
    reason: str
    expires_in: timedelta | None = field(default=None, repr=False)
    """For an appointment ("tomorrow at 3pm"): how long the fact stays true; ``None``: durable."""


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
    "hello again", "hi again", "hey again", "not anymore", "not any more",
    "ugh", "argh", "meh", "phew", "yay", "woohoo", "yikes", "damn", "dang", "gosh", "oops", "whoa", "hooray",
)
_CONNECTIVE = _words(
    "so", "and", "but", "also", "actually", "anyway", "anyways", "btw", "by the way", "honestly", "fyi",
    "for context", "for the record", "fun fact", "just so you know", "so you know", "just to let you know",
    "as i said", "as i mentioned", "like i said", "like i mentioned", "as mentioned", "as i said before",
    "as i mentioned before", "like i said before", "as mentioned before", "as i mentioned earlier",
    "as i said earlier", "in other news", "long story short", "now", "finally",
    "sadly", "unfortunately", "fortunately", "luckily", "thankfully", "basically", "plus",
    # asides before the statement: "Don't laugh, I've switched to coffee", "Believe it or not, I ..."
    "don't laugh", "don't judge", "don't judge me", "believe it or not", "funnily enough", "funny enough",
    "to be honest", "tbh", "ngl", "not gonna lie", "truth be told",
)
# News in front of what happened, cut only before a punctuation mark: "Quick update: ...", "Bad news - ...",
# "Guess what, ..." ("Guess what I did" is not a statement).
_NEWS = _words(
    "update", "quick update", "small update", "little update", "big update", "life update", "an update",
    "news", "big news", "good news", "bad news", "sad news", "great news", "exciting news", "some news",
    "news flash", "newsflash", "guess what", "heads up", "side note", "on a side note",
    # a correction of what was said before: "Just kidding, I don't live in Lisbon", "Scratch that: ..."
    "just kidding", "kidding", "jk", "just joking", "only joking", "scratch that", "my bad", "my mistake",
    "correction", "wait", "oh wait",
)
# "Remember that I'm vegan", "I forgot to mention: my son is 4": what follows is the statement.
_REMINDER = _words(
    "remember", "please remember", "note", "please note", "keep in mind", "bear in mind", "don't forget",
    "do not forget", "i forgot to mention", "i should mention", "i should add", "i wanted to mention",
    "i want to mention", "i forgot to say", "i should say", "i wanted to say", "i want to say",
    "reminder", "a reminder", "just a reminder", "quick reminder", "just reminding you", "reminding you",
    "just to remind you", "to remind you", "just so you remember", "in case you forgot", "turns out", "it turns out",
    "apparently",
    "i found out", "i just found out", "just found out", "my doctor says", "my doctor said", "my doctor told me",
    "the doctor says", "the doctor said",
)
# "No, I live in Leeds" cuts "No"; "No pets for us" does not: there "no" is a determiner.
_LEAD_SOCIAL = _rx(
    rf"^(?!no\s+(?!(?:i|i'm|i've|we|we're|my|our)\b)[a-z])(?:{_SOCIAL})\b(?:\s+(?-i:[A-Z][a-z]+))?"
    r"\s*(?:[,!.:;\u2014\u2013-]+\s*|\s+(?=[a-z])|$)"
)
_LEAD_CONNECTIVE = _rx(rf"^(?:{_CONNECTIVE})\b(?:\s*,\s*|\s*:\s*|\s+that\b\s*|\s+|$)")
_LEAD_NEWS = _rx(rf"^(?:{_NEWS})(?:\s+though)?(?:\s*[,:!\u2014\u2013]+\s*|\s+-+\s+|\s*\.\.\.\s*|$)")
# "New habit: I cycle to work", "Big news in the family: my brother ...": a short label, a colon, then the
# statement (never "My job: nurse", where no subject follows).
_LEAD_LABEL = _rx(r"^[^:?!.]{1,40}:\s+(?=(?:i|i'm|i've|i'll|i'd|we|we're|we've|my|our)\b)")
_LEAD_REMINDER = _rx(
    rf"^(?:{_REMINDER})(?:\s*[,:]\s*|\s+that\s+|\s+)(?=(?:i|i'm|i've|i'll|we|we're|we've|my|our)\b)"
)
# "wait no, I'm not allergic", "no wait its march", "oh wait no", "sorry no": a correction of what was said before,
# typed with or without a comma (two such words together; "No, I live in Leeds" is read by _LEAD_SOCIAL).
_LEAD_CORRECTION = _rx(
    r"^(?:oh\s+|ah\s+|hmm\s+)?(?:wait|no|sorry|actually|hang\s+on|hold\s+on|oops)"
    r"(?:\s*[,.!]?\s*(?:no|wait|sorry|actually|my\s+bad|scratch\s+that))+\b\s*[,.!:;\u2014\u2013-]*\s*"
)
# "doctor says ...", "the midwife said ...", "my GP told me ...": what a clinician said of the user is the user's
# fact ("doctor says I have gestational diabetes").
CLINICIAN = (
    r"doctor|doc|gp|midwife|nurse|consultant|specialist|ob|ob-?gyn|obstetrician|dentist|physio|physiotherapist|"
    r"dietitian|dietician|cardiologist|diabetologist|endocrinologist|allergist|pharmacist|surgeon|paediatrician|"
    r"pediatrician|health\s+visitor|therapist|psychiatrist|psychologist|counsell?or|neurologist|dermatologist"
)
_LEAD_CLINICIAN = _rx(
    rf"^(?:(?:the|my|our|her|his)\s+)?(?:new\s+)?(?:{CLINICIAN})\s+(?:says|said|told\s+(?:me|us)|confirmed|thinks|"
    r"reckons|has\s+said)(?:\s+that)?\s+(?=(?:i|i'm|i've|i'll|we|we're|we've|my|our)\b)"
)

_FIRST_PERSON_START = _rx(r"^(?:i|i'm|im|i've|ive|i'll|i'd|my|we|we're|we've|we'll|we'd|our|me and|mine)\b")
_OPENER_THEN_FIRST_PERSON = _rx(
    r"^(?:last|next|this|yesterday|today|tonight|tomorrow|recently|lately|since|in|on|at|for|after|before|when|while|as|"
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
    r"^(?P<head>.+?)(?:\s*[,;:\u2014\u2013]\s*|\s+-\s+|\s+(?=so\s)|\s+(?=(?:any|ideas|thoughts|suggestions|"
    r"recommendations)\s+(?:good|great|nice|tips|ideas|suggestions|recommendations|advice|thoughts|for|on)\b)"
    # "I live in Porto now any good cafes?", "I'm vegan what should I cook?": a question typed on without a comma
    r"|\s+(?=(?:what|how|where|which)\s+(?:should|can|could|would|do|does|is|are)\s+(?:i|we|you)\b))"
    r"(?:so|but|and|then)?\s*"
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
# A plan only thought of is no fact yet ("I'm thinking of taking the ferry", "I may switch to decaf"); the change,
# when it comes, is told as one.
_HYPOTHETICAL = _rx(
    r"^(?:i'd|i\s+would|i\s+could|i\s+should|i\s+wish|i\s+might|i\s+may|we\s+(?:should|could|would|might|may)|we'd|"
    r"(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:(?:still|also|kind\s+of|sort\s+of|seriously|now)\s+)?"
    r"(?:thinking\s+(?:of|about)|considering|toying\s+with|tempted\s+to))\b"
)
# "I think ...": kept as said when what follows is about the user ("I think I'm allergic"), else an opinion.
_HEDGE = _rx(
    r"^i\s+(?:(?:really|just|kind\s+of|sort\s+of)\s+)?"
    r"(?:think(?!\s+(?:about|of)\b)|guess|believe(?!\s+in\b)|suppose|feel\s+like|reckon|assume|hope|doubt)\b"
    r"(?:\s+that)?\s*(?P<rest>.*)$"
)
_REACTION = _rx(
    r"^(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:(?:so|really|very|just|pretty|truly|super|quite|all|both)\s+)*"
    r"(?:glad|sorry|sure|not\s+sure|happy|excited|thankful|grateful|proud|impressed|jealous|curious|confused|"
    r"relieved|amazed|touched|thrilled|fine|good|great|ok|okay|well|alright|back|here|done|ready|in|down|"
    r"not\s+(?:kidding|joking|lying)|(?:dead\s+)?serious|"
    r"all\s+set|doing\s+(?:well|good|great|fine|ok|okay|alright))"
    r"(?:,?\s+(?:to\s+(?:hear|see|know|read|help|go|bed)|too|now|then|thanks|thank\s+you|"
    r"(?:about|of|with)\s+(?:that|it|this|you|him|her|them)|"
    r"for\s+(?:that|it|this|him|her|them|you))\b.*)?\s*[.!]*$"
    # "I'm off" is leave-taking, "I'm off dairy" a diet (or a habit dropped: "off cigarettes")
    rf"|^i(?:'m|\s+am)\s+(?:just\s+|now\s+)?(?:off(?!\s+(?:{OFF_FOODS}|coffee|bread|cigarettes|smoking|"
    # "I'm leaving" takes leave; "I'm leaving Google next month" is a plan
    r"the\s+cigarettes)\b)|heading\s+out|leaving(?!\s+(?:(?-i:[A-Z])|(?:my|our|the)\s+(?:job|company|firm|role|"
    r"position)\b)))\b"
)
_SHORT_FIRST_PERSON_TALK = _rx(
    r"^i\s+(?:(?:totally|really|completely|just|so|do|also)\s+)*"
    r"(?:see|agree|understand|know|mean|bet|hope\s+so|think\s+so|guess\s+so|suppose\s+so|"
    r"appreciate\s+(?:it|that|this)|"
    r"get\s+it|got\s+it|feel\s+(?:that|the\s+same)|hear\s+(?:that|ya)|can't\s+wait|cannot\s+wait|"
    r"(?:love|like|loved|liked|enjoy|enjoyed|adore)\s+(?:it|that|this|those|these)|"
    # "I love that idea": about what was just said, not a taste of the user's
    r"(?:love|like|loved|liked|hate|adore|dig)\s+(?:that|this|these|those|the|your)\s+"
    r"(?:idea|plan|suggestion|answer|one|tip|advice|option|approach|solution|list|thought|response|"
    r"explanation|recommendation)s?|"
    r"(?:have|gotta|got|need|must)\s+(?:to\s+)?(?:go|run|leave|head\s+out|get\s+going))"
    r"(?:\s+(?:too|as\s+well|right|now|though))?(?:,?\s+(?:thanks|thank\s+you|haha|lol))?\s*[.!]*$"
)

_ADVERBS = (
    r"(?:also|really|just|recently|still|always|never|often|usually|sometimes|currently|actually|mostly|only|now|"
    r"finally|already|even|generally|normally|rarely|seldom|occasionally|absolutely|totally|definitely|truly|"
    r"mainly|barely|hardly|no\s+longer|not|once|first|eventually|regularly|previously|typically|both|strongly|"
    r"deeply|greatly|highly|much|personally|especially|particularly|certainly|simply|genuinely|honestly|"
    r"seriously|kind\s+of|sort\s+of|pretty\s+much|basically|literally|hardly\s+ever|almost\s+never|ever)"
)
# A bare auxiliary is an answer to something said before, not a fact: "I did.", "I definitely will."
_SHORT_ANSWER = _rx(
    rf"^(?:i|we)\s*(?:{_ADVERBS}\s+)*(?:am|'m|are|'re|do|did|will|'ll|can|have|'ve|was|were|would|could|should|"
    r"must|might|may|won't|don't|didn't|can't|haven't|wasn't)"
    r"(?:\s+(?:it|that|this|too|not|so|as\s+well|either|indeed))?\s*[.!]*$"
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
    garden camp surf ski climb fish hunt sew draw start smoke vape jog foster adopt lift brew ride give read carry""".split()
)
_IRREGULAR_PAST = frozenset(
    """went became got took made began bought brought left met grew found felt saw ran gave came knew lost won wrote
    taught spent sold broke chose drove fell forgot quit built caught sang swam rode flew wore held kept slept led
    paid sent spoke stood understood woke drank ate told heard threw hid fed dug cut hurt""".split()
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
    # "chicken and fish": the food, not a second verb
    rf"\b(?:and|or|but|then)\s+(?:{_ADVERBS}\s+)*(?!fish\b)(?:am|have|do|don't|need|"
    + "|".join(sorted(_PRESENT_VERBS)) + r")\b"
)
# "Due to my allergy, I avoid nuts": a short lead-in, a comma, then the user as subject.
_LEAD_IN_THEN_FIRST_PERSON = _rx(r"^[^,?!]{1,60},\s*(?P<subject>(?:i|i'm|i've|i'll|i'd|my|we|we're|we've|our)\b)")
_OTHER_FIRST_PERSON = _rx(r"\b(?:i|i'm|im|i've|i'll|i'd|me|we|we're|we've|we'll|us|our|ours|mine)\b")
_I_SUBJECT = _rx(rf"^i(?:\s+|(?='))(?P<adv>(?:{_ADVERBS}\s+)*)(?P<verb>'m|'ve|'ll|[a-z']+)(?P<tail>.*)$")
# "We rent a flat", "We're expecting a baby", "Our cat died": the user's household, as "User ...".
_WE_SUBJECT = _rx(rf"^we(?:\s+|(?='))(?P<adv>(?:{_ADVERBS}\s+)*)(?P<verb>'re|'ve|'ll|[a-z']+)(?P<tail>.*)$")
_WE_AUX = {
    "are": "is", "'re": "is", "aren't": "isn't", "have": "has", "'ve": "has", "haven't": "hasn't", "do": "does",
    "don't": "doesn't", "were": "was", "weren't": "wasn't", "had": "had", "did": "did", "didn't": "didn't",
    "will": "will", "'ll": "will", "won't": "won't", "can": "can", "can't": "can't", "cannot": "cannot",
    "must": "must", "used": "used", "need": "needs",
}
# "We're both teachers", "We're a family of four": a plural subject the rewrite would get wrong.
_PLURAL_COMPLEMENT = _rx(r"^\s+(?:both|all|each|a|an|two|three|four|five|six|the\s+\w+s)\b")
_SINGULAR_FIRST_PERSON = _rx(r"\b(?:i|i'm|im|i've|i'll|i'd|me|my|mine|myself)\b")
# "Just moved to Leeds!", "Got promoted today": a change told without its "I". The verb must carry the
# change: "Left my keys at home again" is not news.
_WEAK_CHANGE = _rx(r"\b(?:again|now|instead|these\s+days|nowadays)\b")
_IMPLIED_I = _rx(
    r"^(?:just\s+|finally\s+|recently\s+|officially\s+)?(?:moved|relocated|switched|upgraded|swapped|quit|retired|"
    r"started|joined|"
    r"graduated|adopted|bought|sold|got|became|went|gave\s+up|stopped|broke\s+up|split\s+up|left|lost|turned)\b"
)
_IM_SUBJECT = _rx(r"^(?P<verb>im|ive)(?P<tail>\s.*)$")


# "I'm tired today", "I'm so hungry right now", "I just had lunch": a passing state, not a fact.
_STATE = (
    r"(?:tired|exhausted|sleepy|hungry|thirsty|starving|bored|stressed|sick|ill|cold|hot|busy|sad|upset|angry|"
    r"annoyed|anxious|nervous|excited|grumpy|cranky|in\s+a\s+(?:bad|good|great|terrible)\s+mood|"
    r"knackered|shattered|wiped\s+out|worn\s+out|drained|jet-?lagged|hungover|sore|stuffed|full(?!-)|freezing|"
    r"boiling|soaked|frazzled|fed\s+up|under\s+the\s+weather|wrecked|beat|off\s+sick|off\s+work|"
    r"on\s+(?:vacation|holiday|a\s+break|my\s+lunch\s+break|a\s+trip)|"
    r"having\s+a\s+(?:rough|bad|good|great|long|tough|hard|busy|lazy|slow|crazy|terrible)\s+(?:day|week|morning|night)|"
    r"(?:just\s+)?(?:watching|sitting|lying|waiting|queuing|queueing|getting\s+ready\s+for\s+(?:work|bed|school)|"
    r"making\s+(?:dinner|lunch|breakfast|tea|coffee)|having\s+(?:lunch|dinner|breakfast|a\s+(?:coffee|drink|snack|"
    r"break|nap|bath|shower)))|"
    r"at\s+the\s+(?:airport|office|gym|station|mall|dentist|doctor's|supermarket)|on\s+my\s+way|running\s+late|"
    r"late|home|back|here|off\s+today|"
    # drink or drugs, a period, a mood, the body for a day: "I'm drunk", "I'm on my period", "I'm so bloated"
    r"drunk|tipsy|wasted|hammered|smashed|plastered|sloshed|buzzed|stoned|(?:high|baked)(?=\s*(?:[.!,]|$))|"
    r"hung\s+over|on\s+(?:my|the|her)\s+period|on\s+the\s+rag|pms-?ing|"
    r"lonely|heartbroken|crying|pumped|hyped|gutted|devastated|furious|irritated|frustrated|overwhelmed|"
    r"miserable|worried|panicking|freaking\s+out|on\s+edge|restless|pissed(?:\s+off)?|"
    r"(?:scared|terrified|afraid)(?!\s+of\b)|down(?!\s+(?:to|for|with|syndrome)\b)|"
    r"bloated|nauseous|dizzy|constipated|sunburn(?:t|ed)|jet\s+lagged|sleep[\s-]deprived|dehydrated|achy|"
    r"in\s+(?:(?:so\s+much|a\s+lot\s+of)\s+)?pain|in\s+labou?r|"
    r"having\s+a\s+(?:panic\s+attack|anxiety\s+attack|meltdown)|"
    # where the user is, or what they are doing, right now: "I'm on the bus", "I'm stuck in traffic", "I'm at work"
    r"at\s+(?:work|home|the\s+(?:pub|bar|park|beach|shops?|store|cinema|movies|hospital|pharmacy|library|"
    r"restaurant|cafe|hairdresser's|barber's|vet's?|club|party|game|match|concert|pool|zoo|museum))|"
    r"at\s+(?:my|our|a)\s+(?:[\w-]+\s+)?[\w-]+'s?(?:\s+(?:house|place|flat))?(?=\s*(?:[.!,]|$|for|with|now))|"
    r"on\s+(?:the|a|my)\s+(?:bus|train|tube|subway|metro|tram|plane|flight|ferry|boat|coach)|"
    r"in\s+(?:the|a|my)\s+(?:car|cab|taxi|uber|queue|line|shower|bath|waiting\s+room|meeting|lecture)|"
    r"in\s+(?:bed|class|traffic|a\s+meeting|hospital|the\s+hospital)|stuck\s+(?:in|at|on)\b|outside|"
    r"(?:driving|cooking)(?=\s*(?:[.!,]|$))|cooking\s+(?:dinner|lunch|breakfast)|"
    r"out\s+(?:shopping|for\s+(?:a\s+)?(?:walk|run|drinks?|dinner|lunch|breakfast|coffee)))"
)
# "I've got my period", "I had too much to drink": a state of the day, told with "have".
_PASSING_HAVE = _rx(
    r"^(?:i|we)(?:\s+|(?='))(?:(?:have|'ve)\s+(?:just\s+)?(?:got|had)|have|got|just\s+got|had)\s+"
    r"(?:(?:my|the|her)\s+period|(?:way\s+)?(?:too\s+much|one\s+too\s+many|a\s+(?:few|lot|bit\s+too\s+much))"
    r"(?:\s+(?:to\s+drink|drinks|beers|glasses\s+of\s+wine|wine|beer))?(?=\s*(?:[.!,]|$|to\s+drink|tonight|today)))"
)
# "I'm so stressed these days", "I've been feeling down lately": a mood that lasts a while, not a trait: kept for
# a couple of weeks.
_MOOD_FOR_A_WHILE = _rx(r"\b(?:these\s+days|lately|recently|at\s+the\s+moment|this\s+(?:week|month))\b")
MOOD_LIFETIME = timedelta(days=14)
"""How long "I'm stressed about work these days" is kept: a mood of the weeks, not a trait of the user's."""
_EPHEMERAL_STATE = _rx(
    rf"^(?:i'm|i\s+am|im|i\s+feel|i'm\s+feeling|i\s+am\s+feeling|we're|we\s+are|we\s+feel)\s+"
    rf"(?:so\s+|really\s+|very\s+|a\s+bit\s+|"
    rf"kind\s+of\s+|pretty\s+|super\s+|quite\s+)?{_STATE}\b"
)
_NOW_WORDS = _rx(
    r"\b(?:today|tonight|right\s+now|at\s+the\s+moment|this\s+(?:morning|afternoon|evening|week|weekend)|"
    r"(?:for|over)\s+the\s+(?:weekend|day|night)|for\s+(?:dinner|lunch|breakfast)|"
    r"just\s+now|later\s+today|in\s+(?:a|an|one|two|three|four|five|ten|twenty|thirty|a\s+few|\d+)\s+"
    r"(?:minutes?|mins?|hours?|hrs?))\b"
)
_MOMENT_VERB = _rx(
    r"^(?:i'm|i\s+am|im|i\s+feel|i'm\s+feeling|i\s+have\s+a|i've\s+got\s+a|i\s+had|i\s+ate|we're|we\s+are|"
    r"we\s+have\s+a|we've\s+got\s+a|we\s+had)\b"
)
# "I have a headache", "I've got the flu": an ailment that passes ("I get migraines" is kept).
_AILMENT = _rx(
    r"^(?:i|we)(?:\s+|(?='))(?:have|'ve\s+got|have\s+got|got|caught|'ve\s+caught|think\s+i\s+have|"
    r"think\s+i'm\s+getting|am\s+getting|'m\s+getting|'m\s+coming\s+down\s+with|am\s+coming\s+down\s+with)"
    r"\s+(?:a|an|the)\s+"
    r"(?:(?:bit\s+of\s+a|slight|bad|terrible|splitting|mild|nasty|killer|awful|horrible|stinking|pounding|really\s+bad)"
    r"\s+)*(?:headache|hangover|cold|fever|cough|sore\s+throat|stomach\s?ache|tummy\s+ache|toothache|earache|"
    r"migraine|flu|temperature|stiff\s+neck|runny\s+nose|blocked\s+nose|stomach\s+bug|bug|nosebleed)\b"
)
_JUST_DID = _rx(
    r"^(?:i|we)\s+(?:just\s+(?:had|ate|got|finished|woke|came|arrived|left)\b|"
    r"(?:slept|stayed\s+up|went\s+to\s+bed|woke\s+up)\b.*\b(?:last\s+night|this\s+morning)\b)"
)
# "My flight leaves in two hours", "My exam is on Thursday": an event of the user's, soon over.
_MY_EVENT = _rx(
    r"^(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:flight|train|bus|ferry|meeting|appointment|interview|exam|test|class|"
    r"lesson|shift|date|call|presentation|deadline|party|trip|match|game|session)\b"
)
# "My friends are going to a bar on Friday", "My sister is visiting next week": someone's plan, soon over.
_THEIR_PLAN = _rx(
    r"^(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:is|are|'s|'re)\s+(?:going|coming|visiting|flying|driving|heading|"
    r"staying|having|hosting|throwing|arriving|leaving)\b"
)
# "I've got a dentist appointment at 4": today, at a time (not "every Monday at 9").
_CLOCK = _rx(
    r"\bat\s+(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock)?|noon|midday|lunchtime|"
    r"half\s+(?:past\s+)?\w+|quarter\s+(?:past|to)\s+\w+)(?!\s*(?:%|years?|months?|weeks?|kg|km|miles?)\b)"
)
# "I have a date tonight", "My interview is this afternoon": an event later today, kept until the day is over
# (not "right now", "in 20 minutes": soon over).
_LATER_TODAY = _rx(r"\b(?:tonight|later\s+today|today|this\s+(?:afternoon|evening))\b")
_NOW_ONLY = _rx(r"\b(?:right\s+now|at\s+the\s+moment|just\s+now|in\s+(?:a|an|one|two|three|four|five|ten|"
                r"twenty|thirty|a\s+few|\d+)\s+(?:minutes?|mins?|hours?|hrs?))\b")
_EVENT = _rx(
    r"\b(?:appointment|meeting|interview|exam|test|date|gig|concert|show|party|flight|class|lesson|shift|"
    r"session|presentation|match|game|surgery|operation|scan|check-?up|therapy|recital|performance|audition|"
    r"wedding|funeral|deadline|dinner\s+party|reservation|booking)\b"
)
_RECURRING = _rx(r"\b(?:every|each|weekly|daily|usually|always|on\s+(?:mondays|tuesdays|wednesdays|thursdays|"
                 r"fridays|saturdays|sundays|weekdays|weekends))\b")
# "I have a meeting at 3pm tomorrow": true until it has happened.
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_SOON = _rx(rf"\b(?:tomorrow|the\s+day\s+after\s+tomorrow|next\s+(?:week|weekend|{_WEEKDAY})|"
            rf"(?:on|this)\s+{_WEEKDAY}|this\s+weekend)\b")
# A day a plan is for, beyond the coming days: "is Thursday", "at the weekend", "on the 14th", "on 3 March".
_DAY_NAMED = _rx(
    rf"\b(?:(?:is|'s|are|'re)\s+(?:this\s+coming\s+|coming\s+)?{_WEEKDAY}(?!s)|(?:at|on)\s+the\s+weekend|"
    rf"this\s+coming\s+(?:week|{_WEEKDAY})|the\s+week\s+after\s+next|"
    r"(?:on|for)\s+the\s+\d{1,2}(?:st|nd|rd|th)|"
    rf"(?:on|for)\s+(?:{'|'.join(MONTH_NAMES)})\s+\d{{1,2}}(?:st|nd|rd|th)?|"
    rf"(?:on|for)\s+\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{'|'.join(MONTH_NAMES)}))\b"
)
_APPOINTMENT = _rx(
    r"^(?:i\s+have\s+(?:a|an|my)|i've\s+got\s+(?:a|an|my)|i'm\s+going\s+to\s+the|i\s+am\s+going\s+to\s+the|"
    r"i'm\s+seeing|i'm\s+meeting|i\s+need\s+to\s+go\s+to|we\s+have\s+(?:a|an|our)|we've\s+got\s+(?:a|an|our)|"
    r"we're\s+going\s+to\s+the|we're\s+seeing|we're\s+meeting)\b"
)
# "I no longer smoke, I quit in May": the second clause says only when; alone, "User quit in May." says nothing.
_BARE_ENDING = _rx(
    r"^i\s+(?:(?:finally|just|actually|already)\s+)?(?:quit|stopped|gave\s+up|gave\s+it\s+up|quit\s+it|stopped\s+it)"
    rf"(?:\s+(?:in|on\s+(?:the\s+)?(?:\d|{_WEEKDAY})|last|this|about|"
    r"around|over|back|since|at|a|two|three|several|some|years?|months?|weeks?|ago|\d+)\b.*)?[.!]*$"
)
# "I'm Maya, by the way", "My name is Tom", "Name's Dmitri", "You can call me Kai": the user's name.
_NAME = r"(?P<name>[A-Z][a-z\u00e0-\u00ff]+(?:\s+[A-Z][a-z\u00e0-\u00ff]+)?)[.!]*$"
_INTRODUCTION = re.compile(r"^(?:[Ii]'m|[Ii]\s+am)\s+" + _NAME)
_NAME_GIVEN = re.compile(
    r"^(?:(?:[Mm]y\s+|[Tt]he\s+)?(?:[Ff]ull\s+|[Rr]eal\s+)?[Nn]ame\s+is|"
    r"(?:[Mm]y\s+|[Tt]he\s+)?(?:[Ff]ull\s+|[Rr]eal\s+)?[Nn]ame's|"
    r"(?:(?:[Yy]ou\s+can|[Jj]ust|[Pp]lease)\s+)?[Cc]all\s+me)\s+" + _NAME
)
# "Everyone calls me Becky", "I go by Alex": the name the user goes by.
_NICKNAME = re.compile(
    r"^(?:(?:[Ee]veryone|[Ee]verybody|[Pp]eople|[Mm]ost\s+people|[Mm]y\s+friends|[Ff]riends|[Tt]hey)\s+"
    r"(?:just\s+|all\s+|usually\s+)?calls?\s+me|[Ii]\s+(?:usually\s+)?go\s+by|[Ii](?:'m|\s+am)\s+known\s+as)\s+"
    + _NAME
)
# "Bea here again", "Tom here.", "It's Priya again": a returning user saying their name. Words a sentence
# may start with that are no names ("Nobody here", "Spring here already", "It's Monday again") are not.
_NOT_A_NAME = (
    r"(?:Nobody|Noone|Everyone|Everybody|Someone|Somebody|Anyone|Anybody|Nothing|Something|Everything|It|This|"
    r"That|All|Just|Not|Still|Life|Time|Spring|Summer|Autumn|Fall|Winter|Christmas|Easter|Halloween|Today|"
    r"Tonight|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|"
    r"July|August|September|October|November|December|Same|Back|Again|Rain|Snow|Look|Looky|Lookie|Come|Sit|"
    r"Stay|Wait|Over|Right|Out|Up|Down|In|Around|Nowhere|Somewhere|Everywhere|Anywhere|Hello|Hi|Hey)\b"
)
_HERE_AGAIN = re.compile(
    rf"^(?:(?P<name>(?!{_NOT_A_NAME})[A-Z][a-z\u00e0-\u00ff]+)\s+(?:here(?:\s+again)?|again)"
    # "It's Ravi again" ("This is Max!" shows someone else)
    rf"|(?:[Ii]t's|[Ii]t\s+is|[Tt]his\s+is)\s+(?P<name2>(?!{_NOT_A_NAME})[A-Z][a-z\u00e0-\u00ff]+)"
    r"(?:\s+here)?\s+again"
    # typed in lower case, only with "here again": "jess here again"
    rf"|(?P<name3>(?!(?i:{_NOT_A_NAME}))[a-z\u00e0-\u00ff]{{2,}})\s+here\s+again)"
    r"(?:\s+(?:lol|haha|:\)))?[.!]*$"
)
# "Nurse here", "Dad here", "Newbie here": what the user is, not a name.
_NOT_NAMES_HERE = frozenset(
    """newbie noob beginner lurker novice amateur rookie first-timer fellow parent mum mom dad mother father
    grandma grandpa student teacher nurse doctor expat immigrant local tourist visitor customer user reader
    fan""".split()
)


def _what_here(word: str) -> str | None:
    """For "<word> here": the fact when ``word`` says what the user is ("Vegetarian here" -> "User is
    vegetarian.", "Nurse here" -> "User is a nurse."), ``""`` when it is no name and no fact ("Newbie here"),
    ``None`` when it may be a name."""
    low = word.lower()
    if is_care_fact(f"User is {low}.") or slots_of(f"User is {low}.") - {"job"}:
        return f"User is {low}."
    if slots_of(f"User is a {low}.") & {"job"}:
        return f"User is {'an' if low[0] in 'aeiou' else 'a'} {low}."
    return "" if low in _NOT_NAMES_HERE else None


# "Allergic to cats", "Not a fan of spicy food", "Lactose intolerant btw": what the user is, said without "I'm".
_IMPLIED_IM = _rx(
    r"^(?:(?:not|never)\s+(?:a|really\s+a)\s+(?:big\s+)?fan\s+of|(?:big|huge|massive|great)\s+fan\s+of|"
    r"(?:severely\s+|very\s+|mildly\s+)?allergic\s+to|(?:lactose|gluten)\s+intolerant|intolerant\s+to|"
    r"(?:strict\s+|full-time\s+)?(?:vegan|vegetarian|pescatarian)|diabetic|coeliac|celiac|pregnant|"
    r"happily\s+married|recently\s+(?:married|divorced|retired|engaged)|newly\s+(?:married|single|engaged)|"
    r"married\s+(?:with|for|to|since)|originally\s+from)\b"
    r"(?!\s+(?:food|recipes?|options?|restaurants?|dishes|meals?|places?|here)\b)"
)
# "Work in IT.", "Live in Leeds.", "Have two dogs.": a statement typed without its "I" (not "Have a nice day").
_IMPLIED_I_PRESENT = _rx(
    r"^(?:live\s+in|work\s+(?:in|at|as|for)|have\s+(?:\d+|two|three|four|five|six|a|an)\s+"
    r"(?!(?:nice|good|great|lovely|wonderful|fun|safe|happy|blast|look|go|try|think|question|chat|word|awesome|"
    r"amazing|brilliant|fantastic|fab|super|merry|relaxing|restful|productive)\b))"
)
# "Been vegan for 3 years", "Been working on my novel"; not "Been a busy week" / "Been ages" (it has been).
_IMPLIED_IVE = _rx(
    r"^been\s+(?:(?:(?!thinking|wondering|meaning|having)\w+ing)\b|vegan|vegetarian|pescatarian|sober|married|single|"
    r"divorced|engaged|retired|(?:only\s+)?to\s+(?-i:[A-Z]))"
)
# "Retired teacher here.", "Night-shift nurse here.": what the user is.
_ROLE_HERE = _rx(r"^(?P<what>(?:[\w-]+\s+){1,2}[\w-]+)\s+here[.!]*$")
# "I'm the one with the parrot", "I'm the guy who keeps bees": how the user tells who they are.
_THE_ONE = _rx(
    r"^(?:i'm|i\s+am|im)\s+the\s+(?:one|guy|girl|woman|man|lady|person|mum|mom|dad)\s+"
    r"(?:(?:with|who\s+has|who's\s+got|that\s+has)\s+(?P<thing>(?!(?:me|you|him|her|them|us|it)\b).+)"
    r"|(?:who|that)\s+(?P<verb>(?:is|was|has|had|does|did|[a-z]+s|[a-z]+ed))\b(?P<rest>.*))$"
)
# "Since I'm vegan, ...?", "As I'm diabetic, ...?": the reason given for a question, said first.
_BECAUSE = _rx(r"^(?:since|as|because|given\s+that|seeing\s+as|now\s+that)\s+(?=(?:i|i'm|i've|my|we|we're|our)\b)")
# "As a vegan", "Being a nurse": what the user is, said before a question.
_AS_A = _rx(r"^(?:as|being)\s+(?P<article>a|an)\s+(?P<what>[\w-]+(?:\s+[\w-]+)?)$")
# "We spoke last week about my garden", "We talked about this before": the user and the assistant, not a fact.
_OUR_TALK = _rx(
    r"^we\s+(?:(?:already|just|briefly)\s+)?(?:spoke|talked|chatted|discussed|messaged|were\s+talking|"
    r"were\s+chatting|went\s+over|covered)\b.*\b(?:last\s+(?:week|time|month|night)|before|earlier|yesterday|"
    r"the\s+other\s+day|a\s+while\s+(?:ago|back)|(?:about|over)\s+(?:this|that|it)|the\s+last\s+time)\b"
)
# "I'm sure that's wrong", "I agree with that": about what was said, not about the user.
_ABOUT_THAT = _rx(
    r"^(?:(?:i'm|i\s+am)\s+(?:pretty\s+|quite\s+|not\s+)?(?:sure|certain|afraid|glad)\s+(?:that's|that|it's|it|this)\b"
    r"|i\s+(?:totally\s+|completely\s+)?(?:agree|disagree)\b)"
)
# "Ana and I broke up", "My wife and I moved to Berlin", "Me and Tom split up": the user and someone else.
_OTHER = r"(?:(?:my|our)\s+\w+(?:\s+(?-i:[A-Z])[\w-]+)?|(?-i:[A-Z])[\w-]+(?:\s+(?-i:[A-Z])[\w-]+)?)"
# "me and sarah broke up", "me and mum": a name or a relative typed in lower case (no pronoun, no "the" or "all").
_OTHER_LOWER = (
    r"(?!(?:him|her|them|us|you|he|she|they|it|the|a|an|this|that|these|those|some|all|both|every|each|my|our|his|"
    r"their|everyone|everybody|someone|somebody|nobody|others?|friends|people|work|i|me)\b)(?-i:[a-z])[a-z'-]+"
)
_WITH_OTHER = _rx(
    rf"^(?:(?P<other>{_OTHER}|{_OTHER_LOWER})\s+and\s+(?:i|me)|(?:i|me)\s+and\s+(?P<other2>{_OTHER}|{_OTHER_LOWER}))"
    r"\s+(?P<rest>(?-i:[a-z]).*)$"
)
_PERSON_WORD = _rx(rf"^(?:{PERSON})$")
_MODAL_START = _rx(r"^(?:would|could|should|might|may|'d|want|wanna|need|hope|plan|are\s+going\s+to)\b")
# "..., by the way." / "..., as I said.": a tail that adds nothing to the fact; "..., remember that.", "... - please
# keep that in mind": a request to the assistant, never part of the fact.
_EMPTY_TAIL = _rx(r"(?:(?:,\s*|\s+)(?:by\s+the\s+way|btw|as\s+i\s+said|like\s+i\s+said|as\s+i\s+mentioned|lol+|"
                  r"ha(?:ha)+|lmao|lmfao|rofl|xd|ugh+|eek|unfortunately|sadly|though|fyi|too|as\s+well|"
                  # an aside to the listener: "..., just so you know", "... if that helps", "..., don't judge"
                  r"(?:just\s+)?so\s+you(?:'re)?\s+(?:know|aware)|just\s+(?:to\s+)?let(?:ting)?\s+you\s+know|"
                  r"for\s+your\s+info(?:rmation)?|for\s+the\s+record|for\s+reference|just\s+saying|as\s+you\s+know|"
                  r"you\s+know|if\s+(?:that|it)\s+(?:helps|matters)|in\s+case\s+(?:that|it)\s+(?:helps|matters)"
                  r"(?:\s+for\s+anything)?|(?:in\s+case|if)\s+you\s+(?:were|are)\s+wondering|if\s+you\s+must\s+know|"
                  r"don't\s+judge(?:\s+me)?|no\s+judge?ment(?:\s+please)?|"
                  r"not\s+sure\s+if\s+i\s+(?:mentioned|said|told\s+you)(?:\s+(?:it|that|this))?(?:\s+before)?|"
                  r"(?:in\s+case|if)\s+i\s+(?:didn't|haven't|never)\s+(?:mention(?:ed)?|say|said|tell\s+you|told\s+you)"
                  r"(?:\s+(?:it|that|this))?(?:\s+before)?|"
                  r"remember|if\s+you\s+remember|you\s+remember)"
                  r"|(?:\s*,\s*|\s+-\s+|\s*[\u2014\u2013]\s*|\s+(?:so|and)\s+)(?:(?:so|and|please|pls)\s+)*"
                  r"(?:remember|note|don't\s+forget|do\s+not\s+forget|(?:keep|bear)\s+(?:(?:that|this|it)\s+)?in\s+mind|"
                  r"make\s+a\s+note(?:\s+of)?|note\s+(?:that|this|it)\s+down)"
                  r"(?:\s+(?:that|this|it))?(?:\s+(?:please|pls|for\s+(?:next\s+time|later|the\s+future)))?)"
                  r"[\s.!]*$")


def _without_empty_tail(text: str) -> str:
    """``text`` without the tails that add nothing to a fact (:data:`_EMPTY_TAIL`), one after the other ("I live in
    Leeds btw, not sure if I mentioned" -> "I live in Leeds"); ``text`` itself when nothing would be left."""
    while True:
        cut = _EMPTY_TAIL.sub("", text)
        if cut == text or len(cut.split()) < 2:  # "Me too!" is small talk, not "Me"
            return text
        text = cut


# "User got this.", "User won't give up on their dreams.", "User is gonna keep pushing.": encouragement and
# resolve, read on the rewritten fact; nothing a later conversation needs. "User quit smoking." is a fact.
_RESOLVE = _rx(
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
_POINTER = re.compile(r"\b(?:it|this|that|those|these|them)\b")  # lower case: "User works in IT." points nowhere
_NOT_ITS_OWN = content_words(
    """it this that those these them sometime someday soon later yesterday tomorrow ago today tonight once twice
    again ever never just really definitely totally so too also very much might could would will may must should
    can gonna kind sort bit little pretty quite give go shot whirl"""
)


def _ONLY_A_POINTER(fact: str) -> bool:  # noqa: N802 - read as a pattern beside the others
    return bool(_POINTER.search(fact)) and len(content_words(fact) - _NOT_ITS_OWN) <= 1


# "User's doctor suggested it.", "User's landlord doesn't allow them.": someone else's view of what was just said.
_THEIRS_ON_A_POINTER = re.compile(r"^User's\s.*\b(?:it|this|that|them|those|these)\s*[.!]*$")
_HE_SHE = re.compile(r"\b(?:he|she|him|his|her|hers|himself|herself)\b", re.IGNORECASE)
_SOMEONE = re.compile(rf"\b(?:{PERSON}|(?<!^)(?-i:[A-Z])[a-z\u00e0-\u00ff]+)\b", re.IGNORECASE)
# "User met at a friend's wedding." ("We met at a wedding"): a meeting with no one it names.
_MET_NO_ONE = _rx(r"^user\s+(?:first\s+|just\s+)?met\s+(?:at|in|on|through|via|online|when|while|during|back|years|last)\b")


def _unresolved(fact: str) -> bool:
    """Whether the rewritten ``fact`` leans on what was said before: someone else's words on a pointer ("User's
    doctor suggested it."), a "he" / "her" of the user's fact with no one named before it ("User shares his
    apartment."), a meeting with no one ("User met at a wedding.")."""
    if _THEIRS_ON_A_POINTER.match(fact) or _MET_NO_ONE.match(fact):
        return True
    pronoun = _HE_SHE.search(fact)
    return pronoun is not None and fact.startswith("User ") and not _SOMEONE.search(fact[5:pronoun.start()])


# "I'm a postman, been doing it for thirty years", "I'm allergic to penicillin, it came up at the pharmacy",
# "I'm 34, if that matters": an aside after the statement, about something else or told without a subject.
_ASIDE_TAIL = _rx(
    r"(?:\s*,\s*|\s+-\s+)(?P<tail>(?:(?:(?:always|never|still|already|just|actually)\s+)?"
    r"(?:been|got|had|have|haven't|hasn't|did|didn't|was|wasn't)\b"
    r"|(?:if|unless|in\s+case|as\s+long\s+as|whatever|whenever|which)\b"
    r"|(?:it|he|she|they|this|that|there)(?:'s|'re|'ll|'d|\s+\w+)|its\s+\w+"
    r"|the\s+\w+\s+\w+(?:s|ed)\b"
    # "..., seems nice", "..., trying to be healthy": said of the fact, without a subject
    r"|(?:seems|looks|sounds|feels|trying\s+to|hoping\s+to|wish\s+me\s+luck)\b"
    # "..., six months sober now", "..., two years clean": how long, said after the fact
    r"|(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several)\s+(?:days?|weeks?|months?|years?)"
    r"\s+\w+(?:\s+now)?\s*[.!]*$"
    r").*)$"
)


# "... since I was a kid", "... so it hurt", "... so mondays are chaos": when the fact began, or what follows
# from it, told after it without a comma.
_TRAILING_ASIDE = _rx(
    r"\s+(?:(?:ever\s+)?since\s+(?:i|we)\s+(?:was|were)\b"
    r"|so\s+(?:(?:i|we|it|that|there|the|my|our)\b|(?:\w+\s+){1,2}(?:are|is|was|were|gets?)\b)).*$"
)


# "... so no cheese boards for us": what a care fact rules out, after it (what follows a care fact only: "I tore
# my ACL so no more football" says what stopped).
_SO_NO = _rx(r"\s+so\s+no\b.*$")


# "..., boxes everywhere", "..., so much cheaper": a few words without a verb after a change, saying how it went.
_BARE_TAIL = _rx(r"\s*,\s+(?P<tail>(?-i:[a-z])[\w'-]*(?:\s+[\w'-]+){0,2})\s*[.!]*$")


def is_bare_present(word: str) -> bool:
    """Whether ``word`` is the bare present form of a verb the rules rewrite ("work", "live", "play")."""
    return word.lower() in _PRESENT_VERBS


def _cut_aside(statement: str) -> str:
    """``statement`` without an aside after it (:data:`_ASIDE_TAIL`, :data:`_TRAILING_ASIDE`, a verbless
    :data:`_BARE_TAIL` after a change); a change told after the comma without its "I" ("..., got promoted") is no
    aside."""
    m = _TRAILING_ASIDE.search(statement)
    if m is not None and m.start() > 0:
        statement = statement[: m.start()]
    m = _SO_NO.search(statement)
    if m is not None and m.start() > 0 and is_care_fact(statement[: m.start()]):
        statement = statement[: m.start()]  # "Marco is lactose intolerant so no cheese boards for us"
    m = _BARE_TAIL.search(statement)
    head = statement[: m.start()] if m is not None else ""
    # "we moved to Porto, boxes everywhere": how it went, not what changed; a job's tail names the job ("I got a
    # new job, nursing assistant")
    if m is not None and head and is_change(head) and "job" not in slots_of(head) \
            and not any(is_verb_form(w) for w in m.group("tail").split()) \
            and not (slots_of(m.group("tail")) or is_care_fact(m.group("tail"))):
        statement = head
    m = _ASIDE_TAIL.search(statement)
    if m is None or m.start() == 0 or is_subjectless_change(m.group("tail")):
        return statement
    head = statement[: m.start()]
    return _without_empty_tail(head)


# Words of emphasis that say how the user feels about a fact, not what it is: "User is officially retired."
_EMPHASIS = _rx(
    r"\s+(?:finally|officially|actually|basically|literally|honestly|fully|completely|totally|absolutely|"
    r"definitely|seriously|genuinely)\b(?=\s|[.!]?$)"
)


def _plain(fact: str) -> str:
    """The rewritten ``fact`` without words of emphasis ("User is officially retired." -> "User is retired.")."""
    return _EMPHASIS.sub("", fact)


# "..., right?", "..., funny right?", "..., isn't it?": a tag after a statement, asking only to agree.
_TAG_QUESTION = _rx(
    r"(?:\s*,\s*|\s+)(?:(?:funny|crazy|weird|ironic|wild|mad|sad|typical|classic|ha|haha|lol)\s+)?"
    r"(?:right|huh|eh|innit|isn't\s+it|ain't\s+it|don't\s+you\s+think|you\s+know)\s*\?+\s*$"
)


# "..., so what should I cook for him", "... but how do I start": a question typed without its "?".
_UNMARKED_QUESTION = _rx(
    r"(?:\s*,\s*|\s+)(?:so|but|and)\s+(?:what|how|where|which|who|when)\s+(?:should|can|could|would|shall|do)\s+"
    r"(?:i|we)\b[^.!]*[.!]*$"
)


# As said, a sentence stays a fact only when short and about a known part of the user's life ...
_AS_SAID_MAX_WORDS = 12
# ... or when it tells, dated, of something the user did: "Last Friday, I went to a counselling workshop."
_EVENT_MAX_WORDS = 20
_DATED = _rx(
    rf"\b(?:yesterday|last\s+(?:week|weekend|month|year|night|summer|winter|spring|fall|autumn|{_WEEKDAY})|"
    r"(?:a\s+few|two|three|\d+)\s+(?:days|weeks|months|years)\s+ago|recently|this\s+(?:morning|week|weekend|month|"
    rf"year)|on\s+{_WEEKDAY}|in\s+(?:{'|'.join(MONTH_NAMES)}))\b"
)
_DID = _rx(
    r"\b(?:i|we)\s+(?:just\s+|finally\s+|recently\s+)?(?:went|got|took|started|joined|finished|visited|attended|"
    r"ran|won|bought|made|had|met|adopted|moved|signed|completed|tried|volunteered|painted|wrote|read|saw|learned|"
    r"learnt|spent|did|gave|received|found|launched|opened|passed|graduated|traveled|travelled|hosted|organized|"
    r"organised|played|performed|created|built|published|released)\b"
)


def _kept_as_said(text: str, statement: str) -> tuple[str | None, str]:
    """``text`` kept as said when its ``statement`` (the user's words after any opener) is no longer than
    :data:`_AS_SAID_MAX_WORDS` words and speaks of a slot of the user's life (home, job, diet, pets...) or the
    sentence of a care fact (an allergy, a diet), or, up to :data:`_EVENT_MAX_WORDS` words, tells of something
    the user did at a time it names (history, not a passing mood); otherwise nothing: a rambling or
    unplaceable sentence in memory is worse than a missed fact."""
    words = len(statement.split())
    if words <= _EVENT_MAX_WORDS and _DATED.search(text) and _DID.search(statement):
        return _as_said(text), KEPT_AS_SAID
    if words > _AS_SAID_MAX_WORDS:
        return None, DROP_UNCLEAR
    if not (slots_of(statement) or is_care_fact(statement) or is_care_fact(text)):
        return None, DROP_UNCLEAR
    return _as_said(text), KEPT_AS_SAID


def _moment(body: str, now: datetime | None = None) -> tuple[str | None, str, timedelta | None] | None:
    """The verdict for a passing state or an appointment, ``None`` for anything else (``now``: when it was said,
    for a plan's month; default: now)."""
    # "I just got engaged", "I'm back on cigarettes": news, not a passing moment.
    if _EPHEMERAL_STATE.match(body) and not re.search(
        r"\bback\s+(?:on|to|in\s+the\s+office|at\s+(?:work|the\s+office|uni|university|college|school))\b"
        r"|\b(?:these\s+days|lately|nowadays|anymore|usually|every|always|a\s+lot\s+of)\b",  # a habit, not a moment
        body, re.IGNORECASE,
    ):
        return None, DROP_EPHEMERAL, None
    if _EPHEMERAL_STATE.match(body) and _MOOD_FOR_A_WHILE.search(body) and not re.search(
            r"\b(?:back|nowadays|anymore|usually|every|always|a\s+lot\s+of)\b", body, re.IGNORECASE):
        return _rewrite(body) or _as_said(body), KEPT_EXPIRING, MOOD_LIFETIME  # "I'm so stressed these days"
    if _PASSING_HAVE.match(body):
        return None, DROP_EPHEMERAL, None
    if _JUST_DID.match(body) and not is_change(body):
        return None, DROP_EPHEMERAL, None
    planned = _APPOINTMENT.match(body) or _MY_EVENT.match(body) or _THEIR_PLAN.match(body) or _PLANNED.match(body)
    if _LATER_TODAY.search(body) and _EVENT.search(body) and (_APPOINTMENT.match(body) or _MY_EVENT.match(body)) \
            and not _NOW_ONLY.search(body) and not _RECURRING.search(body):
        return _rewrite(body) or _as_said(body), KEPT_EXPIRING, timedelta(days=1)  # "I have a date tonight"
    if _NOW_WORDS.search(body) and (_MOMENT_VERB.match(body) or _MY_EVENT.match(body)):
        return None, DROP_EPHEMERAL, None
    if _AILMENT.match(body):
        return None, DROP_EPHEMERAL, None
    if _SYMPTOM_NOW.match(body) and not _RECURRING.search(body) and not re.search(r"\bwhen(?:ever)?\b", body, re.I):
        return None, DROP_EPHEMERAL, None
    soon = _SOON.search(body) or _DAY_NAMED.search(body)
    if soon is not None and planned:
        days = 2 if soon.group(0).lower().startswith(("tomorrow", "the day")) else 8
        return _rewrite(body) or _as_said(body), KEPT_EXPIRING, timedelta(days=days)
    span = IN_SPAN.search(body)
    if span is not None and planned and not _RECURRING.search(body):  # "We're flying to Lisbon in two weeks"
        return _rewrite(body) or _as_said(body), KEPT_EXPIRING, span_days(span) + timedelta(days=2)
    if _CLOCK.search(body) and not _RECURRING.search(body) and (_APPOINTMENT.match(body) or _MY_EVENT.match(body)):
        return _rewrite(body) or _as_said(body), KEPT_EXPIRING, timedelta(days=1)  # today, at that time
    month = _PLAN_MONTH.search(body) or _PLAN_SEASON.search(body)
    if month is not None and _PLANNED.match(body):
        plan = _REQUEST_TAIL.sub("", body) or body  # "... next month and would love some tips"
        return _rewrite(plan) or _as_said(plan), KEPT_EXPIRING, _until_month_end(month.group("month"), now)
    return None


# "My chest feels tight after my run", "My truck is making a grinding noise": something wrong right now, told to
# ask about it (not "My knee hurts when it rains": that recurs).
_SYMPTOM_NOW = _rx(
    r"^(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:feels?|is\s+feeling|hurts|is\s+hurting|aches|is\s+aching|is\s+sore|"
    r"is\s+swollen|is\s+itchy|is\s+making\s+(?:a|an|this|that|some|weird|strange)\b|is\s+leaking|keeps\s+"
    r"(?:crashing|freezing|beeping|leaking|stalling))"
    r"|^(?:i|we)\s+(?:feel|am\s+feeling|'m\s+feeling)\s+(?:a\s+bit\s+|really\s+|so\s+|very\s+)?(?:sick|dizzy|"
    r"nauseous|faint|feverish|achy|rough|awful|off|unwell|under\s+the\s+weather)\b"
)


# A plan of the user's for a month to come: "I've booked a trip to Lisbon in April", "My knee replacement is
# booked for June", "We're flying to Lisbon next month" (not "I moved to Paris in June": that happened).
_PLANNED = _rx(
    r"^(?:(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?booked|"
    r"(?:i|we)(?:'ve|\s+have)\s+got\s+(?:my|our|a|an)\s+[^.]*?\b(?:booked|scheduled)\b|"
    r"(?:i'm|i\s+am|we're|we\s+are)\s+(?:flying|going|travell?ing|heading|driving|visiting|having|getting|"
    r"bringing|hosting|attending|throwing|doing|running|playing|cooking|baking|"
    # a change to come: "We're moving to Bath next month", "I'm starting a new job next week"
    r"moving|relocating|emigrating|starting|beginning|leaving|retiring|switching|changing|graduating)|"
    r"(?:my|our)\s+(?:[\w'-]+\s+){0,2}?(?:surgery|operation|appointment|trip|holiday|vacation|flight|wedding|"
    r"procedure|scan|replacement)\b[^.]*?\b(?:is|'s)\s+(?:booked|scheduled|planned|set|on|in|for)|"
    r"(?:i|we)\s+have\s+(?:a|an|my|our)\s+[^.]*?\b(?:surgery|operation|appointment|procedure|scan)\b)"
)
_PLAN_MONTH = _rx(
    rf"(?:\b(?:in|for|on|until|till)\s+(?:the\s+\w+\s+of\s+|early\s+|mid-?\s*|late\s+)?|\b(?=next\s+month))"
    rf"(?P<month>{'|'.join(MONTH_NAMES)}|next\s+month)\b"
)


# "next summer", "this autumn", "next year": a plan for a season (its last month, in the north) or a year.
_PLAN_SEASON = _rx(r"\b(?P<when>next|this)\s+(?P<month>spring|summer|autumn|fall|winter|year)\b")
_SEASON_END = {"spring": "may", "summer": "august", "autumn": "november", "fall": "november", "winter": "february"}


def _until_month_end(month: str, now: datetime | None = None) -> timedelta:
    """From ``now`` (default: now, UTC) to the end of ``month`` (its next occurrence, this month included; "next
    month": the next one; a season: its last month; "year": the end of next year): how long a plan for that
    month stays news."""
    now = now or datetime.now(timezone.utc)
    name = _SEASON_END.get(month.lower(), month.lower())
    if name == "year":
        return datetime(now.year + 2, 1, 1, tzinfo=timezone.utc) - now
    if name.startswith("next"):
        m, year = (1, now.year + 1) if now.month == 12 else (now.month + 1, now.year)
    else:
        m = MONTH_NAMES.index(name) + 1
        year = now.year if m >= now.month else now.year + 1
    end = date(year + (m == 12), m % 12 + 1, 1)  # the first day after that month
    return datetime(end.year, end.month, end.day, tzinfo=timezone.utc) - now


def is_verb_form(word: str) -> bool:
    """Whether ``word`` is a verb form the rules know ("is", "'s", "teaches", "plays", "moved", "went")."""
    w = word.lower().strip(".,!?;:")
    if w in _AUX or w in _AUX.values() or w in {"is", "are", "were", "does", "has"} or _is_past(w):
        return True
    return "'" in w or any(w == _third_person(v).lower() or w == v for v in _PRESENT_VERBS)


# "got a Tesla", "bought an iPhone": a thing got (not "got my car back", "got the car fixed").
_GOT_ONE = _rx(r"^(?:just\s+|finally\s+)?(?:got|bought|leased)\s+(?:a|an)\s")


def is_subjectless_change(text: str) -> bool:
    """Whether ``text`` is a change told without its "I" ("Just moved to Leeds", "Sold the car", "got a Tesla": a
    car or a phone got is a new one): the user's."""
    said = "I " + _WEAK_CHANGE.sub(" ", text)
    return bool(_IMPLIED_I.match(text)) and (is_change(said) or bool(_GOT_ONE.match(text) and acquired_slots(said)))


def _no_symbols(text: str) -> str:
    """``text`` without emoji and other pictographs ("last night 💔"): a fact is words."""
    return "".join(" " if unicodedata.category(c) == "So" else c for c in text if c not in "\ufe0f\u200d")


# "I'm doing dry April btw, no alcohol": a filler inside the sentence, before a comma.
_INNER_FILLER = _rx(r"\s+(?:btw|by\s+the\s+way|tbh|ngl|fyi|lol|haha)(?=\s*,)")


def _clean(sentence: str) -> str:
    text = read_as_meant(" ".join(_no_symbols(sentence.translate(_APOSTROPHES)).split()))
    return _INNER_FILLER.sub("", _BULLET.sub("", text)).strip(" \"'")


def _strip_lead(text: str) -> tuple[str, bool]:
    """``text`` without leading interjections and discourse markers; and whether a greeting/thanks/etc. was cut."""
    social = False
    while True:
        m = _LEAD_SOCIAL.match(text)
        if m and m.end() > 0:
            text, social = text[m.end():].lstrip(" ,!.-"), True
            continue
        m = (_LEAD_CORRECTION.match(text) or _LEAD_CONNECTIVE.match(text) or _LEAD_NEWS.match(text)
             or _LEAD_REMINDER.match(text) or _LEAD_CLINICIAN.match(text) or _LEAD_LABEL.match(text))
        if m and m.end() > 0:
            text = text[m.end():].lstrip(" ,:-")
            continue
        return text, social


def strip_lead(text: str) -> str:
    """``text`` without its leading interjections, discourse markers, news lead-ins and labels ("Oh, so fyi I
    quit" -> "I quit")."""
    return _strip_lead(_clean(text))[0]


# A subordinate or prepositional opener: "When I was young", "Since the baby arrived", "Being a nurse".
_SUBORDINATE = _rx(
    r"^(?:if|when|whenever|while|since|because|as|after|before|although|though|unless|until|till|once|whether|"
    r"in|on|at|for|with|without|by|from|during|due|being|having|back|growing|like|even|except|apart|other\s+than)\b"
)
_FINITE = frozenset("is are was were 's 're has had did does do can could will would says said isn't wasn't".split())


def is_clause(text: str) -> bool:
    """Whether ``text`` is a clause of its own, with a subject and a finite verb ("Friday was my last day",
    "the lease ended", "Her name is Chloé"), not an opener that bends what follows ("When I was young",
    "Since the baby arrived", "No pets for us")."""
    body = strip_lead(text)
    if not body or _SUBORDINATE.match(body) or _CONDITIONAL.match(body):
        return False
    words = re.findall(r"[\w']+", body.lower().replace("'s ", " 's ").replace("'re ", " 're "))
    return any(w in _FINITE or _is_past(w) for w in words[1:])


_MAIN_VERB = _rx(rf"\b(?:user|i|we)\s+(?:{_ADVERBS}\s+)*(?P<verb>[a-z']+)")


def is_past_statement(text: str) -> bool:
    """Whether ``text`` tells of the past by its main verb ("User played rugby at uni.", "Back in uni I played
    rugby"), not of now ("User plays rugby.", "User has played rugby for years.")."""
    m = _MAIN_VERB.search(text)
    return m is not None and _is_past(m.group("verb"))


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


def _rewrite_we(statement: str) -> str | None:
    """A "we" / "our" statement as a "User ..." fact (the user's household), or ``None``."""
    if statement[:4].lower() == "our ":
        rest = statement[4:]
        if _SINGULAR_FIRST_PERSON.search(rest) or re.search(r"\bwe(?:'re|'ve|'ll|'d)?\b", rest, re.IGNORECASE):
            return None
        return _end("User's " + _their(rest))
    m = _WE_SUBJECT.match(statement)
    if m is None:
        return None
    adv, verb, tail = m.group("adv") or "", m.group("verb"), m.group("tail")
    new_verb = _user_verb(verb, _WE_AUX)
    if new_verb is None or (new_verb == "is" and _PLURAL_COMPLEMENT.match(tail)):
        return None
    if _SINGULAR_FIRST_PERSON.search(re.sub(r"\bmy\b", "", tail, flags=re.IGNORECASE)) or _AND_VERB.search(tail):
        return None
    tail = re.sub(r"\bmy\b", "their", tail, flags=re.IGNORECASE)  # "we moved for my wife's job"
    return _end(f"User {adv}{new_verb}{_their(tail)}")


def _user_verb(verb: str, auxiliaries: dict[str, str]) -> str | None:
    """``verb`` said of "I" / "we" as said of "User" (``auxiliaries``: the auxiliaries' forms), or ``None``
    when it is not a verb the rewrite knows."""
    key = verb.lower()
    if key in auxiliaries:
        return auxiliaries[key]
    if key in _PRESENT_VERBS:
        return _third_person(verb)
    return verb if _is_past(key) else None


def _their(text: str) -> str:
    text = re.sub(r"\bourselves\b", "themselves", text, flags=re.IGNORECASE)
    text = re.sub(r"\bours\b", "theirs", text, flags=re.IGNORECASE)
    text = re.sub(r"\bus\b", "them", text, flags=re.IGNORECASE)
    return re.sub(r"\bour\b", "their", text, flags=re.IGNORECASE)


def _rewrite(statement: str) -> str | None:
    """``statement`` (first person) as a "User ..." fact, or ``None`` when no rewrite is reliable."""
    if re.match(r"(?:we|our)\b", statement, re.IGNORECASE):
        return _rewrite_we(statement)
    if statement[:3].lower() == "my ":
        rest = statement[3:]
        # "My mum calls me every Sunday" -> "User's mum calls the user every Sunday."; another "I", "my", "we": no
        if _OTHER_FIRST_PERSON.search(re.sub(r"\bme\b", "", rest, flags=re.IGNORECASE)) \
                or re.search(r"\bmy\b", rest, re.IGNORECASE):
            return None
        return _end("User's " + re.sub(r"\bme\b", "the user", rest, flags=re.IGNORECASE))
    m = _I_SUBJECT.match(statement) or _IM_SUBJECT.match(statement)
    if m is None:
        return None
    adv = m.groupdict().get("adv") or ""
    verb, tail = m.group("verb"), m.group("tail")
    new_verb = _user_verb(verb, _AUX)
    if new_verb is None:
        return None
    if verb.lower() == "read" and _DATED.search(tail):  # "I read a great book last week": the past
        new_verb = verb
    # "... with my husband and our two dogs": "our" is the user's household too; any other pronoun, no rewrite
    if _OTHER_FIRST_PERSON.search(re.sub(r"\bour\b", "", tail, flags=re.IGNORECASE)) or _AND_VERB.search(tail):
        return None
    tail = re.sub(r"\bmyself\b", "themselves", tail, flags=re.IGNORECASE)
    tail = re.sub(r"\b(?:my|our)\b", "their", tail, flags=re.IGNORECASE)
    return _end(f"User {adv}{new_verb}{tail}")


def _the_one(m: re.Match[str]) -> str | None:
    """ "I'm the one with the parrot" -> "User has a parrot."; "I'm the guy who keeps bees" -> "User keeps bees."."""
    if m.group("verb") is not None:
        if _OTHER_FIRST_PERSON.search(m.group("rest")) or _SECOND_PERSON.search(m.group("rest")):
            return None
        rest = re.sub(r"\bmy\b", "their", m.group("rest"), flags=re.IGNORECASE)
        return _end(f"User {m.group('verb')}{rest}")
    thing = m.group("thing")
    if _OTHER_FIRST_PERSON.search(thing) or _SECOND_PERSON.search(thing):
        return None
    thing = re.sub(r"\bmy\b", "their", thing, flags=re.IGNORECASE)
    the = re.match(r"the\s+(?P<rest>(?P<word>[\w-]+).*)$", thing, re.IGNORECASE)
    if the is not None:  # "the parrot" -> "a parrot"; "the twins", "the three cats" stay without an article
        word, rest = the.group("word").lower(), the.group("rest")
        plural = word.endswith("s") and not word.endswith("ss") or word.isdigit() or word in _COUNTS
        thing = rest if plural else ("an " if word[0] in "aeiou" else "a ") + rest
    return _end(f"User has {thing}")


_COUNTS = frozenset("two three four five six seven eight nine ten twin twins".split())


def _together(m: re.Match[str]) -> tuple[str | None, str]:
    """The verdict for "<someone> and I <did something>": "User and <someone> <did something>."."""
    other, rest = m.group("other") or m.group("other2"), m.group("rest")
    # "Ana and I are going to the cinema tomorrow" is soon over; "Lily and I got married on Saturday" is news
    done = _is_past(rest.split()[0]) and is_change(rest)
    if (_NOW_WORDS.search(rest) or _SOON.search(rest)) and not done:
        return None, DROP_EPHEMERAL
    if _MODAL_START.match(rest):
        return None, DROP_HYPOTHETICAL
    if re.fullmatch(_OTHER_LOWER, other):  # typed in lower case: "me and mum" -> "their mum", "sarah" -> "Sarah"
        other = f"my {other}" if _PERSON_WORD.match(other) else other.capitalize()
    other = re.sub(r"^(?:my|our)\b", "their", other, flags=re.IGNORECASE)
    rest = re.sub(r"\b(?:my|our)\b", "their", rest, flags=re.IGNORECASE)
    if _OTHER_FIRST_PERSON.search(rest):
        return _kept_as_said(m.group(0), m.group(0))
    return _plain(_end(f"User and {other} {rest}")), KEPT_REWRITTEN


# A fact that tells of a change is stored as what holds after it, in the words a question about it uses:
# "User moved to Porto last month." -> "User lives in Porto." ("Where do I live these days?" scores the move
# at 0.19, below the gate); "User just turned 31." -> "User is 31.". The time of the change is the fact's
# created_at; written down ("last month", "just") it would soon be wrong. A move needs a named place
# (capitalised: "moved to the night shift" is a job, not a home; nor is a tool, "moved to Slack", or a team's
# move) or a home in one ("a house in York"); a holder is kept ("User's sister lives in Dublin.").
# Who changed ("User", "User's sister", "User's sister Ana") and a word of news before the verb ("just").
_CHANGED = (r"^(?P<who>User(?:'s(?:\s+[a-z][\w-]*){1,2}(?:\s+[A-Z][\w-]*)?)?)\s+"
            r"(?:just\s+|recently\s+|finally\s+|officially\s+)?")
_MOVED_TO = re.compile(
    _CHANGED + r"(?:has\s+|have\s+)?(?:moved|relocated)(?:\s+back)?\s+to\s+"
    r"(?P<place>(?:(?:a|an|the|their)\s+(?:new\s+|small\s+|big\s+|little\s+)?[a-z]+\s+(?:in|near)\s+)?"
    r"[A-Z][\w'.-]*(?:\s+(?:upon\s+)?[A-Z][\w'.-]*)*(?:,\s+[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)?)"
    r"(?P<rest>(?:\s+[^,;]*)?)\.$"
)
# "User moved last week.", "User's sister moved house.": a new home, where not said.
_MOVED_SOMEWHERE = re.compile(
    _CHANGED + r"(?:has\s+|have\s+)?(?:moved|relocated)(?:\s+(?:house|home|flats?|apartments?|away))?"
    r"(?P<rest>(?:\s+[^,;]*)?)\.$"
)
_TURNED = re.compile(_CHANGED + r"(?:has\s+)?turned\s+(?P<age>\d{1,3})(?P<rest>(?:\s+[^,;]*)?)\.$")
# "User and Lily got married on Saturday.": the user's news told with their partner as a second subject, as the stage
# the user's relationship is at now, with whom ("User is married to Lily."). Not "User got married last summer."
# (a User fact already, its time kept), nor a partner unnamed ("User and their wife got divorced.").
_GOT_STAGE_WITH = re.compile(
    r"^User\s+and\s+(?:their\s+[a-z]+\s+)?(?P<other>[A-Z][\w'-]*)\s+(?:just\s+|recently\s+|finally\s+|"
    r"officially\s+)?(?:have\s+)?got\s+(?P<stage>married|engaged|divorced|separated)(?P<rest>(?:\s+[^,;]*)?)\.$"
)
_YEAR = re.compile(r"\b(?:in\s+)?(?:19|20)\d\d\b")
_NOT_A_PLACE = re.compile(
    rf"^(?:{_WEEKDAY}|{'|'.join(MONTH_NAMES)}|user|i|it|this|that)\b", re.IGNORECASE,
)


# When news is a few days old at most: "today", "on Saturday", "last week", "the other day".
_RECENTLY = _rx(
    rf"\b(?:today|tonight|yesterday|recently|the\s+other\s+day|(?:a\s+few|two|three|\d)\s+days\s+ago|"
    rf"this\s+(?:morning|afternoon|evening|week|weekend|{_WEEKDAY})|last\s+(?:night|week|weekend|{_WEEKDAY})|"
    rf"on\s+(?:their\s+birthday|{_WEEKDAY}))\b"
)


def _only_a_time(rest: str) -> bool:
    return not _RECENTLY.sub("", _YEAR.sub("", _DATED.sub("", rest))).strip(" ,")


def _is_plural(who: str) -> bool:
    holder = who.split()[-1]
    return holder != "User's" and holder.endswith("s") and not holder.endswith("ss")


def holds_now(fact: str) -> str:
    """A rewritten fact that tells of a move, of a birthday or of the user's wedding told with their partner, as
    what holds now: where the holder lives (what else it says of the move kept in brackets, except its time: the
    fact's ``created_at`` holds it; a new home when no place is said), how old they are, to whom the user is
    married. Any other fact is returned unchanged.

    >>> holds_now("User moved to Porto last month."), holds_now("User relocated to Oslo for their job.")
    ('User lives in Porto.', 'User lives in Oslo (moved there for their job).')
    >>> holds_now("User just turned 31."), holds_now("User moved to the night shift.")
    ('User is 31.', 'User moved to the night shift.')
    >>> holds_now("User moved to Slack last month."), holds_now("User's team moved to Berlin.")
    ('User moved to Slack last month.', "User's team moved to Berlin.")
    >>> holds_now("User and Lily got married on Saturday."), holds_now("User turned 35 today.")
    ('User is married to Lily.', 'User is 35.')
    >>> holds_now("User moved last week."), holds_now("User moved on.")
    ('User moved to a new home.', 'User moved on.')
    """
    m = _MOVED_TO.match(fact)
    if (m is not None and not _NOT_A_PLACE.match(m.group("place").split()[-1])
            and m.group("place").split()[0].lower() not in TOOLS and not speaks_of_a_group(fact)):
        who, place, rest = m.group("who"), m.group("place"), m.group("rest").strip()
        lives = "live" if _is_plural(who) else "lives"
        return f"{who} {lives} in {place}" + (f" (moved there {rest})" if rest and not _only_a_time(rest) else "") + "."
    m = _MOVED_SOMEWHERE.match(fact)
    # news of the last days only: "User moved in May." keeps its month
    if m is not None and not _RECENTLY.sub("", m.group("rest")).strip(" ,") and not speaks_of_a_group(fact):
        return f"{m.group('who')} moved to a new home."
    m = _TURNED.match(fact)
    if m is not None and _only_a_time(m.group("rest")):
        who = m.group("who")
        return f"{who} {'are' if _is_plural(who) else 'is'} {m.group('age')}."
    m = _GOT_STAGE_WITH.match(fact)
    if m is not None and not _RECENTLY.sub("", m.group("rest")).strip(" ,"):  # news of the last days only
        stage = m.group("stage")
        return f"User is {stage} {'from' if stage in ('divorced', 'separated') else 'to'} {m.group('other')}."
    return fact


# What a story, a dream or a game is told in: what happens there is not the user's life.
_STORIES = (
    r"movies?|films?|shows?|series|episodes?|documentar(?:y|ies)|books?|novels?|stor(?:y|ies)|plays?|musicals?|"
    r"comics?|manga|anime|games?|video\s+games?|dreams?|nightmares?|daydreams?|fantas(?:y|ies)|sitcoms?|dramas?|"
    r"cartoons?|fanfics?|fan\s+fiction|scripts?|screenplays?|roleplays?|campaigns?|simulations?"
)
# "In my dream I moved to Tokyo", "In the game I'm married", "I dreamt I quit my job", "My character in the game
# moved to Paris": the user tells a story, not their life.
_STORY_FRAME = _rx(
    rf"^(?:(?:in|inside)\s+(?:my|the|this|that|a|an|our|his|her|their|last\s+night's)\s+(?:[\w'-]+\s+){{0,2}}?"
    rf"(?:{_STORIES})\b(?!\s+(?:club|group|shop|store|class|night|festival|football|league)\b)"
    r"|(?:i|we)\s+(?:(?:just|once|literally)\s+)?(?:dreamt|dreamed|had\s+a\s+(?:[\w-]+\s+)?(?:dream|nightmare)"
    r"(?!\s+(?:job|role|house|home|holiday|wedding|car|team|school|come\s+true)\b)|imagined|pretended)\b"
    r"|(?:my|our)\s+(?:[\w'-]+\s+)?(?:character|avatar|sims?|oc|protagonist|hero|heroine|villain|persona|"
    r"alter\s+ego|toon)\b)"
)
# "a guy who moved to Paris", "a novel where the hero got divorced", "a movie about a couple who split up": after
# a noun, a relative word (or "about") starts what is told of someone or something else.
_OF_SOMEONE_ELSE = _rx(
    r"\b(?:a|an|the|this|that|some|one)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+(?P<cut>\s+(?:who|whom|whose|where|about|"
    r"in\s+which)\b)"
)


def own_part(text: str) -> str:
    """``text`` up to where it starts telling of someone or something else after a noun ("User watched a movie
    about a guy who moved to Paris." -> "User watched a movie"): a change told there is not the user's.

    >>> own_part("User is reading a novel where the hero got divorced."), own_part("User moved to Porto.")
    ('User is reading a novel', 'User moved to Porto.')
    """
    m = _OF_SOMEONE_ELSE.search(text)
    return text[: m.start("cut")] if m is not None else text


# "User works at Deloitte now.": a last "now" only marks the change (the fact's created_at dates it), and a fact
# the assistant's own memory tool writes says it without one. Not "for now", "right now", "by now", "until now",
# nor a "now" after how long ("User has been vegan for 3 years now.").
_CHANGE_NOW = _rx(
    r"(?<!\bfor)(?<!\bright)(?<!\bjust)(?<!\bby)(?<!\buntil)(?<!\btill)(?<!\bof)(?<!\bfrom)"
    r"(?<!\bdays)(?<!\bweeks)(?<!\bmonths)(?<!\byears)(?<!\bwhile)(?<!\bages)(?<!\bday)(?<!\bweek)(?<!\bmonth)"
    r"(?<!\byear)(?<!\bdecades)(?<!\bdecade)\s*,?\s+now\s*[.!]*$"
)


def judge_sentence(
    sentence: str, max_chars: int, *, now: datetime | None = None, zone_known: bool = False
) -> SentenceVerdict:
    """The decision for one sentence of a user message: the fact kept (or ``None``) and the reason.

    ``max_chars``: a longer sentence is not a fact (a paste, a story) and is dropped. ``now``: when the sentence
    was said, an aware datetime in the user's zone (default: now, UTC); ``zone_known``: whether that zone is the
    user's. A plan's day is resolved against it (:func:`~memori_core.extraction.dates.anchor_plan`): the fact
    says the day ("on Monday 2026-12-07"), and expires when that day is over; a plan at a time with no day ("a
    dentist appointment at 4") is today's.
    """
    cleaned = _clean(sentence)
    cleaned = _without_empty_tail(cleaned)
    fact, reason = _judge(cleaned, max_chars)
    if fact is not None and reason == KEPT_REWRITTEN:
        fact = without_correction(_CHANGE_NOW.sub(".", holds_now(fact)))
    if reason == KEPT_EXPIRING and fact is not None:
        when = now if now is not None else datetime.now(timezone.utc)
        body = _strip_lead(cleaned)[0]
        lead = _OPENER_THEN_FIRST_PERSON.match(body) or _LEAD_IN_THEN_FIRST_PERSON.match(body)
        moment = _moment(body, when) or (
            _moment(_fronted(body, lead), when) or _moment(body[lead.start("subject"):], when)
            if lead is not None else None)
        expires_in = moment[2] if moment else None
        anchored = anchor_plan(fact, when, zone_known=zone_known)
        if anchored is not None:
            fact = anchored.text
            if anchored.expires_at is not None:
                expires_in = anchored.expires_at - when
        elif expires_in is not None and expires_in <= timedelta(days=1) and _CLOCK.search(fact):
            today = anchor_plan(f"{fact.rstrip(' .!')} today.", when, zone_known=zone_known)  # at a time, today
            if today is not None and today.expires_at is not None:
                fact, expires_in = today.text, today.expires_at - when
        return SentenceVerdict(sentence, fact, reason, expires_in)
    return SentenceVerdict(sentence, fact, reason)


def _fronted(body: str, lead: re.Match[str]) -> str:
    """``body`` ("On Monday, I have a dentist appointment") with its opener said after the statement ("I have a
    dentist appointment on Monday"): where a plan's day or a moment's time reads as the rules expect it."""
    opener = body[: lead.start("subject")].strip(" ,")
    return f"{body[lead.start('subject'):].rstrip(' .!')} {opener[:1].lower()}{opener[1:]}"


# "my mum thinks I'm still vegan", "my dad reckons I'm allergic to everything", "everyone thinks I should move":
# someone's view of the user, not the user's fact (a clinician's is read as the user's: "doctor says I have ...").
_OTHERS_VIEW = _rx(
    rf"^(?:(?:my|our)\s+(?!(?:{CLINICIAN})\b)(?:[\w'-]+\s+){{0,2}}?|everyone\s+|everybody\s+|people\s+|they\s+|he\s+|"
    r"she\s+|(?-i:[A-Z])[a-z]+\s+)(?:(?:still|really|honestly|probably|just|also|always|totally|genuinely|seriously)\s+)*"
    r"(?:thinks?|reckons?|believes?|assumes?|(?:is|are)\s+(?:convinced|sure)|insists?|swears?|keeps?\s+saying|"
    r"says\s+i\s+should|wants?\s+me\s+to|wishes|would\s+(?:like|love)\s+me\s+to|is\s+always\s+saying)\b"
)
# "..., april fools", "... jk", "... just kidding lol": said as a joke, nothing of it holds. ("I'm not kidding" is
# no joke.)
_JOKE_TAIL = _rx(
    r"(?:^|[\s,.!;-])(?<!not\s)(?<!no\s)(?:april\s+fools?(?:'s)?(?:\s+day)?|jk|j/k|just\s+kidding|kidding|"
    r"(?:only|just)\s+joking|/s)\s*(?:haha+|lol+|lmao|xd)?[\s.!]*$"
)
# "so i basically have a dog now", "I practically live at the gym": not so, only as good as ("I'm basically vegan",
# "I basically live on coffee" are so).
_AS_GOOD_AS = _rx(
    r"^(?:i|we)(?:\s+|(?='))(?:'ve\s+|have\s+)?(?:basically|practically|pretty\s+much|kind\s+of|kinda|sort\s+of|"
    r"sorta|virtually|more\s+or\s+less|as\s+good\s+as)\s+(?:have|has|got|own|live\s+(?:at|in|with))\b"
)
# "I've been craving sushi so bad", "I'm craving pizza": a passing want.
_CRAVING = _rx(r"^(?:i|we)(?:\s+|(?='))(?:(?:'ve|have)\s+been|(?:'m|am|'re|are))\s+(?:(?:so|really|just)\s+)*craving\b")
# "I guess I still have to be careful what I eat": a duty the user supposes, not a fact.
_SUPPOSED_DUTY = _rx(r"^i\s+(?:(?:still|probably|really|just|also)\s+)*(?:have\s+to|need\s+to|should|must|gotta|"
                     r"got\s+to|ought\s+to)\b")
# "User is rubbish but it's fun.", "User is hopeless.": how the user rates themselves, not a fact.
_RATED = _rx(
    r"^User\s+(?:is|are)\s+(?:(?:so|really|pretty|very|totally|kinda|kind\s+of|such|absolutely|quite|a\s+bit)\s+)*"
    r"(?:rubbish|terrible|awful|hopeless|useless|bad|good|great|amazing|brilliant|crap|shit|pants|decent|ok|okay|"
    r"fine|mediocre|average|lucky|unlucky|doomed|screwed|a\s+mess|chaos|chaotic|hilarious|funny|weird|crazy|"
    r"the\s+worst|the\s+best|a\s+disaster|a\s+joke|trash)"
    r"(?:\s*,?\s+(?:but|and|though|lol|haha)\b.*)?\.$"
)
# "User caved.", "User panicked.": a bare past verb, told of nothing the rules keep ("User retired." is a change).
_BARE_PAST = _rx(r"^User\s+(?:(?:just|finally|totally|kinda|kind\s+of|basically|literally)\s+)*(?P<verb>[a-z]+)\.$")
# "we did arthur's seat" -> "User did arthur's seat.": the household's outing, without a day or a part of the user's
# life ("I did an MBA" is kept).
_DID_SOMETHING = _rx(r"^User\s+(?:(?:just|finally|also|even)\s+)*did\s+(?!not\b)")
_WE = _rx(r"^we\b")
# Past verbs that tell a life event on their own ("User remarried.", "User relapsed."): kept bare.
_LIFE_EVENTS = frozenset("""remarried emigrated immigrated married eloped converted qualified enlisted recovered
    relapsed transitioned graduated retired divorced separated resigned moved relocated""".split())
# "User went to a gluten free place.": an outing, whatever the place serves (no diet of the user's).
_OUTING = _rx(
    r"^User\s+(?:(?:just|finally|also|even)\s+)*(?:went|headed|popped)\s+(?:out\s+)?(?:to|for)\s+(?:a|an|the|this|that)\s+"
    r"(?:[\w'-]+\s+){0,3}(?:place|restaurant|cafe|caf\u00e9|bar|pub|party|gig|concert|show|movie|cinema|meal|"
    r"dinner|lunch|brunch|breakfast|drink|drinks)\b"
)
# "User's boyfriend Tom would just order pizza.", "User's girlfriend Ana says hi.": a passing remark about someone
# named, which says who they are and nothing memory keeps; kept as who they are ("User's boyfriend is Tom.").
_REMARK_OF_NAMED = re.compile(
    rf"^User's\s+(?P<role>(?:(?:best|older|younger|little|big|eldest|youngest)\s+)?(?:{PERSON}))\s+"
    r"(?P<name>[A-Z][a-z\u00e0-\u00ff]+)\s+(?P<rest>(?:would|'d|could|might|says|said|sends|sent|texted|messaged|"
    r"called|wants|thinks|reckons|got\s+the\s+user|gave\s+the\s+user|bought\s+the\s+user|made\s+the\s+user|"
    r"is\s+being|was\s+being|laughed|loved|hated)\b.*)\.$"
)
# "User is taking metformin for it.": a medicine for what was said before, the medicine is the fact.
_FOR_A_POINTER = _rx(r"\s+for\s+(?:it|that|this|them)\s*\.$")


def _without_filler(fact: str, body: str) -> str | None:
    """The rewritten ``fact`` of ``body``, or ``None`` when it keeps nothing a later conversation needs: a rating of
    the user (:data:`_RATED`), a bare past verb that is no change ("User caved."), an outing told with no day
    ("User did arthur's seat.", "User went to a gluten free place."). A passing remark about someone named is kept as
    who they are (:data:`_REMARK_OF_NAMED`), a care fact without its pointer ("for it")."""
    lasting = slots_of(fact) or is_care_fact(fact)
    if not lasting and _RATED.match(fact):
        return None
    bare = _BARE_PAST.match(fact)
    if bare is not None and _is_past(bare.group("verb")) and bare.group("verb").lower() not in _LIFE_EVENTS \
            and not (is_change(body) or is_ended(body) or lasting):
        return None
    if _DID_SOMETHING.match(fact) and _WE.match(body) and not (lasting or _DATED.search(body) or is_change(body)):
        return None
    if _OUTING.match(fact) and not (_DATED.search(body) or is_change(body)):
        return None
    remark = _REMARK_OF_NAMED.match(fact)
    if remark is not None and not (slots_of(remark.group("rest")) or is_care_fact(fact) or is_change(fact)
                                   or is_loss(fact)):
        return f"User's {remark.group('role')} is {remark.group('name')}."
    if is_care_fact(fact):
        fact = _FOR_A_POINTER.sub(".", fact)
    return fact


def _judge(text: str, max_chars: int) -> tuple[str | None, str]:
    # One check after the other, first match wins: what is not a statement by the user is dropped
    # before anything is rewritten. Each rule is a named pattern above.
    if not re.search(r"\w", text):
        return None, DROP_EMPTY
    if len(text) > max_chars:
        return None, DROP_TOO_LONG
    unmarked = _UNMARKED_QUESTION.search(text)
    if unmarked is not None and unmarked.start() > 0:
        text = text[: unmarked.start()]  # "my friend Tom is vegan so what should I cook for him": no "?" typed
    tag = _TAG_QUESTION.search(text)
    if tag is not None and tag.start() > 0 and not text[: tag.start()].rstrip().endswith("?"):
        text = text[: tag.start()]  # "I'm scared of flying, funny right?": a statement, and a tag asking to agree
    if text.rstrip(" )\"'").endswith("?"):
        m = _QUESTION_TAIL.match(text)
        if m is not None:  # "Since I'm vegan, where can I get B12?": the reason given is the statement
            head = m.group("head")
            being = _AS_A.match(head)  # "As a vegan, what ...?": what the user is
            if being is not None and _what_here(being.group("what").split()[-1]):
                return _end(f"User is {being.group('article')} {being.group('what')}"), KEPT_REWRITTEN
            fact, reason = _judge(_BECAUSE.sub("", head), max_chars)
            if fact is not None:
                return fact, reason
        return None, DROP_QUESTION
    body, social = _strip_lead(text)
    if not re.search(r"\w", body):
        return None, DROP_SMALL_TALK
    if _STORY_FRAME.match(body):
        return None, DROP_STORY
    if _JOKE_TAIL.search(body):  # "haha I'm moving to the moon, april fools"
        return None, DROP_JOKE
    role_here = _ROLE_HERE.match(body)
    if role_here is not None and _what_here(role_here.group("what").split()[-1]):  # "Retired teacher here."
        what = role_here.group("what").lower()
        return _end(f"User is {'an' if what[0] in 'aeiou' else 'a'} {what}"), KEPT_REWRITTEN
    if is_subjectless_change(body):
        body = "I " + body[:1].lower() + body[1:]
    elif _IMPLIED_I_PRESENT.match(body):  # "Work in IT.", "Live in Leeds with my girlfriend."
        body = "I " + body[:1].lower() + body[1:]
    elif _IMPLIED_IVE.match(body):  # "Been vegan for 3 years now."
        body = "I've " + body[:1].lower() + body[1:]
    elif _IMPLIED_IM.match(body):  # "Allergic to cats, unfortunately." -> "I'm allergic to cats, ..."
        article = "a " if re.match(r"(?:big|huge|massive|great)\s", body, re.IGNORECASE) else ""
        body = f"I'm {article}{body[:1].lower()}{body[1:]}"
    if _QUESTION_OPENER.match(body):
        return None, DROP_QUESTION
    named = _NAME_GIVEN.match(body)
    if named is not None:
        full = "full name" if re.search(r"\b(?:full|real)\s+name", body, re.IGNORECASE) else "name"
        return f"User's {full} is {named.group('name')}.", KEPT_INTRODUCTION
    named = _NICKNAME.match(body)
    if named is not None:
        return f"User goes by {named.group('name')}.", KEPT_INTRODUCTION
    named = _HERE_AGAIN.match(body)
    if named is not None:
        name = named.group("name") or named.group("name2") or named.group("name3").capitalize()
        what = _what_here(name)  # "Vegetarian here." is no name: "User is vegetarian."
        if what is not None:
            return what or None, KEPT_REWRITTEN if what else DROP_SMALL_TALK
        return f"User's name is {name}.", KEPT_INTRODUCTION
    if _CONDITIONAL.match(body):
        return None, DROP_HYPOTHETICAL
    if _IMPERATIVE.match(body):
        return None, DROP_INSTRUCTION
    if any(rx.match(body) for rx in (_REACTION, _SHORT_FIRST_PERSON_TALK, _SHORT_ANSWER)) or (
        _MY_FRAGMENT.match(body) and not (is_change(body) or is_ended(body) or is_loss(body))  # "My dog died."
    ):
        return None, DROP_SMALL_TALK
    if _SECOND_PERSON.search(body):
        return None, DROP_SECOND_PERSON
    if _FIRST_PERSON_REQUEST.match(body):
        return None, DROP_INSTRUCTION
    hedge = _HEDGE.match(body)
    if hedge is not None:
        rest = hedge.group("rest")
        about_user = _FIRST_PERSON_START.match(rest) or rest.lower().startswith("to ")
        if re.match(r"(?:my|our)\b", rest, re.IGNORECASE) and not is_care_fact(rest):
            about_user = None  # "I think my boyfriend is cheating": a suspicion of someone else's doing
        if about_user and not _HYPOTHETICAL.match(rest) and not _SUPPOSED_DUTY.match(rest):
            moment = _moment(rest)  # "I think I'm getting a cold": a passing state still
            if moment is not None and moment[0] is None:
                return None, moment[1]
            return _kept_as_said(body, rest)
        return None, DROP_OPINION
    if _HYPOTHETICAL.match(body):
        return None, DROP_HYPOTHETICAL
    if _OTHERS_VIEW.match(body):  # "my mum thinks I'm still vegan"
        return None, DROP_OPINION
    if _AS_GOOD_AS.match(body):  # "I basically have a dog now" (the flatmate's)
        return None, DROP_UNCLEAR
    if _CRAVING.match(body):
        return None, DROP_EPHEMERAL
    moment = _moment(body)
    if moment is not None:
        return moment[0], moment[1]
    if _ABOUT_THAT.match(body):
        return None, DROP_OPINION
    if _OUR_TALK.match(body):
        return None, DROP_SMALL_TALK
    if _BARE_ENDING.match(body):
        return None, DROP_ELLIPTICAL
    intro = _INTRODUCTION.match(body)
    if intro is not None:
        return f"User's name is {intro.group('name')}.", KEPT_INTRODUCTION
    the_one = _THE_ONE.match(body)
    if the_one is not None:
        fact = _the_one(the_one)
        if fact is not None:
            return fact, KEPT_REWRITTEN
    together = _WITH_OTHER.match(body)
    if together is not None:
        return _together(together)
    if _FIRST_PERSON_START.match(body):
        body = _cut_aside(_REQUEST_TAIL.sub("", body) or body)
        rewritten = _rewrite(body)
        if rewritten is not None:
            if _is_resolve(rewritten) or _ONLY_A_POINTER(rewritten):
                return None, DROP_SMALL_TALK
            if _unresolved(rewritten):
                return None, DROP_UNRESOLVED
            kept = _without_filler(_plain(rewritten), body)
            return (kept, KEPT_REWRITTEN) if kept is not None else (None, DROP_UNCLEAR)
        return _kept_as_said(body, body)
    lead = _OPENER_THEN_FIRST_PERSON.match(body) or _LEAD_IN_THEN_FIRST_PERSON.match(body)
    if lead is not None:
        said = body[lead.start("subject"):]  # what the user says after "Last month," / "Due to X,"
        fact, reason = _judge(said, max_chars)  # dropped ("..., I'm exhausted") unless it is a statement
        if fact is None and reason == DROP_UNCLEAR:
            moment = _moment(_fronted(body, lead))  # "On Monday I have a dentist appointment": a plan
            if moment is not None and moment[1] == KEPT_EXPIRING:
                return moment[0], moment[1]
        if fact is None or reason in (KEPT_EXPIRING, KEPT_INTRODUCTION):
            return fact, reason
        # "Tonight we're ordering pizza": the moment is in the opener ("we're ordering pizza tonight"); "On Monday
        # I have a dentist appointment": a plan ("I have a dentist appointment on Monday")
        moment = _moment(_fronted(body, lead))
        if moment is not None and (moment[0] is None or moment[1] == KEPT_EXPIRING):
            return moment[0], moment[1]
        body = _cut_aside(_REQUEST_TAIL.sub("", body) or body)
        return _kept_as_said(body, _cut_aside(said))
    return None, DROP_SMALL_TALK if social else DROP_NOT_FIRST_PERSON

