"""The one atomic write of the project: a file is written whole or not at all, durably; and the
rule for the files the product keeps in a workspace: they are regular files, never written
through a link.

:func:`write_atomic` writes through a new temporary file beside the target (``.NAME.XXXXXXXX.tmp``,
created exclusively, the umask applying), fsyncs it, renames it over the target, then fsyncs the
folder so the rename itself survives a power cut; on any error the temporary file is removed and
the target left as it was. Given a ``check``, it reads the temporary file once written and synced, before
it replaces the target: an exception it raises refuses the write the same way (the spreadsheet export's
no-other-change check, engine/questionnaire/sheet/writer.py). Every writer of a store file uses it: the knowledge base's manifest and
indexes (engine/index/), summaries and their vectors, the profile, the reviewer's settings, the
workspace's questionnaire copies and the exported questionnaire (engine/questionnaire/sheet/writer.py). A
target that is a symbolic link, a folder or anything but a regular file is refused
(:class:`NotRegularFile`) before anything is written: the link is not replaced, and nothing it
points to is touched. :func:`open_regular` opens a file the product keeps (the folder lock) with
``O_NOFOLLOW`` and refuses the same way; :func:`not_regular` says what such a path is.
:func:`file_hash` names a file's bytes (the knowledge base's documents, the answer library's files).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import uuid
from pathlib import Path
from typing import BinaryIO, Callable

from engine.core.types import FileProblem

Writer = Callable[[BinaryIO], object]  # writes the content into the open binary file
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # POSIX (Windows has neither)


def write_atomic(target: Path, data: bytes | str | Writer, check: Callable[[Path], object] | None = None) -> None:
    """Write ``data`` (bytes, text as UTF-8, or a function writing into the open binary file) to
    ``target`` atomically and durably; ``check``, given, is called with the written temporary file
    before it replaces the target, and refuses the write by raising (see the module docstring)."""
    target = Path(target)
    refuse_not_regular(target)
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex[:8]}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        if check is not None:
            check(tmp)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def file_hash(data: bytes) -> str:
    """The SHA-256 of ``data`` in hex: how the knowledge base and the answer library name a file's bytes."""
    return hashlib.sha256(data).hexdigest()


class NotRegularFile(FileProblem):
    """A file the product keeps in a workspace (a store, the folder lock, a file of the knowledge
    base) that is a symbolic link, a folder or anything but a regular file: refused, and nothing
    was read or written through it."""

    def __init__(self, path: object, what: str) -> None:
        super().__init__(
            path,
            f"it is {what}, not a regular file; the product never reads or writes its files through a link or in "
            "anything else, and nothing was changed",
            "move it away (the product makes the file again where it makes one), then run the command again",
        )


def not_regular(path: Path) -> str | None:
    """What ``path`` is when it is there but is not a regular file ("a symbolic link to /etc/x", "a
    folder", "a named pipe"…), without following a link; None for a regular file or nothing there."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISREG(found.st_mode):
        return None
    if stat.S_ISLNK(found.st_mode):
        return f"a symbolic link (to {os.readlink(path)})"
    return file_kind(found.st_mode)


def file_kind(mode: int) -> str:
    """What a path that is not a regular file (nor a link) is, in words, from its ``st_mode``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def refuse_not_regular(path: Path) -> None:
    """:class:`NotRegularFile` when ``path`` is there but is not a regular file."""
    what = not_regular(path)
    if what is not None:
        raise NotRegularFile(path, what)


def open_regular(path: Path, flags: int, mode: int = 0o644) -> int:
    """``os.open(path, flags)`` that never follows a link (``O_NOFOLLOW``), never waits on a pipe
    (``O_NONBLOCK``) and keeps the descriptor only for a regular file: :class:`NotRegularFile`
    otherwise (a link, a folder, a pipe, a device), nothing written."""
    try:
        fd = os.open(path, flags | _NOFOLLOW, mode)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EISDIR, errno.ENXIO):
            raise NotRegularFile(path, not_regular(path) or "not a regular file") from None
        raise
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotRegularFile(path, not_regular(path) or "not a regular file")
    if _NOFOLLOW:
        os.set_blocking(fd, True)
    return fd
