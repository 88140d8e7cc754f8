"""A first-person statement as a "User ..." fact: "I work at a bakery" -> "User works at a bakery.".

:func:`rewrite` does it where it is reliable ("I", "my", "we", "our" as the subject, a verb the rules know), and
gives ``None`` otherwise; :func:`as_said` keeps a sentence in the user's words. Pure: English only.
"""

from __future__ import annotations

import re

from .dates import DATED
from .grammar import ADVERBS, AUX, PRESENT_VERBS, is_past, third_person
from .patterns import rx

__all__ = [
    "FIRST_PERSON_WORD", "OTHER_FIRST_PERSON", "article", "as_fact", "as_said", "end_sentence", "in_third_person", "rewrite",
]

# A second verb without its own subject ("... and love it") would need conjugating too: no rewrite then.
_AND_VERB = rx(
    # "chicken and fish": the food, not a second verb
    rf"\b(?:and|or|but|then)\s+(?:{ADVERBS}\s+)*(?!fish\b)(?:am|have|do|don't|need|"
    + "|".join(sorted(PRESENT_VERBS)) + r")\b"
)
# Any first-person pronoun: after the subject, the rewrite would have to choose between "User", "their", "them".
OTHER_FIRST_PERSON = rx(r"\b(?:i|i'm|im|i've|i'll|i'd|me|we|we're|we've|we'll|us|our|ours|mine)\b")
_I_SUBJECT = rx(rf"^i(?:\s+|(?='))(?P<adv>(?:{ADVERBS}\s+)*)(?P<verb>'m|'ve|'ll|[a-z']+)(?P<tail>.*)$")
# "We rent a flat", "We're expecting a baby", "Our cat died": the user's household, as "User ...".
_WE_SUBJECT = rx(rf"^we(?:\s+|(?='))(?P<adv>(?:{ADVERBS}\s+)*)(?P<verb>'re|'ve|'ll|[a-z']+)(?P<tail>.*)$")
_WE_AUX = {
    "are": "is", "'re": "is", "aren't": "isn't", "have": "has", "'ve": "has", "haven't": "hasn't", "do": "does",
    "don't": "doesn't", "were": "was", "weren't": "wasn't", "had": "had", "did": "did", "didn't": "didn't",
    "will": "will", "'ll": "will", "won't": "won't", "can": "can", "can't": "can't", "cannot": "cannot",
    "must": "must", "used": "used", "need": "needs",
}
# "We're both teachers", "We're a family of four": a plural subject the rewrite would get wrong.
_PLURAL_COMPLEMENT = rx(r"^\s+(?:both|all|each|a|an|two|three|four|five|six|the\s+\w+s)\b")
_SINGULAR_FIRST_PERSON = rx(r"\b(?:i|i'm|im|i've|i'll|i'd|me|my|mine|myself)\b")
_IM_SUBJECT = rx(r"^(?P<verb>im|ive)(?P<tail>\s.*)$")


def end_sentence(text: str) -> str:
    """``text`` as a fact's sentence: a capital first letter, one final period."""
    text = text.rstrip(" .!\u2026,;:-")
    return text[:1].upper() + text[1:] + "."


_LOWER_I = re.compile(r"(?<![\w.'])i(?=\s|'|$|[,;:!])")


def as_said(text: str) -> str:
    """The sentence as the user said it, with a capital "I" and a final period."""
    return end_sentence(_LOWER_I.sub("I", text))


def _rewrite_we(statement: str) -> str | None:
    """A "we" / "our" statement as a "User ..." fact (the user's household), or ``None``."""
    if statement[:4].lower() == "our ":
        rest = statement[4:]
        if _SINGULAR_FIRST_PERSON.search(rest) or re.search(r"\bwe(?:'re|'ve|'ll|'d)?\b", rest, re.IGNORECASE):
            return None
        return end_sentence("User's " + _their(rest))
    m = _WE_SUBJECT.match(statement)
    if m is None:
        return None
    adv, verb, tail = m.group("adv") or "", m.group("verb"), m.group("tail")
    new_verb = _user_verb(verb, _WE_AUX, tail)
    if new_verb is None or (new_verb == "is" and _PLURAL_COMPLEMENT.match(tail)):
        return None
    if _SINGULAR_FIRST_PERSON.search(re.sub(r"\bmy\b", "", tail, flags=re.IGNORECASE)) or _AND_VERB.search(tail):
        return None
    tail = re.sub(r"\bmy\b", "their", tail, flags=re.IGNORECASE)  # "we moved for my wife's job"
    return end_sentence(f"User {adv}{new_verb}{_their(tail)}")


# "We split up", "I split up with Tom": a breakup, past ("split" alone may be now: "I split my time between ...").
_SPLIT_UP = rx(r"^\s+up\b(?!\s+(?:the|a|an|my|our|their|it|this|that|them)\b)")


