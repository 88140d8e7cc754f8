"""What comes before the statement in a sentence, and is cut before the rules read it.

A user rarely starts with the statement: "Oh, so fyi I quit", "Quick update: we moved to Leeds", "Don't laugh,
I've switched to coffee", "Remember that I'm vegan", "My doctor says I'm anaemic". :func:`strip_lead` cuts the
interjections, discourse markers, news lead-ins, reminders, labels and a clinician's "says" in front of it;
:func:`clean` first makes the sentence plain text (straight apostrophes, no bullet, no emoji, texting style read
as meant). Pure: no model, no I/O.
"""

from __future__ import annotations

import re
import unicodedata

from .colon_leads import COLON_LEAD
from .patterns import rx, words
from .typos import read_as_meant

__all__ = ["CLINICIAN", "clean", "cut_lead", "strip_lead"]

# Before the rules read a sentence: curly apostrophes count as straight ones, a list bullet is cut.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'", "`": "'"})
_BULLET = re.compile(r"^\s*(?:[-*\u2022>]+|\d{1,2}[.)])\s+")

# Interjections and discourse markers in front of what is said: "Oh, ...", "Thanks! ...", "FYI ...".
_SOCIAL = words(
    "hi", "hello", "hey", "heya", "hiya", "yo", "good morning", "good afternoon", "good evening", "good night",
    "thanks", "thank you", "thanks a lot", "many thanks", "thx", "ty", "cheers", "bye", "goodbye", "see ya",
    "ok", "okay", "cool", "great", "nice", "awesome", "perfect", "sure", "yes", "yeah", "yep", "yup", "no", "nope",
    "lol", "haha", "hahaha", "wow", "omg", "oh", "ah", "aw", "aww", "hmm", "um", "uh", "well", "alright", "right",
    "me too", "same", "same here", "got it", "sounds good", "no problem", "of course", "totally", "exactly",
    "absolutely", "definitely", "indeed", "agreed", "congrats", "congratulations", "welcome", "sorry", "please",
    "hello again", "hi again", "hey again", "not anymore", "not any more",
    "ugh", "argh", "meh", "phew", "yay", "woohoo", "yikes", "damn", "dang", "gosh", "oops", "whoa", "hooray",
    # regional and borrowed ones: "aye, I'm in Dundee", "G'day.", "Asante."
    "aye", "och", "g'day", "howdy", "kia ora", "asante", "namaste", "salaam", "ay", "ayy",
    # whom a greeting is for: "Hello there, I'm a nurse" ("there" is no part of what the user says)
    *(f"{greeting} {whom}" for greeting in ("hi", "hello", "hey", "heya", "hiya", "good morning", "good afternoon",
                                            "good evening")
      for whom in ("there", "all", "everyone", "everybody", "folks", "guys", "y'all")),
)
_CONNECTIVE = words(
    "so", "and", "but", "also", "actually", "anyway", "anyways", "btw", "by the way", "honestly", "fyi",
    "for context", "for the record", "fun fact", "just so you know", "so you know", "just to let you know",
    "as i said", "as i mentioned", "like i said", "like i mentioned", "as mentioned", "as i said before",
    "for background", "some background", "as background", "background", "for some background",
    "as i mentioned before", "like i said before", "as mentioned before", "as i mentioned earlier",
    "as i said earlier", "in other news", "long story short", "long story", "now", "finally",
    "sadly", "unfortunately", "fortunately", "luckily", "thankfully", "basically", "plus",
    # asides before the statement: "Don't laugh, I've switched to coffee", "Believe it or not, I ..."
    "don't laugh", "don't judge", "don't judge me", "believe it or not", "funnily enough", "funny enough",
    "to be honest", "tbh", "ngl", "not gonna lie", "truth be told",
    # what ties the statement to what was said before it: "As a result, I moved to Berlin" says "I moved to Berlin"
    "as a result", "as a consequence", "consequently", "therefore", "thus", "hence", "because of that",
    "because of this", "for that reason", "due to that", "due to this", "as a matter of fact", "as such",
    "in the end", "in addition", "additionally", "on top of that",
)
# News in front of what happened, cut only before a punctuation mark: "Quick update: ...", "Bad news - ...",
# "Guess what, ..." ("Guess what I did" is not a statement).
_NEWS = words(
    "update", "quick update", "small update", "little update", "big update", "life update", "an update",
    "news", "big news", "good news", "bad news", "sad news", "great news", "exciting news", "some news",
    "news flash", "newsflash", "guess what", "heads up", "side note", "on a side note", "plot twist",
    # a round of news since the last chat: "Quick catch up - we got a puppy, ..."
    "catch up", "catch-up", "quick catch up", "quick catch-up", "a quick catch up", "a quick catch-up",
    "catching you up", "to catch you up", "recap", "quick recap", "lots of news", "lots of updates",
    "big few weeks", "busy few weeks", "big week", "busy week", "big month", "busy month", "what a week",
    "what a month", "news from here", "a few updates", "some updates", "updates",
    # a correction of what was said before: "Just kidding, I don't live in Lisbon", "Scratch that: ..."
    "just kidding", "kidding", "jk", "just joking", "only joking", "scratch that", "my bad", "my mistake",
    "correction", "wait", "oh wait", "typo",
)
# "Remember that I'm vegan", "I forgot to mention: my son is 4": what follows is the statement.
_REMINDER = words(
    "remember", "please remember", "note", "please note", "keep in mind", "bear in mind", "don't forget",
    "do not forget", "i forgot to mention", "i should mention", "i should add", "i wanted to mention",
    "i want to mention", "i forgot to say", "i should say", "i wanted to say", "i want to say",
    "reminder", "a reminder", "just a reminder", "quick reminder", "just reminding you", "reminding you",
    "just to remind you", "to remind you", "just so you remember", "in case you forgot", "turns out", "it turns out",
    "apparently",
    "i found out", "i just found out", "just found out", "we found out", "we just found out", "we've found out",
    "my doctor says", "my doctor said", "my doctor told me",
    "the doctor says", "the doctor said",
)
# "No, I live in Leeds" cuts "No"; "No pets for us" does not: there "no" is a determiner.
# A name after it is whom the user greets ("Hi Maya, ..."), not one who did something ("omg Jake proposed!!").
_LEAD_SOCIAL = rx(
    rf"^(?!no\s+(?!(?:i|i'm|i've|we|we're|my|our)\b)[a-z])(?:{_SOCIAL})\b"
    r"(?:\s+(?-i:[A-Z][a-z]+)(?!\s+(?-i:(?:[a-z]+ed|is|was|has|had|got|just|finally|popped|said|says|asked|left|"
    r"came|went|broke|and\s+i|and\s+me))\b))?"
    r"\s*(?:[,!.:;\u2014\u2013-]+\s*|\s+(?=[a-z])|$)"
)
# What the user asked before, dismissed ahead of the news that made it moot: "nvm we closed on a house in durham",
# "never mind the letter, problem's solved itself", "Ay never mind po, sold the Vios ...": cut before a punctuation
# mark, or typed without one before a subject ("never mind the cost" stays: no statement follows it).
_LEAD_DISMISSED = rx(
    r"^(?:(?:oh|ah|ay|ok|okay|actually|but|lol)\s*,?\s+)?(?:never\s*mind|nvm)"
    r"(?:\s+(?:the|that|this|my)(?:\s+[\w-]+)?)?(?:\s+(?:lol|po|then|haha))?"
    r"(?:\s*[,.!:;\u2014\u2013]+\s*|\s+-+\s+|\s+(?=(?:i|i'm|i've|we|we're|we've|my|our)\b))"
)
# "Sorry for the gibberish, ...", "sorry about the late reply - ...": an apology for the message, cut whole ("sorry"
# alone left "for the gibberish" in front of the statement).
_LEAD_APOLOGY = rx(
    r"^(?:(?:oh|so|and)\s+)?sorry\s+(?:for|about)\s+(?:that|this|it|(?:the|that|this|my|all\s+(?:the|that|this))\s+"
    r"[^,.!?;:()]{1,30}?)"
    r"\s*[,.!:;\u2014\u2013-]+\s*"
)
_LEAD_CONNECTIVE = rx(rf"^(?:{_CONNECTIVE})\b(?:\s*,\s*|\s*:\s*|\s+that\b\s*|\s+|$)")
# where the news is from, after it: "Good news on the home front, ...", "big news in our house!", "news from the clinic:"
_NEWS_FROM = r"(?:\s+(?:on\s+the\s+[\w-]+\s+front|in\s+(?:our|this|my)\s+(?:house|household|family|home)|from\s+(?:the|my|our)\s+[\w-]+))?"
_LEAD_NEWS = rx(rf"^(?:{_NEWS}){_NEWS_FROM}(?:\s+(?:though|tho))?(?:\s*[,:!\u2014\u2013]+\s*|\s+-+\s+|\s*\.\.\.\s*|$)")
# "heads up I'm allergic to peanuts", "plot twist my sister moved in": typed without the punctuation, the news lead-in
# is cut before a subject that cannot be the object of its verb ("guess what I did" keeps its bare "I"); only the
# lead-ins that are no imperative ("update my address book" asks for something).
_NEWS_UNMARKED = words(
    "heads up", "plot twist", "quick update", "small update", "little update", "big update", "life update",
    "big news", "good news", "bad news", "sad news", "great news", "exciting news", "news flash", "newsflash",
    "side note", "guess what", "fun fact",
)
_LEAD_NEWS_UNMARKED = rx(rf"^(?:{_NEWS_UNMARKED})\s+(?=(?:i'm|i\s+am|i've|i\s+have|i'd|we're|we've|my|our)\b)")
# "New habit: I cycle to work", "Big news in the family: my brother ...": a short label, a colon, then the
# statement (never "My job: nurse", where no subject follows).
_LEAD_LABEL = rx(r"^[^:?!.]{1,40}:\s+(?=(?:i|i'm|i've|i'll|i'd|we|we're|we've|my|our)\b)")
_LEAD_REMINDER = rx(
    rf"^(?:{_REMINDER})(?:\s*[,:]\s*|\s+that\s+|\s+)(?=(?:i|i'm|i've|i'll|we|we're|we've|my|our)\b)"
)
# "wait no, I'm not allergic", "no wait its march", "oh wait no", "sorry no", "typo sorry": a correction of what was
# said before, typed with or without a comma (two such words together; "No, I live in Leeds" is read by _LEAD_SOCIAL).
_LEAD_CORRECTION = rx(
    r"^(?:oh\s+|ah\s+|hmm\s+)?(?:wait|no|sorry|actually|hang\s+on|hold\s+on|oops|typo)"
    r"(?:\s*[,.!]?\s*(?:no|wait|sorry|actually|typo|my\s+bad|scratch\s+that))+\b\s*[,.!:;\u2014\u2013-]*\s*"
)
# "doctor says ...", "the midwife said ...", "my GP told me ...": what a clinician said of the user is the user's
# fact ("doctor says I have gestational diabetes").
CLINICIAN = (
    r"doctor|doc|gp|midwife|nurse|consultant|specialist|ob|ob-?gyn|obstetrician|dentist|physio|physiotherapist|"
    r"dietitian|dietician|cardiologist|diabetologist|endocrinologist|allergist|pharmacist|surgeon|paediatrician|"
    r"pediatrician|health\s+visitor|therapist|psychiatrist|psychologist|counsell?or|neurologist|dermatologist|"
    r"vet|vets|veterinarian|optician|orthopaedist|orthopedist"
)
_LEAD_CLINICIAN = rx(
    rf"^(?:(?:the|my|our|her|his)\s+)?(?:new\s+)?(?:{CLINICIAN})\s+(?:says|said|told\s+(?:me|us)|confirmed|thinks|"
    r"reckons|has\s+said)(?:\s+that)?\s+(?=(?:i|i'm|i've|i'll|we|we're|we've|my|our)\b|(?-i:[A-Z])[a-z]+(?:'s)?\s)"
)

