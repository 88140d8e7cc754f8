"""The gate: whether anything, and which of the ``limit`` best facts, reaches the prompt.

Two rules, chosen by :attr:`RecallConfig.gate`:

- ``"relevance"`` (default) looks first at the cosines, which words shared by
  chance cannot raise: nothing is injected unless the best cosine among the
  ``limit`` best facts reaches ``gate_open``. Once open, a fact is kept when
  its own cosine reaches ``gate_keep``; and when the best cosine reaches
  ``gate_confident`` (the query clearly is about something stored), also when
  its rank score is at least ``gate_band`` x the best rank score, so facts
  that matter through their words or their session come along. A fact that
  holds most of the query's informative words (normalised BM25 >=
  ``gate_words``, raw BM25 >= ``gate_words_bm25``, cosine >= ``gate_words_cosine``)
  opens the gate and is kept too: words common to most candidates carry no
  BM25 weight, so they cannot do this. In a pool of four facts or fewer (a new
  user's memory) no word can reach ``gate_words_bm25``, however rare, so there
  the bar is :data:`SMALL_POOL_SHARE` of what a word held by a single fact scores.
- ``"threshold"`` is upstream Memori's rule: keep rank scores >= ``relevance_threshold``.

``"off"`` keeps the ``limit`` best. The cutoffs were calibrated on
the development halves of PrefEval, a LongMemEval-style chat memory and LoCoMo
(``docs/ranking.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..config import RecallConfig
from .fusion import passes_threshold
from .lexical import bm25_idf

__all__ = ["BELOW_GATE", "BELOW_THRESHOLD", "GATE_CLOSED", "GATE_RULES", "KEPT", "SMALL_POOL_SHARE", "GateDecision",
           "decide", "rule_names", "USER_WORD", "words_bm25_bar"]

SMALL_POOL_SHARE = 0.8
"""In a small pool, the raw BM25 a fact needs to open the gate by its words, as a share of the idf of a
word held by that fact alone (the most any word can show there); a term counted once in a document of
average length scores about its idf."""

KEPT = "kept"
BELOW_THRESHOLD = "below threshold"
"""Dropped by the ``"threshold"`` gate."""
GATE_CLOSED = "gate closed"
"""The relevance gate did not open for this query: nothing is injected."""
BELOW_GATE = "below gate"
"""The relevance gate opened, but this fact is not relevant enough."""


GATE_RULES: tuple[str, ...] = (
    "", "cosine", "third person", "words", "score band", "care", "implied", "follow-up", "general cosine",
    "general words", "everything asked", "threshold", "no gate", "upcoming",
)
"""The rule that kept a fact, by code (:attr:`GateDecision.rule`; code 0, ``""``: not kept). Documented one by one in
docs/ranking.md ("Which rule kept a fact"): ``"cosine"`` (the gate's cosine reached ``gate_keep``), ``"third
person"`` (it did only with the third-person lift), ``"words"`` (the words rule; for a question in a script the
embedder does not read, the only rule), ``"score band"`` (a confident gate's band of the best rank score),
``"care"``, ``"implied"``, ``"follow-up"`` (the care, implication and follow-up rules, where they alone keep a
fact), ``"general cosine"`` / ``"general words"`` (a general question's stricter bars), ``"everything asked"`` (a
question about what memory holds), ``"threshold"`` (the threshold gate), ``"no gate"`` (``gate="off"``) and
``"upcoming"`` (a plan in force, for a question about what is coming up: :mod:`.upcoming`). Recall
adds ``"judge"``, ``"core"`` and ``"core touched"`` (:data:`memori_core.facts.PASSED_BY`)."""
_CODE = {name: code for code, name in enumerate(GATE_RULES)}
_RELEVANCE_ORDER = np.array([_CODE[r] for r in ("cosine", "third person", "words", "score band", "care", "implied",
                                                "follow-up", "upcoming")], dtype=np.int8)


def rule_names(codes: np.ndarray) -> list[str]:
    """:data:`GATE_RULES` names of rule ``codes`` (``""`` for a fact not kept)."""
    return [GATE_RULES[c] for c in codes.tolist()]


def _all(keep: np.ndarray, name: str) -> np.ndarray:
    """Rule codes: ``name``'s for the kept facts, 0 for the others."""
    return np.where(keep, np.int8(_CODE[name]), np.int8(0))


@dataclass(frozen=True)
class GateDecision:
    """What the gate decided for one query, over the ``limit`` best facts in rank order."""

    kind: str
    """``"relevance"``, ``"threshold"`` or ``"off"``."""
    keep: np.ndarray
    """Per fact (rank order), kept or not."""
    opened: bool
    """Whether anything could be injected (always true for ``"threshold"`` and ``"off"``)."""
    best_cosine: float
    """The best cosine among the ``limit`` best facts (``nan`` when there are none)."""
    confident: bool
    """Relevance gate: the best cosine reached ``gate_confident``."""
    note: str
    """The decision in words, for ``explain()``."""
    spread_cut: np.ndarray | None = None
    """Per fact, dropped by the spread cut after the gate kept it (:mod:`.spread`); ``None``: none."""
    rule: np.ndarray | None = None
    """Per fact (int8), the code in :data:`GATE_RULES` of the rule that kept it, set by the same expressions that set
    ``keep``; read it through :meth:`rules`, which clears the facts not kept (the spread cut and a question about
    someone else clear ``keep`` after the gate). ``None`` only for a decision built elsewhere: :meth:`rules` then
    names none."""

    def rules(self) -> np.ndarray:
        """:attr:`rule`, 0 wherever a later step cleared ``keep`` (int8 per fact)."""
        if self.rule is None:
            return np.zeros(self.keep.shape[0], dtype=np.int8)
        return np.where(self.keep, self.rule, np.int8(0))


USER_WORD = "User"
"""The word a fact written about the user in the third person starts with ("User lives in Porto.", "User's
sister ..."), as the extractors write facts. The engine tests it on the string column
(:meth:`memori_core.cache.strings.StrColumn.starts_with_word`, :func:`~memori_core.cache.strings.text_starts_with_word`)
and gives those facts ``RecallConfig.gate_third_person`` (``decide``'s ``lift``)."""


def words_bm25_bar(config: RecallConfig, pool_size: int | None) -> float:
    """The raw BM25 a fact needs to open the gate by its words: ``gate_words_bm25``, lowered in a pool
    too small for any word to reach it (``pool_size`` documents; ``None``: not lowered)."""
    if pool_size is None or pool_size < 1:
        return config.gate_words_bm25
    rarest = float(bm25_idf(float(pool_size), 1.0))
    return min(config.gate_words_bm25, SMALL_POOL_SHARE * rarest)


def decide(
    cosine: np.ndarray,
    rank_score: np.ndarray,
    config: RecallConfig | None,
    lexical: np.ndarray | None = None,
    bm25: np.ndarray | None = None,
    pool_size: int | None = None,
    care: np.ndarray | None = None,
    general: bool = False,
    followup: bool = False,
    referent: np.ndarray | None = None,
    lift: np.ndarray | None = None,
    implied: np.ndarray | None = None,
    concerns: Sequence[str] = (),
    nothing_asked: str | None = None,
    unread_script: str | None = None,
    everything_asked: bool = False,
    upcoming: np.ndarray | None = None,
    carried: np.ndarray | None = None,
    world: np.ndarray | None = None,
) -> GateDecision:
    """Apply the configured gate to the ``limit`` best facts (``cosine``, ``rank_score``, normalised
    ``lexical`` and raw ``bm25``, all in rank order; without the lexical arrays words do not count).
    ``pool_size`` is the number of documents the BM25 statistics came from (see :func:`words_bm25_bar`).
    ``care`` marks the care facts of a personal food or health question (:mod:`.care`): kept, and opening
    the gate, from a cosine of ``gate_care_cosine``. ``general`` says the question asks about the world, not the
    asker (:mod:`.intent`): a fact is then kept only from a cosine of ``gate_general``, or with a raw BM25 of
    ``gate_general_bm25`` besides the words rule, and care facts get no favour. ``followup`` says the turn is read
    with its conversation: the ``gate_followup_top`` best are kept, and open the gate, from a cosine of
    ``gate_followup``; ``referent`` marks the fact a follow-up's pronoun points to (the best ranked, told by the
    turn just before: :func:`~.conversation.told_in`), kept, and opening the gate, whatever its cosine.
    ``lift`` (the third-person lift, :data:`USER_WORD`) is added to the cosine where ``gate_open``, ``gate_keep``,
    ``gate_confident`` and ``gate_words_cosine`` read it; the care, follow-up and general rules read ``cosine``.
    ``implied`` marks facts whose ``concerns`` the question touches (:mod:`.implications`: care facts and
    limitations): kept, and opening the gate, whatever their cosine. ``nothing_asked`` (a courtesy turn, a turn
    without a word) keeps the relevance gate closed; ``everything_asked`` (a question about what memory holds, "What
    do you know about me?") opens it on every fact of the ``limit`` best; ``unread_script`` (a question in a script
    the embedder does not read) makes it keep only the facts holding most of the question's words, whatever their
    cosine. ``upcoming`` marks the plans in force of a question about what is coming up for the asker
    (:mod:`.upcoming`): kept, and opening the gate, whatever their cosine. ``carried`` marks facts recall kept for
    the turn before, on a follow-up that leans on it (:mod:`.carried`, which bounds them by rank and cosine): kept,
    and opening the gate, unless the question is ``general``; named a follow-up's. ``world`` marks, for a question
    about the world (:mod:`.world_question`), the facts that only share its topic: one the rules above keep by
    its cosine, its words or the score band alone is kept only from a cosine (without the lift) of ``gate_world``."""
    n = cosine.shape[0]
    best = float(cosine.max()) if n else float("nan")
    if config is None or config.gate == "off":
        return GateDecision("off", np.ones(n, dtype=bool), True, best, False, "no gate: the limit best are kept",
                            rule=np.full(n, _CODE["no gate"], dtype=np.int8))
    if config.gate == "threshold":
        t = config.relevance_threshold
        keep = passes_threshold(rank_score, t)
        return GateDecision("threshold", keep, True, best, False, f"threshold: keep score >= {t:g}",
                            rule=_all(keep, "threshold"))
    if nothing_asked is not None:
        return GateDecision("relevance", np.zeros(n, dtype=bool), False, best, False,
                            f"relevance gate closed: {nothing_asked} asks for nothing a fact could answer")
    if everything_asked:
        return GateDecision("relevance", np.ones(n, dtype=bool), bool(n), best, False,
                            f"relevance gate open: the question asks what memory holds: the {n} best are kept",
                            rule=np.full(n, _CODE["everything asked"], dtype=np.int8))
    if unread_script is not None:
        return _unread(cosine, config, lexical, bm25, pool_size, unread_script)
    if lift is not None and not general:
        lifted = cosine + lift
        best = float(lifted.max()) if n else best
    else:
        lifted = cosine
    by_words = _holds_the_words(n, config, lexical, bm25, pool_size) & (lifted >= config.gate_words_cosine)
    if general and config.gate_general is not None:
        usual = decide(cosine, rank_score, config, lexical, bm25, pool_size)
        return _general(usual, cosine, config, by_words, bm25)
    by_care = np.zeros(n, dtype=bool)
    if care is not None and config.gate_care is not None:
        by_care = care & (cosine >= config.gate_care_cosine)
    by_implied = np.zeros(n, dtype=bool) if implied is None or not config.gate_implied else implied.copy()
    by_followup = np.zeros(n, dtype=bool)
    if followup and config.gate_followup is not None:
        by_followup[: config.gate_followup_top] = cosine[: config.gate_followup_top] >= config.gate_followup
    by_referent = np.zeros(n, dtype=bool) if referent is None or not followup else referent.copy()
    by_followup |= by_referent
    by_carried = np.zeros(n, dtype=bool) if carried is None or general else carried.copy()
    by_followup |= by_carried
    by_upcoming = np.zeros(n, dtype=bool) if upcoming is None else upcoming.copy()
    vouched = by_care | by_implied | by_followup | by_upcoming  # a second signal: the world cut spares them
    if not n or (best < config.gate_open and not by_words.any() and not by_care.any() and not by_followup.any()
                 and not by_implied.any() and not by_upcoming.any()):
        return GateDecision(
            "relevance", np.zeros(n, dtype=bool), False, best, False,
            f"relevance gate closed: best cosine {best:.3f} < open {config.gate_open:g}, and no fact holds "
            f"the query's informative words (lexical >= {config.gate_words:g} with cosine >= "
            f"{config.gate_words_cosine:g})",
        )
    by_cosine = lifted >= config.gate_keep
    keep = by_cosine | by_words
    confident = best >= config.gate_confident
    by_band = np.zeros(n, dtype=bool)
    if confident:
        by_band = rank_score >= config.gate_band * float(rank_score.max())
        keep |= by_band
        how = (f"confident (>= {config.gate_confident:g}): keep cosine >= {config.gate_keep:g} "
               f"or score >= {config.gate_band:g} x best score {float(rank_score.max()):.3f}")
    else:
        how = f"tentative (< {config.gate_confident:g}): keep cosine >= {config.gate_keep:g}"
    if by_words.any():
        how += f"; {int(by_words.sum())} kept by their words (lexical >= {config.gate_words:g})"
    # care, implied and upcoming are reported only where they alone keep a fact
    how += _kept_besides(keep, by_care, f"care facts of a personal food or health question "
                                        f"(cosine >= {config.gate_care_cosine:g})")
    how += _kept_besides(keep, by_implied, f"facts whose concerns the question touches "
                                           f"({', '.join(sorted(concerns)) or 'a concern'})")
    by_referent &= ~keep
    n_carried = int(by_carried.sum())  # explain says what the turn before brought, whichever rule names it
    by_carried &= ~keep & ~by_referent
    by_followup &= ~keep & ~by_referent & ~by_carried
    keep |= by_followup | by_referent | by_carried
    if by_followup.any():
        how += (f"; {int(by_followup.sum())} more kept as a follow-up's (among the {config.gate_followup_top} best, "
                f"cosine >= {config.gate_followup:g})")
    if by_referent.any():
        how += "; 1 more kept as what the follow-up's pronoun points to (the best ranked, told by the turn before)"
    if n_carried:
        how += (f"; {n_carried} carried over from the turn before (recall kept them for it), "
                f"{int(by_carried.sum())} kept by that alone")
    how += _kept_besides(keep, by_upcoming, "plans in force for a question about what is coming up "
                                            "(ending later, or telling a day ahead)")
    # The first rule that keeps a fact names it (care, implied and follow-up were masked above to where they alone keep
    # one; the fact a follow-up's pronoun points to is named a follow-up's); for a fact nothing keeps, argmax says 0
    # and rules() clears it. One stack and argmax: cheaper than np.select.
    plain = by_cosine if lifted is cosine else by_cosine & (cosine >= config.gate_keep)
    first = np.array((plain, by_cosine, by_words, by_band, by_care, by_implied, by_followup | by_referent | by_carried,
                      by_upcoming)).argmax(axis=0)
    rule = _RELEVANCE_ORDER[first]
    if world is not None and config.gate_world is not None:
        topical = keep & world & ~vouched & (cosine < config.gate_world)
        if topical.any():
            keep &= ~topical
            how += (f"; a question about the world: {int(topical.sum())} kept on its topic alone left out "
                    f"(cosine < {config.gate_world:g})")
            if not keep.any():
                return GateDecision("relevance", keep, False, best, False, f"relevance gate closed: best cosine "
                                    f"{best:.3f}; {how}")
    return GateDecision("relevance", keep, True, best, confident, f"relevance gate open: best cosine {best:.3f}; {how}",
                        rule=rule)


def _kept_besides(keep: np.ndarray, by: np.ndarray, kept_as: str) -> str:
    """Mask ``by`` to the facts it keeps that ``keep`` does not, and add them to ``keep`` (both in place); the
    clause the gate's explanation says of them ("; 2 more kept as <kept_as>"), empty when there are none."""
    by &= ~keep
    keep |= by
    return f"; {int(by.sum())} more kept as {kept_as}" if by.any() else ""


def _holds_the_words(n: int, config: RecallConfig, lexical: np.ndarray | None, bm25: np.ndarray | None,
                     pool_size: int | None) -> np.ndarray:
    """The words rule before its cosine guard: per fact, whether it holds most of the query's informative words
    (normalised BM25 >= ``gate_words`` and raw BM25 >= :func:`words_bm25_bar`); all false without the lexical
    arrays."""
    if lexical is None or bm25 is None:
        return np.zeros(n, dtype=bool)
    return (lexical >= config.gate_words) & (bm25 >= words_bm25_bar(config, pool_size))


def _unread(cosine: np.ndarray, config: RecallConfig, lexical: np.ndarray | None, bm25: np.ndarray | None,
            pool_size: int | None, script: str) -> GateDecision:
    """The relevance gate for a question in a script the embedder does not read: its cosines are those of text
    the model cannot tell apart, so only the words rule keeps a fact, without its cosine guard."""
    n = cosine.shape[0]
    best = float(cosine.max()) if n else float("nan")
    keep = _holds_the_words(n, config, lexical, bm25, pool_size)
    how = (f"the question is written in {script.title()}, which the embedder does not read: its cosines do not "
           f"count, and only facts holding its words are kept (lexical >= {config.gate_words:g})")
    if not keep.any():
        return GateDecision("relevance", keep, False, best, False, f"relevance gate closed: {how}")
    return GateDecision("relevance", keep, True, best, False, f"relevance gate open: {how}: {int(keep.sum())} kept",
                        rule=_all(keep, "words"))


def _general(usual: GateDecision, cosine: np.ndarray, config: RecallConfig, by_words: np.ndarray,
             bm25: np.ndarray | None) -> GateDecision:
    """The relevance gate for a general-knowledge question (:mod:`.intent`): of what the ``usual`` rules
    (without care facts) keep, only facts at ``gate_general`` or holding many of its words."""
    assert config.gate_general is not None
    if not usual.keep.any():
        return replace(usual, note=f"{usual.note}; a general question (not about the user)")
    by_cosine = cosine >= config.gate_general
    many_words = by_words & (bm25 >= config.gate_general_bm25) if bm25 is not None else by_words
    keep = usual.keep & (by_cosine | many_words)
    rule = (f"a general question (not about the user): of those, keep cosine >= {config.gate_general:g} or raw "
            f"BM25 >= {config.gate_general_bm25:g} with the words rule: {int(keep.sum())} of {int(usual.keep.sum())} kept")
    if not keep.any():
        return GateDecision("relevance", keep, False, usual.best_cosine, False,
                            f"relevance gate closed: {usual.note.removeprefix('relevance gate open: ')}; {rule}")
    return GateDecision("relevance", keep, True, usual.best_cosine, usual.confident, f"{usual.note}; {rule}",
                        rule=np.where(keep & by_cosine, np.int8(_CODE["general cosine"]), _all(keep, "general words")))
