"""``memori mcp``: serve one entity's memory to MCP clients, over stdio or streamable HTTP
(:mod:`memori_core.mcp_server`; the MCP SDK is imported only when the command runs)."""

from __future__ import annotations

import argparse
import sys

from .opening import CliError, open_engine


def cmd_mcp(args: argparse.Namespace) -> int:
    """``memori mcp``: serve one entity's memory to MCP clients, over stdio or (``--http``) streamable HTTP."""
    from ..mcp_server import build_server, check_http_host  # the MCP SDK is imported only here

    if args.entity_header is not None and args.http is None:
        raise CliError("--entity-header needs --http: over stdio the server serves one --entity")
    host, port = args.http if args.http is not None else ("127.0.0.1", 8000)
    if args.http is not None:
        check_http_host(host, args.allow_remote)
    engine = open_engine(args, embeds=True, say_config=True)
    server = build_server(engine, entity=args.entity, entity_header=args.entity_header, host=host, port=port,
                          timeout=args.tool_timeout)
    if args.http is None:
        server.run("stdio")
    else:
        who = f"the entity in each request's {args.entity_header} header" if args.entity_header else repr(args.entity)
        print(f"memori mcp: serving {who} at http://{host}:{port}{server.settings.streamable_http_path}",
              file=sys.stderr)
        server.run("streamable-http")
    return 0
