"""How to install one of memori-recall's extras, as the README's "Install" says: memori-recall is not on PyPI,
so ``pip install 'memori-recall[local]'`` would fail (or, were the name ever taken there, install someone
else's code); an error that needs an extra names the place this install came from (pip records it, PEP 610),
or the clone form when none is recorded. No placeholder to fill in."""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from pathlib import PurePath
from urllib.parse import urlsplit
from urllib.request import url2pathname

DISTRIBUTION = "memori-recall"


def _installed_from() -> dict | None:
    """What pip recorded of where this install came from (``direct_url.json``): a folder, a git URL; ``None``
    when nothing is recorded (run from a source tree, or installed from an archive by other means)."""
    from importlib import metadata

    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
        record = json.loads(text) if text else None
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return None
    return record if isinstance(record, dict) and isinstance(record.get("url"), str) else None


def install_hint(extra: str) -> str:
    """The one command that adds ``extra`` (``"local"``, ``"mcp"`` ...) to this install of memori-recall: from
    the folder or git URL it was installed from, else from a clone."""
    record = _installed_from()
    if record is not None:
        url = record["url"]
        sub = record.get("subdirectory") if isinstance(record.get("subdirectory"), str) else ""
        vcs = record.get("vcs_info")
        if isinstance(vcs, dict) and vcs.get("vcs") == "git":
            pin = vcs.get("requested_revision") or vcs.get("commit_id")
            where = f'git+{url}{"@" + pin if pin else ""}{"#subdirectory=" + sub if sub else ""}'
            return f'`pip install "{DISTRIBUTION}[{extra}] @ {where}"`'
        if url.startswith("file://") and isinstance(record.get("dir_info"), dict):
            # url2pathname, not unquote alone: on Windows "file:///C:/x" is the folder C:\x, not "/C:/x"
            folder = url2pathname(urlsplit(url).path)
            folder = str(PurePath(folder, sub)) if sub else folder
            editable = "-e " if record["dir_info"].get("editable") else ""
            return f'`pip install {editable}"{folder}[{extra}]"`'
    return f'`pip install ".[{extra}]"` in your clone of memori-recall (it is not on PyPI)'


def require_framework(package: str, extra: str, modules: Sequence[str]) -> None:
    """Import ``modules`` (the framework ``package`` adapts), or raise ``ModuleNotFoundError`` naming the missing
    one and the extra that installs it: a core install without the extra otherwise fails on ``import package``
    with a bare "No module named 'langchain_core'" that does not say what to install."""
    for module in modules:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            if not missing or not (module == missing or module.startswith(missing + ".")):
                raise  # the framework is there but broken inside: its own error says more
            raise ModuleNotFoundError(
                f"{package} needs {module} (the {extra} extra), which is not installed: {install_hint(extra)}",
                name=missing) from exc
