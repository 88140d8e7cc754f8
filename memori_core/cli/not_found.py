"""What a ``memori`` command says on standard error when the store does not hold what it names: a fact id, or any
fact of an entity (a typo?), then with the store's entities spelled like it. One wording for every command; the
exit code is the command's (the convention is the parser's :data:`~memori_core.cli.parser.EXIT_CODES`)."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Collection, Sequence

from ..engine import RecallEngine


def entity_without_facts(engine: RecallEngine, entity: str, consequence: str) -> str:
    """``entity 'Alice' has no facts in this store: <consequence>``, ending ``(did you mean 'alice'?)`` when the store
    holds entities spelled like it (up to three), for an entity the store holds no row of."""
    close = difflib.get_close_matches(entity, engine.entities(), n=3)
    hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
    return f"entity {entity!r} has no facts in this store: {consequence}{hint}"


def report_unknown_ids(engine: RecallEngine, entity: str, ids: Sequence[str], found: Collection[str]) -> bool:
    """Say which of ``ids`` the entity has no fact with (``found``: the ones it has); when none was found and the
    entity has no fact at all, say that instead (:func:`entity_without_facts`). Whether any id was unknown."""
    unknown = [i for i in ids if i not in found]
    if unknown and not found and engine.count(entity, include_invalid=True) == 0:
        named = f"no fact with id {', '.join(map(repr, unknown))}"
        print(f"memori: {entity_without_facts(engine, entity, named)}", file=sys.stderr)
        return True
    for fid in unknown:
        print(f"memori: entity {entity!r} has no fact with id {fid!r}", file=sys.stderr)
    return bool(unknown)
