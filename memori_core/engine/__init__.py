"""The recall engine (:class:`RecallEngine`), its read path (:mod:`.reads`) and write path (:mod:`.writes`)."""

from .fact_ids import derived_fact_id, is_version_id, version_of
from .judging import MAX_JUDGE_CALLS
from .plans import NothingToCancelError
from .progress import Progress
from .recall_engine import RecallEngine
from .replaced import ReplacedFactError
from .versions import NothingToRestoreError
from .writes import Forgotten

__all__ = ["MAX_JUDGE_CALLS", "Forgotten", "NothingToCancelError", "NothingToRestoreError", "Progress", "RecallEngine", "ReplacedFactError",
           "derived_fact_id", "is_version_id", "version_of"]
