"""A new job told the way people tell it (tester j12's finding 2): an offer, then "accepted it", then the first day
done, store the new job and end the old one, through capture over a real Chroma store. Rows of the rules are in
tests/rules/work_changes.toml."""

from __future__ import annotations

from _helpers import HashEmbedder
from memori_core import ChromaStore, RecallEngine, RuleBasedFactExtractor, capture_facts


def _valid_after(*turns: tuple[str, str]) -> list[str]:
    """The valid facts of one user after capturing ``turns`` (said-at time, text) in order with the shipped rules."""
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    for when, text in turns:
        capture_facts(engine, "kez", [("user", text)], RuleBasedFactExtractor(), created_at=when)
    return sorted(f.content for f in engine.list("kez"))


def test_an_offer_accepted_then_begun_replaces_the_old_job() -> None:
    valid = _valid_after(("2026-08-26T19:00:00Z", "i actually work at Pilot Coffee as a barista"),
                         ("2026-10-23T00:30:00Z", "I GOT THE OFFER. junior data analyst at shopify, starting nov 10"),
                         ("2026-10-23T00:32:00Z", "accepted it obviously"),
                         ("2026-11-10T23:00:00Z", "first day at shopify done!!! everyone's so nice"))
    assert "User works as a junior data analyst at shopify." in valid
    assert not any("Pilot Coffee" in fact for fact in valid)


def test_a_job_named_by_its_employer_is_stored_with_the_employer() -> None:
    valid = _valid_after(("2026-08-19T21:10:00Z", "I'm a backend engineer at Monzo"),
                         ("2026-10-14T17:00:00Z",
                          "got the BBC job!!! I start on the 3rd of November, handed in my notice at Monzo"))
    assert any("BBC" in fact for fact in valid)
    assert not any("Monzo" in fact and "works" in fact for fact in valid)
