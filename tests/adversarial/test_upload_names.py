"""Uploaded file names follow SECURITY.md ("Names") on both uploaders (#23 item 5).

Before, the Questionnaire screen kept ``..\\..\\evil_bs.xlsx``, ``C:evil_drive.xlsx`` and a name
with a newline as written (a file with a newline in its name on disk), the Knowledge base screen
showed a U+202E right-to-left override (``evil_rtl`` U+202E ``slx.md`` reads as ending in
``.xlsx``), a 300-character name gave ``[Errno 36] File name too long`` and left an empty
staging folder (a raw ``OSError`` traceback on the Knowledge base screen), and a NUL gave a
traceback on both screens. Now one engine function (``engine/ingest/upload_names.py``) gives
each upload a plain name, used by both screens (and by ``Workspace.add_questionnaire``): folders
and drive letters dropped, control and bidi characters removed, the length capped with the
extension kept, and the screen says what was changed; a name with nothing left is refused in
one line. Nothing is left in the staging folders, no screen shows a traceback.

AppTest of ui/app.py on a real workspace (real MiniLM, real Qdrant local mode, real review
store) with the stated stand-in LLM of tests/ui/conftest.py; nothing here drafts.
"""

from __future__ import annotations

import pytest

from engine.core.types import IngestError
from engine.ingest.upload_names import MAX_CHARS, plain_upload_name
from tests.fixtures import write_questionnaire
from tests.ui.conftest import button, texts
from ui.components.messages import escape_md

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
LONG = "q" * 295 + ".xlsx"  # 300 characters
# (name sent by the browser, the plain name kept, what the screen says was changed)
QUESTIONNAIRES = [
    ("..\\..\\evil_bs.xlsx", "evil_bs.xlsx", "had a folder path (removed)"),
    ("../../evil_slash.xlsx", "evil_slash.xlsx", "had a folder path (removed)"),
    ("C:evil_drive.xlsx", "evil_drive.xlsx", "began with a drive letter (removed)"),
    ("evil\nnewline.xlsx", "evilnewline.xlsx", "held control characters (removed)"),
    ("evil%0Aencoded.xlsx", "evilencoded.xlsx", "held control characters (removed)"),  # how a browser sends it
    ("evil_rtl\u202exslx.xlsx", "evil_rtlxslx.xlsx", "held invisible or right-to-left control characters (removed)"),
    (LONG, "q" * (MAX_CHARS - 5) + ".xlsx", f"was longer than {MAX_CHARS} characters"),
]
NUL = ("evil\x00nul.xlsx", "evilnul.xlsx", "held control characters (removed)")  # Streamlit's uploader refuses it first
DOCUMENTS = [
    ("..\\..\\evil_bs.md", "evil_bs.md"),
    ("C:evil_drive.md", "evil_drive.md"),
    ("evil\nnewline.md", "evilnewline.md"),
    ("evil_rtl\u202eslx.md", "evil_rtlslx.md"),
    ("d" * 297 + ".md", "d" * (MAX_CHARS - 3) + ".md"),
]
POLICIES = [
    "Audit logs are kept for 400 days.",
    "Backups are encrypted with AES-256.",
    "Staff use hardware keys.",
    "Incidents are reported within 24 hours.",
    "Data centres are in Frankfurt.",
    "Passwords have 14 characters.",
]


@pytest.mark.parametrize(("given", "kept", "change"), [*QUESTIONNAIRES, NUL])
def test_the_engine_keeps_a_plain_name(given, kept, change):
    from ui.components.uploads import upload_name

    plain = plain_upload_name(upload_name(given))
    assert plain.name == kept
    assert any(change in c for c in plain.changes), plain.changes
    assert plain_upload_name(plain.name).changes == ()  # a plain name is kept as it is
    assert len(plain.name.encode("utf-8")) <= 240


@pytest.mark.parametrize("given", ["\x00", "..", "C:", "..\\..\\", "\u202e\n", "...", "folder/"])
def test_a_name_with_nothing_left_is_refused_in_words(given):
    with pytest.raises(IngestError, match="no usable name") as caught:
        plain_upload_name(given)
    assert "rename the file to a plain name" in str(caught.value)


