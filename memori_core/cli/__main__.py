"""``python -m memori_core.cli ...``: the ``memori`` command."""

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