# "Daycare says Eli has a mild egg allergy", "his teacher said Leo needs glasses": who looks after a child said it
# of them; what follows, of someone named, is the statement.
_LEAD_CARER = rx(
    r"^(?:(?:the|my|our|her|his|their)\s+)?(?:daycare|day\s+care|nursery|pre-?school|school|childminder|nanny|"
    r"teacher|school\s+nurse)\s+(?:says|said|told\s+(?:me|us)|called\s+to\s+say|thinks|reckons)(?:\s+that)?\s+"
    r"(?=(?-i:[A-Z])[a-z]+\s)"
)


def carer_cut(text: str) -> str:
    """``text`` without who looks after a child saying it first ("Daycare says Eli has ..." -> "Eli has ...")."""
    m = _LEAD_CARER.match(text.strip())
    return text.strip()[m.end():] if m is not None else text


def _no_symbols(text: str) -> str:
    """``text`` without emoji and other pictographs ("last night 💔"): a fact is words."""
    return "".join(" " if unicodedata.category(c) == "So" else c for c in text if c not in "\ufe0f\u200d")


# "I'm doing dry April btw, no alcohol": a filler inside the sentence, before a comma.
_INNER_FILLER = rx(r"\s+(?:btw|by\s+the\s+way|tbh|ngl|fyi|lol|haha)(?=\s*,)")


