"""What reaches the app through its uploaders (AppTest of ui/app.py on a real workspace, with
the stated stand-in LLM of tests/ui/conftest.py; nothing here drafts).

* Browsers send an upload's name with ``"`` percent-encoded (``%22``, the form-data encoding);
  before #16 the app stored ``Vendor %22Final%22.xlsx``. Now the name the user gave is kept, on
  the Questionnaire screen and the Knowledge base screen alike.
* A zip bomb uploaded on the Knowledge base screen is refused in one message that names the
  limit, and nothing is indexed; the knowledge base still answers.
* A staging copy left in questionnaires/incoming/ by a killed app is removed when the next
  app holds the workspace, never by a reader beside it (the zip-bomb upload itself, in its own
  process, is in test_zip_bombs.py).
"""

from __future__ import annotations

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from storage import folder_lock
from tests.adversarial import corpus
from tests.adversarial.conftest import assert_queryable
from tests.fixtures import write_questionnaire
from tests.ui.conftest import add_handbook, button, texts

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def test_double_quotes_in_uploaded_names_are_kept(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    at = open_screen("questionnaire")
    book = write_questionnaire(tmp_path / "book.xlsx").read_bytes()
    at.file_uploader(key="questionnaire_uploader_0").upload("Vendor %22Final%22 v2.xlsx", book, XLSX)
    at.run()
    assert not at.exception
    (project,) = ws.projects()
    assert project.file_name == 'Vendor "Final" v2.xlsx'
    assert '**Vendor "Final" v2.xlsx**: 4 questions found.' in texts(at.success)

    at.switch_page("screens/knowledge_base.py")
    at.run()
    at.file_uploader[0].upload(
        "Policy %22v2%22.md", b"# Retention\n\nAudit logs are kept for 400 days.\n", "text/markdown"
    )
    at.run()
    button(at, "Index files").click()
    at.run()
    assert [d.name for d in ws.kb.documents()] == ['Policy "v2".md']
    assert 'Indexed **Policy "v2".md**: 1 chunk.' in texts(at.success)


def test_a_bomb_uploaded_as_a_document_is_refused_on_screen(open_screen, ui_workspace, tmp_path, encoder):
    ws = ui_workspace
    add_handbook(ws, tmp_path)
    at = open_screen("knowledge_base")
    bomb = corpus.cells_bomb(tmp_path / "bomb.xlsx", unpacked_mb=400)
    at.file_uploader[0].upload("bomb.xlsx", bomb.read_bytes(), XLSX)
    at.run()
    button(at, "Index files").click()
    at.run()
    assert not at.exception
    error = texts(at.error)
    assert "Not indexed — **bomb.xlsx**: Unpacks to 400.0 MB" in error and "over the limit of 200 MB" in error
    assert "RFP\\_MAX\\_UNZIPPED\\_MB=401" in error
    assert [d.name for d in ws.kb.documents()] == ["handbook.pdf"]
    from storage.vector_store import release

    release(str(ws.folder / "qdrant"))
    ws.__dict__.pop("kb")
    assert_queryable(ws.folder, encoder)


def test_a_staging_copy_left_by_a_killed_app_is_removed_on_start(tmp_path):
    folder = tmp_path / "workspace"
    left = folder / "questionnaires" / "incoming" / "tmpab12" / "bomb.xlsx"
    left.parent.mkdir(parents=True)
    left.write_bytes(b"PK\x03\x04 the upload a killed app was reading")
    reader = Workspace(folder, Settings())  # a reader beside the app (`review show`) leaves it alone
    assert left.exists()
    reader.hold("the app")  # what the app does when it starts (ui/resources.py)
    try:
        assert not (folder / "questionnaires" / "incoming").exists()
    finally:
        folder_lock.release(folder)
