"""Text analysis for BM25: upstream Memori's ASCII tokenizer, a Unicode/CJK one, Snowball stemming of
Latin-script tokens (PyStemmer), and :func:`analyzer`, a tokenizer followed by stemming."""

from __future__ import annotations

import hashlib
import re
import sys
import threading
import unicodedata
from collections.abc import Callable
from functools import lru_cache

#: The 41 English stopwords upstream Memori drops (kept sorted).
STOPWORDS: frozenset[str] = frozenset(
    (
        "a an and are as at be by did do does for from had has have how i in is it "
        "of on or that the their then there to was were what when where which who "
        "why with you your"
    ).split()
)

#: English function words the ``unicode`` tokenizer drops (before stemming). Upstream's 41 plus
#: pronouns, auxiliaries, modals, prepositions, conjunctions and determiners: words that carry no topic,
#: so that "my", "me", "can" or "should" can never make a fact the best lexical match.
ENGLISH_STOPWORDS: frozenset[str] = STOPWORDS | frozenset(
    (
        "about above after again against all am any because been before being below between both but "
        "can cannot could doing down during each few further having he her here hers herself him himself "
        "his if into its itself just let me might more most must my myself no nor not now off once only "
        "other ought our ours ourselves out over own same shall she should so some such than theirs them "
        "themselves these they this those through too under until up us very we will would yes yet "
        "yours yourself yourselves whom whose while shan won"
    ).split()
)

Tokenizer = Callable[[str], list[str]]

_ASCII_WORD = re.compile(r"[a-z0-9]+")


def memori_tokenize(text: str) -> list[str]:
    """Upstream Memori's tokenizer: lowercase, ASCII ``[a-z0-9]`` runs, stopwords dropped."""
    return [t for t in _ASCII_WORD.findall((text or "").lower()) if t not in STOPWORDS]


def _mark_class() -> str:
    # Combining marks (Mn/Mc/Me) belong to the word they follow: without them
    # Devanagari, Thai and similar scripts would be cut inside words.
    ranges: list[tuple[int, int]] = []
    for cp in range(0x300, 0x10000):
        if unicodedata.category(chr(cp)) in ("Mn", "Mc", "Me"):
            if ranges and ranges[-1][1] == cp - 1:
                ranges[-1] = (ranges[-1][0], cp)
            else:
                ranges.append((cp, cp))
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges
    )


# Han (with the iteration marks), Hiragana, Katakana (incl. the prolonged
# sound mark U+30FC) and Hangul: scripts written without spaces between words.
_CJK = (
    "\u3005\u3007\u3021-\u3029\u3038-\u303b"
    "\u3040-\u309f\u30a0-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
    "\uff66-\uff9f"
)
if sys.maxunicode > 0xFFFF:
    _CJK += "\U00020000-\U0003134f"

_WORD = re.compile(rf"(?:[^\W_]|[{_mark_class()}])+")
_CJK_RUN = re.compile(rf"[{_CJK}]+|[^{_CJK}]+")
_HAS_CJK = re.compile(rf"[{_CJK}]")


def _cjk_bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


# English contractions, straight or curly apostrophe: "n't" becomes " not" (a stopword) and the tails
# 's 'd 'll 're 've 'm are dropped, so "what's", "I'm", "you'd" leave no one-letter fragment behind.
_IRREGULAR_NEGATION = re.compile(r"\b(can|won|shan)['\u2019]t\b")
_IRREGULAR_STEM = {"can": "can", "won": "will", "shan": "shall"}
_NEGATION = re.compile(r"(?<=[a-z])n['\u2019]t\b")
_CONTRACTION_TAIL = re.compile(r"(?<=[^\W_])['\u2019](?:s|d|ll|re|ve|m)\b")


def _expand_contractions(folded: str) -> str:
    if "'" not in folded and "\u2019" not in folded:
        return folded
    folded = _IRREGULAR_NEGATION.sub(lambda m: _IRREGULAR_STEM[m.group(1)] + " not", folded)
    return _CONTRACTION_TAIL.sub("", _NEGATION.sub(" not", folded))


def unicode_tokenize(text: str) -> list[str]:
    """Tokenize any script: NFKC + casefold, letter/digit runs, CJK character bigrams.

    Underscore and punctuation separate words; accented Latin stays whole
    (``café`` -> ``café``); Han/Kana/Hangul runs become overlapping bigrams
    (a lone character stays a unigram). English contraction tails are dropped
    (``what's`` -> ``what``, ``don't`` -> ``do not``) and so are the
    :data:`ENGLISH_STOPWORDS`.
    """
    if not text:
        return []
    folded = _expand_contractions(unicodedata.normalize("NFKC", text).casefold())
    out: list[str] = []
    for word in _WORD.findall(folded):
        if _HAS_CJK.search(word) is None:
            if word not in ENGLISH_STOPWORDS:
                out.append(word)
            continue
        for part in _CJK_RUN.findall(word):
            if _HAS_CJK.match(part):
                out.extend(_cjk_bigrams(part))
            elif part not in ENGLISH_STOPWORDS:
                out.append(part)
    return out


