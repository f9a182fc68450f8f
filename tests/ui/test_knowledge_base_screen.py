"""Knowledge base screen (AppTest): files go in through the real file uploader and are indexed
by the real engine (MiniLM, Qdrant local mode); a bad file gets its own plain-words error while
the good one is indexed; the list, "unchanged", remove with confirmation, and re-index.

(Named ``*_screen`` so that its module name differs from tests/integration/test_knowledge_base.py:
the test folders have no ``__init__.py``.)"""

from __future__ import annotations

from pathlib import Path

from tests.fixtures import topic_pages, write_pdf, write_questionnaire
from tests.ui.conftest import button, texts
from ui.components.messages import count


def small_pdf(tmp_path: Path, name: str = "handbook.pdf", first: int = 0) -> bytes:
    """A 3-page PDF: the topics from ``first`` on (encryption, backups, access, …)."""
    return write_pdf(tmp_path / name, topic_pages()[first : first + 3]).read_bytes()


def test_upload_index_list_remove(open_screen, ui_workspace, tmp_path):
    at = open_screen("knowledge_base")
    assert not at.exception
    assert "knowledge base is empty" in texts(at.info)
    assert button(at, "Index files").disabled  # nothing uploaded yet

    uploader = at.file_uploader[0]
    assert uploader.label == "Files to add" and uploader.accept_multiple_files
    assert {".pdf", ".docx", ".xlsx", ".csv", ".md", ".txt"} <= set(uploader.allowed_type)
    handbook = small_pdf(tmp_path)
    uploader.upload("handbook.pdf", handbook, "application/pdf")
    uploader.upload("empty.pdf", b"", "application/pdf")
    uploader.upload("broken.pdf", b"%PDF-1.4\nthis is not really a PDF\n", "application/pdf")
    at.run()
    button(at, "Index files").click()
    at.run()
    assert not at.exception

    (doc,) = ui_workspace.kb.documents()  # the good file is indexed, the bad ones are not
    assert doc.name == "handbook.pdf" and doc.pages == 3 and doc.chunks > 0
    successes, errors = texts(at.success), texts(at.error)
    assert f"Indexed **handbook.pdf**: 3 pages, {count(doc.chunks, 'chunk')}." in successes
    assert "Not indexed — **empty.pdf**: Is empty (0 bytes)." in errors
    assert "**broken.pdf**" in errors and "broken.pdf" not in successes
    table = at.dataframe[0].value
    assert list(table["Document"]) == ["handbook.pdf"] and list(table["Chunks"]) == [doc.chunks]
    assert list(table["Pages"]) == [3] and list(table["Type"]) == ["PDF"]
    # the uploader was cleared (a new key) so the same files are not indexed twice
    assert at.file_uploader[0].key == "kb_uploader_1" and not at.file_uploader[0].value

    # the same bytes again: reported unchanged, nothing re-indexed
    at.file_uploader[0].upload("handbook.pdf", handbook, "application/pdf")
    at.run()
    button(at, "Index files").click()
    at.run()
    assert "**handbook.pdf** is unchanged: the knowledge base already holds this exact file." in texts(at.info)
    assert ui_workspace.kb.documents() == [doc]

    # another file under the same name: it replaces the older version
    at.file_uploader[0].upload("handbook.pdf", small_pdf(tmp_path, "other.pdf", first=2), "application/pdf")
    at.run()
    button(at, "Index files").click()
    at.run()
    assert "Replaced the older version of **handbook.pdf**" in texts(at.success)
    (newer,) = ui_workspace.kb.documents()
    assert newer.name == "handbook.pdf" and newer.doc_hash != doc.doc_hash

    # re-index keeps the document
    button(at, "Re-index").click()
    at.run()
    assert not at.exception and "Re-indexed 1 document." in texts(at.success)
    assert [d.name for d in ui_workspace.kb.documents()] == ["handbook.pdf"]

    # remove asks first; Cancel keeps it, "Yes, remove" removes it
    at.selectbox(key="kb_remove_choice").select("handbook.pdf")
    button(at, "Remove…").click()
    at.run()
    assert "Remove **handbook.pdf** from the knowledge base?" in texts(at.warning)
    button(at, "Cancel").click()
    at.run()
    assert len(ui_workspace.kb.documents()) == 1
    button(at, "Remove…").click()
    at.run()
    button(at, "Yes, remove").click()
    at.run()
    assert not at.exception
    assert ui_workspace.kb.documents() == []
    assert "Removed **handbook.pdf**." in texts(at.success)
    assert "knowledge base is empty" in texts(at.info)