def clean(sentence: str) -> str:
    """``sentence`` as plain text: curly apostrophes straight, one space between words, no emoji, texting style
    read as meant (:func:`~memori_core.extraction.typos.read_as_meant`), no list bullet, no filler before a comma,
    no quotes around it."""
    text = read_as_meant(" ".join(_no_symbols(sentence.translate(_APOSTROPHES)).split()))
    return _INNER_FILLER.sub("", _BULLET.sub("", text)).strip(" \"'")


def cut_lead(text: str) -> tuple[str, bool]:
    """``text`` without leading interjections and discourse markers; and whether a greeting/thanks/etc. was cut."""
    social = False
    while True:
        m = _LEAD_APOLOGY.match(text) or _LEAD_SOCIAL.match(text)
        if m and m.end() > 0:
            text, social = text[m.end():].lstrip(" ,!.-"), True
            continue
        m = (_LEAD_CORRECTION.match(text) or _LEAD_DISMISSED.match(text) or _LEAD_CONNECTIVE.match(text) or _LEAD_NEWS.match(text)
             or _LEAD_NEWS_UNMARKED.match(text)
             or _LEAD_REMINDER.match(text) or _LEAD_CLINICIAN.match(text) or _LEAD_CARER.match(text)
             or _LEAD_LABEL.match(text) or COLON_LEAD.match(text))
        if m and m.end() > 0:
            text = text[m.end():].lstrip(" ,:-")
            continue
        return text, social


def strip_lead(text: str) -> str:
    """``text`` without its leading interjections, discourse markers, news lead-ins and labels ("Oh, so fyi I
    quit" -> "I quit")."""
    return cut_lead(clean(text))[0]
