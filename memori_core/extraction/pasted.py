"""Someone else's words in a user message: a text pasted in for the assistant to work on, a letter, a message relayed.

"Can you summarise this email from my landlord? ...", "Translate into Spanish: ...", "my friend texted me: I moved to
Madrid": what follows is not the user's, and its "I" is not the user; nor are words quoted ("> I'm pregnant" on a
line of its own, an e-mail reply's quote; "\"I'm pregnant\" - that's what my sister texted me"). :func:`split_pasted`
tells the user's own sentences from those. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from .leads import CLINICIAN
from .patterns import rx
from .sentences import split_sentences

__all__ = ["split_letters", "split_pasted", "split_quoted"]

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
# "As I said: ...", are read; so is what a clinician told the user: "My doctor said: I have type 2 diabetes").
_RELAYED = rx(
    rf"^\W*(?!(?:(?:the|my|our)\s+)?(?:new\s+)?(?:{CLINICIAN})\s+(?:says|said|told))"
    r"(?!.*\b(?:i|we)\b)(?:[\w'-]+\s+){1,4}?(?:just\s+)?(?:texted|messaged|wrote|writes|said|says|told|tells|"
    r"emailed|posted|replied|tweeted|sent|dm'?d|whatsapped|reads|goes)"
    r"(?:\s+(?:me|us|to\s+me|to\s+us|back|this|that|earlier|today|yesterday|last\s+night|just\s+now)){0,2}\s*$"
)
# Where quoted words start in a sentence: after a colon, or at an opening quote mark.
_QUOTE_START = re.compile(r"\s*:\s*|\s+[\"\u201c]")
_LETTER_OPENING = rx(r"^(?:dear(?!\s+diary\b)|to\s+whom\s+it\s+may\s+concern)\b")


# A line quoted as markdown or an e-mail reply quotes it ("> I'm pregnant", ">> I take insulin"): someone's words.
_QUOTED_LINE = re.compile(r"^[ \t]*>.*(?:\n|$)", re.MULTILINE)
# Words in quotation marks: "...", \u201c...\u201d, \u201e...\u201c, and '...' or \u2018...\u2019 where an apostrophe
# inside is one only before a letter ("'I'm fine'"; "my parents' house" opens no quote).
_QUOTED_WORDS = re.compile(
    r'"[^"\n]{1,500}"|\u201c[^\u201c\u201d\n]{1,500}\u201d|\u201e[^\u201c\u201d\u201e\n]{1,500}[\u201c\u201d]'
    r"|(?<![\w'\u2019])['\u2018](?=[A-Za-z])(?:[^'\u2018\u2019\n]|['\u2019](?=[A-Za-z])){1,500}['\u2019](?![A-Za-z])"
)
# A first-person word: quoted, the speaker's, who need not be the user ("us" in lower case only: "the US").
_FIRST_PERSON = re.compile(
    r"(?<![\w'\u2019])(?:(?i:i(?:['\u2019](?:m|ve|ll|d))?|me|my|mine|myself|we|we['\u2019](?:re|ve|ll|d)|our|ours)"
    r"|us)(?![\w'\u2019])"
)
_TITLE_SMALL_WORDS = frozenset("a an the of and or in on at to for by with from as".split())
_WORD = re.compile(r"[A-Za-z][\w'\u2019-]*")
# Where a sentence ends, before or after the quoted words.
_ENDED = re.compile(r"[.!?\u2026]+[\"')\]\u201d\u2019]*\s+|\n")
_GOES_ON = re.compile(r"[ \t]*[,;:\u2014\u2013-]|[ \t]+[a-z]")
_ENDS = re.compile(r"[.!?\u2026]+[\"')\]\u201d\u2019]*(?=\s|$)|\n|$")


def _is_speech(quoted: str) -> bool:
    """Whether ``quoted`` (without its quote marks) is someone's words in the first person ("I'm pregnant", "we
    moved"), not a name or a title ("I Will Survive", "Me Before You") nor a single word ("the letter 'I'")."""
    found = _WORD.findall(quoted)
    if len(found) < 2 or not _FIRST_PERSON.search(quoted):
        return False
    return not all(w[0].isupper() for w in found if w.lower() not in _TITLE_SMALL_WORDS)


