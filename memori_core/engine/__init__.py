"""The recall engine (:class:`RecallEngine`), its read path (:mod:`.reads`) and write path (:mod:`.writes`)."""

from .fact_ids import derived_fact_id, is_version_id, version_of
from .judging import MAX_JUDGE_CALLS
from .progress import Progress
from .recall_engine import RecallEngine
from .versions import NothingToRestoreError
from .writes import Forgotten

__all__ = ["MAX_JUDGE_CALLS", "Forgotten", "NothingToRestoreError", "Progress", "RecallEngine", "derived_fact_id",
           "is_version_id", "version_of"]
