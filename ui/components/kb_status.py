"""Whether the stored knowledge-base index still matches the settings (the embedder and α are
baked into the stored vectors; a change needs a re-index). Both read the index's manifest
(``Workspace.index_manifest``) against the settings."""

from __future__ import annotations

from engine.app import Manifest
from engine.app.settings import Settings


def embedder_changed(built: Manifest, settings: Settings) -> bool:
    """The stored vectors come from another embedder than the settings name (adding is refused)."""
    return bool(built.documents and built.embedder and built.embedder != settings.engine.embedder)


def needs_reindex(built: Manifest, settings: Settings) -> str | None:
    """Why the stored index no longer matches the settings (a sentence without its full stop),
    or None."""
    if not built.documents:
        return None
    wanted = settings.engine
    if embedder_changed(built, settings):
        return (
            f"the documents were encoded with the embedder {built.embedder}, the settings now name "
            f"{wanted.embedder}. New documents can be added only after re-indexing"
        )
    if abs(built.alpha - wanted.alpha) > 1e-9:
        return (
            f"the index was built with α = {built.alpha:g}, the settings now say α = {wanted.alpha:g}; "
            "retrieval keeps the old weighting until then"
        )
    return None
