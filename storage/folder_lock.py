"""One writer per folder: the app, and every ``python -m engine`` command that writes a
workspace's stores (``draft``, ``restore``, ``kb add``/``remove``/``reindex``, ``library
import``/``retire``, ``profile --set``, …), hold ``FOLDER/.workspace.lock`` while they run; a
second one is refused with :class:`~engine.core.types.FolderBusy`, which names the holder
(what it is, its process id, since when) before anything is written.

The lock is the operating system's (``flock`` on the open file), so it ends with the process
that held it, however that process ends (``kill -9`` leaves no stale lock: the file stays, the
lock does not). Its holder writes who it is into the file, which is read only to name it in the
refusal. Within one process the lock is taken once per folder and shared by every caller (the
app's workspace and the threads drafting in it, or a command and the workspace it opens). The
file is opened without following links (``engine.core.files.open_regular``): a
``.workspace.lock`` that is a symbolic link, a folder or anything but a regular file is refused
(``NotRegularFile``, one line) and nothing is written through it.

Reading is never refused: ``restore --list``, ``library list`` and the like run beside the app
(the SQLite stores are WAL databases, read consistently while written)."""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from engine.core.files import NotRegularFile, open_regular
from engine.core.types import FolderBusy

LOCK_FILE = ".workspace.lock"

try:
    import fcntl
except ImportError:  # Windows: no flock; the folder is not locked there (said in SECURITY.md)
    fcntl = None  # type: ignore[assignment]


@dataclass(frozen=True)
class Holder:
    """Who holds a folder: ``what`` (``the app``, ``python -m engine draft``), its process and
    since when (UTC, ISO 8601)."""

    what: str
    pid: int
    since: str

    def __str__(self) -> str:
        return f"{self.what} (process {self.pid}, since {self.since})"


_held: dict[Path, tuple[int, Holder]] = {}  # resolved folder → (the locked file's descriptor, this process)
_guard = threading.Lock()


def hold(folder: str | Path, what: str) -> Holder:
    """Hold ``folder`` for this process (the folder is created; held already: the holder it has)
    or raise :class:`FolderBusy` naming the process that holds it (``NotRegularFile`` when its
    lock file is a link, a folder or anything but a regular file)."""
    key = Path(folder).resolve()
    with _guard:
        if key in _held:
            return _held[key][1]
        key.mkdir(parents=True, exist_ok=True)
        fd = open_regular(key / LOCK_FILE, os.O_RDWR | os.O_CREAT)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # BlockingIOError: another process holds it
                other = _read(fd)
                os.close(fd)
                raise FolderBusy(key, str(other) if other else "another process", what) from None
        me = Holder(what, os.getpid(), datetime.now(timezone.utc).isoformat(timespec="seconds"))
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"what": me.what, "pid": me.pid, "since": me.since}).encode("utf-8"), 0)
        _held[key] = (fd, me)
        return me


def release(folder: str | Path) -> None:
    """Let ``folder`` go (nothing happens when this process does not hold it)."""
    with _guard:
        held = _held.pop(Path(folder).resolve(), None)
    if held is not None:
        os.close(held[0])  # closing the descriptor ends the flock


def holder(folder: str | Path) -> Holder | None:
    """Who holds ``folder`` now: this process, another one, or nobody (None)."""
    key = Path(folder).resolve()
    with _guard:
        if key in _held:
            return _held[key][1]
    path = key / LOCK_FILE
    if fcntl is None or not path.is_file() or path.is_symlink():
        return None
    try:
        fd = open_regular(path, os.O_RDONLY)
    except (OSError, NotRegularFile):  # not a lock of ours, or gone meanwhile
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return _read(fd) or Holder("another process", 0, "")
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _read(fd: int) -> Holder | None:
    """The holder written in the lock file, or None when it cannot be read (being written)."""
    try:
        data = json.loads(os.pread(fd, 4096, 0).decode("utf-8"))
        return Holder(str(data["what"]), int(data["pid"]), str(data["since"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
