"""Query extraction and per-provider injection over raw SDK kwargs (dicts and the SDKs' typed objects)."""

from __future__ import annotations

import copy
import importlib
from types import SimpleNamespace
from typing import Any

import pytest

from _helpers import HashEmbedder
from memori_core import ChromaStore, MemoriRecall, RecallEngine, format_context, inject_context
from memori_core.query import extract_query_and_context, extract_user_query
from memori_core.sdk import PROVIDERS, check_injectable

# The provider SDKs are test extras (`pip install -e '.[dev]'`), not dependencies: the tests
# of their typed objects take these fixtures and are skipped without the SDK; the rest run.
# Those that are installed are imported here, while the module is collected: their thousands of
# pydantic classes then cost no garbage-collector passes during the run (conftest.pytest_collection).
for _sdk in ("anthropic.types", "openai.types.chat", "openai.types.responses", "google.genai.types"):
    try:
        importlib.import_module(_sdk)
    except ImportError:
        pass


@pytest.fixture
def anthropic_types() -> Any:
    return pytest.importorskip("anthropic.types", reason="the anthropic SDK is not installed")


@pytest.fixture
def openai_types() -> SimpleNamespace:
    chat = pytest.importorskip("openai.types.chat", reason="the openai SDK is not installed")
    responses = pytest.importorskip("openai.types.responses", reason="the openai SDK is not installed")
    return SimpleNamespace(
        ChatCompletionMessage=chat.ChatCompletionMessage,
        EasyInputMessage=responses.EasyInputMessage,
        ResponseInputText=responses.ResponseInputText,
        ResponsesMessage=responses.response_input_item.Message,
    )


@pytest.fixture
def gtypes() -> Any:
    return pytest.importorskip("google.genai.types", reason="the google-genai SDK is not installed")

BLOCK = format_context(
    [
        {"content": "User is allergic to peanuts", "created_at": "2026-05-01T09:30:00Z"},
        {"content": "User prefers spicy food", "created_at": "2026-06-12T18:05:00Z"},
    ]
)


def test_block_fixture_is_a_memori_context_block() -> None:
    assert BLOCK.startswith("<memori_context>\n") and BLOCK.endswith("</memori_context>")


def chat(*turns: tuple[str, str]) -> dict[str, Any]:
    """Chat kwargs (OpenAI chat / Anthropic messages) whose ``messages`` are ``turns``, each a (role, content)."""
    return {"messages": [{"role": role, "content": content} for role, content in turns]}


def injected_unchanged(kwargs: dict[str, Any], provider: str) -> dict[str, Any]:
    """Inject BLOCK and check the caller's kwargs came out exactly as they went in."""
    before = copy.deepcopy(kwargs)
    out = inject_context(kwargs, BLOCK, provider=provider)
    assert kwargs == before, "inject_context mutated the caller's kwargs"
    assert out is not kwargs
    return out


# -- extract_user_query: OpenAI chat / Anthropic messages -----------------------


def test_extract_takes_the_last_user_turn_of_a_chat() -> None:
    kwargs = chat(("system", "Be brief."), ("user", "Hi there"), ("assistant", "Hello!"),
                  ("user", "  What should I cook tonight?  "))
    assert extract_user_query(kwargs) == "What should I cook tonight?"


def test_extract_joins_text_parts_and_ignores_images() -> None:
    kwargs = {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is in this picture?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
                    {"type": "text", "text": "Is it safe for me to eat?"},
                ],
            }
        ]
    }
    assert extract_user_query(kwargs) == "What is in this picture?\nIs it safe for me to eat?"


def test_extract_skips_an_anthropic_tool_result_turn_back_to_the_question(anthropic_types: Any) -> None:
    kwargs = {
        "system": "You are helpful.",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Find me a restaurant in Paris"}]},
            {
                "role": "assistant",
                "content": [
                    anthropic_types.ToolUseBlock(type="tool_use", id="t1", name="search", input={"q": "paris"})
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Le Bistro, 5 rue X"}],
            },
        ],
    }
    assert extract_user_query(kwargs) == "Find me a restaurant in Paris"


