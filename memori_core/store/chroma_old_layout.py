"""Reading rows in the layout versions before the packed record wrote: one Chroma metadata key per field.

Such rows are read as they are and rewritten in the current layout
(:mod:`.chroma_records`) the next time their fact changes; nothing writes
this layout any more.
"""

from __future__ import annotations

from typing import Any

FACT_ID, CREATED_AT, LAST_SEEN, TIMES_SEEN, META_JSON = "fact_id", "created_at", "last_seen", "times_seen", "metadata_json"
SESSION, SEQ, UPDATED_AT, EXPIRES_AT = "session_id", "seq", "updated_at", "expires_at"


def old_row_fields(meta: dict[str, Any], document: str | None) -> dict[str, Any]:
    """The fields of :class:`~.chroma_records.Row` from an old-layout row (the text is the document, the user
    metadata its JSON text as stored)."""
    return {
        "id": str(meta[FACT_ID]),
        "text": document,
        "times_seen": int(meta.get(TIMES_SEEN, 1)),
        "seq": int(meta.get(SEQ, 0)),
        "session_id": meta.get(SESSION) or None,
        "created_at": meta.get(CREATED_AT),
        "last_seen": meta.get(LAST_SEEN),
        "updated_at": meta.get(UPDATED_AT) or None,
        "expires_at": meta.get(EXPIRES_AT) or None,
        "metadata_json": meta.get(META_JSON) or "",
    }
