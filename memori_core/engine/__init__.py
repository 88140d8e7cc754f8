"""The recall engine (:class:`RecallEngine`), its read path (:mod:`.reads`) and write path (:mod:`.writes`)."""

from .reads import MAX_JUDGE_CALLS
from .recall_engine import RecallEngine
from .writes import Progress, derived_fact_id, is_version_id, version_of

__all__ = ["MAX_JUDGE_CALLS", "Progress", "RecallEngine", "derived_fact_id", "is_version_id", "version_of"]
