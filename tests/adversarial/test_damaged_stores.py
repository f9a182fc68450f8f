"""A damaged store never resets the workspace, is never rewritten, and gets one line naming the
file, the problem and the way back (issue #23).

* ``review.sqlite`` emptied, truncated, cut mid-page or overwritten, with and without the
  ``-wal`` a killed app leaves (which may still hold the latest work): opening it, as the app
  does at start (``Workspace.back_up``, then ``jobs.resume``), raises ``ReviewStoreDamaged``
  naming the file and ``python -m engine restore``, and every file of the workspace keeps its
  bytes (no WAL folded in, no new empty database, no ``-shm`` created). Before #23 a 0-byte
  file with its ``-wal`` opened as a new empty database and the ``-wal`` was overwritten.
* Restoring: the snapshot the workspace took brings back every questionnaire, draft and
  decision (``python -m engine restore`` in a child process), the damaged files are moved aside
  with their bytes unchanged, ``--list`` shows what is kept; the last 10 snapshots are kept.
* The knowledge base: a Qdrant folder whose files are cut in half gives `kb list` and `search`
  one ``error:`` line that names the folder and `kb reindex` (before #23: ``error: Expecting
  value: …`` or a traceback), nothing in the store changes, and `kb reindex` moves the folder
  aside and builds it again; a manifest cut in half gives one line naming `restore`, which
  brings it back.

Everything is real: the review store's own API, SQLite, Qdrant local mode, the CLI in a child
process; the fixtures are generated (tests/adversarial/damaged.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.app.workspace import Workspace
from engine.index.kb import ManifestDamaged
from storage import snapshots
from storage.review_store import ReviewStore, ReviewStoreDamaged
from storage.vector_store import IndexDamaged, client_for, release
from tests.adversarial.conftest import assert_queryable, measured
from tests.adversarial.damaged import DAMAGES, damage, fill_review_store, fingerprint, review_state, review_store_files
from tests.fixtures import write_questionnaire


@pytest.mark.parametrize("with_wal", [True, False], ids=["with -wal", "without -wal"])
@pytest.mark.parametrize("how", list(DAMAGES))
def test_a_damaged_review_store_is_refused_with_its_fix_and_left_as_it_was(tmp_path, how, with_wal):
    folder = tmp_path / "workspace"
    review_store_files(folder, with_wal)
    db = folder / "review.sqlite"
    damage(db, how)
    before = fingerprint(folder)

    with pytest.raises(ReviewStoreDamaged) as refused:
        ReviewStore(db)
    message = str(refused.value)
    assert message.startswith(f"{db}: the review database is damaged"), message
    assert "There is no snapshot of it" in message and ".recover" in message and "\n" not in message
    ws = Workspace(folder)  # what the app does at start
    with pytest.raises(ReviewStoreDamaged):
        ws.back_up()
    with pytest.raises(ReviewStoreDamaged):
        ws.jobs.resume()
    assert fingerprint(folder) == before  # not one byte written, no file added or removed


def test_the_cli_gives_a_damaged_review_store_one_line_and_restores_nothing_it_cannot(tmp_path):
    folder = tmp_path / "workspace"
    review_store_files(folder, with_wal=True)
    db = folder / "review.sqlite"
    damage(db, "0 bytes")  # the case: the -wal still holds the latest work
    book = write_questionnaire(tmp_path / "vendor.xlsx")
    before = fingerprint(folder)

    drafting = measured("draft", str(book), "--store", str(folder), timeout=180)
    assert drafting.rc == 2, drafting  # refused before any model loads
    line = drafting.error_line(str(db))
    assert "the file is empty (0 bytes) while its write-ahead log review.sqlite-wal holds" in line, line
    assert "There is no snapshot of it" in line, line
    listed = measured("restore", "--list", "--store", str(folder), timeout=120)
    assert listed.rc == 0 and f"{db}: damaged: the file is empty" in listed.stdout, listed
    assert f"no snapshots in {folder / 'backups'}" in listed.stdout
    refused = measured("restore", "--store", str(folder), timeout=120)
    assert refused.rc == 2, refused
    assert "there is no good snapshot of review.sqlite" in refused.error_line(str(folder / "backups"))
    assert fingerprint(folder) == before


@pytest.mark.parametrize("with_wal", [True, False], ids=["with -wal", "without -wal"])
def test_restoring_the_last_snapshot_brings_back_every_questionnaire_draft_and_decision(tmp_path, with_wal):
    folder = tmp_path / "workspace"
    state = review_store_files(folder, with_wal)
    assert len(state) == 2 and sum(len(p["decisions"]) for p in state.values()) == 3
    ws = Workspace(folder)
    ws.back_up()  # what the app does when it opens the workspace
    db = folder / "review.sqlite"
    on_disk = {p: p.read_bytes() for p in (db, folder / "review.sqlite-wal")}  # the app running
    ws.review_store.close()
    if with_wal:  # then killed: its -wal stays
        for path, data in on_disk.items():
            path.write_bytes(data)
    damage(db, "0 bytes")
    damaged = fingerprint(folder)

    done = measured("restore", "--store", str(folder), timeout=120)
    assert done.rc == 0 and "Traceback" not in done.stderr, done
    assert done.stdout.startswith(f"restored {db} from review-"), done.stdout

    restored = ReviewStore(db)
    assert review_state(restored) == state
    restored.close()
    aside = {name: digest for name, digest in fingerprint(folder).items() if ".damaged-" in name}
    assert sorted(damaged[n] for n in damaged if n.startswith("review.sqlite")) == sorted(aside.values())
    assert len(aside) == (2 if with_wal else 1)  # the -wal moved with it (review.sqlite.damaged-T-wal)


def test_a_snapshot_is_kept_per_change_and_the_last_ten_are_kept(tmp_path):
    folder = tmp_path / "workspace"
    store = ReviewStore(folder / "review.sqlite")
    fill_review_store(store, tmp_path / "books")
    first = snapshots.take_review(store)
    assert snapshots.take_review(store) == first  # nothing changed: no second copy
    for i in range(12):
        store.decide(1, "ENC-01", "edited", answer=f"Yes ({i}).")
        snapshots.take_review(store)
    kept = snapshots.snapshots(folder, "review")
    assert len(kept) == snapshots.KEEP and first not in [s.path for s in kept]
    newest = ReviewStore(kept[0].path)
    assert newest.latest_decisions(1)["ENC-01"].answer == "Yes (11)."
    newest.close()
    store.close()


def test_restore_can_name_an_older_snapshot_and_moves_a_good_file_aside_as_replaced(tmp_path):
    folder = tmp_path / "workspace"
    store = ReviewStore(folder / "review.sqlite")
    fill_review_store(store, tmp_path / "books")
    older = snapshots.take_review(store)
    store.decide(1, "ENC-01", "rejected")
    snapshots.take_review(store)
    store.close()
    done = snapshots.restore(folder, older.name)
    assert [p.name.split(".replaced-")[0] for p in done[0].moved] == ["review.sqlite"]
    back = ReviewStore(folder / "review.sqlite")
    assert back.latest_decisions(1)["ENC-01"].action.value == "accepted"
    back.close()


def _cut_in_half(folder: Path) -> list[Path]:
    cut = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != ".lock":
            data = path.read_bytes()
            path.write_bytes(data[: len(data) // 2])
            cut.append(path)
    return cut


def test_a_damaged_qdrant_folder_gets_one_line_and_kb_reindex_builds_it_again(store, encoder):
    qdrant = store / "qdrant"
    cut = _cut_in_half(qdrant)
    assert {p.name for p in cut} >= {"meta.json", "storage.sqlite"}
    before = fingerprint(store)

    for command in (["kb", "list"], ["search", "How long are backups kept?"]):
        run = measured(*command, "--store", str(store), timeout=180)
        assert run.rc == 2, run
        line = run.error_line(str(qdrant))
        assert "vector index (Qdrant local folder) is damaged" in line and "nothing was changed" in line, line
        assert f"python -m engine kb reindex --store {store}" in line, line
    with pytest.raises(IndexDamaged):  # and in this process, twice (no "open in another process")
        client_for(str(qdrant))
    with pytest.raises(IndexDamaged):
        client_for(str(qdrant))
    release(str(qdrant))
    assert fingerprint(store) == before

    rebuilt = measured("kb", "reindex", "--store", str(store), "--summaries", "extractive", timeout=300)
    assert rebuilt.rc == 0 and "Traceback" not in rebuilt.stderr, rebuilt
    assert any("moved it aside to" in line for line in rebuilt.lines), rebuilt.stderr
    aside = next(store.glob("qdrant.damaged-*"))
    assert fingerprint(aside) == {k.split("/", 1)[1]: v for k, v in before.items() if k.startswith("qdrant/")}
    assert_queryable(store, encoder)


def test_a_damaged_manifest_gets_one_line_and_restore_brings_it_back(store, encoder):
    manifest = store / "manifest.json"
    good = manifest.read_bytes()
    assert snapshots.snapshots(store, "manifest"), "the manifest is snapshotted when it is written"
    manifest.write_bytes(good[: len(good) // 2])
    before = fingerprint(store)

    run = measured("kb", "list", "--store", str(store), timeout=180)
    assert run.rc == 2, run
    line = run.error_line(str(manifest))
    assert "manifest is damaged" in line and f"python -m engine restore --store {store}" in line, line
    assert fingerprint(store) == before
    with pytest.raises(ManifestDamaged):
        Workspace(store).kb

    done = measured("restore", "--store", str(store), timeout=120)
    assert done.rc == 0, done
    assert manifest.read_bytes() == good
    assert next(store.glob("manifest.json.damaged-*")).read_bytes() == good[: len(good) // 2]
    assert_queryable(store, encoder)


def test_restore_says_when_there_is_nothing_to_restore(tmp_path):
    run = measured("restore", "--store", str(tmp_path), timeout=120)
    assert run.rc == 2 and "nothing was changed" in run.error_line(str(tmp_path)), run
    shutil.rmtree(tmp_path / "backups", ignore_errors=True)


def test_a_damaged_stored_document_names_itself_and_how_to_index_it_again(store, encoder):
    from engine.core.config import EngineConfig
    from engine.index.kb import DocumentDamaged, KnowledgeBase

    chunks = next(store.glob("docs/*/chunks.jsonl"))
    chunks.write_bytes(chunks.read_bytes()[: chunks.stat().st_size // 2])
    before = fingerprint(store)
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        with pytest.raises(DocumentDamaged) as refused:
            kb.chunks("handbook.pdf")
        assert str(refused.value).startswith(f"{chunks}: the knowledge base's stored copy of 'handbook.pdf' is damaged")
        assert f"python -m engine kb remove 'handbook.pdf' --store {store}" in str(refused.value)
        assert fingerprint(store) == before
    finally:
        release(str(store / "qdrant"))
    removed = measured("kb", "remove", "handbook.pdf", "--store", str(store), timeout=180)
    assert removed.rc == 0, removed
