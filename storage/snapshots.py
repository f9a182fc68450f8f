"""Rolling snapshots of what a workspace (or a ``--store`` folder) keeps that its documents
cannot rebuild: the review store ``review.sqlite`` (questionnaires, drafts, decisions), copied
with SQLite's online backup API, and the knowledge base's ``manifest.json``; and restoring one
(``python -m engine restore``).

Snapshots live in ``FOLDER/backups/`` as ``review-<UTC time>.sqlite`` and
``manifest-<UTC time>.json``. The newest :data:`KEEP` of each kind are kept (an older one is
deleted when a new one is made); a snapshot identical to the newest one is not kept twice. The
review store is snapshotted when the app opens the workspace and after each drafting run (the
app's and ``draft``'s), the manifest each time it is written.

Restoring never rewrites the file it replaces: the current file (with a database's ``-wal``
and ``-shm``) is renamed beside itself, ``review.sqlite.damaged-<time>`` (``.replaced-<time>``
when it read fine; its ``-wal`` becomes ``review.sqlite.damaged-<time>-wal``, so SQLite or a
recovery tool opens the pair as it was), then a copy of the snapshot takes its name.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import NoReturn

from engine.core.types import FileProblem
from storage.review_store import _TABLES, ReviewStore
from storage.sqlite import inspect, side_files

KEEP = 10  # snapshots kept of each kind
BACKUPS = "backups"
REVIEW_DB = "review.sqlite"
MANIFEST = "manifest.json"
_KINDS = {"review": (REVIEW_DB, ".sqlite"), "manifest": (MANIFEST, ".json")}  # kind → (file, snapshot suffix)


class SnapshotError(FileProblem):
    """A snapshot that cannot be restored (missing, damaged, of nothing this folder keeps)."""


@dataclass(frozen=True)
class Snapshot:
    path: Path
    kind: str  # "review" or "manifest"
    taken: str  # UTC, ISO 8601

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
    """A snapshot of the review store in ``backups/`` beside it; the snapshot's path."""
    folder = _backups(store.path.parent)
    tmp = folder / f".review-{_stamp()}.sqlite.tmp"
    store.backup_to(tmp)
    return _keep(tmp, "review", folder)


def take_manifest(store: Path) -> Path | None:
    """A snapshot of the knowledge base's manifest in ``store`` (None: none there, or it does
    not read as JSON: a damaged manifest is never snapshotted over the good ones)."""
    manifest = Path(store) / MANIFEST
    if not manifest.is_file() or _manifest_problem(manifest):
        return None
    folder = _backups(Path(store))
    tmp = folder / f".manifest-{_stamp()}.json.tmp"
    shutil.copyfile(manifest, tmp)
    return _keep(tmp, "manifest", folder)


def snapshots(store: Path, kind: str | None = None) -> list[Snapshot]:
    """The snapshots in ``store/backups`` (of one kind, or both), newest first."""
    found = []
    for path in (Path(store) / BACKUPS).glob("*"):
        for name, (_, suffix) in _KINDS.items():
            if path.name.startswith(f"{name}-") and path.name.endswith(suffix) and (kind in (None, name)):
                stamp = path.name[len(name) + 1 : -len(suffix)]
                try:
                    taken = datetime.strptime(stamp, "%Y%m%dT%H%M%S%fZ").replace(tzinfo=timezone.utc)
                except ValueError:
                    continue
                found.append(Snapshot(path, name, taken.isoformat(timespec="seconds")))
    return sorted(found, key=lambda s: s.path.name, reverse=True)


def problem(path: Path, kind: str) -> str | None:
    """What is wrong with a review database or manifest file (a snapshot or the current one);
    None when it reads as a whole."""
    if kind == "review":
        return inspect(path, _TABLES).problem if path.exists() or side_files(path) else "it is missing"
    return _manifest_problem(path)


def status(store: Path) -> list[str]:
    """One line per file this module keeps snapshots of, then per snapshot (newest first):
    what ``restore --list`` prints."""
    lines = []
    for kind, (name, _) in _KINDS.items():
        path = Path(store) / name
        if path.exists() or side_files(path):
            found = problem(path, kind)
            lines.append(f"{path}: {'damaged: ' + found if found else 'reads as a whole'}")
        else:
            lines.append(f"{path}: none")
    kept = snapshots(store)
    if not kept:
        lines.append(f"no snapshots in {Path(store) / BACKUPS}")
    for s in kept:
        found = problem(s.path, s.kind)
        lines.append(
            f"{s.path.name}  {s.taken}  {s.path.stat().st_size:>12,} bytes  {'damaged: ' + found if found else 'good'}"
        )
    return lines


def restore(store: Path, snapshot: str | Path | None = None) -> list[Restored]:
    """Put a snapshot back in place (its current file moved aside, untouched). Without
    ``snapshot``: the review store from its newest good snapshot (when the folder has one or
    snapshots of it), and the manifest from its newest good one when the current manifest is
    damaged; every one is found before anything is moved."""
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
    chosen = []
    review = store / REVIEW_DB
    if review.exists() or side_files(review) or snapshots(store, "review"):
        chosen.append(_newest_good(store, "review") or _none_good(store, REVIEW_DB))
    manifest = store / MANIFEST
    if manifest.exists() and _manifest_problem(manifest):
        chosen.append(_newest_good(store, "manifest") or _none_good(store, MANIFEST))
    if not chosen:
        raise SnapshotError(
            store,
            f"there is neither a {REVIEW_DB} nor a damaged {MANIFEST} here",
            "nothing was changed; give the folder of the workspace or knowledge base (--store)",
        )
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
    for p in ([path] if path.exists() else []) + side_files(path):
        new = p.with_name(f"{path.name}.{label}-{stamp}{p.name[len(path.name) :]}")
        os.rename(p, new)
        moved.append(new)
    return tuple(moved)


def _put_back(store: Path, snapshot: Snapshot) -> Restored:
    target = store / snapshot.target
    label = "damaged" if problem(target, snapshot.kind) else "replaced"
    moved = set_aside(target, label) if target.exists() or side_files(target) else ()
    tmp = store / f".{snapshot.target}.restoring"
    shutil.copyfile(snapshot.path, tmp)
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, target)
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
    """``tmp`` kept as the newest snapshot of ``kind`` (unless the newest one has the same
    bytes), the older ones beyond :data:`KEEP` deleted."""
    kept = snapshots(folder.parent, kind)
    if kept and _sha256(kept[0].path) == _sha256(tmp):
        tmp.unlink()
        return kept[0].path
    final = folder / f"{kind}-{tmp.name.split('-', 1)[1].rsplit('.', 2)[0]}{_KINDS[kind][1]}"
    os.replace(tmp, final)
    for old in snapshots(folder.parent, kind)[KEEP:]:
        old.path.unlink(missing_ok=True)
    return final


def _manifest_problem(path: Path) -> str | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return f"it does not read as JSON ({exc})"
    if not isinstance(data, dict) or "documents" not in data:
        return "it is not a knowledge-base manifest (no documents list)"
    return None


def _backups(store: Path) -> Path:
    folder = store / BACKUPS
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