_TOKENIZERS: dict[str, Tokenizer] = {"memori": memori_tokenize, "unicode": unicode_tokenize}

SCRIPT_SAMPLE = 400
"""Letters :func:`main_script` reads at most: a query's script shows in its first few hundred letters."""
_SCRIPT_NAMES = {"CJK": "HAN", "HIRAGANA": "KANA", "KATAKANA": "KANA", "HALFWIDTH": "KANA"}


def main_script(text: str) -> str | None:
    """The Unicode script most of ``text``'s letters are written in, in capitals (``"LATIN"``, ``"CYRILLIC"``,
    ``"HAN"``, ``"KANA"``, ``"HANGUL"``, ``"ARABIC"``, ``"HEBREW"``...; Japanese kana are one ``"KANA"``), read from
    the first :data:`SCRIPT_SAMPLE` letters; ``None`` when it has no letter ("👍", "?!", "42").

    >>> main_script("Where do I live?"), main_script("我住在上海。"), main_script("👍")
    ('LATIN', 'HAN', None)
    """
    if text.isascii():
        return "LATIN" if any(ch.isalpha() for ch in text) else None
    counts: dict[str, int] = {}
    seen = 0
    for ch in text:
        if not ch.isalpha():
            continue
        head = unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]
        script = _SCRIPT_NAMES.get(head, head)
        counts[script] = counts.get(script, 0) + 1
        seen += 1
        if seen >= SCRIPT_SAMPLE:
            break
    return max(counts, key=counts.__getitem__) if counts else None


@lru_cache(maxsize=None)
def get_tokenizer(name: str) -> Tokenizer:
    """Return the tokenizer called ``name`` (``"unicode"`` or ``"memori"``)."""
    try:
        return _TOKENIZERS[name]
    except KeyError:
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {sorted(_TOKENIZERS)}") from None


# How a fact may name the user at its start, and the form the key gives it: "The user is vegan.", "User is vegan."
# and "I'm vegan." are one fact (capture writes "User ...", an agent's remember call often "The user ...", a
# stored raw turn "I ...").
_THE_USER = re.compile(r"^the user(?=\b)")
_FIRST_PERSON_SUBJECT = re.compile(
    r"^(?:(?P<be>i am|i'm|im)|(?P<have>i have|i've|ive)|(?P<was>i was)|(?P<dont>i do not|i don't|i dont)|"
    r"(?P<my>my)|i (?P<verb>live|work|like|love|prefer|hate|dislike|enjoy|eat|drink|own|play|speak|use|take|need|"
    r"want|study|teach|drive|cook|run|swim|read|smoke|wear|follow|avoid|attend|volunteer|rent|go|do))\b"
)
_SUBJECT_FORMS = {"be": "user is", "have": "user has", "was": "user was", "dont": "user doesn't", "my": "user's"}


def _user_subject_key(folded: str) -> str:
    """``folded`` (casefolded, straight apostrophes) with its leading subject in the key's form ("user")."""
    folded = _THE_USER.sub("user", folded, count=1)
    m = _FIRST_PERSON_SUBJECT.match(folded)
    if m is None:
        return folded
    kind = m.lastgroup
    if kind == "verb":
        verb = m.group("verb")
        said = "user " + ({"go": "goes", "do": "does"}.get(verb) or (verb + "es" if verb.endswith("ch") else verb + "s"))
    else:
        said = _SUBJECT_FORMS[kind or "be"]
    return said + folded[m.end():]


