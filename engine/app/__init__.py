"""The workspace service: the one doorway the UI (and the CLI's draft) use. The store's records and
errors that the screens see are named here too, so that ui/ never imports storage/."""

from storage.review_store import ReviewStoreError, Run

__all__ = ["ReviewStoreError", "Run"]
