"""`memori eval app`: the app-memory loader, its metrics on a tiny file written here, the shipped dev set."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import numpy as np
import pytest

from _helpers import TextVectorEmbedder, edited, run_eval, write_json
from memori_core import RecallEngine
from memori_core.cli import main
from memori_core.evaluation import KINDS, OFFTOPIC_KINDS, evaluate_app_memory, load_app_memory
from memori_core.evaluation.app_memory import accepts_keyword
from memori_core.evaluation.report import app_memory_table
from memori_core.ranking.implications import (asked_slots, asks_what_to_do, implied_rows, named_rows, named_words,
                                              slot_rows)
from memori_core.ranking.kin import kin_named, kin_rows

DEV = Path(__file__).resolve().parents[1] / "evals" / "app_memory" / "dev.json"

TOPICS = {
    "peanut": ("peanut", "satay"),
    "cat": ("cat", "biscuit"),
    "bike": ("bike", "cycling"),
    "mia": ("mia", "daughter"),
}


class TopicEmbedder(TextVectorEmbedder):
    """One dimension per topic of :data:`TOPICS` (on when a keyword occurs in the text), plus a small
    constant: texts of one topic have cosine ~1, texts without a common topic ~0."""

    name = "topic"

    def _vec(self, text: str) -> np.ndarray:
        lower = text.lower()
        v = np.zeros(len(TOPICS) + 1, dtype=np.float32)
        v[-1] = 0.02
        for i, words in enumerate(TOPICS.values()):
            v[i] = 1.0 if any(w in lower for w in words) else 0.0
        return v


def tiny() -> dict:
    """One user, four facts; each turn's outcome under the topic embedder is written next to it."""
    def turn(text: str, needs: list[str], kind: str) -> dict:
        return {"text": text, "needs": needs, "kind": kind}

    return {"name": "tiny", "version": 1, "users": [{
        "user": "alice",
        "facts": [
            {"id": "a1", "text": "User is allergic to peanuts.", "core": True, "domain": "diet"},
            {"id": "a2", "text": "User has a cat called Biscuit.", "domain": "pets"},
            {"id": "a3", "text": "User commutes by bike."},
            {"id": "a4", "text": "User's daughter Mia is 6.", "created_at": "2025-03-01T09:00:00Z"},
        ],
        "dialogues": [
            {"id": "d1", "turns": [turn("What am I allergic to, peanuts?", ["a1"], "explicit")]},  # hit
            {"id": "d2", "turns": [turn("Is satay sauce okay for me?", ["a1"], "implicit")]},  # hit
            {"id": "d3", "turns": [turn("Can Mia ride her bike to school?", ["a3", "a4"], "multi")]},  # both
            {"id": "d4", "turns": [turn("Plan a day out with my daughter.", ["a4", "a2"], "multi")]},  # a4 only
            {"id": "d5", "turns": [turn("What should we do this weekend?", ["a2"], "implicit")]},  # nothing
            {"id": "d6", "turns": [
                turn("We're off to a satay place tonight.", ["a1"], "explicit"),  # hit
                # nothing, unless the context counts ("What should I order?" would be a meal question of its own)
                turn("What do you recommend there?", ["a1"], "followup"),
            ]},
            {"id": "d7", "turns": [turn("What is the capital of Australia?", [], "offtopic")]},  # clean
            {"id": "d8", "turns": [
                turn("Is my cat Biscuit okay home alone?", ["a2"], "explicit"),  # hit
                turn("How many ounces are in a pound?", [], "offtopic_followup"),  # clean alone
            ]},
            {"id": "d9", "turns": [turn("How fast can a cat run?", [], "offtopic")]},  # a2: not clean
        ],
    }]}


@pytest.fixture
def tiny_file(tmp_path: Path) -> Path:
    return write_json(tmp_path / "app_tiny.json", tiny())


# -- loading -----------------------------------------------------------------


def test_load_reads_users_facts_dialogues_and_turns(tiny_file: Path) -> None:
    data = load_app_memory(tiny_file)
    assert (data.name, data.version) == ("tiny", 1)
    (alice,) = data.users
    assert [f.id for f in alice.facts] == ["a1", "a2", "a3", "a4"]
    assert [f.core for f in alice.facts] == [True, False, False, False]
    assert alice.facts[0].domain == "diet" and alice.facts[2].domain is None
    assert alice.facts[3].created_at == "2025-03-01T09:00:00Z"
    assert [len(d.turns) for d in alice.dialogues] == [1, 1, 1, 1, 1, 2, 1, 2, 1]
    assert alice.dialogues[2].turns[0].needs == ("a3", "a4")
    assert data.count() == {"users": 1, "facts": 4, "dialogues": 9, "turns": 11, "kinds": {
        "explicit": 3, "implicit": 2, "multi": 2, "followup": 1, "offtopic": 2, "offtopic_followup": 1}}


