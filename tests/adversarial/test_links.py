"""No file outside the workspace is touched through a link (issue #47, item 4): the files the
product keeps in a workspace are opened without following links and refused, in one line, when
they are a symbolic link, a folder or anything but a regular file.

Before #47: ``.workspace.lock`` linked to a file outside the workspace had that file overwritten
with the lock's JSON by every command that writes the folder; a ``.workspace.lock`` that is a
folder or a named pipe was a traceback; ``review.sqlite`` or ``library.sqlite`` linked elsewhere
was opened and written through the link (a dangling one had SQLite create the file it points
to); a file written atomically (the settings, the manifest…) that is a link was silently replaced;
a ``backups/`` that is a link had every snapshot written wherever it points."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from engine.app.settings import Settings
from engine.core.files import NotRegularFile
from engine.core.types import StoreDamaged
from storage.folder_lock import LOCK_FILE
from storage.library_store import LIBRARY_DB, LibraryStore
from storage.review_store import ReviewStore
from storage.snapshots import BackupFailed, take_review
from tests.adversarial.conftest import CLI_IMPORTS_MB, measured

OUTSIDE = b"a file of someone else's, outside the workspace\n"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _outside_file(tmp_path: Path) -> Path:
    (tmp_path / "elsewhere").mkdir(exist_ok=True)
    target = tmp_path / "elsewhere" / "precious.txt"
    target.write_bytes(OUTSIDE)
    return target


LOCKS = {  # what .workspace.lock is → (how to make it, the words of the refusal)
    "a link to a file outside": (lambda lock, tmp: lock.symlink_to(_outside_file(tmp)), "a symbolic link (to "),
    "a folder": (lambda lock, tmp: lock.mkdir(), "a folder"),
    "a named pipe": (lambda lock, tmp: os.mkfifo(lock), "a named pipe"),
}


@pytest.mark.parametrize("kind", LOCKS)
def test_a_workspace_lock_that_is_not_a_regular_file_is_refused_in_one_line(tmp_path, kind):
    folder = tmp_path / "ws"
    folder.mkdir()
    make, words = LOCKS[kind]
    make(folder / LOCK_FILE, tmp_path)
    run = measured("restore", "--store", str(folder))  # a command that writes the folder: it holds it first
    if kind == "a link to a file outside":
        assert (tmp_path / "elsewhere" / "precious.txt").read_bytes() == OUTSIDE  # not the lock's JSON
        assert (folder / LOCK_FILE).is_symlink()
    line = run.error_line(str(folder / LOCK_FILE))
    assert run.rc == 2 and f"it is {words}" in line and "not a regular file" in line and "move it away" in line, line
    assert run.within(cpu_seconds=20, peak_mb=CLI_IMPORTS_MB), run


STORES = {"review.sqlite": ReviewStore, LIBRARY_DB: LibraryStore}


@pytest.mark.parametrize("dangling", [False, True], ids=["to a store outside", "to nothing"])
@pytest.mark.parametrize("name", STORES)
def test_a_store_that_is_a_link_is_refused_and_nothing_is_written_through_it(tmp_path, name, dangling):
    outside = tmp_path / "elsewhere" / name
    outside.parent.mkdir()
    if not dangling:
        STORES[name](outside).close()  # a good store of its kind, somewhere else
        before = digest(outside)
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / name).symlink_to(outside)
    with pytest.raises(StoreDamaged) as refused:
        STORES[name](folder / name)
    assert f"it is a symbolic link (to {outside}), not a regular file" in str(refused.value)
    assert str(refused.value).startswith(f"{folder / name}: ")
    if dangling:
        assert not os.path.lexists(outside)  # SQLite did not create what the link points to
    else:
        assert digest(outside) == before
    assert sorted(p.name for p in outside.parent.iterdir()) == ([] if dangling else [name])  # no -wal made there


def test_a_file_written_atomically_that_is_a_link_is_refused_not_replaced(tmp_path):
    folder = tmp_path / "ws"
    folder.mkdir()
    target = _outside_file(tmp_path)
    (folder / "settings.json").symlink_to(target)
    with pytest.raises(NotRegularFile) as refused:
        Settings().save(folder)
    assert str(refused.value).startswith(f"{folder / 'settings.json'}: it is a symbolic link (to {target})")
    assert (folder / "settings.json").is_symlink() and target.read_bytes() == OUTSIDE


def test_backups_that_are_a_link_get_no_snapshot(tmp_path):
    folder = tmp_path / "ws"
    folder.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "backups").symlink_to(elsewhere, target_is_directory=True)
    store = ReviewStore(folder / "review.sqlite")
    try:
        with pytest.raises(BackupFailed) as refused:
            take_review(store)
    finally:
        store.close()
    assert "symbolic link" in str(refused.value) and "move the link away" in str(refused.value)
    assert list(elsewhere.iterdir()) == []