def split_quoted(text: str) -> tuple[str, list[str]]:
    r"""``text`` without the words it quotes, and those words: a line quoted with ">" (markdown, an e-mail reply),
    and a sentence holding first-person words in quotation marks ('"I'm pregnant" - that's what my sister texted
    me.', "She wrote: 'I take insulin twice a day'"). The "I" of quoted words is whoever said them, not the user,
    and nothing says who that is: the sentence is left out whole. Words quoted with no "I" in them ('I'm "fine"')
    and a title ('My favourite song is "I Will Survive"') stay.

    >>> split_quoted("> I'm pregnant\nWhat does my sister mean?")
    ('What does my sister mean?', ["> I'm pregnant"])
    >>> split_quoted('I\'m vegan. Mum always says "I\'m so proud of you". Any tips?')
    ("I'm vegan.\nAny tips?", ['Mum always says "I\'m so proud of you".'])
    """
    quoted = [m.group(0).strip() for m in _QUOTED_LINE.finditer(text) if m.group(0).strip()]
    text = _QUOTED_LINE.sub("", text)
    cuts: list[tuple[int, int]] = []
    for m in _QUOTED_WORDS.finditer(text):
        if not _is_speech(m.group(0)[1:-1]):
            continue
        start = max((b.end() for b in _ENDED.finditer(text, 0, m.start())), default=0)
        # a quote that ends its own sentence ("She wrote: \"I take insulin.\" I live in Leeds.") takes no more; one
        # the sentence goes on after ("She texted \"I'm pregnant!\" today.") takes the rest of it
        ended = re.search(r"[.!?\u2026]\W?$", m.group(0)) and not _GOES_ON.match(text, m.end())
        end = m.end() if ended else _ENDS.search(text, m.end()).end()
        if cuts and start <= cuts[-1][1]:
            cuts[-1] = (cuts[-1][0], max(end, cuts[-1][1]))
        else:
            cuts.append((start, end))
    if not cuts:
        return text, quoted
    own, last = [], 0
    for start, end in cuts:
        own.append(text[last:start])
        quoted.append(text[start:end].strip())
        last = end
    own.append(text[last:])
    return "\n".join(piece.strip() for piece in own).strip(), quoted


# A letter or message pasted whole, told by its lines: a fence ("---", "```", "-----Original Message-----"), an
# e-mail header ("Subject: ...", "From: ..."), a greeting to someone by name on a line of its own ("Hello Margaret,",
# "Hi all,"), a sign-off ("Best wishes,") with the sender's name on the line after, and a line telling where the
# text came from ("This came from the local beekeepers, what do you make of it?", "My landlord sent me this:").
_FENCE = rx(
    r"^\s*(?:[-=*_~]{3,}|`{3,}[\w+-]*|-{2,}\s*(?:original\s+message|forwarded\s+message)\s*-{2,}"
    r"|begin\s+forwarded\s+message\s*:?)\s*$"
)
_HEADER = rx(r"^\s*(?:subject|from|fwd?)\s*:\s*\S")
_GREETING = re.compile(
    r"^\s*(?i:dear|hello|hi|hiya|hey|good\s+(?:morning|afternoon|evening)|greetings)\s+"
    r"(?:(?i:all|everyone|everybody|team|folks|both)|[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2})\s*[,!:]?\s*$"
)
_SIGN_OFF = rx(
    r"^\s*(?:best(?:\s+wishes|\s+regards)?|(?:kind|kindest|warm|warmest|best)\s+(?:regards|wishes)|regards|"
    r"many\s+thanks|thanks(?:\s+(?:again|so\s+much|in\s+advance))?|thank\s+you|cheers|(?:lots\s+of\s+)?love|"
    r"all\s+the\s+best|yours(?:\s+(?:sincerely|faithfully|truly|ever))?|sincerely|take\s+care|speak\s+soon)"
    r"\s*[,.!]?\s*$"
)
# The sender's name under a sign-off: a short line that starts with a capital ("Pauline (Secretary)", "Dr A. Shah").
_SENDER = re.compile(
    r"^\s*(?!(?:I|I'm|I've|I'll|We|My|Our|It|This|That|The|So|Just)\b)[A-Z][\w'.-]*(?:[ \t]+[\w'().&-]+){0,5}\s*$"
)
_CAME_FROM = rx(
    r"^\W*(?:(?:so|ok|okay|look|hi|hey)\b\W*)?(?:"
    r"(?:this|the\s+following|below|it)\s+(?:just\s+)?(?:came|arrived|landed|turned\s+up)\s+(?:in\s+)?from\b"
    rf"|(?:i\s+)?(?:just\s+)?got\s+this\s+(?:(?:{_TEXTS})\s+)?from\b"
    r"|(?!i\b|we\b)(?:[\w'-]+\s+){1,4}(?:just\s+)?(?:sent|forwarded|emailed|texted|messaged|wrote)\s+(?:me|us)\s+"
    rf"this(?:\s+(?:{_TEXTS}))?(?:\s+(?:today|earlier|yesterday|last\s+night|just\s+now|this\s+morning))?\s*(?:[:,.!?-]|$))"
)


def _letter_end(lines: list[str], start: int) -> int | None:
    """Where the letter whose first line is ``lines[start]`` ends: the line after its sender's name under a
    sign-off, or after a fence (``None``: nothing says it ends)."""
    for n in range(start + 1, len(lines)):
        if _FENCE.match(lines[n]):
            return n + 1
        if _SIGN_OFF.match(lines[n]) and n + 1 < len(lines) and _SENDER.match(lines[n + 1]):
            return n + 2
    return None