def fact_id_key(text: str) -> str:
    """The text a derived fact id hashes (:func:`memori_core.engine.fact_ids.derived_fact_id`): NFKC, casefold,
    single spaces, no trailing period. Kept as it was when ids were first derived, so that adding a fact again
    finds the row an earlier version stored; sameness is :func:`normalize_fact_text`'s."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split()).rstrip(". ")


def text_fact_id(text: str) -> str:
    """The id a fact without a caller's id takes: a hash of :func:`fact_id_key` (re-exported by the engine as
    :func:`~memori_core.engine.fact_ids.derived_fact_id`). Here so that a store can index a row by the id its
    text derives, whatever id the row has."""
    return hashlib.sha256(fact_id_key(text).encode("utf-8")).hexdigest()[:32]


def normalize_fact_text(text: str) -> str:
    """The key under which two facts count as the same: NFKC, casefold, single spaces, straight apostrophes, no
    trailing period, and the user named the same way at its start ("The user is vegan.", "User is vegan." and
    "I'm vegan." have the key ``"user is vegan"``; "The user's", "User's" and "My" that of "user's"). Recall
    shows one fact per key (``RecallConfig.one_per_text``), and capture does not store again what a stored fact
    says under another subject. A derived id hashes :func:`fact_id_key`, which ids have always hashed."""
    folded = " ".join(unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'").split())
    return _user_subject_key(folded).rstrip(". ")


_TOOL_USER = re.compile(r"^\s*the\s+user(?=['\u2019]s\b|\s)", re.IGNORECASE)


def user_subject(text: str) -> str:
    """``text`` with a leading "The user" / "the user's" written as capture writes the user ("User", "User's"):
    an agent's remember call ("The user is vegan.") then stores the words capture stores ("User is vegan.").

    >>> user_subject("The user is vegan."), user_subject("the user's sister lives in Rome."), user_subject("Users vote.")
    ('User is vegan.', "User's sister lives in Rome.", 'Users vote.')
    """
    return _TOOL_USER.sub("User", text, count=1)


# -- stemming ----------------------------------------------------------------------------------------------

# Tokens made only of Latin letters (with accents) and digits are stemmed;
# anything with CJK, Cyrillic, Devanagari... passes through unchanged.
_LATIN = re.compile(r"^[0-9a-z\u00c0-\u024f\u1e00-\u1eff]+$")


@lru_cache(maxsize=None)
def get_stemmer(language: str) -> Callable[[str], str]:
    """A word stemmer for ``language`` (a Snowball algorithm name such as ``"english"``)."""
    try:
        import Stemmer
    except ImportError:  # pragma: no cover - PyStemmer is a core dependency
        raise RuntimeError("stemming needs PyStemmer: pip install PyStemmer (or set stemmer=None)") from None
    try:
        stemmer = Stemmer.Stemmer(language)
    except KeyError:
        raise ValueError(
            f"unknown stemmer language {language!r}; choose one of {sorted(Stemmer.algorithms())}"
        ) from None
    # A PyStemmer object "must not be called concurrently" (its docs), and engines
    # recall from several threads (async twins, web servers): one call at a time.
    lock = threading.Lock()
    stem_word = stemmer.stemWord

    def stem(word: str) -> str:
        with lock:
            return stem_word(word)

    return stem


# Snowball stems some English word families apart where a user's question and a stored fact say the same thing in
# two forms: "my allergies" (allergi) / "User is allergic" (allerg), "pregnancy" / "pregnant", "dietary" / "diet",
# "anxiety" / "anxious", "children" / "child". Each stem on the left is read as the one on the right (British and
# American spellings too). Only the English stemmer folds; changing this table changes every BM25 index, so
# :data:`STEM_FOLDS_VERSION` is part of what a cache snapshot is valid for.
STEM_FOLDS: dict[str, dict[str, str]] = {
    "english": {
        # allergy, allergies, allergic
        "allergi": "allerg",
        # pregnancy, pregnancies, pregnant
        "pregnanc": "pregnant",
        # anaemia, anaemic, anemia, anemic
        "anaemia": "anaem", "anemia": "anaem", "anem": "anaem",
        # asthmatic, epileptic, arthritic, diabetic, coeliac
        "asthmat": "asthma", "epilept": "epilepsi", "arthrit": "arthriti", "celiac": "coeliac",
        # injury, injured; anxiety, anxious; surgery, surgical; dietary, diet; sobriety, sober
        "injur": "injuri", "anxious": "anxieti", "surgic": "surgeri", "dietari": "diet", "sobrieti": "sober",
        # irregular plurals the stemmer leaves alone
        "children": "child", "women": "woman", "men": "man", "teeth": "tooth", "feet": "foot", "mice": "mous",
        "grandchildren": "grandchild", "wive": "wife", "knive": "knife",
    },
}
STEM_FOLDS_VERSION = "1"
"""Bumped whenever :data:`STEM_FOLDS` changes (snapshots written with another table are rebuilt)."""


@lru_cache(maxsize=None)
def analyzer(tokenizer: str, stemmer: str | None) -> Tokenizer:
    """Tokenizer ``tokenizer`` followed by stemming of Latin-script tokens (no stemming for ``None``).

    Stems of one word family that the stemmer leaves apart are folded together (:data:`STEM_FOLDS`).
    """
    tok = get_tokenizer(tokenizer)
    if stemmer is None:
        return tok
    stem = get_stemmer(stemmer)
    folds = STEM_FOLDS.get(stemmer, {})
    cache: dict[str, str] = {}

    def run(text: str) -> list[str]:
        out = []
        for t in tok(text):
            s = cache.get(t)
            if s is None:
                s = stem(t) if _LATIN.match(t) else t
                s = folds.get(s, s)
                if len(cache) < 200_000:
                    cache[t] = s
            out.append(s)
        return out

    return run
