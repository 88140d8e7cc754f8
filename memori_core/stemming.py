"""Snowball stemming of Latin-script tokens (PyStemmer), leaving other scripts alone."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from functools import lru_cache

from .text import Tokenizer, get_tokenizer

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


@lru_cache(maxsize=None)
def analyzer(tokenizer: str, stemmer: str | None) -> Tokenizer:
    """Tokenizer ``tokenizer`` followed by stemming of Latin-script tokens (no stemming for ``None``)."""
    tok = get_tokenizer(tokenizer)
    if stemmer is None:
        return tok
    stem = get_stemmer(stemmer)
    cache: dict[str, str] = {}

    def run(text: str) -> list[str]:
        out = []
        for t in tok(text):
            s = cache.get(t)
            if s is None:
                s = stem(t) if _LATIN.match(t) else t
                if len(cache) < 200_000:
                    cache[t] = s
            out.append(s)
        return out

    return run
