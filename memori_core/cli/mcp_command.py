"""``memori mcp``: serve one entity's memory to MCP clients, over stdio or streamable HTTP
(:mod:`memori_core.mcp_server`; the MCP SDK is imported only when the command runs)."""

from __future__ import annotations

import argparse
import sys

from ..engine import RecallEngine
from ..store.folder_lock import FolderInUseError
from .opening import CliError, open_engine


def cmd_mcp(args: argparse.Namespace) -> int:
    """``memori mcp``: serve one entity's memory to MCP clients, over stdio or (``--http``) streamable HTTP."""
    from ..mcp_server import build_server, check_http_host  # the MCP SDK is imported only here

    if args.entity_header is not None and args.http is None:
        raise CliError("--entity-header needs --http: over stdio the server serves one --entity")
    host, port = args.http if args.http is not None else ("127.0.0.1", 8000)
    if args.http is not None:
        check_http_host(host, args.allow_remote)
    opener = None
    try:
        # A --server that does not answer yet (started after this one, restarting) is connected to by the first
        # tool call that needs it; until then each call is a tool error naming it, as once it stops.
        engine: RecallEngine | None = open_engine(args, embeds=True, say_config=True, lazy=True)
    except FolderInUseError as exc:
        # Another process holds the folder (most often a second MCP client started its own `memori mcp` on the
        # default folder). Exiting would show the client only a closed connection; serving shows every tool
        # call the reason and the fix, and the memory works once the folder is free, without a restart.
        print(f"memori mcp: {exc} Serving anyway: every tool call answers this until the folder is free.",
              file=sys.stderr)
        engine, opener = None, (lambda: open_engine(args, embeds=True))
    server = build_server(engine, open_engine=opener, entity=args.entity, entity_header=args.entity_header,
                          host=host, port=port, timeout=args.tool_timeout)
    if args.http is None:
        server.run("stdio")
    else:
        who = f"the entity in each request's {args.entity_header} header" if args.entity_header else repr(args.entity)
        print(f"memori mcp: serving {who} at http://{host}:{port}{server.settings.streamable_http_path}",
              file=sys.stderr)
        server.run("streamable-http")
    return 0
