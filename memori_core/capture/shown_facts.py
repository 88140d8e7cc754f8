"""The stored facts capture shows an extractor besides the best-ranked ones: those of the turn's slots and of what
it changes (:func:`same_slot_facts`), with the limits on how many (:data:`EXISTING_FACTS_LIMIT` ...); and which of
them a replayed turn is judged against (:func:`held_then`), by capture and by a model's writes alike."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from ..extraction.named import told_of
from ..extraction.new_jobs import takes_an_offer
from ..extraction.pronoun_referents import opens_with_pronoun
from ..extraction.rule_based import plain_reading
from ..extraction.sentences import split_sentences
from ..extraction.corrections import corrected_words
from ..extraction.retimed import times_corrected
from ..extraction.cues import content_words, is_ended, is_negated
from ..extraction.endings import disposed_words, named_change, stopped_words
from ..extraction.slots import JOB_OFFER, slots_of
from ..extraction.subjects import names_in
from ..extraction.supersede import hangs_on
from ..validate import iso_to_ts

EXISTING_FACTS_LIMIT = 5
"""How many of the user's best-ranked stored facts (``engine.nearest``, no gate) an extractor that wants them is shown."""

SLOT_FACTS_LIMIT = 5
"""How many stored facts of the turn's slots (where the user lives, job, diet...) it is also shown."""

SLOT_SCAN_LIMIT = 500
"""How many of the user's newest valid facts are scanned for those of the turn's slots."""


def held_then(facts: Iterable[Any], replayed: datetime | None = None, *, stated: bool = True) -> list[Any]:
    """The facts of ``facts`` (stored facts) not expired at ``replayed`` (a replayed turn's time,
    :func:`~memori_core.validate.turn_as_of`; ``None``: now) and, for a replay, stated by then (unless not
    ``stated``): what a turn said then is compared with for a repeat (a replayed turn is not told what came after
    it). What it ends may have been stated after it (not ``stated``): the engine lands the replay in that fact's
    past (:mod:`memori_core.engine.late_facts`)."""
    now = time.time() if replayed is None else replayed.timestamp()
    return [f for f in facts if not _expired(getattr(f, "expires_at", None), now)
            and (replayed is None or not stated or _stated_by(f, now))]


def _expired(expires_at: Any, now: float) -> bool:
    try:
        return bool(expires_at) and iso_to_ts(expires_at) <= now
    except ValueError:
        return False


def _stated_by(fact: Any, when: float) -> bool:
    """Whether ``fact`` was stated by ``when`` (epoch seconds)."""
    try:
        return iso_to_ts(getattr(fact, "created_at", None) or "") <= when
    except (TypeError, ValueError):
        return True


# The slots whose stored facts a turn naming a name they hold may change ("I left Google", "I left Lisbon", "I
# started at Dynatrace" of an offer from there).
_NAMED_SLOTS = frozenset({"job", "residence", JOB_OFFER})
# "I turned down the offer": the stored offers, whatever the turn's slots.
_OFFER_WORD = re.compile(r"\boffers?\b", re.IGNORECASE)


def same_slot_facts(engine: Any, entity_id: str, text: str, skip: set[str], limit: int = SLOT_FACTS_LIMIT) -> list[Any]:
    """The user's valid stored facts (newest first, at most ``limit``, ids in ``skip`` left out) of the slots
    ``text`` speaks of (:func:`~memori_core.extraction.slots.slots_of`), for a negated ``text`` ("I don't
    play tennis anymore") those holding its words, and for a thing sold or given away ("I sold the Civic")
    or a habit stopped ("I gave up on Spanish") those naming it, and for a change of someone named ("Max
    passed away") those naming them, and for a correction ("I meant Porto, not Lisbon") those holding what it
    says was wrong, and the job or home facts naming a name ``text`` says ("I left Google for Meta" shows "User
    works at Google as a designer.", "I started at Dynatrace" the offer from there; "I turned down the offer" and "accepted it" the
    stored offers): the fact a change replaces is shown to the extractor even when recall's
    gate does not pass it. ``text`` is read as said and as the rules read it
    (:func:`~memori_core.extraction.rule_based.plain_reading`: "I can stop the metformin" shows "User is taking
    metformin."), with what it speaks of without saying (:func:`~memori_core.extraction.named.told_of`:
    "Marco's birthday is ..." shows the facts naming Marco, "hes coeliac" the user's partner, "im in exeter now"
    the stored home), and for a turn opening with "he" / "she" the facts stored last, first (the previous turn's,
    which may name who that is: :mod:`~memori_core.extraction.pronoun_referents`). ``[]`` for an engine without
    ``list``."""
    plain = plain_reading(text)
    implied, subjects = told_of(text)
    slots = slots_of(text) | slots_of(plain) | implied | ({JOB_OFFER} if _OFFER_WORD.search(text) or takes_an_offer(text) else set())
    negated = is_negated(text) or is_negated(plain)
    disposed = disposed_words(text) | stopped_words(text) | stopped_words(plain)
    named = {said[0] for said in map(named_change, split_sentences(text)) if said is not None} | subjects
    corrected = [wrong for wrong in map(corrected_words, split_sentences(text)) if wrong]
    corrected += [content_words(time) for time in times_corrected(text)]  # "sorry, 7am": the facts holding "7pm"
    # "I left Google for Meta", "I left Lisbon for Porto": the stored job or home naming a name the turn says
    proper = names_in(text)
    # "I gave up on guitar": what hung on it ("User bought a Yamaha acoustic."), which ends with it
    endings = [clause for clause in plain.split(". ") if is_negated(clause) or is_ended(clause)]
    lister = getattr(engine, "list", None)
    opening = opens_with_pronoun(text)  # "She has ...": what the previous turn stored names who she is
    if not (slots or negated or disposed or named or corrected or proper or opening) or not callable(lister):
        return []
    words = content_words(text) | content_words(plain)

    def wanted(content: str) -> bool:
        if slots & slots_of(content):
            return True
        if named and any(re.search(rf"\b{re.escape(name)}\b", content) for name in named):
            return True  # "Max passed away": the stored fact naming Max
        if proper and slots_of(content) & _NAMED_SLOTS \
                and any(re.search(rf"\b{re.escape(name)}\b", content) for name in proper):
            return True  # "I left Google": the stored "User works at Google as a designer."
        old = content_words(content)  # "I don't play tennis anymore": the facts holding its words
        if disposed & old or any(wrong <= old for wrong in corrected):  # "I meant Porto, not Lisbon"
            return True
        if any(hangs_on(ending, content) for ending in endings):
            return True
        return negated and bool(old) and len(words & old) >= min(2, len(old))

    listed = lister(entity_id, limit=SLOT_SCAN_LIMIT)
    last = [f for f in listed if f.id not in skip and f.created_at == listed[0].created_at] if opening else []
    told_last = {f.id for f in last}
    found = [f for f in listed if f.id not in skip and f.id not in told_last and wanted(f.content)]
    return (last + found)[:limit]
