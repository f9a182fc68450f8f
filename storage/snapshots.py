"""Rolling snapshots of what a workspace (or a ``--store`` folder) keeps that its documents
cannot rebuild: the review store ``review.sqlite`` (questionnaires, drafts, decisions) and the
answer library ``library.sqlite`` (imported and reviewer-approved answers), each copied with
SQLite's online backup API, and the knowledge base's ``manifest.json``; and restoring one
(``python -m engine restore``).

Snapshots live in ``FOLDER/backups/`` as ``review-<UTC time>.sqlite``,
``library-<UTC time>.sqlite`` and ``manifest-<UTC time>.json``. The review store and the library
are snapshotted when the app opens the workspace and after each drafting run (the app's and
``draft``'s), the library also after each import, the manifest each time it is written; a
snapshot identical to the newest good one is not kept twice.

What is promised:

* Backups never block the work. ``backups/`` as a regular file, a folder that cannot be
  written, a full disk: taking a snapshot raises :class:`BackupFailed`, one line naming the
  folder, the problem and the fix, which the callers (the app, ``draft``, ``library import``,
  the knowledge base) show as a warning and go on; the store itself is untouched.
* Backups never destroy. Only regular files named ``KIND-<UTC time>.SUFFIX`` are snapshots;
  anything else in ``backups/`` (a folder named like a snapshot, a stray ``.tmp``, a link) is
  never read, counted or deleted. Retention judges snapshots by reading them (:func:`problem`),
  not by their names: it keeps the snapshot just taken and the :data:`KEEP` − 1 newest other
  *good* snapshots of the kind and deletes only older good ones; a damaged snapshot is never
  counted and never deleted by retention (ten damaged snapshots dated 2099 leave every good
  one in place, and ``restore`` still finds the newest good one).
* Restoring never rewrites the file it replaces: the current file (with a database's ``-wal``
  and ``-shm``) is renamed beside itself, ``NAME.damaged-<time>`` (``.replaced-<time>`` when it
  read fine; its ``-wal`` becomes ``NAME.damaged-<time>-wal``, so SQLite or a recovery tool opens
  the pair as it was), then a copy of the snapshot takes its name. ``restore`` with no snapshot
  named restores every damaged file (the review store, the library, the manifest) from its
  newest good snapshot, and, when none is damaged, the review store (as before the library had
  snapshots); every snapshot is found before anything is moved.
* "Newest" is by the time in the name, but a snapshot dated later than now (a clock set wrong, a
  file put there by hand) comes after every one dated up to now: it is restored without being
  named only when no other good one is left, and it is the first retention lets go.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import sqlite3
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, NoReturn

from engine.core.files import write_atomic
from engine.core.types import FileProblem
from storage.library_store import _TABLES as _LIBRARY_TABLES
from storage.library_store import LIBRARY_DB, LibraryStore
from storage.review_store import _TABLES as _REVIEW_TABLES
from storage.review_store import ReviewStore
from storage.sqlite import inspect, side_files

KEEP = 10  # good snapshots kept of each kind (damaged ones are not counted: see the module docstring)
BACKUPS = "backups"
REVIEW_DB = "review.sqlite"
MANIFEST = "manifest.json"
_KINDS = {  # kind → (file, snapshot suffix)
    "review": (REVIEW_DB, ".sqlite"),
    "library": (LIBRARY_DB, ".sqlite"),
    "manifest": (MANIFEST, ".json"),
}
_TABLES = {"review": _REVIEW_TABLES, "library": _LIBRARY_TABLES}  # the SQLite kinds' tables of every version


class SnapshotError(FileProblem):
    """A snapshot that cannot be restored (missing, damaged, of nothing this folder keeps)."""


class BackupFailed(FileProblem):
    """A snapshot that could not be written in ``backups/`` (a file in its place, a folder that
    cannot be written, a full disk): a warning, never a reason to stop; the store is unchanged."""

    def __init__(self, folder: Path, name: str, problem: str) -> None:
        if folder.is_symlink():
            fix = "move the link away so that snapshots are made again in a folder of the workspace"
        elif folder.exists() and not folder.is_dir():
            fix = "move that file away (or rename it) so that snapshots are made again"
        else:
            fix = "make the folder writable (or free disk space) so that snapshots are made again"
        super().__init__(folder, f"no snapshot of {name} was taken: {problem}", f"The work goes on; {fix}")


@dataclass(frozen=True)
class Snapshot:
    path: Path
    kind: str  # "review", "library" or "manifest"
    taken: str  # UTC, ISO 8601
    future: bool = False  # dated later than now: after every other one (see the module docstring)

    @property
    def target(self) -> str:
        """The name of the file it restores."""
        return _KINDS[self.kind][0]


@dataclass(frozen=True)
class Restored:
    target: Path
    snapshot: Path
    moved: tuple[Path, ...]  # the files moved aside, untouched


def take_review(store: ReviewStore) -> Path:
    """A snapshot of the review store in ``backups/`` beside it; the snapshot's path.
    :class:`BackupFailed` when it cannot be written."""
    return _take(store.path.parent, "review", store.backup_to)


def take_library(store: LibraryStore) -> Path:
    """A snapshot of the answer library in ``backups/`` beside it; the snapshot's path.
    :class:`BackupFailed` when it cannot be written."""
    return _take(store.path.parent, "library", store.backup_to)


def take_manifest(store: Path) -> Path | None:
    """A snapshot of the knowledge base's manifest in ``store`` (None: none there, or it does
    not read as JSON: a damaged manifest is never snapshotted over the good ones).
    :class:`BackupFailed` when it cannot be written."""
    manifest = Path(store) / MANIFEST
    if not manifest.is_file() or _manifest_problem(manifest):
        return None
    return _take(Path(store), "manifest", lambda tmp: shutil.copyfile(manifest, tmp))


def _take(store: Path, kind: str, write: Callable[[Path], None]) -> Path:
    """``write`` a copy into a temporary file of ``store/backups``, kept as the newest snapshot
    of ``kind`` (:func:`_keep`); any failure to write there is :class:`BackupFailed`, and the
    temporary file (this call's own, nothing else) is gone either way."""
    name, suffix = _KINDS[kind]
    folder = store / BACKUPS
    tmp = folder / f".{kind}-{_stamp()}{suffix}.tmp"
    if folder.is_symlink():  # never written through a link, to wherever it points
        raise BackupFailed(folder, name, f"it is a symbolic link (to {os.readlink(folder)}), not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError("the folder cannot be written (permission denied)")
        write(tmp)
        return _keep(tmp, kind, folder)
    except (OSError, sqlite3.Error) as exc:
        raise BackupFailed(folder, name, _failure(folder, exc)) from None
    finally:
        with suppress(OSError):
            tmp.unlink(missing_ok=True)


def _failure(folder: Path, exc: Exception) -> str:
    """Why a snapshot could not be written into ``folder``, in a phrase."""
    if folder.exists() and not folder.is_dir():
        return f"{folder.name} is a file, not a folder"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower() + (f" ({Path(exc.filename).name})" if exc.filename else "")
    return str(exc) or type(exc).__name__


def snapshots(store: Path, kind: str | None = None) -> list[Snapshot]:
    """The snapshots in ``store/backups`` (of one kind, or all), newest first, those dated later
    than now after all the others: the regular files named ``KIND-<UTC time>.SUFFIX``, nothing else."""
    now = datetime.now(timezone.utc)
    found = []
    for path in (Path(store) / BACKUPS).glob("*"):
        if path.is_symlink() or not path.is_file():  # a folder named like a snapshot, a link: not ours
            continue
        for name, (_, suffix) in _KINDS.items():
            if path.name.startswith(f"{name}-") and path.name.endswith(suffix) and (kind in (None, name)):
                stamp = path.name[len(name) + 1 : -len(suffix)]
                try:
                    taken = datetime.strptime(stamp, "%Y%m%dT%H%M%S%fZ").replace(tzinfo=timezone.utc)
                except ValueError:
                    continue
                found.append(Snapshot(path, name, taken.isoformat(timespec="seconds"), taken > now))
    return sorted(found, key=lambda s: (not s.future, s.path.name), reverse=True)


def problem(path: Path, kind: str) -> str | None:
    """What is wrong with a review database, answer library or manifest file (a snapshot or the
    current one); None when it reads as a whole."""
    if kind in _TABLES:
        return inspect(path, _TABLES[kind]).problem if _there(path) else "it is missing"
    return _manifest_problem(path)


def _there(path: Path) -> bool:
    """The file, or only its ``-wal``/``-shm``, is there (a link too, even one pointing nowhere)."""
    return os.path.lexists(path) or bool(side_files(path))


def status(store: Path) -> list[str]:
    """One line per file this module keeps snapshots of, then per snapshot (newest first):
    what ``restore --list`` prints."""
    lines = []
    for kind, (name, _) in _KINDS.items():
        path = Path(store) / name
        if _there(path):
            found = problem(path, kind)
            lines.append(f"{path}: {'damaged: ' + found if found else 'reads as a whole'}")
        else:
            lines.append(f"{path}: none")
    kept = snapshots(store)
    folder = Path(store) / BACKUPS
    if folder.exists() and not folder.is_dir():
        lines.append(f"{folder}: a file, not a folder: no snapshots are kept; move it away")
    elif not kept:
        lines.append(f"no snapshots in {folder}")
    for s in kept:
        found = problem(s.path, s.kind)
        later = "  (dated later than now: restored only when named, or when no other is good)" if s.future else ""
        lines.append(
            f"{s.path.name}  {s.taken}  {s.path.stat().st_size:>12,} bytes  "
            f"{'damaged: ' + found if found else 'good'}{later}"
        )
    return lines


def restore(store: Path, snapshot: str | Path | None = None) -> list[Restored]:
    """Put a snapshot back in place (its current file moved aside, untouched). Without
    ``snapshot``: every damaged file (review store, library, manifest) from its newest good
    snapshot; when none is damaged, the review store from its newest good snapshot (when the
    folder has one or snapshots of it). Every one is found before anything is moved."""
    store = Path(store)
    if snapshot is not None:
        chosen = _named(store, snapshot)
        found = problem(chosen.path, chosen.kind)
        if found:
            raise SnapshotError(
                chosen.path,
                f"this snapshot is damaged ({found})",
                f"restore another one (`python -m engine restore --list --store {store}`)",
            )
        return [_put_back(store, chosen)]
    damaged = [k for k, (name, _) in _KINDS.items() if _there(store / name) and problem(store / name, k)]
    if not damaged and (_there(store / REVIEW_DB) or snapshots(store, "review")):
        damaged = ["review"]  # nothing damaged: the review store, as before the library had snapshots
    if not damaged:
        raise SnapshotError(
            store,
            f"there is neither a {REVIEW_DB} nor a damaged {LIBRARY_DB} or {MANIFEST} here",
            "nothing was changed; give the folder of the workspace or knowledge base (--store)",
        )
    chosen = [_newest_good(store, k) or _none_good(store, _KINDS[k][0]) for k in damaged]
    return [_put_back(store, s) for s in chosen]


def _none_good(store: Path, name: str) -> NoReturn:
    raise SnapshotError(
        store / BACKUPS,
        f"there is no good snapshot of {name} here",
        f"nothing was changed; snapshots are made when the app opens the workspace, after each "
        f"drafting run and when the knowledge base changes (`python -m engine restore --list "
        f"--store {store}` shows what there is)",
    )


def set_aside(path: Path, label: str) -> tuple[Path, ...]:
    """Rename ``path`` (and its ``-wal``/``-shm``) to ``NAME.LABEL-<time>`` beside it; the new
    paths. The files' bytes are not touched."""
    stamp = _stamp()
    moved = []
    for p in ([path] if os.path.lexists(path) else []) + side_files(path):
        new = p.with_name(f"{path.name}.{label}-{stamp}{p.name[len(path.name) :]}")
        os.rename(p, new)
        moved.append(new)
    return tuple(moved)


def _put_back(store: Path, snapshot: Snapshot) -> Restored:
    target = store / snapshot.target
    label = "damaged" if problem(target, snapshot.kind) else "replaced"
    moved = set_aside(target, label) if _there(target) else ()
    with open(snapshot.path, "rb") as source:
        write_atomic(target, lambda f: shutil.copyfileobj(source, f))
    return Restored(target, snapshot.path, moved)


def _named(store: Path, snapshot: str | Path) -> Snapshot:
    name = Path(snapshot).name
    for s in snapshots(store):
        if s.path.name == name:
            return s
    known = ", ".join(s.path.name for s in snapshots(store)[:4]) or "none"
    raise SnapshotError(
        snapshot,
        f"no such snapshot in {store / BACKUPS} (newest: {known})",
        f"name one that `python -m engine restore --list --store {store}` shows",
    )


def _newest_good(store: Path, kind: str) -> Snapshot | None:
    return next((s for s in snapshots(store, kind) if not problem(s.path, kind)), None)


def _keep(tmp: Path, kind: str, folder: Path) -> Path:
    """``tmp`` kept as the newest snapshot of ``kind`` (unless the newest good one has the same
    bytes: then that one), then :func:`_retire`. Never replaces a file or folder of the name."""
    newest = _newest_good(folder.parent, kind)
    if newest is not None and _sha256(newest.path) == _sha256(tmp):
        return newest.path
    final = folder / f"{kind}-{tmp.name.split('-', 1)[1].rsplit('.', 2)[0]}{_KINDS[kind][1]}"
    if os.path.lexists(final):
        raise FileExistsError(errno.EEXIST, "something already has the snapshot's name", str(final))
    os.replace(tmp, final)
    _retire(folder.parent, kind, final)
    return final


def _retire(store: Path, kind: str, new: Path) -> None:
    """Delete the good snapshots of ``kind`` beyond the :data:`KEEP` newest (``new`` first,
    whatever its name sorts as); damaged ones are read, never counted, never deleted."""
    kept = [s for s in snapshots(store, kind) if s.path != new]
    if len(kept) < KEEP:
        return
    good = 1  # the new one
    for s in kept:
        if problem(s.path, kind):
            continue
        if good >= KEEP:
            s.path.unlink(missing_ok=True)
        else:
            good += 1


def _manifest_problem(path: Path) -> str | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return f"it does not read as JSON ({exc})"
    if not isinstance(data, dict) or "documents" not in data:
        return "it is not a knowledge-base manifest (no documents list)"
    return None


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
