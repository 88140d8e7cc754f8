"""A clause that says a fact in other words, as the plain statement the rules read.

"The doctor switched me from warfarin to apixaban" -> "I switched from warfarin to apixaban"; "I lied about being
vegan" -> "I'm not vegan"; "Actually I meant Porto, not Lisbon" -> the stored fact it corrects, with "Porto" in
place of "Lisbon". Pure: patterns, English only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from ..calendar_words import ANY_MONTH, ANY_WEEKDAY
from .grammar import is_bare_present
from .leads import strip_lead
from .patterns import OWN_WORDS, rx
from ..slots import holder
from .cues import content_words, is_negated

__all__ = [
    "as_denial", "as_own_treatment", "corrected_in_message", "meant", "respelt", "said_then_corrected", "takes_back",
]

# A clinician's change of the user's treatment, told with the user as object: "The doctor switched me from
# warfarin to apixaban.", "My GP put me on statins." -> "I switched from ...", "I'm on statins."
_PRESCRIBED = rx(
    r"^\W*(?:the|my|our)\s+(?:doctor|doc|gp|consultant|specialist|cardiologist|diabetologist|nurse|dietitian|"
    r"dietician|psychiatrist|pharmacist)\s+(?:has\s+|just\s+|has\s+just\s+)?"
    r"(?P<verb>switched|changed|put|started|took|taken|has\s+taken)"
    r"\s+me\s+(?:(?P<off>off)(?=\s)\s*|on(?=\s)\s*)?(?P<rest>.+)$"
)

_STARTED_WHEN = rx(r"\b(?:yesterday|today|this\s+morning|last\s+\w+|\w+\s+(?:days?|weeks?)\s+ago|on\s+\w+day)\W*$")


def as_own_treatment(clause: str) -> str | None:
    """A clinician's change of the user's treatment told as the user's own: "... put me on statins" -> "I'm on
    statins", "... switched me from X to Y" -> "I switched from X to Y", "... took me off X" -> "I stopped taking
    X"; ``None`` for any other clause. A lead before it is cut ("so the GP has put me on ...")."""
    prescribed = _PRESCRIBED.match(strip_lead(clause))
    if prescribed is None:
        return None
    verb, rest = prescribed.group("verb").lower(), prescribed.group("rest")
    if prescribed.group("off"):
        return f"I stopped taking {rest}" if verb in ("took", "taken", "has taken") else f"I'm off {rest}"
    if verb == "started" and _STARTED_WHEN.search(rest):  # "... started me on sertraline yesterday": when, not "is on"
        return f"I started taking {rest}"
    if verb in ("put", "started", "took", "taken", "has taken"):
        return f"I'm on {rest}"
    return f"I {verb} {rest}"


# "I lied about being vegan", "I was only joking about living in Lisbon": the user takes back what they said, a
# denial of it ("I'm not vegan", "I don't live in Lisbon").
_RETRACTED = rx(
    r"^(?:i\s+(?:lied|was\s+(?:just\s+|only\s+)?(?:lying|kidding|joking))|(?:just|only)\s+(?:kidding|joking))"
    r"\s+about\s+(?:(?P<being>being)|(?P<having>having)|(?P<verb>[a-z]+ing))\s+(?P<rest>\S.*?)[.!]*$"
)


def takes_back(clause: str) -> bool:
    """Whether ``clause`` takes back what the user said ("I lied about being vegan", "just kidding about the
    cat")."""
    return _RETRACTED.match(strip_lead(clause)) is not None


def as_denial(clause: str) -> str | None:
    """``clause`` when it takes back what the user said ("I lied about being vegan"), as the denial it is ("I'm
    not vegan"; "I was kidding about living in Lisbon" -> "I don't live in Lisbon"); ``None`` for any other
    clause, or a verb the rules do not rewrite."""
    m = _RETRACTED.match(strip_lead(clause))
    if m is None:
        return None
    rest = m.group("rest")
    if m.group("being"):
        return f"I'm not {rest}"
    if m.group("having"):
        return f"I don't have {rest}"
    gerund = m.group("verb").lower()
    base = next((v for v in (gerund[:-3], gerund[:-3] + "e", gerund[:-4]) if is_bare_present(v)), None)
    return f"I don't {base} {rest}" if base is not None else None


# "I meant Porto, not Lisbon", "Porto, not Lisbon": a correction naming only what is right and what was wrong.
_MEANT = rx(
    r"^(?:i\s+(?:meant|mean|meant\s+to\s+say|said)\s+|(?:it's|its|it\s+is|it\s+was|make\s+that)\s+)?"
    r"(?P<right>[\w'-]+(?:\s+[\w'-]+){0,2}?),?\s+not\s+(?P<wrong>[\w'-]+(?:\s+[\w'-]+){0,2}?)"
    # the end, or a remark of another subject after a comma ("it's Bristol not Bath, office is by the station")
    r"(?:[.!]*$|\s*,\s+(?!(?:and|but|so|or|i|i'm|i've|we|we're|my|our|not)\b)[^,]*$)"
)


