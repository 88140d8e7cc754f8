"""A question typed after a statement without its "?", marked as the question it is.

"also I have hypothyroidism, anything I should tell the new GP", "my hypothyroidism is acting up, what can I eat",
"signed up for the half marathon in april, am I mad": people ask in passing and leave the "?" off. Read as typed,
the request is glued to the fact, or the whole sentence is too long to keep; with its "?" the rules keep the
statement before the question and drop the question. Pure: patterns, English only.
"""

from __future__ import annotations

from ..slots import PERSON
from .patterns import rx
from .speech_acts import QUESTION_OPENER

__all__ = ["told_of_someone", "with_question_marked"]

# The statement, a comma or a dash, then the question: "..., what can I eat", "... - anything I should know".
_AFTER_BREAK = rx(r"^(?P<head>.*?\w.*?)(?:\s*[,;]\s*|\s+-\s+|\s*[\u2014\u2013]\s*)(?P<tail>[^,;]+?)\s*$")
# Questions that QUESTION_OPENER does not read: "anything I should tell the GP", "is it bad ...", "am I mad",
# "ideas", "options", "what's a good present", "any recs".
_ASKING = rx(
    r"^(?:anything\s+(?:i|we)\s+(?:should|can|could|need|must|ought)\b"
    r"|(?:is|are|was)\s+(?:it|that|this|cheese|\w+)\s+(?:bad|ok|okay|safe|normal|fine|weird|wrong|too)\b"
    r"|am\s+i\s+(?:mad|crazy|nuts|insane|wrong|weird|normal|ok|okay|silly|overthinking)\b"
    r"|(?:any\s+)?(?:ideas|options|suggestions|recs|recommendations|thoughts|tips)\s*[.!]*$"
    r"|what(?:'s|\s+is|\s+are)\s+(?:a|an|the|some)\s+(?:good|nice|cheap|easy|quick|best|safe)\b)"
)


# "..., can you believe it", "..., who knew": said in wonder, asking nothing.
_IN_WONDER = ("can you believe", "could you believe", "would you believe", "who knew", "who would have thought",
              "who cares", "how cool is that", "how crazy is that", "how mad is that", "how wild is that")


# "I have a daughter, Sofia, who is 14": "who" right after a word for a person, or one and their name, opens what
# is told of them (a relative clause), not a question.
_WHO = rx(r"^(?:who|whose)\b")
_SOMEONE_LAST = rx(rf"\b(?:{PERSON})(?:\s*,?\s+(?:named\s+|called\s+)?[a-z\u00e0-\u00ff'-]+)?\s*,?\s*$")


def told_of_someone(head: str, tail: str) -> bool:
    """Whether ``tail``, said after a comma after ``head``, opens with a "who" that tells of the person ``head``
    ends with ("I have a daughter, Sofia" + "who is 14"; "my mum" + "who lives in Leeds"): a relative clause of
    that person, neither a question nor a clause of its own."""
    return _WHO.match(tail.strip()) is not None and _SOMEONE_LAST.search(head) is not None


def _asks(head: str, tail: str) -> bool:
    """Whether ``tail``, said after ``head``, is a question typed without its "?" (not one said in wonder, nor
    what a "who" tells of the person ``head`` ends with)."""
    if " ".join(tail.lower().split()).startswith(_IN_WONDER):
        return False
    if told_of_someone(head, tail):
        return False
    return bool(QUESTION_OPENER.match(tail) or _ASKING.match(tail))


def with_question_marked(sentence: str) -> str:
    """``sentence`` with a "?" after a question typed after the statement without one ("my mum lives in Leicester,
    what's a good present" -> "..., what's a good present?"); any other sentence as it is (one that ends in "?"
    or "!", one whose part after the comma states something, a question with no statement before it).

    >>> with_question_marked("my hypothyroidism is acting up, what can I eat")
    'my hypothyroidism is acting up, what can I eat?'
    >>> with_question_marked("I moved to Leeds, what a year")
    'I moved to Leeds, what a year'
    """
    text = sentence.rstrip()
    if not text or text[-1] in "?!":
        return sentence
    m = _AFTER_BREAK.match(text.rstrip(" ."))
    if m is None or not _asks(m.group("head"), m.group("tail")):
        return sentence
    return text.rstrip(" .") + "?"