def test_extract_reads_typed_sdk_objects(anthropic_types: Any, openai_types: SimpleNamespace) -> None:
    kwargs = {
        "messages": [
            {"role": "user", "content": [anthropic_types.TextBlock(type="text", text="Typed question")]},
            openai_types.ChatCompletionMessage(role="assistant", content="typed answer"),
        ]
    }
    assert extract_user_query(kwargs) == "Typed question"


def test_extract_returns_empty_without_a_user_turn() -> None:
    assert extract_user_query({"messages": [{"role": "system", "content": "x"}]}) == ""
    assert extract_user_query({"messages": [{"role": "user", "content": "   "}]}) == ""
    assert extract_user_query({"messages": []}) == ""
    assert extract_user_query({"model": "gpt-4o"}) == ""
    assert extract_user_query({"messages": [{"role": "user", "content": [{"type": "image", "source": {}}]}]}) == ""


def test_extract_rejects_non_mapping_kwargs() -> None:
    with pytest.raises(TypeError, match="mapping"):
        extract_user_query([{"role": "user", "content": "hi"}])  # type: ignore[arg-type]


# -- extract_user_query: OpenAI Responses ----------------------------------------


def test_extract_from_responses_input_string() -> None:
    assert extract_user_query({"input": "Plan my week"}) == "Plan my week"


def test_extract_from_responses_input_items() -> None:
    kwargs = {
        "instructions": "x",
        "input": [
            {"role": "user", "content": "first question"},
            {"role": "assistant", "content": "an answer"},
            {
                "type": "message",
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "Which wine goes with it?"},
                    {"type": "input_image", "image_url": "https://example.invalid/a.png"},
                ],
            },
            {"type": "function_call_output", "call_id": "c1", "output": "{}"},
        ],
    }
    assert extract_user_query(kwargs) == "Which wine goes with it?"


def test_extract_from_typed_responses_items(openai_types: SimpleNamespace) -> None:
    kwargs = {
        "input": [
            openai_types.EasyInputMessage(role="user", content="older"),
            openai_types.ResponsesMessage(
                role="user", content=[openai_types.ResponseInputText(type="input_text", text="typed newest")]
            ),
        ]
    }
    assert extract_user_query(kwargs) == "typed newest"


# -- extract_user_query: Google GenAI ----------------------------------------------


def test_extract_from_google_contents_string_and_string_list() -> None:
    assert extract_user_query({"contents": "Why is the sky blue?"}) == "Why is the sky blue?"
    # google-genai sends consecutive bare strings as one user turn
    assert extract_user_query({"contents": ["Describe this", "in one line"]}) == "Describe this\nin one line"


def test_extract_from_google_content_dicts_skips_model_turns() -> None:
    kwargs = {
        "contents": [
            {"role": "user", "parts": [{"text": "Recommend a book"}, {"inline_data": {"mime_type": "image/png"}}]},
            {"role": "model", "parts": [{"text": "Try Dune."}]},
        ]
    }
    assert extract_user_query(kwargs) == "Recommend a book"


def test_extract_from_typed_google_contents(gtypes: Any) -> None:
    kwargs = {
        "contents": [
            gtypes.Content(role="user", parts=[gtypes.Part(text="Typed gemini question")]),
            gtypes.Content(role="model", parts=[gtypes.Part(text="answer")]),
            gtypes.Content(
                role="user",
                parts=[gtypes.Part(function_response=gtypes.FunctionResponse(name="f", response={"ok": True}))],
            ),
        ]
    }
    assert extract_user_query(kwargs) == "Typed gemini question"
    assert extract_user_query({"contents": gtypes.UserContent(parts=[gtypes.Part(text="single")])}) == "single"
    assert extract_user_query({"contents": gtypes.Part(text="one part")}) == "one part"