_NAME_FIRST = re.compile(r"^[A-Z][\w\u00c0-\u017f-]+(?=\s+\S)")
# "I'm not coming.", "we're not going", "it's not Bath": a subject before "not", a clause denied, no right word said
# in place of a wrong one ("my sister, not my brother" is one: "my" names no subject).
_SUBJECT_FIRST = rx(r"^(?:i|i'm|im|i've|i'd|i'll|we|we're|we've|we'd|we'll|you|you're|he|he's|she|she's|it|it's|its|"
                    r"they|they're|that's|this|am|are|is|was|were)\b")


def _said_already(right: str, fact: str) -> str:
    """``right`` without the words it opens with that ``fact`` says already ("Lucía is 9" of "User's granddaughter
    Lucía is 8." -> "9"): the words that replace the wrong ones."""
    words = right.split()
    while len(words) > 1 and rx(rf"\b{re.escape(words[0])}\b").search(fact):
        words.pop(0)
    return " ".join(words)


def meant(clause: str, known: Sequence[str]) -> tuple[str, str] | None:
    """``clause`` ("Actually I meant Porto, not Lisbon") as the stored fact it corrects with the right words in
    place of the wrong ones ("User lives in Porto." of "User lives in Lisbon."; "its march 3rd not may" of
    "User's birthday is may 3rd." -> "User's birthday is march 3rd."), when exactly one stored fact of the
    user's holds the wrong words, and the correction said plainly ("I meant march 3rd, not may": what it ends);
    ``None`` otherwise (the rules cannot tell which fact)."""
    m = _MEANT.match(strip_lead(clause))
    if m is None or content_words(m.group("right")) & content_words(m.group("wrong")) \
            or _SUBJECT_FIRST.match(m.group("right")):
        return None
    right, wrong_said = m.group("right"), m.group("wrong")
    wrong = rx(rf"\b{re.escape(wrong_said)}\b")
    # "Lucía is 9 not 8": someone the stored fact names, said with what is right of them
    named = _NAME_FIRST.match(right)
    held = [text for text in known if not is_negated(text) and wrong.search(text) and (
        holder(text) == "user" or (named is not None and rx(rf"\b{re.escape(named.group(0))}\b").search(text)))]
    if len(held) == 1 and named is not None:
        right = _said_already(right, held[0])
    if len(held) != 1 or rx(rf"\b{re.escape(right)}\b").search(held[0]):
        return None  # "7am not 7pm" of "... 7am to 7pm": which one is meant cannot be told
    said = f"I meant {right}, not {wrong_said}"
    # "march 3rd" for "may" in "may 3rd": the words of the right one that follow the wrong one are replaced too
    words = right.split()
    for k in range(1, len(words)):
        rest = r"\s+".join(map(re.escape, words[k:]))
        longer = rx(rf"\b{re.escape(wrong_said)}\s+{rest}\b")
        if longer.search(held[0]):
            return longer.sub(right, held[0], count=1), said
    return wrong.sub(right, held[0], count=1), said


# "*Katherine", "*Katherine, sorry, with an e": a word typed again after an asterisk, the spelling meant.
_ASTERISK = re.compile(r"^\*\s*(?P<right>[A-Z][\w\u00c0-\u017f-]+)(?:[\s,.!]|$)")
_CAPITALISED = re.compile(r"\b[A-Z][\w\u00c0-\u017f-]+")
# How close a respelling is to the word it corrects ("Katherine" of "Kathryn": 0.75; "Kevin" of "Katherine": 0.43).
_CLOSE = 0.7


def respelt(clause: str, known: Sequence[str]) -> tuple[str, str] | None:
    """``clause`` ("*Katherine, sorry, with an e") as the latest stored fact of the user's that holds the name it
    respells, spelt right ("User's name is Katherine." of "User's name is Kathryn."), and the correction said
    plainly ("I meant Katherine, not Kathryn"): a capitalised word with the same first letter, close in spelling;
    ``None`` for any other clause, or when no stored word is close."""
    m = _ASTERISK.match(clause.strip())
    if m is None:
        return None
    right = m.group("right")
    for text in reversed(known):
        if holder(text) != "user" or is_negated(text):
            continue
        close = [w for w in _CAPITALISED.findall(text)[1:] if w[0] == right[0] and w != right
                 and SequenceMatcher(None, w.lower(), right.lower()).ratio() >= _CLOSE]
        if len(close) == 1:
            wrong = close[0]
            return re.sub(rf"\b{re.escape(wrong)}\b", right, text, count=1), f"I meant {right}, not {wrong}"
    return None


