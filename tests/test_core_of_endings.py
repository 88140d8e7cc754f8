"""The end of a diet or a medicine is no core fact, and both write paths mark it alike: capture's rule-based
extractor and a model's MCP ``add`` (tester j19, finding 3: MCP ``add`` stored "User stopped the keto diet." core,
so it was shown on almost every question)."""

from __future__ import annotations

import pytest

pytest.importorskip("mcp", reason="the MCP SDK is the mcp extra: pip install '.[mcp]'")
from mcp.shared.memory import create_connected_server_and_client_session  # noqa: E402

from _helpers import HashEmbedder, ungated_engine  # noqa: E402
from memori_core import ChromaStore, RecallEngine, RuleBasedFactExtractor  # noqa: E402
from memori_core.capture import capture_facts  # noqa: E402
from memori_core.extraction import is_core_fact  # noqa: E402
from memori_core.mcp_server import build_server  # noqa: E402


@pytest.mark.parametrize(("text", "core"), [
    ("User stopped the keto diet.", False),
    ("User quit the keto diet.", False),
    ("User went off the keto diet.", False),
    ("User is off keto.", False),
    ("User gave up being vegetarian.", False),
    ("User stopped being vegan.", False),
    ("User stopped the metformin.", False),
    ("User is off metformin now.", False),
    # a food given up is the restriction that holds now; a diet or a medicine held is core
    ("User quit gluten.", True),
    ("User gave up meat.", True),
    ("User cut out dairy.", True),
    ("User follows a keto diet.", True),
    ("User takes metformin.", True),
])
def test_the_end_of_a_diet_or_a_medicine_is_not_core_and_a_food_given_up_is(text: str, core: bool) -> None:
    assert is_core_fact(text) is core


async def test_capture_and_mcp_add_store_the_end_of_a_diet_alike_not_core_and_not_pinned_off_topic(
        hash_embedder: HashEmbedder) -> None:
    captured = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    for turn in ["I follow a keto diet.", "I stopped the keto diet."]:
        capture_facts(captured, "u", [("user", turn)], RuleBasedFactExtractor())
    by_capture = {f.content: bool(f.metadata.get("core")) for f in captured.list("u")}
    written = ungated_engine()
    async with create_connected_server_and_client_session(build_server(written, entity="u")) as s:
        for fact in ["User follows a keto diet.", "User stopped the keto diet."]:
            await s.call_tool("add", {"facts": [fact]})
        listed = (await s.call_tool("list", {})).structuredContent["facts"]
    by_tool = {f["text"]: bool((f.get("metadata") or {}).get("core")) for f in listed}
    assert by_capture == {"User stopped the keto diet.": False}
    assert by_tool == {"User stopped the keto diet.": False}
    for engine in (captured, written):  # nothing rides along with a question about something else
        assert not [c for c in engine.explain("Can you recommend a good sci-fi novel?", "u").candidates
                    if "core" in c.reason]