def _is_letter(lines: list[str]) -> bool:
    """Whether ``lines`` hold a letter's marks: an e-mail header, a greeting by name or a signed sign-off."""
    return any(_HEADER.match(line) or _GREETING.match(line) for line in lines) or any(
        _SIGN_OFF.match(line) and _SENDER.match(after) for line, after in zip(lines, lines[1:]))


def split_letters(text: str) -> tuple[str, list[str]]:
    r"""``text`` without the letters and messages pasted whole in it, and those: what lies between two fences
    ("---", "```"); after one fence, a letter (an e-mail header, a greeting by name, a signed sign-off); from an
    e-mail header ("Subject: ..."), or from a greeting by name on a line of its own ("Hello Margaret,") to a signed
    sign-off ("Best wishes,\nPauline"); and a line telling where the text came from ("This came from the
    beekeepers, what do you make of it?", "My landlord sent me this:") with the lines after it, to a fence or a
    sign-off. Their "I" is their sender's. The user's lines before and after stay; "Hi Sam,\nI moved to Leeds." with no sign-off is read.

    >>> split_letters("Should I go?\n---\nHello Margaret,\nI'm vegan myself.\n---\nThoughts?")
    ('Should I go?\nThoughts?', ["Hello Margaret,\nI'm vegan myself."])
    """
    lines = text.split("\n")
    cut: list[tuple[int, int]] = []
    announced: int | None = None  # the line telling where the text after it came from, cut with it
    n = 0
    while n < len(lines):
        line = lines[n]
        end = None
        if not line.strip():
            n += 1
            continue
        start = n if announced is None else announced
        if _FENCE.match(line):
            close = next((m for m in range(n + 1, len(lines)) if _FENCE.match(lines[m])), None)
            if close is not None:
                end = close + 1
            elif announced or _is_letter(lines[n + 1:]):
                end = len(lines)
        elif announced is not None or _HEADER.match(line):
            end = _letter_end(lines, n) or len(lines)
        elif _GREETING.match(line):
            end = _letter_end(lines, n)
        announced = n if end is None and _CAME_FROM.match(line) else None
        if end is None:
            n += 1
            continue
        cut.append((start, end))
        n = end
    if not cut:
        return text, []
    own, pasted, last = [], [], 0
    for start, end in cut:
        own += lines[last:start]
        block = "\n".join(line for line in lines[start:end] if not _FENCE.match(line)).strip()
        if block:
            pasted.append(block)
        last = end
    own += lines[last:]
    return "\n".join(line for line in own if line.strip()), pasted


def split_pasted(text: str) -> tuple[list[str], list[str]]:
    """The sentences of one message that are the user's own, and those of someone else's text pasted in for the
    assistant to work on or relayed: after a request to work on a text ("Can you summarise this email?",
    "Translate into Spanish: ...", "Fix the grammar: ..."), from a letter's opening ("Dear tenant,") on, or from
    someone else's words quoted ("my friend texted me: I moved to Madrid", "The email says: ...", "My sister texted
    me:" and the lines after it) on; and first of all a letter pasted whole (:func:`split_letters`: "Hello
    Margaret, ... Best wishes, Pauline") and the words it quotes (:func:`split_quoted`: "> I'm pregnant").

    >>> split_pasted("I rent. Can you reply to this email? I am selling the flat.")
    (['I rent.', 'Can you reply to this email?'], ['I am selling the flat.'])
    """
    text, letters = split_letters(text)
    text, quoted = split_quoted(text)
    own, pasted = _split_sentences_pasted(split_sentences(text))
    return own, letters + quoted + pasted


def _split_sentences_pasted(sentences: list[str]) -> tuple[list[str], list[str]]:
    """:func:`split_pasted` of a message's ``sentences``, its quoted words already left out."""
    for i, sentence in enumerate(sentences):
        if _LETTER_OPENING.match(sentence):
            return sentences[:i], sentences[i:]
        quote = _QUOTE_START.search(sentence)
        head, tail = (sentence[: quote.start()], sentence[quote.end():]) if quote is not None else (sentence, "")
        if tail.strip() and _RELAYED.match(head):
            return sentences[:i], [sentence, *sentences[i + 1 :]]
        if quote is not None and not tail.strip() and quote.group(0).strip() == ":" and _RELAYED.match(head):
            return sentences[:i], sentences[i:]  # "My sister texted me:" and, on the next lines, what she wrote
        if tail.strip() and quote.group(0).strip() == ":" and _PASTE_LEAD.match(head):
            return [*sentences[:i], head + ":"], [tail.strip(), *sentences[i + 1 :]]
        if i + 1 < len(sentences) and _PASTE_REQUEST.match(sentence):
            return sentences[: i + 1], sentences[i + 1 :]
    return sentences, []
