"""A workspace's questionnaires read once per file and read options, not on every call: reading a
HECVAT Full workbook takes seconds (openpyxl and the data-validation scan), and the screens (on
every rerun), the coverage report (every questionnaire of the workspace) and drafting all ask for
them. A project's file holds the bytes it was made from, but its read options change (the
reviewer's corrections) and a missing file is written back: the key is the file's identity (path,
modification time, size) and the options. The parsed :class:`Questionnaire` is immutable (frozen
dataclasses and tuples), so one copy is shared by every caller and thread."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from engine.questionnaire import Questionnaire, ReadOptions, read_questionnaire


def _key(path: Path, options: ReadOptions) -> tuple:
    stat = path.stat()
    return str(path), stat.st_mtime_ns, stat.st_size, json.dumps(options.to_json(), sort_keys=True)


class ReadOnce:
    """The newest read of each project's questionnaire, with what it was read from."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reading: dict[int, threading.Lock] = {}
        self._held: dict[int, tuple[tuple, Questionnaire]] = {}

    def read(self, project_id: int, path: Path, options: ReadOptions) -> Questionnaire:
        """Project ``project_id``'s questionnaire at ``path`` read with ``options``, read again only
        when one of them changed; a second caller while it is being read waits for that read."""
        key = _key(path, options)
        with self._lock:
            reading = self._reading.setdefault(project_id, threading.Lock())
        with reading:
            held = self._held.get(project_id)
            if held is None or held[0] != key:
                held = (key, read_questionnaire(path, **options.to_json()))
                self._held[project_id] = held
            return held[1]

    def keep(self, project_id: int, path: Path, options: ReadOptions, questionnaire: Questionnaire) -> None:
        """``questionnaire`` just read from ``path`` with ``options`` (an upload, a correction)."""
        self._held[project_id] = (_key(path, options), questionnaire)

    def holds(self, project_id: int, path: Path, options: ReadOptions) -> bool:
        """Whether :meth:`read` answers without reading the file."""
        held = self._held.get(project_id)
        return held is not None and held[0] == _key(path, options)
