"""A project's solicitation as the app shows it (docs/solicitations.md): shredded once per file
(the key facts card, the counts, the mapping screen and the compliance matrix all ask for it on
every rerun, and shredding a 60-page RFQ takes seconds), then read with the reviewer's
corrections (requirements left out, kinds changed: ``ReadOptions.exclude`` / ``kinds``, kept with
the project like every other correction)."""

from __future__ import annotations

import threading
from pathlib import Path

from engine.core.limits import Limits
from engine.questionnaire import Questionnaire, ReadOptions
from engine.questionnaire.solicitation import Shredded, shred
from engine.questionnaire.solicitation.as_questionnaire import as_read, is_solicitation


class ShredOnce:
    """The newest shredding of each project's file, with the file's identity it was made from."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[int, tuple[tuple, Shredded]] = {}

    def shredded(self, project_id: int, path: Path) -> Shredded:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        with self._lock:
            held = self._held.get(project_id)
            if held is None or held[0] != key:
                held = (key, shred([path], limits=Limits.from_env()))
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
    return as_read(path, once.shredded(project_id, path), options)[0]


__all__ = ["ShredOnce", "solicitation_of"]
