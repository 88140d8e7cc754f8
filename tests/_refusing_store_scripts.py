"""Scripts run in a second Python process by the capture-outage tests: an agent whose store refuses every revision
read, and the runner that checks such a process ended cleanly (what it printed and logged is the test's)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from _helpers import child_env, write_script

AGENT_OVER_A_REFUSING_STORE = """
    import atexit, logging, sys
    sys.path.insert(0, {tests!r})
    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    import httpx
    from langchain.agents import create_agent
    from langchain_core.messages import HumanMessage
    from _faults import Faults
    from _helpers import HashEmbedder, ungated_engine
    from _langchain_fakes import RecordingChatModel
    from memori_langchain import MemoriMiddleware

    engine = ungated_engine(HashEmbedder())
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = create_agent(RecordingChatModel(messages=iter(["Noted."] * 3)), tools=[], middleware=[memori])
    faults = Faults(engine.store)
    faults.arm("revision", error=httpx.ConnectError, message="refused")
"""
"""A process's opening: an agent capturing through a store whose every revision read is refused."""


def run_script(tmp_path: Path, source: str, **values: object) -> subprocess.CompletedProcess[str]:
    """Run ``source`` (formatted with the tests folder and ``values``) as a script in a new Python process over the
    same ``sys.path``; it must exit 0."""
    script = write_script(tmp_path, "script.py", source, **values)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=child_env())
    assert run.returncode == 0, run.stderr[-3000:]
    return run
