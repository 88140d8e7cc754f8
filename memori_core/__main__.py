"""``python -m memori_core ...``: the ``memori`` command, as ``python -m memori_core.cli`` runs it."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