# A clause of the user's own: what they said before ("I said ..."), or a statement with its correction, "I'm in Porto,
# not Lisbon", not a correction of the clause before it.
_OWN = rx(rf"^{OWN_WORDS}\b")
# "I'm moving to Porto next week, no wait, Lisbon not Porto": a correction typed at the end of the clause it corrects.
_CORRECTION_TAIL = rx(r"\s*[,.;]+\s*(?=(?:oh\s+)?(?:no\s+)?(?:wait|sorry|oops|i\s+mean|i\s+meant)\b)")


# "i said the half marathon is in april, it's actually may", "when I said Leeds I meant York", "I told you I'm 34 but
# I'm 35": what the user said before, then what is right. What they said is no fact; the right words are.
_SAID_THEN_RIGHT = rx(
    r"^(?:when\s+)?i(?:'ve|\s+have)?\s+(?:just\s+)?(?:said|told\s+you|wrote|typed|put|mentioned)\s+(?:that\s+)?"
    r"(?P<said>\S.*?)\s*(?:[,;]|\s-|\.\.\.)?\s+(?:but\s+|and\s+|oops\s+|sorry\s+|actually\s+)*"
    r"(?:(?:it's|its|it\s+is|it\s+was|that's|that\s+is)\s+(?:actually\s+|really\s+)?"
    r"|(?:it|that)\s+should\s+(?:have\s+been|be)\s+|i\s+(?:actually\s+)?meant\s+(?:to\s+say\s+)?"
    r"|(?:i\s+)?should\s+have\s+said\s+)"
    r"(?P<right>[\w'-]+(?:\s+[\w'-]+){0,2}?)(?:\s*,?\s+not\s+[\w'-]+(?:\s+[\w'-]+){0,2}?)?\s*[.!]*$"
)
# The kinds of words a correction swaps one for another: a month, a weekday, a clock time, a number.
_SWAPPED_KINDS = tuple(rx(p) for p in (
    rf"\b(?:{ANY_MONTH})\b", rf"\b(?:{ANY_WEEKDAY})\b",
    r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b", r"\b\d+(?:st|nd|rd|th)?\b",
))


def _swapped(said: str, right: str) -> str | None:
    """The words of ``said`` that ``right`` replaces: the last word of the same kind (a month for a month, a number
    for a number), else as many last words as ``right`` has; ``None`` when they are ``right`` itself."""
    kind = next((k for k in _SWAPPED_KINDS if k.fullmatch(right)), None)
    if kind is not None:
        found = kind.findall(said)
        wrong = found[-1] if found else None
    else:
        words = said.rstrip(" .!").split()
        wrong = " ".join(words[-len(right.split()):]) if len(words) >= len(right.split()) else None
    if wrong is None or content_words(wrong) & content_words(right) or not content_words(wrong):
        return None
    return wrong


def said_then_corrected(clause: str) -> str | None:
    """``clause`` when it tells what the user said before and then what is right ("i said the half marathon is in
    april, it's actually may"), as the correction the rules read: a statement of the user's said again right with
    what it corrects ("I told you I'm 34 but I'm 35" -> "I'm 35, not 34"), else "I meant may, not april", for
    the clause before it or the stored fact that holds the wrong words; "I meant may" when the words replaced
    cannot be told (what was said is no fact either way). ``None`` for any other clause."""
    m = _SAID_THEN_RIGHT.match(strip_lead(clause))
    if m is None:
        return None
    said, right = m.group("said"), m.group("right")
    wrong = _swapped(said, right)
    if wrong is None:
        return f"I meant {right}"
    if _OWN.match(said):
        return rx(rf"\b{re.escape(wrong)}\b(?!.*\b{re.escape(wrong)}\b)").sub(right, said) + f", not {wrong}"
    return f"I meant {right}, not {wrong}"


def corrected_in_message(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (one user message, split) with a correction ("wait sorry, I meant Linz not Graz", "Linz, not Graz")
    applied to the latest clause before it that holds the wrong words ("I'm moving to Graz next month" -> "I'm moving
    to Linz next month"), and left out: what the user just said is what they corrected, not a stored fact. A
    correction that no clause before it holds is left for the stored facts (:func:`meant`)."""
    out: list[str] = []
    for clause in (said_then_corrected(c) or c for c in clauses):
        parts = _CORRECTION_TAIL.split(clause, maxsplit=1)
        if len(parts) == 2 and _MEANT.match(strip_lead(parts[1])):  # "..., no wait, Lisbon not Porto"
            out.append(parts[0])
            clause = parts[1]
        m = _MEANT.match(strip_lead(clause))
        if m is None or content_words(m.group("right")) & content_words(m.group("wrong")) \
                or _OWN.match(m.group("right")):  # "I'm in Porto, not Lisbon": a statement of its own
            out.append(clause)
            continue
        wrong = rx(rf"\b{re.escape(m.group('wrong'))}\b")
        at = next((i for i in range(len(out) - 1, -1, -1) if wrong.search(out[i])), None)
        if at is None:
            out.append(clause)
        else:
            out[at] = wrong.sub(m.group("right"), out[at], count=1)
    return out