def test_answer_library_import_conflicts_and_retire(open_screen, ui_workspace, tmp_path):
    """Past filled questionnaires go in through their own uploader; the two files answer the
    same question Yes and No, which is flagged until one answer is retired."""
    at = open_screen("knowledge_base")
    assert "Answer library" in [h.value for h in at.subheader]
    assert "The library is empty." in texts(at.caption)
    assert button(at, "Import").disabled
    uploader = next(u for u in at.file_uploader if u.label == "Import past questionnaires")
    assert {".xlsx", ".xlsm", ".csv"} <= set(uploader.allowed_type)
    past = write_questionnaire(tmp_path / "past.xlsx", answered={4: "Yes", 5: "Yes"}, comments={4: "AES-256 at rest."})
    other = write_questionnaire(tmp_path / "other.xlsx", answered={4: "No"})
    blank = write_questionnaire(tmp_path / "blank.xlsx")
    for book in (past, other, blank):
        uploader.upload(
            book.name, book.read_bytes(), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        )
    at.run()
    button(at, "Import").click()
    at.run()
    assert not at.exception
    successes, errors = texts(at.success), texts(at.error)
    assert "Imported **past.xlsx**: 2 answers, 2 unanswered questions skipped." in successes.replace("\\", "")
    assert "Imported **other.xlsx**: 1 answer, 3 unanswered questions skipped." in successes.replace("\\", "")
    assert "Not imported — **blank.xlsx**: None of its 4 questions has an answer." in errors.replace("\\", "")
    assert "3 answers from 2 questionnaires." in texts(at.caption)
    assert "1 question answered differently" in texts(at.warning)
    (expander,) = [
        e for e in at.expander if not e.label.startswith(("Add a folder", "Write a library"))
    ]  # the conflict's
    assert "Is customer data encrypted at rest?" in expander.label.replace("\\", "")

    wrong = next(e for e in ui_workspace.library.entries() if e.file == "other.xlsx")
    assert f"library_retire_{wrong.id}" not in [b.key for b in at.button]  # drawn once the list is opened
    (conflict,) = ui_workspace.library.conflicts()
    at.session_state[f"library_conflict_open_{conflict.entries[0].id}"] = True  # the reader opens it
    at.run()
    at.button(key=f"library_retire_{wrong.id}").click()
    at.run()
    assert not at.exception
    assert ui_workspace.library.entry(wrong.id).retired
    assert "Retired the answer of **other.xlsx**, row 4" in texts(at.success).replace("\\", "")
    assert "answered differently" not in texts(at.warning)
    assert [e.label for e in at.expander] == [
        "Add a folder from this computer, a scope per sub-folder",
        "Write a library answer",  # #51 (tests/ui/test_report_screens.py)
    ]
    assert "2 answers from 1 questionnaire." in texts(at.caption)