def _incoming_left(ws) -> list[str]:
    incoming = ws.folder / "questionnaires" / "incoming"
    return sorted(str(p.relative_to(incoming)) for p in incoming.rglob("*")) if incoming.exists() else []


@pytest.mark.parametrize(("given", "kept", "change"), QUESTIONNAIRES, ids=[k[:20] for _, k, _ in QUESTIONNAIRES])
def test_questionnaire_uploads_are_kept_under_a_plain_name(open_screen, ui_workspace, tmp_path, given, kept, change):
    ws = ui_workspace
    at = open_screen("questionnaire")
    book = write_questionnaire(tmp_path / "book.xlsx").read_bytes()
    at.file_uploader(key="questionnaire_uploader_0").upload(given, book, XLSX)
    at.run()
    assert not at.exception, at.exception
    (project,) = ws.projects()
    assert project.file_name == kept
    assert [p.name for p in (ws.folder / "questionnaires" / str(project.id)).iterdir()] == [kept]
    assert f"**{escape_md(kept)}**: 4 questions found." in texts(at.success)
    warning = texts(at.warning)
    assert f"Kept as {escape_md(kept)}: the uploaded name" in warning and escape_md(change) in warning
    assert _incoming_left(ws) == []


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("evil\x00nul.xlsx", "Filename cannot contain null bytes"),
        ("\x00", "Filename cannot contain null bytes"),
        ("..\\..\\", "Invalid file extension"),  # the uploader's own check of the extension (a bypassed page)
    ],
)
def test_a_name_the_uploader_refuses_is_a_message_on_the_questionnaire_screen(
    open_screen, ui_workspace, tmp_path, given, why
):
    ws = ui_workspace
    at = open_screen("questionnaire")
    at.file_uploader(key="questionnaire_uploader_0").upload(
        given, write_questionnaire(tmp_path / "b.xlsx").read_bytes(), XLSX
    )
    at.run()
    assert not at.exception, at.exception
    error = texts(at.error)
    assert error.startswith("The upload was refused (") and why in error and "Rename the file" in error, error
    assert ws.projects() == [] and _incoming_left(ws) == []
    assert at.session_state["questionnaire_uploader_generation"] == 1  # a new, empty uploader
    at.run()  # and the next run is quiet
    assert not at.exception and not at.error


def test_knowledge_base_uploads_are_indexed_under_plain_names(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    at = open_screen("knowledge_base")
    uploader = at.file_uploader[0]
    for (given, _), policy in zip(DOCUMENTS, POLICIES):
        uploader.upload(given, f"# Policy\n\n{policy}\n".encode(), "text/markdown")
    at.run()
    button(at, "Index files").click()
    at.run()
    assert not at.exception, at.exception
    assert sorted(d.name for d in ws.kb.documents()) == sorted(kept for _, kept in DOCUMENTS)
    warnings = texts(at.warning)
    for _, kept in DOCUMENTS:
        assert f"Kept as {escape_md(kept)}: the uploaded name" in warnings
    assert not at.error
    at.file_uploader[0].upload("evil\x00nul.md", b"# NUL\n\nA name with a NUL.\n", "text/markdown")
    at.run()
    assert not at.exception, at.exception
    assert "The upload was refused (" in texts(at.error) and "Filename cannot contain null bytes" in texts(at.error)
    assert len(ws.kb.documents()) == len(DOCUMENTS)
    assert not any("\u202e" in d.name or "\n" in d.name or "\x00" in d.name for d in ws.kb.documents())


def test_past_questionnaires_imported_under_plain_names(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    at = open_screen("knowledge_base")
    book = write_questionnaire(tmp_path / "past.xlsx", answered={4: "Yes", 5: "No"}).read_bytes()
    at.file_uploader(key="library_uploader_0").upload("..\\..\\C:past\u202e\n.xlsx", book, XLSX)
    at.run()
    button(at, "Import").click()
    at.run()
    assert not at.exception, at.exception
    assert {e.file for e in ws.library.entries()} == {"past.xlsx"}
    assert "Kept as" in texts(at.warning)
    at.file_uploader(key="library_uploader_1").upload("past\x00.xlsx", book, XLSX)
    at.run()
    assert not at.exception, at.exception
    assert "The upload was refused (" in texts(at.error) and "Filename cannot contain null bytes" in texts(at.error)
