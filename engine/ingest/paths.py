"""Which files a command reads: regular files only, and only the ones it was asked for.

* A path named on the command line is read when it is a regular file. When it is a symbolic
  link, it is read only if its target is a regular file, and then under the target's own name
  and extension (the stored copy, the citations and the file type all follow the real file).
* A folder is walked without following links: a link inside it (to a file or to a folder,
  e.g. ``users.txt → /etc/passwd``) is skipped, and so is anything that is not a regular
  file (a FIFO, a socket, a device). Hidden files and folders (``.git``, ``.DS_Store``) are
  skipped too. Each skip is reported with its reason; nothing is skipped silently.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.files import file_kind
from engine.core.types import IngestError


@dataclass(frozen=True)
class Selected:
    """The files to read, each as (path to read, name shown), what was skipped in the folders
    and why, and the named paths that cannot be read at all."""

    files: tuple[tuple[Path, str], ...] = ()
    skipped: tuple[str, ...] = ()
    errors: tuple[IngestError, ...] = field(default_factory=tuple)


def named_file(path: Path) -> Path:
    """The regular file a path named by the user stands for: the path itself, or the target of
    a link to a regular file. Raises IngestError for anything else."""
    path = Path(path)
    try:
        own = path.lstat()
    except OSError:
        raise IngestError(str(path), "does not exist", "check the path and try again") from None
    if stat.S_ISREG(own.st_mode):
        return path
    if not stat.S_ISLNK(own.st_mode):
        raise IngestError(str(path), f"is {file_kind(own.st_mode)}, not a regular file", "name a file or a folder")
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except OSError:
        raise IngestError(str(path), f"is a link to {target}, which does not exist", "name the file itself") from None
    if not stat.S_ISREG(mode):
        raise IngestError(
            str(path),
            f"is a link to {target}, which is {file_kind(mode)}",
            "name a regular file, or the folder itself (links are not followed)",
        )
    return target


def select_files(paths: Iterable[Path]) -> Selected:
    """Files named directly (links to regular files resolved) and the regular files under the
    named folders, recursively, in name order; see the module docstring."""
    files: list[tuple[Path, str]] = []
    skipped: list[str] = []
    errors: list[IngestError] = []
    for path in map(Path, paths):
        if path.is_dir() and not path.is_symlink():
            _walk(path, files, skipped)
            continue
        try:
            real = named_file(path)
        except IngestError as exc:
            errors.append(exc)
            continue
        files.append((real, real.name))
    return Selected(tuple(files), tuple(skipped), tuple(errors))


def _walk(folder: Path, files: list[tuple[Path, str]], skipped: list[str]) -> None:
    hidden = 0
    for root, dirs, names in os.walk(folder, followlinks=False):
        base = Path(root)
        for d in sorted(dirs):
            sub = base / d
            if d.startswith("."):
                hidden += 1
            elif sub.is_symlink():
                skipped.append(
                    f"{sub}: a link to a folder ({os.path.realpath(sub)}); links inside folders are "
                    "not followed: name the folder itself to add it"
                )
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not (base / d).is_symlink())
        for n in sorted(names):
            path = base / n
            if n.startswith("."):
                hidden += 1
                continue
            try:
                mode = path.lstat().st_mode
            except OSError as exc:
                skipped.append(f"{path}: cannot be read ({exc.strerror})")
                continue
            if stat.S_ISREG(mode):
                files.append((path, n))
            elif stat.S_ISLNK(mode):
                skipped.append(
                    f"{path}: a link (to {os.path.realpath(path)}); links inside folders are not "
                    "followed: name the file itself to add it"
                )
            else:
                skipped.append(f"{path}: {file_kind(mode)}, not a regular file")
    if hidden:
        skipped.append(
            f"{folder}: {hidden} hidden file{'s' if hidden != 1 else ''} or folder{'s' if hidden != 1 else ''} "
            "(names starting with '.')"
        )


__all__ = ["Selected", "named_file", "select_files"]
