"""Two frictions a responder met (#37 item 5), on a real workspace (real MiniLM, Qdrant local mode,
review store, answer library): the Questionnaire screen proposes the product an uploaded
questionnaire names (its file name, else its general-information rows) among the products the
documents' scopes and the answer library know, and says why; "Drafting finished" and the Export
screen count the rows a qualifier switched off apart from the drafted ones.

The LLM is ``QuotingGenerator``, a stated fake from tests/fixtures.py (installed by the
``ui_workspace`` fixture), because these tests are about the screens, not about generation."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.scopes import Scope
from tests.fixtures import write_questionnaire
from tests.ui.conftest import add_handbook, button, texts
from tests.unit.test_proposed_product import general_information
from tests.unit.test_qualifiers import hecvat_like

pytestmark = pytest.mark.timeout(300)
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def upload(at, book: Path):
    generation = at.session_state["questionnaire_uploader_generation"]
    at.file_uploader(key=f"questionnaire_uploader_{generation}").upload(book.name, book.read_bytes(), XLSX)
    return at.run()


def test_an_uploaded_questionnaire_is_proposed_for_the_product_it_names(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    for name, product in (("canvas.md", "Canvas"), ("credentials.md", "Canvas Credentials")):
        (tmp_path / name).write_text(f"# {product}\n\n{product} encrypts customer data at rest.\n", encoding="utf-8")
        assert not ws.kb.add([tmp_path / name], scope=Scope((product,))).errors
    past = write_questionnaire(tmp_path / "past.xlsx", answered={4: "Yes"})  # a product only the library knows
    assert ws.library.import_file(past, product="Mastery Connect").entries == 1
    at = open_screen("questionnaire")

    # the file name names "Canvas Credentials" (and "Canvas" inside it): the longer name
    at = upload(at, write_questionnaire(tmp_path / "Canvas Credentials HECVAT Full.xlsx"))
    assert not at.exception
    pid = at.session_state["project_id"]
    picker = at.selectbox(key=f"questionnaire_product_{pid}")
    assert picker.options == ["None (company-wide)", "Canvas", "Canvas Credentials", "Mastery Connect"]
    assert picker.value == "Canvas Credentials" and ws.review_store.project(pid).product == "Canvas Credentials"
    assert "Proposed: named in the file name." in texts(at.caption)

    # a file name that names nothing: the product the Product Name row names (one the library knows)
    book = general_information(tmp_path / "HECVAT Full.xlsx", "Mastery Connect", "Assessments for K-12.")
    at = upload(at, book)
    other = at.session_state["project_id"]
    assert other != pid and at.selectbox(key=f"questionnaire_product_{other}").value == "Mastery Connect"
    assert "Proposed: named in the workbook's general information (GNRL-02)." in texts(at.caption)

    # the responder picks another: kept, and the same file again is not proposed for again
    at.selectbox(key=f"questionnaire_product_{other}").select_index(0).run()  # "None (company-wide)"
    assert ws.review_store.project(other).product is None and "Proposed:" not in texts(at.caption)
    at = upload(at, book)
    assert not at.exception and ws.review_store.project(other).product is None
    assert at.selectbox(key=f"questionnaire_product_{other}").value is None


def test_finished_drafting_and_export_count_the_rows_switched_off_apart(open_screen, ui_workspace, tmp_path):
    """HECVAT-shaped rows whose qualifiers the file answers (QUAL-01 = No, QUAL-05 = No, QUAL-07 =
    AWS): of the 7 rows to draft, 5 are switched off (HIPA-01/02, PCID-01, DCTR-01/03), 2 drafted."""
    ws = ui_workspace
    add_handbook(ws, tmp_path)
    answers = {"QUAL-01": ("No", ""), "QUAL-05": ("No", ""), "QUAL-07": ("4) AWS", "")}
    book = hecvat_like(tmp_path / "hecvat.xlsx", answers)
    project, _ = ws.add_questionnaire(book.name, book.read_bytes())
    at = open_screen("questionnaire")
    button(at, "Start drafting").click()
    at.run()
    status = ws.jobs.wait(project.id, 120)
    assert status.error is None and (status.total, status.not_required) == (7, 5)
    at.run()
    assert not at.exception
    assert "Drafting finished: 2 questions drafted, 5 not required (switched off by a qualifier's answer)." in texts(
        at.success
    )

    at = open_screen("export")
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Questions"] == "10" and metrics["Not required"] == "5"
    (bar,) = at.get("progress")
    assert bar.proto.text == (
        "0 of 5 answers accepted and ready to export · 5 not required (left blank: a qualifier's answer "
        "switches them off)"
    )
    (warning,) = at.warning
    assert warning.value.startswith("5 questions are not accepted yet")  # not the 5 switched off
    assert "HIPA-01" not in warning.value and "DCTR-15" in warning.value
