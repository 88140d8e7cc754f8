"""Changes told the chat way (issue 21, from dev7's "change" conversations): an ending told without "I" or in other
words ends the stored fact it ends, and what is only a joke or a mood about oneself is not kept.

Rows of one message -> the facts kept of it, of a message -> nothing kept and why, and of messages -> the facts valid
and ended afterwards are in the case book tests/cases/chat_told_changes.toml (run by test_capture_cases.py); rows
of what a rule returns for a clause are in the rule book tests/rules/chat_told_changes.toml (run by
test_rule_books.py). The tests here capture through capture_facts into a real embedded Chroma store."""

from __future__ import annotations

from _capture import RULES


def test_a_part_among_people_not_named_is_dropped_while_the_clause_beside_it_is_kept() -> None:
    kept = [v.fact for v in RULES.explain("I'm a nurse, she's the planner, I'm the chaos") if v.fact]
    assert kept == ["User is a nurse."]
