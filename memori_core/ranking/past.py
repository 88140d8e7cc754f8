"""Whether a turn asks about the user's past: "Which hospital did I used to work at?", "Where did I live before I
moved?", "What was my previous job?". Recall then also ranks the facts that are no longer valid (superseded or
ended, never the expired, forgotten or deleted ones), and the ``<memori_context>`` block marks them as past.

Only an explicit reading counts: a habit in the present tense ("I'm used to the cold", "We're not used to it"), a
"before" that orders the present ("Should I stretch before I run?", "What should I do before the move?"), a change
told to set the scene ("I don't eat meat anymore, what should I cook?") or a question about other people's past
("What did people use to eat?") does not, so a normal turn after a change still sees only the current fact.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["asks_about_the_past"]

# Every reading below holds one of these: most turns are passed over by substring tests alone (recall reads every
# turn, so a turn that is not about the past costs about a microsecond here, not the patterns' scan).
_CUES = ("use to", "used to", "before", "my old", "previous", "former", "prior", "earlier", "my ex", "originally",
         "past", "back ", "anymore", "any more", "no longer")

_PERSONAL = re.compile(r"\b(?:i|me|my|mine|we|us|our)\b", re.IGNORECASE)

# "be used to" / "get used to" is being accustomed, not the past (also "I'm not / so / quite used to", "we're").
_USED_TO = re.compile(
    r"(?<!\bam )(?<!'m )(?<!\bis )(?<!\bare )(?<!'re )(?<!\bbe )(?<!\bbeen )(?<!\bget )(?<!\bgot )(?<!\bgetting )"
    r"(?<!\bwas )(?<!\bwere )(?<!\bnot )(?<!\bso )(?<!\bquite )(?<!\breally )(?<!\bvery )"
    r"\bused to\b|\bdid (?:i|we|you) (?:ever )?use to\b",
    re.IGNORECASE,
)

_PAST_WORDS = re.compile(
    r"\bmy (?:old|previous|former|prior|earlier|ex)\b|\bmy ex-|\b(?:previously|formerly|originally)\b"
    r"|\bin the past\b|\bback (?:when|then|in)\b",
    re.IGNORECASE,
)

# "anymore" / "no longer" ask about the past only inside a question ("What don't I eat anymore?"); told as a
# statement, they set the scene for a present question ("I don't eat meat anymore, what should I cook?")
_NO_MORE = re.compile(r"\bany ?more\b|\bno longer\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[^,;.!?]+[,;.!?]?")
_QUESTION_START = re.compile(
    r"^\W*(?:what|which|who|whom|whose|where|when|why|how|do|does|did|am|is|are|was|were|can|could|should|would|"
    r"have|has|had)\b", re.IGNORECASE)

# "before I moved", "before moving", "before the move", "before that"; and a "before" that ends a question in the
# past tense: "Where did I live before?", "What was my job before?"
_BEFORE = re.compile(
    r"\bbefore (?:i|we) (?:moved|relocated|switched|changed|started|got|left|quit|joined|took|became|retired|"
    r"married|divorced|broke)\b"
    r"|\b(?:did|was|were|had)\b[^.!?]*\bbefore(?: (?:that|this|then))?\s*[?.!]*\s*$",
    re.IGNORECASE,
)
# "before moving", "before the move": the past only in a question in the past tense ("Where did we live before
# moving?"), not in one about what to do ("What should I do before the move?")
_BEFORE_A_CHANGE = re.compile(
    r"\bbefore (?:moving|relocating|switching|changing|starting|leaving|quitting|joining|the move|the switch|"
    r"the change|my move|my switch|my new|this one|the current|now)\b", re.IGNORECASE)
_PAST_TENSE = re.compile(r"\b(?:did|was|were|had|used|went|lived|worked)\b", re.IGNORECASE)


# A follow-up that only asks for the time before ("And before that?", "What about before?"): about the user's past
# when the turn before asked about the user.
_BEFORE_ALONE = re.compile(
    r"^\W*(?:and|but|what about|how about|ok(?:ay)?,?)?\s*(?:before|previously|earlier)(?: that| then| this)?\W*$",
    re.IGNORECASE,
)


def asks_about_the_past(query: str, turns: Sequence[str] = ()) -> bool:
    """Whether ``query`` (an English turn) explicitly asks about the user's own past: "used to" / "did I use to",
    "before I moved", "my old / previous / former X", "where did I live before?", a question with "anymore" / "no
    longer" ("What don't I eat anymore?", not "I don't eat meat anymore, what should I cook?"), "before moving" in
    the past tense; or only "And before that?" after a turn about the user (``turns``: the earlier turns read, oldest first).
    Then recall ranks the facts no longer valid too (:meth:`~memori_core.RecallEngine.recall`)."""
    query = query.replace("\u2019", "'")  # phone keyboards type a curly apostrophe
    if turns and _BEFORE_ALONE.match(query):
        return bool(_PERSONAL.search(turns[-1]))
    low = query.lower()
    if not any(cue in low for cue in _CUES) or not _PERSONAL.search(query):
        return False
    if _USED_TO.search(query) or _PAST_WORDS.search(query) or _BEFORE.search(query):
        return True
    if _BEFORE_A_CHANGE.search(query) and _PAST_TENSE.search(query):
        return True
    return any(_NO_MORE.search(c) and (c.endswith("?") or _QUESTION_START.match(c)) for c in _CLAUSE.findall(query))