def test_extract_ignores_google_thought_parts() -> None:
    content = {"role": "user", "parts": [{"text": "hidden", "thought": True}, {"text": "visible"}]}
    assert extract_user_query({"contents": [content]}) == "visible"


def test_extract_trailing_bare_parts_after_a_content_form_the_last_turn(gtypes: Any) -> None:
    kwargs = {"contents": [{"role": "user", "parts": [{"text": "old"}]}, "new", gtypes.Part(text="turn")]}
    assert extract_user_query(kwargs) == "new\nturn"


def test_extract_from_google_chat_send_message(gtypes: Any) -> None:
    assert extract_user_query({"message": "chat turn"}) == "chat turn"
    assert extract_user_query({"message": ["a", gtypes.Part(text="b")]}) == "a\nb"


# -- extract_query_and_context: the question and the user turns before it -------------

SEAFOOD = "I'm going to a seafood restaurant tonight with my wife."
ORDER = "What should I order there?"


def test_context_is_the_earlier_user_turns_of_a_chat_oldest_first() -> None:
    kwargs = chat(("system", "Be brief."), ("developer", "Never mention prices."), ("user", "Hi!"),
                  ("assistant", "Hello, how can I help?"), ("user", f"  {SEAFOOD}  "),
                  ("assistant", "Enjoy your evening!"), ("user", ORDER))
    assert extract_query_and_context(kwargs) == (ORDER, ["Hi!", SEAFOOD])
    assert extract_query_and_context(kwargs)[0] == extract_user_query(kwargs)


def test_context_of_a_single_turn_is_empty() -> None:
    assert extract_query_and_context({"messages": [{"role": "user", "content": ORDER}]}) == (ORDER, [])
    assert extract_query_and_context({"messages": [{"role": "system", "content": "x"}]}) == ("", [])
    assert extract_query_and_context({"model": "m"}) == ("", [])
    with pytest.raises(TypeError, match="mapping"):
        extract_query_and_context([{"role": "user", "content": "hi"}])  # type: ignore[arg-type]


def test_context_keeps_text_parts_and_skips_image_only_turns() -> None:
    kwargs = {
        "messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}}]},
            {"role": "user", "content": [
                {"type": "text", "text": "This is the menu."},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA"}},
                {"type": "text", "text": SEAFOOD},
            ]},
            {"role": "assistant", "content": [{"type": "text", "text": "Nice menu."}]},
            {"role": "user", "content": [{"type": "text", "text": ORDER}]},
        ]
    }
    assert extract_query_and_context(kwargs) == (ORDER, ["This is the menu.\n" + SEAFOOD])