def _user_verb(verb: str, auxiliaries: dict[str, str], tail: str = "") -> str | None:
    """``verb`` said of "I" / "we" as said of "User" (``auxiliaries``: the auxiliaries' forms; ``tail``: what
    follows it), or ``None`` when it is not a verb the rewrite knows."""
    key = verb.lower()
    if key == "split" and _SPLIT_UP.match(tail):
        return verb
    if key in auxiliaries:
        return auxiliaries[key]
    if key in PRESENT_VERBS:
        return third_person(verb)
    return verb if is_past(key) else None


def article(word: str) -> str:
    """The indefinite article before ``word`` ("a nurse", "an engineer"), by its first letter."""
    return "an" if word[0].lower() in "aeiou" else "a"


def _their(text: str) -> str:
    """``text`` with the household's "our", "ours", "us", "ourselves" said of the user ("their", "theirs"...)."""
    text = re.sub(r"\bourselves\b", "themselves", text, flags=re.IGNORECASE)
    text = re.sub(r"\bours\b", "theirs", text, flags=re.IGNORECASE)
    text = re.sub(r"\bus\b", "them", text, flags=re.IGNORECASE)
    return re.sub(r"\bour\b", "their", text, flags=re.IGNORECASE)


_WHEN_IM = rx(r"\b(when|while|whenever)\s+(?:i'm|i\u2019m|im|i\s+am)\b")


def rewrite(statement: str) -> str | None:
    """``statement`` (first person) as a "User ..." fact, or ``None`` when no rewrite is reliable."""
    if re.match(r"(?:we|our)\b", statement, re.IGNORECASE):
        return _rewrite_we(statement)
    if statement[:3].lower() == "my ":
        # "... feeding Bran when I'm at the food bank": when the user is somewhere, said of the user too
        rest = _WHEN_IM.sub(lambda m: f"{m.group(1)} the user is", statement[3:])
        # "My mum calls me every Sunday" -> "User's mum calls the user every Sunday."; another "I", "my", "we": no
        if OTHER_FIRST_PERSON.search(re.sub(r"\bme\b", "", rest, flags=re.IGNORECASE)) \
                or re.search(r"\bmy\b", rest, re.IGNORECASE):
            return None
        return end_sentence("User's " + re.sub(r"\bme\b", "the user", rest, flags=re.IGNORECASE))
    m = _I_SUBJECT.match(statement) or _IM_SUBJECT.match(statement)
    if m is None:
        return None
    adv = m.groupdict().get("adv") or ""
    verb, tail = m.group("verb"), m.group("tail")
    new_verb = _user_verb(verb, AUX, tail)
    if new_verb is None:
        return None
    if verb.lower() == "read" and DATED.search(tail):  # "I read a great book last week": the past
        new_verb = verb
    # "... with my husband and our two dogs": "our" is the user's household too; any other pronoun, no rewrite
    if OTHER_FIRST_PERSON.search(re.sub(r"\bour\b", "", tail, flags=re.IGNORECASE)) or _AND_VERB.search(tail):
        return None
    tail = re.sub(r"\bmyself\b", "themselves", tail, flags=re.IGNORECASE)
    tail = re.sub(r"\b(?:my|our)\b", "their", tail, flags=re.IGNORECASE)
    return end_sentence(f"User {adv}{new_verb}{tail}")


def as_fact(statement: str) -> str:
    """``statement`` as a "User ..." fact where the rewrite is reliable (:func:`rewrite`), else said of the user
    (:func:`in_third_person`), else as said (the caller drops a fact left in the first person)."""
    return rewrite(statement) or in_third_person(statement) or as_said(statement)


FIRST_PERSON_WORD = re.compile(
    r"\b(?:I|I'm|I've|I'll|I'd|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself|[Ww]e|[Ww]e're|[Ww]e've|[Ww]e'll|[Ww]e'd|(?<!the\s)us|"
    r"[Oo]ur|[Oo]urs|[Oo]urselves)\b"
)
"""A first-person word in a fact (case-sensitive, and not "the us": "the US" is a country): a fact is never stored
so."""

# The user's words said of the user after the subject: "I think I'm allergic" -> "User thinks they're allergic".
_THEY = {
    "i": "they", "i'm": "they're", "im": "they're", "i've": "they've", "ive": "they've", "i'll": "they'll",
    "i'd": "they'd", "me": "them", "my": "their", "mine": "theirs", "myself": "themselves", "we": "they",
    "we're": "they're", "we've": "they've", "we'll": "they'll", "we'd": "they'd", "us": "them", "our": "their",
    "ours": "theirs", "ourselves": "themselves",
}
_THEY_VERB = {"am": "are", "was": "were", "wasn't": "weren't"}  # after "I": "they are", "they were"
_SUBJECT_WORD = rx(r"\b(?P<pronoun>i'm|im|i've|ive|i'll|i'd|i|we're|we've|we'll|we'd|we)\b(?P<rest>.*)$")
_PERSON_WORD = rx(r"\b(?:i'm|im|i've|ive|i'll|i'd|i|me|my|mine|myself|we're|we've|we'll|we'd|we|(?<!\bthe\s)(?-i:us)|"
                  r"our|ours|ourselves)\b")
