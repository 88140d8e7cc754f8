"""How to install one of memori-recall's extras, as the README's "Install" says: memori-recall is not on PyPI,
so ``pip install 'memori-recall[local]'`` would fail (or, were the name ever taken there, install someone
else's code); an error that needs an extra names the clone and git-URL forms instead."""

from __future__ import annotations

import importlib
from collections.abc import Sequence


def install_hint(extra: str) -> str:
    """The commands that add ``extra`` (``"local"``, ``"mcp"`` ...) to an install of memori-recall."""
    return (f"`pip install \".[{extra}]\"` in a clone of memori-recall, or "
            f"`pip install \"memori-recall[{extra}] @ git+<repository URL>\"` (it is not on PyPI: see the README's "
            "Install)")


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