def test_context_skips_openai_tool_messages_and_tool_calls() -> None:
    kwargs = {
        "messages": [
            {"role": "user", "content": SEAFOOD},
            {"role": "assistant", "content": None,
             "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "menu", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "oysters, lobster, crab"},
            {"role": "assistant", "content": "They serve oysters."},
            {"role": "user", "content": ORDER},
            {"role": "assistant", "content": None,
             "tool_calls": [{"id": "c2", "type": "function", "function": {"name": "menu", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c2", "content": "prices"},
        ]
    }
    assert extract_query_and_context(kwargs) == (ORDER, [SEAFOOD])


def test_context_skips_anthropic_tool_result_turns(anthropic_types: Any) -> None:
    kwargs = {
        "system": [{"type": "text", "text": "Policy."}],
        "messages": [
            {"role": "user", "content": SEAFOOD},
            {"role": "assistant", "content": [anthropic_types.TextBlock(type="text", text="Have fun!")]},
            {"role": "user", "content": [{"type": "text", "text": ORDER, "cache_control": {"type": "ephemeral"}}]},
            {"role": "assistant", "content": [
                anthropic_types.ToolUseBlock(type="tool_use", id="t1", name="menu", input={})
            ]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "crab, lobster"}]},
        ],
    }
    assert extract_query_and_context(kwargs) == (ORDER, [SEAFOOD])


def test_context_is_bounded_to_the_latest_turns() -> None:
    kwargs = {"messages": [{"role": "user", "content": f"turn {i}"} for i in range(1, 7)]}
    assert extract_query_and_context(kwargs) == ("turn 6", ["turn 3", "turn 4", "turn 5"])  # the default, 3
    assert extract_query_and_context(kwargs, 1) == ("turn 6", ["turn 5"])
    assert extract_query_and_context(kwargs, 0) == ("turn 6", [])
    assert extract_query_and_context(kwargs, 10) == ("turn 6", [f"turn {i}" for i in range(1, 6)])


def test_context_from_responses_input_items(openai_types: SimpleNamespace) -> None:
    kwargs = {
        "instructions": "x",
        "input": [
            openai_types.EasyInputMessage(role="user", content=SEAFOOD),
            {"role": "assistant", "content": "Enjoy!"},
            {"type": "function_call_output", "call_id": "c1", "output": "{}"},
            {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": ORDER},
                {"type": "input_image", "image_url": "https://example.invalid/menu.png"},
            ]},
        ],
    }
    assert extract_query_and_context(kwargs) == (ORDER, [SEAFOOD])
    assert extract_query_and_context({"input": ORDER}) == (ORDER, [])


def test_context_from_google_contents(gtypes: Any) -> None:
    kwargs = {
        "contents": [
            gtypes.Content(role="user", parts=[gtypes.Part(text=SEAFOOD)]),
            gtypes.Content(role="model", parts=[gtypes.Part(text="Enjoy!")]),
            {"role": "user", "parts": [{"text": "thinking", "thought": True}, {"text": ORDER},
                                       {"inline_data": {"mime_type": "image/png"}}]},
            gtypes.Content(
                role="user",
                parts=[gtypes.Part(function_response=gtypes.FunctionResponse(name="f", response={"ok": True}))],
            ),
        ]
    }
    assert extract_query_and_context(kwargs) == (ORDER, [SEAFOOD])
    # bare strings in a row are one user turn; a chat's send_message shows only the new message
    assert extract_query_and_context({"contents": [SEAFOOD, ORDER]}) == (SEAFOOD + "\n" + ORDER, [])
    assert extract_query_and_context({"message": ORDER}) == (ORDER, [])


# -- inject_context: OpenAI chat -------------------------------------------------


def test_openai_appends_to_string_system_message_after_a_blank_line() -> None:
    kwargs = {"model": "m", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]}
    out = injected_unchanged(kwargs, "openai")
    assert out["messages"][0] == {"role": "system", "content": "Be brief.\n\n" + BLOCK}
    assert out["messages"][1] is kwargs["messages"][1]
    assert out["model"] == "m"


def test_openai_appends_to_developer_message() -> None:
    kwargs = {"messages": [{"role": "developer", "content": "Rules."}, {"role": "user", "content": "hi"}]}
    out = injected_unchanged(kwargs, "openai")
    assert out["messages"][0]["role"] == "developer"
    assert out["messages"][0]["content"] == "Rules.\n\n" + BLOCK
    assert len(out["messages"]) == 2


def test_openai_system_message_with_list_content_gets_a_text_part() -> None:
    # upstream Memori crashes here (str + list)
    parts = [{"type": "text", "text": "Be brief."}]
    kwargs = {"messages": [{"role": "system", "content": parts}, {"role": "user", "content": "hi"}]}
    out = injected_unchanged(kwargs, "openai")
    assert out["messages"][0]["content"] == [{"type": "text", "text": "Be brief."},
                                             {"type": "text", "text": "\n\n" + BLOCK}]  # not run on from the prompt
    assert parts == [{"type": "text", "text": "Be brief."}]
    image_only = [{"type": "image_url", "image_url": {"url": "data:,"}}]  # no text before it: no blank line
    out = injected_unchanged({"messages": [{"role": "system", "content": image_only}]}, "openai")
    assert out["messages"][0]["content"][-1] == {"type": "text", "text": BLOCK}


def test_openai_system_message_with_none_or_empty_content_gets_the_block() -> None:
    for content in (None, ""):
        kwargs = {"messages": [{"role": "system", "content": content}, {"role": "user", "content": "hi"}]}
        assert injected_unchanged(kwargs, "openai")["messages"][0]["content"] == BLOCK


def test_openai_without_system_message_inserts_one_first() -> None:
    kwargs = {"messages": [{"role": "user", "content": "hi"}]}
    out = injected_unchanged(kwargs, "openai")
    assert out["messages"] == [{"role": "system", "content": BLOCK}, {"role": "user", "content": "hi"}]
    assert injected_unchanged({"messages": []}, "openai")["messages"] == [{"role": "system", "content": BLOCK}]


def test_openai_accepts_a_tuple_of_messages() -> None:
    out = inject_context({"messages": ({"role": "user", "content": "hi"},)}, BLOCK, provider="openai")
    assert isinstance(out["messages"], list) and out["messages"][0]["content"] == BLOCK


def test_openai_missing_messages_is_an_error_not_a_silent_drop() -> None:
    with pytest.raises(ValueError, match=r"messages.*openai-responses"):
        inject_context({"model": "m", "input": "hi"}, BLOCK, provider="openai")
    with pytest.raises(ValueError, match="messages"):
        inject_context({"messages": None}, BLOCK, provider="openai")


def test_openai_unknown_shapes_name_the_shape() -> None:
    with pytest.raises(ValueError, match="str"):
        inject_context({"messages": "hello"}, BLOCK, provider="openai")
    with pytest.raises(ValueError, match="int"):
        inject_context({"messages": [{"role": "system", "content": 42}]}, BLOCK, provider="openai")


# -- inject_context: OpenAI Responses --------------------------------------------


def test_responses_instructions_absent_none_or_string() -> None:
    assert injected_unchanged({"input": "hi"}, "openai-responses")["instructions"] == BLOCK
    assert injected_unchanged({"input": "hi", "instructions": None}, "openai-responses")["instructions"] == BLOCK
    out = injected_unchanged({"input": "hi", "instructions": "Talk like a pirate."}, "openai-responses")
    assert out["instructions"] == "Talk like a pirate.\n\n" + BLOCK
    assert out["input"] == "hi"


def test_responses_non_string_instructions_is_an_error() -> None:
    with pytest.raises(ValueError, match="instructions.*list"):
        inject_context({"instructions": ["a"]}, BLOCK, provider="openai-responses")


# -- inject_context: Anthropic / Bedrock ------------------------------------------


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_anthropic_system_string(provider: str) -> None:
    out = injected_unchanged({"system": "You are Claude.", "messages": []}, provider)
    assert out["system"] == "You are Claude.\n\n" + BLOCK


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
@pytest.mark.parametrize("system", ["absent", None, ""])
def test_anthropic_system_absent_none_or_empty(provider: str, system: Any) -> None:
    # upstream Memori crashes on None (None + str)
    kwargs: dict[str, Any] = {"messages": [{"role": "user", "content": "hi"}]}
    if system != "absent":
        kwargs["system"] = system
    assert injected_unchanged(kwargs, provider)["system"] == BLOCK


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_anthropic_system_block_list_gets_a_text_block_after_the_cached_prefix(provider: str) -> None:
    # upstream Memori crashes here (list + str)
    system = [{"type": "text", "text": "Long policy.", "cache_control": {"type": "ephemeral"}}]
    out = injected_unchanged({"system": system, "messages": []}, provider)
    assert out["system"] == [system[0], {"type": "text", "text": BLOCK}]
    assert out["system"][0] is system[0]
    assert len(system) == 1


def test_anthropic_unknown_system_shape_is_an_error() -> None:
    with pytest.raises(ValueError, match="system.*dict"):
        inject_context({"system": {"text": "x"}}, BLOCK, provider="anthropic")


def test_bedrock_converse_system_blocks_have_no_type_key() -> None:
    assert injected_unchanged({"messages": []}, "bedrock-converse")["system"] == [{"text": BLOCK}]
    out = injected_unchanged({"system": [{"text": "Be kind."}]}, "bedrock-converse")
    assert out["system"] == [{"text": "Be kind."}, {"text": BLOCK}]
    # a Converse-style list passed as "bedrock" keeps its style too
    out = injected_unchanged({"system": [{"text": "Be kind."}]}, "bedrock")
    assert out["system"] == [{"text": "Be kind."}, {"text": BLOCK}]


# -- inject_context: Google GenAI --------------------------------------------------


def test_google_without_config_gets_a_config_dict() -> None:
    out = injected_unchanged({"model": "gemini", "contents": "hi"}, "google")
    assert out["config"] == {"system_instruction": BLOCK}


@pytest.mark.parametrize(
    ("instruction", "expected"),
    [
        (None, BLOCK),
        ("", BLOCK),
        ("Be terse.", "Be terse.\n\n" + BLOCK),
        (["Be terse.", "Use metric units."], ["Be terse.", "Use metric units.", BLOCK]),
        ([{"text": "Be terse."}], [{"text": "Be terse."}, {"text": BLOCK}]),
        ({"parts": [{"text": "Be terse."}]}, {"parts": [{"text": "Be terse."}, {"text": BLOCK}]}),
        ({"role": "system", "parts": []}, {"role": "system", "parts": [{"text": BLOCK}]}),
        ({"text": "Be terse."}, [{"text": "Be terse."}, {"text": BLOCK}]),
    ],
    ids=["none", "empty", "str", "str-list", "part-dicts", "content-dict", "content-no-parts", "part-dict"],
)
def test_google_config_dict_shapes(instruction: Any, expected: Any) -> None:
    kwargs = {"contents": "hi", "config": {"temperature": 0.2, "system_instruction": instruction}}
    out = injected_unchanged(kwargs, "google")
    assert out["config"] == {"temperature": 0.2, "system_instruction": expected}


def test_google_top_level_system_instruction() -> None:
    out = injected_unchanged({"contents": "hi", "system_instruction": "Be terse."}, "google")
    assert out["system_instruction"] == "Be terse.\n\n" + BLOCK
    assert "config" not in out


def test_google_typed_config_is_copied_not_mutated(gtypes: Any) -> None:
    config = gtypes.GenerateContentConfig(temperature=0.3, system_instruction="Be terse.")
    out = injected_unchanged({"contents": "hi", "config": config}, "google")
    new = out["config"]
    assert isinstance(new, gtypes.GenerateContentConfig) and new is not config
    assert new.system_instruction == "Be terse.\n\n" + BLOCK
    assert new.temperature == 0.3
    assert config.system_instruction == "Be terse."


def test_google_typed_config_without_instruction(gtypes: Any) -> None:
    config = gtypes.GenerateContentConfig(max_output_tokens=10)
    out = injected_unchanged({"contents": "hi", "config": config}, "google")
    assert out["config"].system_instruction == BLOCK
    assert out["config"].max_output_tokens == 10
    assert config.system_instruction is None


def test_google_typed_content_instruction_gets_a_typed_part(gtypes: Any) -> None:
    content = gtypes.Content(parts=[gtypes.Part(text="Be terse.")])
    config = gtypes.GenerateContentConfig(system_instruction=content)
    out = injected_unchanged({"contents": "hi", "config": config}, "google")
    new = out["config"].system_instruction
    assert isinstance(new, gtypes.Content)
    assert [p.text for p in new.parts] == ["Be terse.", BLOCK]
    assert all(isinstance(p, gtypes.Part) for p in new.parts)
    assert [p.text for p in content.parts] == ["Be terse."]


def test_google_typed_content_without_parts_gets_a_typed_part(gtypes: Any) -> None:
    config = gtypes.GenerateContentConfig(system_instruction=gtypes.Content(role="user"))
    new = injected_unchanged({"config": config}, "google")["config"].system_instruction
    assert isinstance(new.parts[0], gtypes.Part) and new.parts[0].text == BLOCK


def test_google_typed_part_and_part_list_instructions(gtypes: Any) -> None:
    part = gtypes.Part(text="Be terse.")
    out = injected_unchanged({"config": gtypes.GenerateContentConfig(system_instruction=part)}, "google")
    new = out["config"].system_instruction
    assert new[0] is part and isinstance(new[1], gtypes.Part) and new[1].text == BLOCK
    parts = [gtypes.Part(text="a"), gtypes.Part(text="b")]
    out = injected_unchanged({"config": gtypes.GenerateContentConfig(system_instruction=parts)}, "google")
    assert [p.text for p in out["config"].system_instruction] == ["a", "b", BLOCK]


def test_google_result_is_accepted_by_google_genai_validation(gtypes: Any) -> None:
    """The injected config dict validates into the SDK's own config type with the block last."""
    kwargs = {"config": {"system_instruction": {"parts": [{"text": "Be terse."}]}}}
    out = inject_context(kwargs, BLOCK, provider="google")
    config = gtypes.GenerateContentConfig.model_validate(out["config"])
    assert [p.text for p in config.system_instruction.parts] == ["Be terse.", BLOCK]


def test_google_unknown_shapes_are_errors() -> None:
    with pytest.raises(ValueError, match="config.*str"):
        inject_context({"config": "nope"}, BLOCK, provider="google")
    with pytest.raises(ValueError, match="system_instruction.*int"):
        inject_context({"config": {"system_instruction": 5}}, BLOCK, provider="google")
    with pytest.raises(ValueError, match="request"):
        inject_context({"request": object()}, BLOCK, provider="google")


# -- inject_context: general -------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
def test_empty_block_returns_an_equal_copy(provider: str) -> None:
    kwargs = {"messages": [{"role": "user", "content": "hi"}], **({} if provider == "openai" else {"system": "s"})}
    for block in ("", "  \n"):
        out = inject_context(kwargs, block, provider=provider)
        assert out == kwargs and out is not kwargs


@pytest.mark.parametrize(("kwargs", "provider", "message"), [
    ({"system": "You are a cook.", "messages": [{"role": "user", "content": "Peanuts?"}]}, "openai",
     "kwargs has a top-level 'system', the Anthropic / Bedrock shape, which provider 'openai' does not take"),
    ({"messages": [{"role": "system", "content": "You are a cook."}, {"role": "user", "content": "Peanuts?"}]},
     "anthropic", "kwargs\\['messages'\\] holds a 'system' message, the OpenAI shape, which provider 'anthropic' "
     "does not take"),
    ({"messages": [{"role": "developer", "content": "Be terse."}, {"role": "user", "content": [{"text": "Hi"}]}]},
     "bedrock-converse", "holds a 'developer' message, the OpenAI shape, which provider 'bedrock-converse'"),
])
def test_kwargs_shaped_for_another_provider_are_refused_naming_the_provider(kwargs: dict, provider: str,
                                                                            message: str) -> None:
    # A tester's OpenAI-shaped kwargs with provider="anthropic" got a top-level system beside the system message:
    # a request the API rejects, the app's own system prompt not merged with the block.
    with pytest.raises(ValueError, match=message):
        inject_context(kwargs, BLOCK, provider=provider)
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    engine.add("alice", ["User is allergic to peanuts."])
    with pytest.raises(ValueError, match=message):  # before any recall
        MemoriRecall(engine, entity_id="alice").apply(kwargs, provider=provider)


def test_unknown_provider_is_an_error_naming_it() -> None:
    with pytest.raises(ValueError, match="'cohere'.*openai"):
        inject_context({"messages": []}, BLOCK, provider="cohere")


def test_provider_names_are_case_insensitive_with_aliases() -> None:
    out = inject_context({"contents": "hi"}, BLOCK, provider="Gemini")
    assert out["config"] == {"system_instruction": BLOCK}
    out = inject_context({"input": "hi"}, BLOCK, provider="OpenAI_Responses")
    assert out["instructions"] == BLOCK


def test_bad_argument_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match="block"):
        inject_context({"messages": []}, None, provider="openai")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mapping"):
        inject_context([], BLOCK, provider="openai")  # type: ignore[arg-type]


