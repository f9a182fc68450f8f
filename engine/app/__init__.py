"""The workspace service: the one doorway the UI (and the CLI's draft) use. The records and
errors that the screens see and that live deeper down (the review store's, the knowledge base's,
the drafter's) are re-exported here, so that ui/ never imports storage/ and reads them from one
place; each keeps its one home where it is defined."""

from engine.drafting.anchoring import AnchorLabel
from engine.drafting.records import Citation, Draft
from engine.drafting.warnings import Warning
from engine.index.errors import KnowledgeBaseError
from engine.index.kb import AddReport, Manifest
from engine.index.summaries import Summary, SummaryMethod
from storage.review_store import Project, ReviewStoreError, RowChanged, RowVersion, Run, StoredDraft

__all__ = [
    "AddReport",
    "AnchorLabel",
    "Citation",
    "Draft",
    "KnowledgeBaseError",
    "Manifest",
    "Project",
    "ReviewStoreError",
    "RowChanged",
    "RowVersion",
    "Run",
    "StoredDraft",
    "Summary",
    "SummaryMethod",
    "Warning",
]
