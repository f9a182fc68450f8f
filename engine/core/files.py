"""The one atomic write of the project: a file is written whole or not at all, durably.

:func:`write_atomic` writes through a new temporary file beside the target (``.NAME.XXXXXXXX.tmp``,
created exclusively, the umask applying), fsyncs it, renames it over the target, then fsyncs the
folder so the rename itself survives a power cut; on any error the temporary file is removed and
the target left as it was. Every writer of a store file uses it: the knowledge base's manifest and
indexes (engine/index/), summaries and their vectors, the profile, the reviewer's settings, the
workspace's questionnaire copies and the exported questionnaire (engine/review/export.py).
:func:`file_hash` names a file's bytes (the knowledge base's documents, the answer library's files).
"""

from __future__ import annotations

import hashlib
import os
import uuid
from pathlib import Path
from typing import BinaryIO, Callable

Writer = Callable[[BinaryIO], object]  # writes the content into the open binary file


def write_atomic(target: Path, data: bytes | str | Writer) -> None:
    """Write ``data`` (bytes, text as UTF-8, or a function writing into the open binary file) to
    ``target`` atomically and durably (see the module docstring)."""
    target = Path(target)
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