def test_check_injectable_raises_like_inject_context() -> None:
    assert check_injectable({"messages": []}, "OPENAI") == "openai"
    with pytest.raises(ValueError, match="messages"):
        check_injectable({"input": "x"}, "openai")


# -- a block an earlier turn wrote is replaced ------------------------------------------------------------------

_OLD = format_context([SimpleNamespace(content="User is allergic to peanuts.", created_at=None, metadata={})])
_NEW = format_context([SimpleNamespace(content="User has a dog named Biscuit.", created_at=None, metadata={})])


def _system_text(kwargs: dict[str, Any], provider: str) -> str:
    """Every text of the system prompt ``provider`` reads, joined."""
    if provider == "openai":
        first = kwargs["messages"][0]
        if first["role"] != "system":
            return ""
        content = first["content"]
    elif provider == "openai-responses":
        content = kwargs.get("instructions") or ""
    elif provider == "google":
        content = (kwargs.get("config") or {}).get("system_instruction") or ""
    else:
        content = kwargs.get("system") or ""
    if isinstance(content, str):
        return content
    return "\n".join(p["text"] if isinstance(p, dict) else p for p in content)


@pytest.mark.parametrize("provider, kwargs", [
    ("openai", {"messages": [{"role": "system", "content": f"Be brief.\n\n{_OLD}"}, {"role": "user", "content": "Hi"}]}),
    ("openai", {"messages": [{"role": "system", "content": [{"type": "text", "text": "Be brief."},
                                                            {"type": "text", "text": f"\n\n{_OLD}"}]},
                             {"role": "user", "content": "Hi"}]}),
    ("openai", {"messages": [{"role": "system", "content": _OLD}, {"role": "user", "content": "Hi"}]}),
    ("openai-responses", {"instructions": f"Be brief.\n\n{_OLD}", "input": "Hi"}),
    ("anthropic", {"system": f"Be brief.\n\n{_OLD}", "messages": []}),
    ("anthropic", {"system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}},
                              {"type": "text", "text": f"\n\n{_OLD}"}], "messages": []}),
    ("bedrock-converse", {"system": [{"text": "Be brief."}, {"text": _OLD}], "messages": []}),
    ("google", {"config": {"system_instruction": f"Be brief.\n\n{_OLD}"}, "contents": "Hi"}),
])
def test_a_block_an_earlier_turn_wrote_is_replaced_not_stacked(provider, kwargs):
    # An app that keeps the messages a call was sent with as its history sends the earlier block again; it held
    # a fact deleted since, which the model must not read.
    before = copy.deepcopy(kwargs)
    text = _system_text(inject_context(kwargs, _NEW, provider), provider)
    assert text.count("<memori_context>") == 1 and "Biscuit" in text and "peanuts" not in text
    assert text.startswith("Be brief.") or text.startswith("<memori_context>")
    emptied = _system_text(inject_context(kwargs, "", provider), provider)
    assert "<memori_context>" not in emptied and "peanuts" not in emptied  # no fact this turn: the old block goes
    assert kwargs == before  # the caller's kwargs are never changed


def test_text_that_only_mentions_the_tag_is_not_taken_for_a_block():
    kwargs = {"messages": [{"role": "system", "content": "Facts come in a <memori_context> block."},
                           {"role": "user", "content": "Hi"}]}
    out = inject_context(kwargs, _NEW, "openai")["messages"][0]["content"]
    assert out.startswith("Facts come in a <memori_context> block.") and out.count("Biscuit") == 1