def test_a_documents_summary_is_shown_and_an_edit_is_saved_and_used(open_screen, ui_workspace, tmp_path):
    """Each document's summary is shown with who wrote it; an edit is saved through the engine
    (re-embedded at once: the summary mode selects the document by its new words) and shown as
    edited after a restart of the screen."""
    from engine.retrieval.retrieve import retrieve

    for i, name in enumerate(("handbook.pdf", "other.pdf")):
        assert not ui_workspace.kb.add_file(write_pdf(tmp_path / name, topic_pages()[2 * i : 2 * i + 2]), name).errors
    at = open_screen("knowledge_base")
    assert not at.exception and "Summaries" in [h.value for h in at.subheader]
    at.selectbox(key="kb_summary_choice").select("other.pdf")
    at.run()
    (area,) = [t for t in at.text_area if t.label == "Summary"]
    shown = ui_workspace.kb.indexes.summary("other.pdf")
    assert area.value == shown.text and "most central sentences" in texts(at.caption)
    assert button(at, "Save summary").disabled  # nothing changed yet
    question = "Which register is the Kestrel inventory?"
    area.input("The Kestrel inventory is the register of every third-party vendor and subprocessor.")
    at.run()
    button(at, "Save summary").click()
    at.run()
    assert not at.exception
    assert "Saved the summary of **other.pdf**" in texts(at.success)
    saved = ui_workspace.kb.indexes.summary("other.pdf")
    assert saved.method.value == "edited" and saved.text.startswith("The Kestrel inventory")
    assert retrieve(ui_workspace.kb, question, mode="summary").documents[0].doc.name == "other.pdf"
    again = open_screen("knowledge_base")
    again.selectbox(key="kb_summary_choice").select("other.pdf")
    again.run()
    assert "Edited by a reviewer" in texts(again.caption)
    assert [t.value for t in again.text_area if t.label == "Summary"] == [saved.text]


def test_the_profile_shows_learned_facts_and_a_fact_can_be_set(open_screen, ui_workspace, tmp_path):
    import openpyxl

    from engine.core.scopes import Scope
    from engine.index.profile import profile_of
    from tests.unit.test_profile_documents import CERTIFICATE, pdf

    # a product's own certificate states its description: a document fact, listed with its page
    assert not ui_workspace.kb.add_file(pdf(tmp_path / "Acme TX-RAMP.pdf", CERTIFICATE), "Acme TX-RAMP.pdf").errors
    ui_workspace.kb.set_scopes({"Acme TX-RAMP.pdf": Scope(products=("Acme",))})
    for name in ("a.xlsx", "b.xlsx"):
        wb = openpyxl.Workbook()
        wb.active.append(["ID", "Question", "Answer"])
        wb.active.append(["GNRL-01", "Vendor Name", "Instructure"])
        wb.active.append(["GNRL-04", "Web Link to Product Privacy Notice", "inst.bid/privacy"])
        wb.active.append(["GNRL-02", "Product Name", name])  # two files, not two copies of one
        wb.save(tmp_path / name)
        ui_workspace.library.import_file(tmp_path / name)
    at = open_screen("knowledge_base")
    assert not at.exception, at.exception
    (table,) = [d for d in at.dataframe if "Fact" in d.value.columns]
    rows = table.value.to_dict("records")
    assert {r["Value"] for r in rows if r["Whose"] == "Company"} == {"Instructure", "inst.bid/privacy"}
    (described,) = [r for r in rows if r["Whose"] == "Acme"]
    assert described["Fact"] == "product_description" and described["Value"].startswith("Acme Transcripts sends")
    assert (described["From"], described["Source"]) == ("document", "Acme TX-RAMP.pdf, page 1")
    at.text_input(key="profile_key").input("support_hours")
    at.text_input(key="profile_value").input("9-5 MT")
    at = at.run()
    at = button(at, "Set fact").click().run()
    assert not at.exception
    assert any(s.value.startswith("Set support") and "for Company" in s.value for s in at.success)
    assert profile_of(ui_workspace.library).company["support_hours"].value == "9-5 MT"
    (table,) = [d for d in at.dataframe if "Fact" in d.value.columns]
    assert "9-5 MT" in set(table.value["Value"])


