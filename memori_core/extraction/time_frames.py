"""What a stored fact names only as the time of something else: "before maternity leave" in "User's last day at
school before maternity leave is this Friday.".

Such words do not say the state they name holds: "I'm on maternity leave now." is news beside that fact, not a
repeat of it (:func:`says_outside_time_frames`). Pure: English patterns.
"""

from __future__ import annotations

import re

from .cues import content_words, words_within

__all__ = ["says_outside_time_frames", "without_time_frames"]

# "before maternity leave", "until the wedding", "after my surgery", "ahead of the move": a time told by an event,
# up to three words after the preposition, to the end of the phrase.
_TIME_FRAME = re.compile(
    r"\b(?:before|after|until|till|since|ahead\s+of|in\s+time\s+for|in\s+the\s+run[\s-]up\s+to)\s+"
    r"(?:(?:my|the|their|his|her|our|your)\s+)?[\w-]+(?:\s+(?!(?:is|are|was|were|and|but|on|in|at|this|next)\b)[\w-]+){0,2}",
    re.IGNORECASE,
)


def without_time_frames(text: str) -> str:
    """``text`` without the events it names only as a time ("User's last day at school before maternity leave is
    this Friday." -> "User's last day at school is this Friday.").

    >>> without_time_frames("User's last day at school before maternity leave is this Friday.")
    "User's last day at school is this Friday."
    """
    return re.sub(r"\s{2,}", " ", _TIME_FRAME.sub("", text)).replace(" .", ".").strip()


def says_outside_time_frames(words: frozenset[str], text: str) -> bool:
    """Whether the stored fact ``text`` holds all of ``words`` (:func:`~.cues.content_words` of a new fact) outside
    the events it names only as a time: "User is on maternity leave." is not said by "User's last day at school
    before maternity leave is this Friday.", "User is vegan." is by "User has been vegan since 2019."

    >>> says_outside_time_frames(content_words("User is on maternity leave."),
    ...                          "User's last day at school before maternity leave is this Friday.")
    False
    >>> says_outside_time_frames(content_words("User is vegan."), "User has been vegan since 2019.")
    True
    """
    return words_within(words, content_words(without_time_frames(text)))
