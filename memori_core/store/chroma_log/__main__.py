"""``python -m memori_core.store.chroma_log DIR``: scrub every collection of the Chroma folder ``DIR`` (the package's
:func:`~memori_core.store.chroma_log.main`).

A module of its own, run as ``__main__`` and imported by nothing: the package is imported with the store (every
delete of an embedded folder scrubs the log), so running the package itself would run a module already imported,
which Python warns may behave unpredictably."""

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