def test_the_library_lists_pending_and_stale_answers_with_their_actions(open_screen, ui_workspace, tmp_path):
    """The governed library (#39): with approval on, an accepted answer waits in "Pending
    approval" until approved; an answer past its review-by date is listed until renewed; an
    owner is set; each action is made under the workspace's reviewer name."""
    from dataclasses import replace
    from datetime import date

    from engine.index.library import LibraryPolicy, add_months

    ws = ui_workspace
    ws.settings = replace(ws.settings, reviewer="Lead Lee", library=LibraryPolicy(admission="approval"))
    ws.__dict__.pop("library", None)  # reopened with the policy
    ws.library.import_file(
        write_questionnaire(tmp_path / "old.xlsx", answered={4: "Yes"}), dated=date(2021, 1, 4), by="Sam"
    )
    pending = ws.library.record(
        "Do employees use multi-factor authentication?", "Yes", "", "q.xlsx", "Security", 7, "ACC-01", by="Rita"
    )
    (stale,) = ws.library.stale()
    at = open_screen("knowledge_base")
    assert not at.exception
    assert "are added as pending" in texts(at.caption)
    labels = [e.label for e in at.expander]
    assert "Pending approval — 1 answer" in labels and "Past their review-by date — 1 answer" in labels
    assert "review by 2022-01-04" not in " ".join(m.value for m in at.markdown).replace("\\", "")  # closed
    at.session_state["library_pending_open"] = True  # the reader opens both lists
    at.session_state["library_stale_open"] = True
    at.run()
    assert "review by 2022-01-04" in " ".join(m.value for m in at.markdown).replace("\\", "")

    at.button(key=f"library_approve_{pending.id}").click()
    at.run()
    assert not at.exception and not ws.library.entry(pending.id).pending
    assert "Approved the answer of **q.xlsx**, row 7" in texts(at.success).replace("\\", "")
    at.text_input(key=f"library_renew_owner_{stale.id}").set_value("@infra")
    at.button(key=f"library_renew_set_owner_{stale.id}").click()
    at.run()
    assert "starts with @" in texts(at.error) and ws.library.entry(stale.id).owner == "Sam"  # refused, unchanged
    at.text_input(key=f"library_renew_owner_{stale.id}").set_value("Infra team")
    at.button(key=f"library_renew_set_owner_{stale.id}").click()
    at.run()
    assert ws.library.entry(stale.id).owner == "Infra team"
    at.button(key=f"library_renew_{stale.id}").click()
    at.run()
    assert ws.library.entry(stale.id).review_by == add_months(date.today(), 12).isoformat()
    assert not [e for e in at.expander if e.label.startswith(("Pending", "Past their"))]
    assert [(c.action.value, c.by) for c in ws.library.changes(pending.id)] == [
        ("record", "Rita"),
        ("approve", "Lead Lee"),
    ]
    assert [(c.action.value, c.by) for c in ws.library.changes(stale.id)] == [
        ("import", "Sam"),
        ("owner", "Lead Lee"),
        ("renew", "Lead Lee"),
    ]


GERMAN = [
    ("ENC-01", "Werden die Daten der Institution bei der Speicherung verschlüsselt?"),
    ("BCK-01", "Wie lange werden die Sicherungen der Datenbanken aufbewahrt?"),
]


def test_the_library_says_the_languages_its_answers_are_written_in(open_screen, ui_workspace, tmp_path):
    """Issue #58: a library holding answers in another language than English counts them by
    language under its size; an English-only library says nothing of it."""
    ui_workspace.library.import_file(write_questionnaire(tmp_path / "past.xlsx", answered={4: "Yes", 5: "No"}))
    at = open_screen("knowledge_base")
    assert "2 answers from 1 questionnaire." in texts(at.caption) and "Written in" not in texts(at.caption)
    ui_workspace.library.import_file(write_questionnaire(tmp_path / "fragebogen.xlsx", {4: "Yes"}, GERMAN))
    at.run()
    assert not at.exception
    assert "3 answers from 2 questionnaires. Written in English (2), German (1)." in texts(at.caption)
