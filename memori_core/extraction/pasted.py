"""Someone else's words in a user message: a text pasted in for the assistant to work on, a letter, a message relayed.

"Can you summarise this email from my landlord? ...", "Translate into Spanish: ...", "my friend texted me: I moved to
Madrid": what follows is not the user's, and its "I" is not the user. :func:`split_pasted` tells the user's own
sentences from those. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from .patterns import rx
from .sentences import split_sentences

__all__ = ["split_pasted"]

# A request to work on a text the user pastes after it ("Can you summarise this email from my landlord?", "Please
# translate the following:", "Here's the message my boss sent:"), or the opening of a letter ("Dear tenant,"): what
# follows in the message is someone else's words, whose "I" is not the user.
_PASTE_VERBS = (  # asked only of a text
    r"summari[sz]e|sum\s+up|translate|proofread|proof-read|rewrite|re-?word|paraphrase|edit|shorten|polish|"
    r"reply\s+to|respond\s+to|draft\s+(?:a\s+)?(?:reply|response)\s+to|simplify|format"
)
_TEXT_VERBS = (  # asked of a text when one is named ("check this email"), of news too ("Check it out: I got the job!")
    r"improve|tidy\s+up|check|correct|fix|explain|analy[sz]e|read|look\s+(?:at|over)|answer|make\s+sense\s+of"
)
_TEXTS = (
    r"email|e-mail|mail|message|text|letter|note|post|tweet|comment|review|paragraph|passage|article|essay|"
    r"report|statement|announcement|memo|notice|document|doc|contract|thread|chat|reply|response|bio|speech|"
    r"poem|story|extract|excerpt|quote|transcript|cover\s+letter|notes|"
    r"grammar|spelling|punctuation|wording|phrasing|typos?|sentences?"  # "Fix the grammar: i has moved"
)
_ASK = (
    r"^\W*(?:(?:hi|hey|hello|ok|okay|so)\b\W*)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:help\s+me\s+)?|"
    r"please\s+|help\s+me\s+|i\s+(?:need|want|would\s+like|'d\s+like)\s+(?:you\s+)?to\s+)?"
)
_HERE_IS = (
    rf"^\W*(?:here(?:'s|\s+is|\s+are)|this\s+is|below\s+is)\s+(?:the|a|an|my|what|this|that|her|his|their|our)\b"
    rf"[^?!.:]{{0,60}}\b(?:{_TEXTS}|wrote|sent|said|says)\b"
)
# A whole sentence asking for work on a text that follows it: "Can you summarise this email from my landlord?"
_NAMED_TEXT = rf"(?:{_TEXTS}|the\s+following|below)\b"
_PASTE_REQUEST = rx(
    rf"{_ASK}(?:(?:{_PASTE_VERBS})\b[^?!]*?\b(?:this|these|that|the\s+following|below|it)\b"
    rf"|(?:{_TEXT_VERBS})\b[^?!]*?\b{_NAMED_TEXT})[^?!]*[?.!:]*\s*$"
    rf"|{_HERE_IS}[^?!.]*[:.]?\s*$"
)
# What leads a text pasted after a colon in the same sentence: "Translate into Spanish: ...", "Here's what my boss
# sent: ..." (not a news lead-in: "Quick update: I moved to Leeds.", "Check it out: I got the job!").
_PASTE_LEAD = rx(
    rf"{_ASK}(?:(?:{_PASTE_VERBS})\b|(?:{_TEXT_VERBS})\b[^?!]*?\b{_NAMED_TEXT})[^?!]*$|{_HERE_IS}[^?!.]*$"
)
# Someone else's words relayed, then quoted after a colon or a quote mark: "my friend texted me: I moved to Madrid",
# "The email says: I have moved", "Mum said \"I'm retiring\"". Their "I" is not the user (the user's own words,
# "As I said: ...", are read).
_RELAYED = rx(
    r"^\W*(?!.*\b(?:i|we)\b)(?:[\w'-]+\s+){1,4}?(?:just\s+)?(?:texted|messaged|wrote|writes|said|says|told|tells|"
    r"emailed|posted|replied|tweeted|sent|dm'?d|whatsapped|reads|goes)"
    r"(?:\s+(?:me|us|to\s+me|to\s+us|back|this|that|earlier|today|yesterday|last\s+night|just\s+now)){0,2}\s*$"
)
# Where quoted words start in a sentence: after a colon, or at an opening quote mark.
_QUOTE_START = re.compile(r"\s*:\s*|\s+[\"\u201c]")
_LETTER_OPENING = rx(r"^(?:dear(?!\s+diary\b)|to\s+whom\s+it\s+may\s+concern)\b")


def split_pasted(text: str) -> tuple[list[str], list[str]]:
    """The sentences of one message that are the user's own, and those of someone else's text pasted in for the
    assistant to work on or relayed: after a request to work on a text ("Can you summarise this email?",
    "Translate into Spanish: ...", "Fix the grammar: ..."), from a letter's opening ("Dear tenant,") on, or from
    someone else's words quoted ("my friend texted me: I moved to Madrid", "The email says: ...") on.

    >>> split_pasted("I rent. Can you reply to this email? I am selling the flat.")
    (['I rent.', 'Can you reply to this email?'], ['I am selling the flat.'])
    """
    sentences = split_sentences(text)
    for i, sentence in enumerate(sentences):
        if _LETTER_OPENING.match(sentence):
            return sentences[:i], sentences[i:]
        quote = _QUOTE_START.search(sentence)
        head, tail = (sentence[: quote.start()], sentence[quote.end():]) if quote is not None else (sentence, "")
        if tail.strip() and _RELAYED.match(head):
            return sentences[:i], [sentence, *sentences[i + 1 :]]
        if tail.strip() and quote.group(0).strip() == ":" and _PASTE_LEAD.match(head):
            return [*sentences[:i], head + ":"], [tail.strip(), *sentences[i + 1 :]]
        if i + 1 < len(sentences) and _PASTE_REQUEST.match(sentence):
            return sentences[: i + 1], sentences[i + 1 :]
    return sentences, []