def _broken(change) -> dict:
    return edited(tiny, change)


def _turn(data: dict, dialogue: int, turn: int) -> dict:
    return data["users"][0]["dialogues"][dialogue]["turns"][turn]


@pytest.mark.parametrize(
    "data, message",
    [
        (_broken(lambda d: _turn(d, 1, 0).update(kind="chitchat")),
         r"user #0 \(alice\) dialogue #1 \(d2\) turn #0: unknown kind 'chitchat' \(expected one of explicit, "),
        (_broken(lambda d: _turn(d, 0, 0).update(needs=["a1", "a9"])),
         r"dialogue #0 \(d1\) turn #0: 'needs' names ids that are no fact of user 'alice': \['a9'\]"),
        (_broken(lambda d: _turn(d, 5, 1).update(text="  ")),
         r"dialogue #5 \(d6\) turn #1: 'text' must be a non-empty string"),
        (_broken(lambda d: _turn(d, 6, 0).update(needs=["a1"])),
         r"turn #0: a offtopic turn needs nothing, but 'needs' is \['a1'\]"),
        (_broken(lambda d: _turn(d, 1, 0).update(needs=[])), r"a implicit turn must name the facts it needs"),
        (_broken(lambda d: _turn(d, 3, 0).update(needs=["a4"])), r"a multi turn needs two or more facts"),
        (_broken(lambda d: d["users"][0]["dialogues"][5]["turns"].pop(0)),
         r"dialogue #5 \(d6\) turn #0: a followup turn cannot open a dialogue"),
        (_broken(lambda d: d["users"][0]["facts"][1].update(id="a1")), r"\(alice\): fact id 'a1' appears twice"),
        (_broken(lambda d: d["users"][0]["facts"][0].update(created_at="yesterday")),
         r"fact #0: 'created_at' is not an ISO 8601 time"),
        (_broken(lambda d: d["users"][0]["facts"][0].update(created_at="0001-01-01T00:00:00+05:00")),
         r"fact #0: 'created_at' 0001-01-01T00:00:00\+05:00 is outside the years 1-9999 in UTC"),
        (_broken(lambda d: d["users"][0].update(dialogues={"id": "d1"})), r"expected a list of dialogues"),
        (_broken(lambda d: d["users"].append(copy.deepcopy(d["users"][0]))), r"user 'alice' appears twice"),
        ([1, 2], r"expected an object, got list"),
    ],
    ids=["bad-kind", "unknown-fact-id", "empty-text", "offtopic-with-needs", "no-needs", "multi-with-one",
         "followup-first", "duplicate-fact-id", "bad-created-at", "created-at-out-of-range", "dialogues-not-a-list", "duplicate-user",
         "not-an-object"],
)
def test_load_rejects_malformed_files_naming_the_file(tmp_path: Path, data: object, message: str) -> None:
    path = write_json(tmp_path / "bad.json", data)
    with pytest.raises(ValueError, match=message) as info:
        load_app_memory(path)
    assert str(info.value).startswith(str(path))


