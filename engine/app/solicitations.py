"""A project's solicitation as the app shows it (docs/solicitations.md): shredded once per file
(the key facts card, the counts, the mapping screen and the compliance matrix all ask for it on
every rerun, and shredding a 60-page RFQ takes seconds), then read with the reviewer's
corrections (sentences added, requirements split and merged, left out, kinds changed:
``ReadOptions.added`` / ``splits`` / ``merges`` / ``exclude`` / ``kinds``, kept with the project
like every other correction; an edit is checked against the file when it is given:
:func:`checked_edits`)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from engine.core.limits import Limits
from engine.questionnaire import Questionnaire, ReadOptions
from engine.questionnaire.solicitation import Shredded, shred
from engine.questionnaire.solicitation.amendment import Amendment, compare
from engine.questionnaire.solicitation.as_questionnaire import as_read, is_solicitation
from engine.questionnaire.solicitation.shred import up_to


class ShredOnce:
    """The newest shredding of each project's file, with the file's identity it was made from."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[int, tuple[tuple, Shredded]] = {}

    def shredded(self, project_id: int, path: Path, pages: int | None = None) -> Shredded:
        """The file shredded (up to page ``pages``, where an upload's shred was stopped: those pages
        were read within the upload's limits; None: whole)."""
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, pages)
        with self._lock:
            held = self._held.get(project_id)
            if held is None or held[0] != key:
                held = (key, shred([path], limits=Limits.from_env(), progress=up_to(pages)))
                self._held[project_id] = held
            return held[1]


def solicitation_of(
    project_id: int, questionnaire: Questionnaire, options: ReadOptions, once: ShredOnce
) -> Shredded | None:
    """The project's solicitation with the reviewer's corrections, or None when its file was not
    read as one (a questionnaire)."""
    if not is_solicitation(questionnaire):
        return None
    path = questionnaire.path
    return as_read(path, once.shredded(project_id, path, options.pages), options)[0]


def checked_edits(project_id: int, path: Path, options: ReadOptions, once: ShredOnce) -> Shredded:
    """The project's solicitation (file ``path``) read with ``options`` strictly: an added sentence
    the file does not hold, a split or merge that does not fit, is refused in one line
    (:class:`~engine.questionnaire.records.QuestionnaireError`) before the options are kept."""
    return as_read(path, once.shredded(project_id, path, options.pages), options, strict=True)[0]


@dataclass(frozen=True)
class Carried:
    """A decision on a requirement of the previous version, to be recorded on the same
    requirement (unchanged by the amendment) in the new project's row ``key``."""

    key: str
    old_id: str
    new_id: str


@dataclass(frozen=True)
class KeptDecisions:
    """What keeping the decisions of an amended solicitation did: the comparison, and the rows of
    the new version whose decision was copied from the previous one."""

    amendment: Amendment
    kept: tuple[Carried, ...]

    def line(self, previous: str) -> str:
        c = self.amendment.counts()
        return (
            f"Against {previous}: {c['added']} added, {c['changed']} changed, {c['removed']} removed, "
            f"{c['unchanged']} unchanged; {len(self.kept)} decisions on unchanged requirements kept."
        )


def carried(
    previous: Shredded, current: Shredded, decided: Mapping[str, str], undecided: Mapping[str, str]
) -> KeptDecisions:
    """The decisions to keep when ``current`` amends ``previous``: those of the previous version's
    requirements (``decided``: requirement ID → its row key, rows with a decision) that the
    amendment leaves unchanged, wherever they moved, onto the new rows nobody decided yet
    (``undecided``: requirement ID → row key). A changed, added or removed requirement keeps none:
    its words differ, so the answer must be looked at again."""
    amendment = compare(previous.requirements, current.requirements)
    kept = tuple(
        Carried(undecided[new.id], old.id, new.id)
        for old, new in amendment.unchanged
        if old.id in decided and new.id in undecided
    )
    return KeptDecisions(amendment, kept)


__all__ = ["Carried", "KeptDecisions", "ShredOnce", "carried", "checked_edits", "solicitation_of"]
