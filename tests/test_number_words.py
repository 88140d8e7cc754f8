"""The words for small counts are one table (memori_core/number_words.py), read by capture's rules, the gate's and
the capture scorer: no other module writes an in-order run of them out again, nor a word -> count table."""

from __future__ import annotations

import re

import pytest

from _helpers import written_out_elsewhere
from memori_core.number_words import COUNT_WORDS, NUMBER_WORDS, count_of, number_words

# "one|two|three|four" (an alternation) or '"two": 2, "three": 3' (a word -> count table) written out.
_WRITTEN_OUT = re.compile(r"\bone\|two\|three\|four\b|[\"']two[\"']:\s*2,\s*[\"']three[\"']:\s*3\b")


def test_the_number_words_are_written_out_only_in_number_words() -> None:
    assert written_out_elsewhere(_WRITTEN_OUT, "number_words.py") == []


def test_the_table_holds_one_to_twelve_in_order() -> None:
    assert list(NUMBER_WORDS.values()) == list(range(1, 13))
    assert number_words("twelve").split("|") == list(NUMBER_WORDS)


@pytest.mark.parametrize(("said", "count"), [
    ("7", 7), ("a", 1), ("An", 1), ("eleven", 11), ("A Couple  of", 2), ("couple of", 2), ("a few", 3), ("few", 3),
])
def test_a_count_is_read_from_digits_or_its_words_in_any_case_and_spacing(said: str, count: int) -> None:
    assert count_of(said) == count


def test_a_word_that_is_no_count_raises_key_error_and_a_bad_last_word_names_the_argument() -> None:
    assert "several" not in COUNT_WORDS
    with pytest.raises(KeyError):
        count_of("several")
    with pytest.raises(ValueError, match="last must be one of"):
        number_words("thirteen")