_FIRST_POSSESSIVE = rx(r"\b(?:my|our)\b")
_VERB_AFTER = rx(rf"^(?P<gap>\s+(?:{ADVERBS}\s+)*)(?P<verb>[a-z']+)")
_CONTRACTED = {"i'm": "is", "im": "is", "we're": "is", "i've": "has", "ive": "has", "we've": "has", "i'll": "will",
               "we'll": "will", "i'd": "would", "we'd": "would"}
# "I think I'm allergic", "I guess I'm vegan now": a hedge, said of the user ("User thinks they're allergic").
_HEDGING_VERBS = frozenset("think guess believe suppose reckon assume hope doubt mean".split())
# Past forms after "I" the same after "User" ("I tore my ACL" -> "User tore their ACL"), besides those the rules
# read as past everywhere (.grammar.is_past).
_PAST_FORMS = frozenset("""tore wore shook stole bit hid rang sank stuck swung struck bent bled dealt dreamt fled
    flung forgave froze hung knelt laid leant leapt lent lit meant mistook overcame rose sought shone shot slid spun
    spat sprang stank stung strode swore swept thought bore beat did had was said sat set put let cut hit shut
    split spread burnt learnt spelt spilt smelt""".split())
# "Ana and I", "my sister and I": the user one of two subjects, whose verb stays plural.
_ONE_OF_TWO = rx(r"\band\s+$")


def in_third_person(text: str) -> str | None:
    """``text``, a first-person sentence the rules keep in the user's words, said of the user: its first "I" or
    "we" as "User" (a present verb after it conjugated: "I boulder" -> "User boulders"), every other first-person
    word as "they", "their", "them" ("I think I'm allergic to cats." -> "User thinks they're allergic to
    cats."; "Due to my allergy, I avoid nuts." -> "Due to their allergy, User avoids nuts."); with no "I" or
    "we", its first "my" or "our" as "User's". ``None`` when it cannot be said so reliably: a verb after the
    subject the rules do not know, or "we" of more than one ("We're both nurses.").

    >>> in_third_person("I think I'm allergic to cats."), in_third_person("We're both nurses.")
    ("User thinks they're allergic to cats.", None)
    """
    said = as_said(text)
    m = _SUBJECT_WORD.search(said)
    if m is None:
        first = _FIRST_POSSESSIVE.search(said)
        if first is None:
            return None
        subject, tail = said[: first.start()] + "User's", said[first.end():]
    else:
        pronoun, rest = m.group("pronoun").lower(), m.group("rest")
        before = _PERSON_WORD.sub(_they, said[: m.start()])  # "Due to my allergy, " -> "Due to their allergy, "
        plural = bool(_ONE_OF_TWO.search(before))  # "Ana and I live": the verb stays as it is
        if pronoun in _CONTRACTED:
            verb = _CONTRACTED[pronoun]
            if pronoun.startswith("we") and verb == "is" and _PLURAL_COMPLEMENT.match(rest):
                return None  # "We're both nurses": more than the user
            if plural:
                verb = {"is": "are", "has": "have"}.get(verb, verb)
            subject, tail = f"{before}User {verb}", rest
        else:
            after = _VERB_AFTER.match(rest)
            if after is None:
                return None
            verb, tail = after.group("verb"), rest[after.end():]
            new = verb if plural or verb.lower() in _PAST_FORMS else \
                _user_verb(verb, _WE_AUX if pronoun == "we" else AUX, tail) or (
                    third_person(verb) if verb.lower() in _HEDGING_VERBS else None)
            if new is None or (new == "is" and pronoun == "we" and _PLURAL_COMPLEMENT.match(tail)):
                return None
            subject = f"{before}User{after.group('gap')}{new}"
    tail = _PERSON_WORD.sub(_they, tail)
    tail = re.sub(r"\bthey\s+(am|was|wasn't)\b", lambda v: "they " + _THEY_VERB[v.group(1).lower()], tail,
                  flags=re.IGNORECASE)
    # "... and love it": a second verb of the subject's, said of the user too (not one of a "they" after it)
    if "they" not in tail.split(" and ", 1)[0]:
        tail = re.sub(rf"\b(?P<and>and|or|but|then)\s+(?P<adv>(?:{ADVERBS}\s+)*)(?P<verb>"
                      + "|".join(sorted(PRESENT_VERBS)) + r")\b",
                      lambda v: f"{v.group('and')} {v.group('adv')}{third_person(v.group('verb'))}", tail, count=1)
    fact = end_sentence(subject + tail)
    return None if FIRST_PERSON_WORD.search(fact) else fact


def _they(m: re.Match[str]) -> str:
    """A first-person word said of the user after the subject ("my" -> "their", "I'm" -> "they're")."""
    word = m.group(0)
    said = _THEY[word.lower()]
    return said[:1].upper() + said[1:] if word[:1].isupper() and word.lower() not in ("i", "i'm", "i've", "i'll",
                                                                                         "i'd") else said
