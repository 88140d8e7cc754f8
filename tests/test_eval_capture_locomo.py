"""``memori eval capture-locomo``: rule-based capture scored against LoCoMo's per-session observations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from _helpers import HashEmbedder, write_json
from memori_core.cli import main
from memori_core.evaluation.capture_locomo import evaluate_capture_locomo, name_subject

HASH = "_helpers:HashEmbedder"


def _locomo() -> list[dict]:
    def turn(speaker: str, dia: str, text: str) -> dict:
        return {"speaker": speaker, "dia_id": dia, "text": text}

    first = {
        "sample_id": "conv-a",
        "conversation": {
            "speaker_a": "Ana", "speaker_b": "Bo", "session_1_date_time": "1:00 pm on 1 May, 2023",
            "session_1": [turn("Ana", "D1:1", "I live in Lisbon."), turn("Bo", "D1:2", "Nice! I play the cello."),
                          turn("Ana", "D1:3", "What a day!"), turn("Ana", "D1:4", "Thanks, sounds good.")],
        },
        "observation": {"session_1_observation": {
            "Ana": [["Ana lives in Lisbon.", "D1:1"], ["Ana adopted a grey cat named Pixel.", "D1:3"]],
            "Bo": [["Bo plays the cello.", ["D1:2"]]],
        }},
    }
    more = [json.loads(json.dumps(first).replace("conv-a", name)) for name in ("conv-b", "conv-c")]
    return [first, {"sample_id": "no-observations", "conversation": {}}, *more]


def test_name_subject_puts_the_speaker_where_the_user_was() -> None:
    assert name_subject("User's dog is Bo.", "Ana") == "Ana's dog is Bo."
    assert name_subject("User lives in Lisbon.", "Ana") == "Ana lives in Lisbon."
    assert name_subject("I've had a lot happening to me, my friends say.", "Mel") == \
        "Mel has had a lot happening to Mel, Mel's friends say."


def test_scores_by_evidence_turn_and_by_content_hand_computed(tmp_path: Path) -> None:
    path = write_json(tmp_path / "locomo.json", _locomo())
    result = evaluate_capture_locomo(str(path), conversations=["conv-a"], embedder=HashEmbedder())
    o = result["overall"]
    # Ana's three turns give one fact (D1:1, an observation's evidence); "What a day!" and the
    # thanks give none. Bo's turn gives "User plays the cello." from D1:2, also evidence.
    assert (o["sessions"], o["turns"], o["stored"], o["observations"]) == (1, 4, 2, 3)
    assert o["precision_turn"] == 1.0 and o["recall_turn"] == pytest.approx(2 / 3)
    # With the speaker's name as subject both facts say exactly what an observation says (cosine 1);
    # nothing stored says anything of the cat.
    assert o["precision_content"] == 1.0 and o["recall_content"] == pytest.approx(2 / 3)


def test_reads_a_bounded_number_of_conversations_unless_told(tmp_path: Path) -> None:
    path = write_json(tmp_path / "locomo.json", _locomo())
    assert [c["conversation"] for c in evaluate_capture_locomo(str(path), embedder=HashEmbedder())
            ["conversations"]] == ["conv-a", "conv-b"]  # DEFAULT_CONVERSATIONS, skipping one without observations
    assert len(evaluate_capture_locomo(str(path), all_conversations=True, embedder=HashEmbedder())
               ["conversations"]) == 3
    with pytest.raises(ValueError, match="conversations: .*'conv-z'"):
        evaluate_capture_locomo(str(path), conversations=["conv-z"], embedder=HashEmbedder())
    with pytest.raises(ValueError, match="cosine"):
        evaluate_capture_locomo(str(path), cosine=1.5, embedder=HashEmbedder())


def test_cli_prints_the_table_and_writes_json(tmp_path: Path, capsys) -> None:
    path = write_json(tmp_path / "locomo.json", _locomo())
    out = tmp_path / "r.json"
    assert main(["eval", "capture-locomo", str(path), "--embedder", HASH, "--quiet", "--conversations", "conv-b",
                 "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| conv-b |" in printed and "recall (turn)" in printed
    assert json.loads(out.read_text())["overall"]["stored"] == 2
