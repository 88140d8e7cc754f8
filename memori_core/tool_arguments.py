"""The memory tools' arguments as a model sees them, declared once for every framework that shows them.

:data:`TOOL_ARGUMENTS` lists, per operation of :data:`~memori_core.memory_tools.TOOL_NAMES`, each argument's
name, type, default, bounds and description; :func:`argument_models` makes the pydantic models the LangChain
tools (``args_schema``) and the LlamaIndex tool spec (``fn_schema``) hand their framework, each over the base
model its framework's checks need. No argument names an entity: whose memory a tool uses is never the model's
to say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from .memory_tools import DEFAULT_PAGE, MAX_PAGE, MAX_TOOL_TEXT, TOOL_NAMES

__all__ = ["ARGUMENT_DESCRIPTIONS", "REQUIRED", "TOOL_ARGUMENTS", "ToolArgument", "argument_models"]

REQUIRED: Any = object()
"""The default of an argument the model must pass."""

ARGUMENT_DESCRIPTIONS: dict[str, str] = {
    "text": f"The fact, as one short statement about the user (at most {MAX_TOOL_TEXT} characters).",
    "query": "What to look for in the user's memory, e.g. the user's question.",
    "offset": "How many of the newest facts to skip (0: from the newest).",
    "limit": "How many facts to show.",
    "restored_id": "The id of the replaced fact, as remember named it when it replaced it.",
    "core": "true: recall this fact on every turn, whatever the question; false: only when relevant. Leave it out: "
            "allergies, medication and diets are core, other facts are not.",
    "updated_id": "The id of the fact to change, as recall_memory or remember returned it.",
    "forgotten_id": "The id of the fact to delete, as recall_memory or remember returned it.",
    "cancelled_id": "The id of the change told ahead (remember's 'From <day> on, it is fact <id>'), or of the fact "
                    "that told it.",
}
"""What the model reads about each argument (``*_id`` are the ``fact_id`` of ``restore_memory``,
``update_memory`` and ``forget_memory``)."""


@dataclass(frozen=True)
class ToolArgument:
    """One argument of a memory tool: ``kind`` is ``str``, ``int`` or ``bool`` (a flag takes only a JSON
    boolean: "yes" or 1 for ``core`` is refused, since a core fact is in every prompt from then on); a
    ``default`` of ``None`` makes it optional; ``at_least`` / ``at_most`` bound a number."""

    name: str
    kind: type
    description: str
    default: Any = REQUIRED
    at_least: int | None = None
    at_most: int | None = None


_D = ARGUMENT_DESCRIPTIONS

TOOL_ARGUMENTS: dict[str, tuple[ToolArgument, ...]] = {
    "remember": (ToolArgument("text", str, _D["text"]), ToolArgument("core", bool, _D["core"], None)),
    "recall": (ToolArgument("query", str, _D["query"]),),
    "list": (ToolArgument("offset", int, _D["offset"], 0, at_least=0),
             ToolArgument("limit", int, _D["limit"], DEFAULT_PAGE, at_least=1, at_most=MAX_PAGE)),
    "update": (ToolArgument("fact_id", str, _D["updated_id"]), ToolArgument("text", str, _D["text"])),
    "forget": (ToolArgument("fact_id", str, _D["forgotten_id"]),),
    "restore": (ToolArgument("fact_id", str, _D["restored_id"]),),
    "cancel": (ToolArgument("fact_id", str, _D["cancelled_id"]),),
}
"""Each operation's arguments, in the order a tool takes them."""

M = TypeVar("M")


def argument_models(base: type[M]) -> dict[str, type[M]]:
    """A pydantic model per operation of :data:`TOOL_ARGUMENTS` (``RememberArgs`` ...), subclassing ``base`` (a
    pydantic model: a framework's own checks of a call's input go there)."""
    from pydantic import Field, StrictBool, create_model  # pydantic comes with the frameworks that show tools

    def field(arg: ToolArgument) -> tuple[Any, Any]:
        kind: Any = StrictBool if arg.kind is bool else arg.kind
        if arg.default is REQUIRED:
            return kind, Field(description=arg.description)
        return (kind | None if arg.default is None else kind), Field(
            default=arg.default, ge=arg.at_least, le=arg.at_most, description=arg.description)

    return {
        op: create_model(  # type: ignore[call-overload]
            f"{op.title()}Args", __base__=base, __module__=base.__module__,
            __doc__=f"Arguments of the ``{TOOL_NAMES[op]}`` tool.",
            **{arg.name: field(arg) for arg in args})
        for op, args in TOOL_ARGUMENTS.items()
    }
