"""How to install one of memori-recall's extras, as the README's "Install" says: memori-recall is not on PyPI,
so ``pip install 'memori-recall[local]'`` would fail (or, were the name ever taken there, install someone
else's code); an error that needs an extra names the clone and git-URL forms instead."""

from __future__ import annotations


def install_hint(extra: str) -> str:
    """The commands that add ``extra`` (``"local"``, ``"mcp"`` ...) to an install of memori-recall."""
    return (f"`pip install \".[{extra}]\"` in a clone of memori-recall, or "
            f"`pip install \"memori-recall[{extra}] @ git+<repository URL>\"` (it is not on PyPI: see the README's "
            "Install)")
