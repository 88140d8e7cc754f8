"""One user's memory as an MCP server, used by an MCP client over stdio, offline.

The client below starts ``memori mcp --entity alice --path <folder>`` as a subprocess, as Claude Desktop or an
IDE would (``{"command": "memori", "args": ["mcp", "--entity", "alice"]}``), and calls its tools: it stores
facts, recalls them for a personal question and for an off-topic one, updates a fact and reads its history,
and shows that a tool call naming another user is refused.

    python examples/mcp_server.py
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent.parent


async def call(session: ClientSession, tool: str, **arguments: Any) -> Any:
    result = await session.call_tool(tool, arguments)
    if result.isError:
        return "refused: " + "".join(getattr(c, "text", "") for c in result.content)
    return result.structuredContent


async def main(folder: str) -> None:
    # The SDK passes a server only a few environment variables: give it what it needs to find the package.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    server = StdioServerParameters(command=sys.executable, args=["-m", "memori_core.cli", "mcp", "--entity",
                                                                 "alice", "--path", folder], env=env)
    async with stdio_client(server) as (read, write), \
            ClientSession(read, write, read_timeout_seconds=timedelta(seconds=120)) as session:
        await session.initialize()
        print("tools:", sorted(tool.name for tool in (await session.list_tools()).tools))
        # an allergy is core (recalled whatever the question about the user; a question about the world gets
        # none): add marks allergies, medication and diets so
        ids = (await call(session, "add", facts=["User is allergic to peanuts.", "User lives in Lyon."]))["ids"]
        for query in ["Which snacks should I avoid?", "What should I do this weekend?", "What's the capital of Australia?"]:
            out = await call(session, "recall", query=query)
            print(f"{query} -> {[f['text'] for f in out['facts']] or out['message']}")
        await call(session, "update", fact_id=ids[1], text="User lives in Paris.")
        versions = (await call(session, "history", fact_id=ids[1]))["versions"]
        print("history:", [v["text"] for v in versions])
        print(await call(session, "add", facts=["User eats meat."], entity_id="bob"))


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(main(str(Path(tmp) / "memories")))