def test_load_a_missing_file_says_so(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(ValueError, match=r"no such file: .*nope\.json"):
        load_app_memory(missing)


# -- metrics -----------------------------------------------------------------


@functools.cache
def _evaluated(use_context: bool) -> dict:
    """One evaluation of the tiny file per setting (the fast tier runs it without the model)."""
    data = load_app_memory(_write(tiny()))
    return evaluate_app_memory(data, embedder=TopicEmbedder(), limit=5, use_context=use_context)


@pytest.fixture
def alone() -> dict:
    """The tiny file with every turn recalled alone (``use_context=False``); a deep copy per test."""
    return copy.deepcopy(_evaluated(False))


def test_overall_metrics_without_context(alone: dict) -> None:
    o = alone["overall"]
    assert (o["n_needed"], o["n_offtopic"]) == (8, 3)
    assert o["needed_hit"] == 6 / 8  # d5 and the follow-up get nothing
    assert o["all_needed_hit"] == 5 / 8  # ...and d4 only half of its needs
    assert o["followup_hit"] == 0.0
    assert o["offtopic_clean"] == 2 / 3  # "How fast can a cat run?" gets the cat
    # d5 gets nothing: a weekend question opens no weekday routine, so the bike commute stays out (docs/ranking.md 58)
    assert o["facts_per_needed_turn"] == (1 + 1 + 2 + 1 + 1 + 1 + 0 + 0) / 8
    assert o["facts_per_offtopic_turn"] == 1 / 3
    # Without the gate, the top 5 of a four-fact memory is the whole memory.
    assert o["no_gate_needed_hit"] == 1.0 and o["no_gate_all_needed_hit"] == 1.0
    assert alone["context"] == {"requested": False, "supported": accepts_keyword(RecallEngine.recall, "context"), "used": False}


@pytest.mark.parametrize(("no_gate", "says"), [
    (1.0, "holds a needed fact for 1.000 of the turns with needs, 0.250 more than what the gate lets through."),
    (0.5, "holds a needed fact for 0.500 of the turns with needs, 0.250 less than what the gate injects (it brings "
          "needed facts from below the top 5)."),
    (0.75, "holds a needed fact for 0.750 of the turns with needs, as often as what the gate lets through."),
])
def test_the_headline_compares_the_ungated_top_k_with_the_gate_either_way(alone: dict, no_gate: float,
                                                                          says: str) -> None:
    alone["overall"]["no_gate_needed_hit"] = no_gate  # the gate's needed-fact hit is 0.750
    table = app_memory_table(alone)
    assert says in table and "-0." not in table


def test_metrics_per_kind_and_per_user(alone: dict) -> None:
    k = alone["kinds"]
    assert list(k) == list(KINDS)
    assert (k["explicit"]["n_needed"], k["explicit"]["needed_hit"]) == (3, 1.0)
    assert (k["implicit"]["needed_hit"], k["implicit"]["all_needed_hit"]) == (0.5, 0.5)
    assert (k["multi"]["needed_hit"], k["multi"]["all_needed_hit"]) == (1.0, 0.5)
    assert k["multi"]["no_gate_all_needed_hit"] == 1.0
    assert (k["followup"]["n_needed"], k["followup"]["needed_hit"]) == (1, 0.0)
    assert (k["offtopic"]["n_offtopic"], k["offtopic"]["offtopic_clean"]) == (2, 0.5)
    assert (k["offtopic_followup"]["offtopic_clean"], k["offtopic_followup"]["needed_hit"]) == (1.0, None)
    assert alone["users"]["alice"]["needed_hit"] == 6 / 8 and alone["users"]["alice"]["turns"] == 11
    d4 = next(t for t in alone["turns"] if t["dialogue"] == "d4")
    assert d4["injected"] == ["a4"] and sorted(d4["no_gate"]) == ["a1", "a2", "a3", "a4"]


def test_context_is_passed_only_where_recall_takes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a recall() that takes ``context=`` (here: prepends it to the query), follow-ups are asked with
    the earlier turns of their dialogue, first turns with none; ``use_context=False`` passes nothing."""
    original = RecallEngine.recall
    seen: list[tuple[str, list[str] | None]] = []

    def recall(self, query, entity_id, limit=None, *, query_vector=None, where=None, context=None):
        seen.append((query, context))
        return original(self, " ".join([*(context or []), query]), entity_id, limit, where=where)

    monkeypatch.setattr(RecallEngine, "recall", recall)
    data = load_app_memory(_write(tiny()))
    result = evaluate_app_memory(data, embedder=TopicEmbedder(), limit=5)
    assert result["context"] == {"requested": True, "supported": True, "used": True}
    asked = dict(seen)
    assert asked["What do you recommend there?"] == ["We're off to a satay place tonight."]
    assert asked["How many ounces are in a pound?"] == ["Is my cat Biscuit okay home alone?"]
    assert asked["What am I allergic to, peanuts?"] is None
    o = result["overall"]
    assert o["followup_hit"] == 1.0  # the satay turn carries the follow-up
    assert o["offtopic_clean"] == 1 / 3  # ...and the cat turn leaks into the ounces question
    seen.clear()
    result = evaluate_app_memory(data, embedder=TopicEmbedder(), limit=5, use_context=False)
    assert result["context"]["used"] is False and all(context is None for _, context in seen)
    assert result["overall"]["followup_hit"] == 0.0


def test_core_facts_are_added_with_core_only_when_asked_and_supported(monkeypatch: pytest.MonkeyPatch) -> None:
    data = load_app_memory(_write(tiny()))
    supported = accepts_keyword(RecallEngine.add, "core")
    result = evaluate_app_memory(data, embedder=TopicEmbedder(), core=True, use_context=False)
    assert result["core"] == {"requested": True, "supported": supported, "used": supported}

    original = RecallEngine.add
    calls: list[tuple[list[str], bool | None]] = []

    def add(self, entity_id, facts, ids=None, created_at=None, metadata=None, *, core=None, **kwargs):
        calls.append((list(ids), core))
        return original(self, entity_id, facts, ids, created_at, metadata, **kwargs)

    monkeypatch.setattr(RecallEngine, "add", add)
    result = evaluate_app_memory(data, embedder=TopicEmbedder(), core=True, use_context=False)
    assert result["core"]["used"] is True
    assert calls == [(["a1"], True), (["a2", "a3", "a4"], None)]
    calls.clear()
    evaluate_app_memory(data, embedder=TopicEmbedder(), use_context=False)
    assert calls == [(["a1", "a2", "a3", "a4"], None)]


def _write(data: dict) -> Path:
    """``data`` in a temporary file (removed at exit)."""
    import atexit
    import tempfile

    handle = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8")
    with handle:
        json.dump(data, handle)
    atexit.register(Path(handle.name).unlink, missing_ok=True)
    return Path(handle.name)


# -- the shipped development set ----------------------------------------------


def test_the_dev_set_loads_and_has_the_promised_shape() -> None:
    data = load_app_memory(DEV)
    assert data.name == "app-memory-dev"
    assert len(data.users) >= 6
    for user in data.users:
        assert 15 <= len(user.facts) <= 40, user.user
        assert 25 <= len(user.turns) <= 45, user.user
        assert all(f.id.startswith(user.user.split("-")[0] + "-") for f in user.facts), user.user
    turns = [t for u in data.users for t in u.turns]
    assert len(turns) >= 200
    kinds = data.count()["kinds"]
    assert all(kinds[k] > 0 for k in KINDS), kinds
    assert kinds["explicit"] < kinds["implicit"]  # explicit questions are a minority
    assert all(not t.needs for t in turns if t.kind in OFFTOPIC_KINDS)
    assert all(t.needs for t in turns if t.kind == "followup")
    texts = [t.text for t in turns]
    assert len(set(texts)) == len(texts)  # no turn is repeated word for word
    facts = [f.text for u in data.users for f in u.facts]
    assert len(set(facts)) == len(facts)  # users are not one template with the names swapped


def test_the_dev_set_users_differ() -> None:
    data = load_app_memory(DEV)
    by_user = [{f.text.split(" ", 1)[1] for f in u.facts} for u in data.users]
    for i, a in enumerate(by_user):
        for b in by_user[i + 1:]:
            assert len(a & b) <= 3


@pytest.mark.parametrize("name, users, facts, turns",
                         [("blind2", 5, 113, 176), ("blind3", 5, 118, 191), ("blind4", 6, 137, 221),
                          ("blind5", 6, 126, 255), ("blind6", 6, 130, 276),
                          ("blind7", 6, 135, 270), ("blind8", 6, 199, 270),
                          ("blind9", 6, 149, 265), ("blind10", 6, 145, 264),
                          ("blind11", 6, 133, 276), ("blind12", 6, 164, 266),
                          ("blind13", 6, 157, 270), ("blind14", 8, 179, 332),
                          ("blind15", 8, 182, 404),
                          ("blind16", 8, 176, 354),
                          ("blind17", 8, 178, 463),
                          ("blind18", 8, 168, 357),
                          ("blind19", 9, 188, 377)])
def test_the_blind_sets_load_with_the_counts_their_readme_gives(name: str, users: int, facts: int, turns: int) -> None:
    data = load_app_memory(DEV.with_name(f"{name}.json"))
    assert data.name == f"app-memory-{name}"
    assert len(data.users) == users
    assert sum(len(u.facts) for u in data.users) == facts
    assert sum(len(u.turns) for u in data.users) == turns


# -- the command -------------------------------------------------------------


def test_cli_prints_the_table_and_writes_json(tiny_file: Path, tmp_path: Path, capsys) -> None:
    run = run_eval(capsys, tmp_path / "app.json", "app", tiny_file, "--no-context", "--quiet",
                   "--embedder", "test_eval_app_memory:TopicEmbedder")
    assert "[#" not in run.err
    assert "app: 1 users, 4 facts, 9 dialogues, 11 turns; limit 5" in run.err
    assert "context: off; core: off" in run.out
    assert "| explicit | 3 | 1.000 | 1.000 | 1.00 | 1.000 | 1.000 | n/a |" in run.out
    assert "| offtopic | 2 | n/a | n/a | 0.50 | n/a | n/a | 0.500 |" in run.out
    assert "| all with needs | 8 | 0.750 | 0.625 | 0.88 | 1.000 | 1.000 | n/a |" in run.out  # d5: no weekday commute
    assert "| alice | 4 | 11 | 0.750 | 0.625 | 0.667 |" in run.out
    assert "follow-up hit 0.000, off-topic clean 0.667" in run.out
    result = run.result
    assert result["task"] == "app" and result["limit"] == 5 and result["embedder"] == "topic"
    assert result["context"]["requested"] is False and result["core"]["requested"] is False
    assert len(result["turns"]) == 11 and result["overall"]["needed_hit"] == 0.75


def test_cli_limit_and_core(tiny_file: Path, capsys) -> None:
    assert main(["eval", "app", str(tiny_file), "--limit", "1", "--core", "--quiet",
                 "--embedder", "test_eval_app_memory:TopicEmbedder"]) == 0
    out = capsys.readouterr().out
    assert "limit 1;" in out and "no gate: needed hit@1" in out
    supported = accepts_keyword(RecallEngine.add, "core")
    assert ("core: core facts added with core=True" if supported else "core: off (add() takes no core=") in out


def test_cli_rejects_a_limit_below_one(tiny_file: Path, capsys) -> None:
    assert main(["eval", "app", str(tiny_file), "--quiet", "--limit", "0"]) == 2
    assert "memori: error: --limit must be >= 1, got 0" in capsys.readouterr().err


def test_cli_rejects_unknown_options_with_the_app_usage(tiny_file: Path, capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["eval", "app", str(tiny_file), "--bogus"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: memori eval app " in err and "unrecognized arguments: --bogus" in err


def test_cli_names_the_bad_turn(tmp_path: Path, capsys) -> None:
    path = write_json(tmp_path / "bad.json", _broken(lambda d: _turn(d, 0, 0).update(kind="nope")))
    assert main(["eval", "app", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memori: error: ") and "dialogue #0 (d1) turn #0: unknown kind 'nope'" in err


# -- with the real model -------------------------------------------------------


@pytest.mark.model
def test_the_dev_set_with_minilm(minilm) -> None:
    """The shipped set through the real embedder: every number is a share, and the gate only removes, except
    the facts a question's words, names or slots imply (ranking/implications.py), or those of the turn a follow-up
    goes on with, or those recall kept for that turn (ranking/carried.py), which it ranks in."""
    users = load_app_memory(DEV)
    result = evaluate_app_memory(users, embedder=minilm, limit=5)
    text = {f.id: f.text for u in users.users for f in u.facts}
    o = result["overall"]
    assert o["n_needed"] + o["n_offtopic"] == len(result["turns"]) >= 200
    for key in ("needed_hit", "all_needed_hit", "followup_hit", "offtopic_clean", "no_gate_needed_hit"):
        assert 0.0 <= o[key] <= 1.0, key
    assert o["all_needed_hit"] <= o["needed_hit"]  # implied facts ranked in can lift it above the ungated top 5
    before = {(u.user, d.id, i): d.turns[i - 1].text for u in users.users for d in u.dialogues
              for i in range(1, len(d.turns))}
    injected = {(t["user"], t["dialogue"], t["turn"]): set(t["injected"]) for t in result["turns"]}
    for turn in result["turns"]:
        ids = sorted(set(turn["injected"]) - set(turn["no_gate"]))
        ranked_in = [text[i] for i in ids]
        # a follow-up carries what recall kept for the turn before (ranking/carried.py)
        kept_before = injected.get((turn["user"], turn["dialogue"], turn["turn"] - 1), set())
        carried = np.array([i in kept_before for i in ids], dtype=bool)
        asked = turn["text"]
        previous = before.get((turn["user"], turn["dialogue"], turn["turn"]))
        if previous is not None and asks_what_to_do(previous):  # a follow-up goes on with the turn before
            asked = f"{asked}\n{previous}"
        named, _ = named_rows(named_words(turn["text"]), ranked_in)
        slotted, _ = slot_rows(asked_slots(turn["text"]), ranked_in)  # "a route near home": where the user lives
        kinned, _ = kin_rows(kin_named(asked), ranked_in, np.zeros(len(ranked_in)))  # "my dad": the facts about him
        assert (implied_rows(asked, ranked_in) | named | slotted | kinned | carried).all(), turn["text"]
        assert len(turn["no_gate"]) == 5
    assert o["needed_hit"] > 0.3  # far above chance (a random fact of ~23 per turn)
