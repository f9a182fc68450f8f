"""Bad PDF questionnaires: one line naming the file, the problem and the fix, and nothing written.
A password-protected PDF, an XFA-only form, a scanned PDF, a damaged file, fields lying over each
other, a file over the page limit; a form whose scripts would change it if they ran (they never
do: the answers are the reviewer's, the scripts are kept as they were); a form whose permissions
allow filling but not editing (filled, encryption kept) and one that allows neither (refused);
a hybrid AcroForm + XFA form (filled through its fields, its stale XFA copy removed)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pymupdf
import pytest

from engine.app.settings import Settings
from engine.app.workspace import Workspace
from engine.cli.main import main
from engine.core.limits import LimitError, Limits
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.pdf.writer import PdfWriteError, write_pdf
from engine.questionnaire.places import FORM_SHEET
from engine.questionnaire.records import QuestionnaireError
from tests.pdf_forms import CHECKBOX, TEXT, add_field, label, save


@dataclass(frozen=True)
class Write:
    sheet: str
    cell: str
    value: str


def _form(tmp_path, name="form.pdf", **field):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 100, "Company name")
    add_field(page, TEXT, "company", (160, 88, 400, 104), **field)
    return doc, page, tmp_path / name


def _add_xfa(path, only: bool) -> None:
    """An XFA package in the form's dictionary: the whole form (``only``: no AcroForm field, and
    the viewer must render the XFA), or a copy of its fields with the Reader-extension signature
    such forms carry (a hybrid form, as the IRS W-9)."""
    with pymupdf.open(path) as d:
        xfa = d.get_new_xref()
        d.update_object(xfa, "<<>>")
        d.update_stream(xfa, b"<xdp:xdp xmlns:xdp='http://ns.adobe.com/xdp/'><template/></xdp:xdp>")
        cat = d.pdf_catalog()
        if only:
            d.xref_set_key(cat, "AcroForm", f"<</Fields[]/XFA {xfa} 0 R>>")
            d.xref_set_key(cat, "NeedsRendering", "true")
        else:
            d.xref_set_key(cat, "AcroForm/XFA", f"{xfa} 0 R")
            d.xref_set_key(cat, "Perms", "<</UR3 <</Type/Sig>>>>")
        d.saveIncr()


def _one_line(err) -> str:
    text = str(err.value)
    assert "\n" not in text
    return text


def test_password_protected_pdf(tmp_path):
    doc, _, path = _form(tmp_path)
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    with pytest.raises(QuestionnaireError, match="form.pdf: is password-protected") as err:
        read_pdf_questionnaire(path)
    assert "ask for the Word version" in _one_line(err)


def test_xfa_only_form(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 50, 100, "Please wait... If this message is not eventually replaced by the proper contents")
    path = save(doc, tmp_path / "xfa.pdf")
    _add_xfa(path, only=True)
    with pytest.raises(QuestionnaireError, match="xfa.pdf: is an XFA form") as err:
        read_pdf_questionnaire(path)
    assert "Word version" in _one_line(err)


def test_scanned_pdf(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 100), 0)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(50, 50, 450, 250), pixmap=pix)
    with pytest.raises(QuestionnaireError, match="scan.pdf: has no text layer on any of its 1 page") as err:
        read_pdf_questionnaire(save(doc, tmp_path / "scan.pdf"))
    assert "OCR" in _one_line(err)


def test_damaged_pdf(tmp_path):
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.7\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n%%EOF garbage")
    with pytest.raises(QuestionnaireError, match="broken.pdf: "):
        read_pdf_questionnaire(path)


def test_fields_lying_over_each_other(tmp_path):
    doc, page, path = _form(tmp_path)
    label(page, 50, 130, "Country")
    add_field(page, TEXT, "country", (160, 118, 400, 134))
    add_field(page, TEXT, "country_code", (170, 120, 380, 132))  # mostly over "country", not the same spot
    with pytest.raises(QuestionnaireError, match="overlapping fields on page 1: 'country' .* 'country_code'") as err:
        read_pdf_questionnaire(save(doc, path))
    assert "ask the sender" in _one_line(err)


def test_page_limit_checked_before_parsing(tmp_path):
    doc, _, path = _form(tmp_path)
    for _ in range(4):
        doc.new_page()
    with pytest.raises(LimitError, match="form.pdf: has 5 pages, over the limit of 3 pages"):
        read_pdf_questionnaire(save(doc, path), limits=Limits(pages=3))


def test_scripts_are_never_run_and_kept(tmp_path):
    hack = "this.getField('company').value = 'HACKED';"
    doc, page, path = _form(tmp_path)
    w = pymupdf.Widget()
    w.field_type, w.field_name, w.rect = TEXT, "total", pymupdf.Rect(160, 118, 400, 134)
    w.script_calc = hack  # a field the form computes: not a question
    page.add_widget(w)
    save(doc, path)
    with pymupdf.open(path) as d:
        d.xref_set_key(
            d.pdf_catalog(), "OpenAction", f"<</S/JavaScript/JS({hack.replace('(', '[').replace(')', ']')})>>"
        )
        company = next(x.xref for x in d[0].widgets() if x.field_name == "company")
        d.xref_set_key(company, "AA", "<</K<</S/JavaScript/JS(event.value = 'HACKED';)>>>>")
        d.saveIncr()
        open_action = d.xref_get_key(d.pdf_catalog(), "OpenAction")
    q = read_pdf_questionnaire(path)
    assert [x.text for x in q.questions] == ["Company name"]
    assert any("1 computed field" in n for n in q.notes) and any("scripts are never run" in n for n in q.notes)
    out = write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, q.questions[0].text_cell, "Acme")])
    with pymupdf.open(out) as d:
        assert {x.field_name: x.field_value for x in d[0].widgets()}["company"] == "Acme"
        assert d.xref_get_key(d.pdf_catalog(), "OpenAction") == open_action  # kept, and never run
        assert not pymupdf.mupdf.pdf_js_supported(pymupdf._as_pdf_document(d))


def test_restricted_form_that_allows_filling_is_filled_and_stays_encrypted(tmp_path):
    doc, page, path = _form(tmp_path)
    label(page, 50, 130, "Certified?")
    add_field(page, CHECKBOX, "certified", (160, 120, 170, 130))
    allowed = pymupdf.PDF_PERM_PRINT | pymupdf.PDF_PERM_FORM
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_128, owner_pw="owner", user_pw="", permissions=allowed)
    q = read_pdf_questionnaire(path)
    company, certified = q.questions
    out = write_pdf(
        q,
        tmp_path / "out.pdf",
        [Write(FORM_SHEET, company.text_cell, "Acme"), Write(FORM_SHEET, certified.choice_cell, "Yes")],
    )
    with pymupdf.open(out) as d:
        assert d.is_encrypted or d.metadata["encryption"]
        assert d.permissions & pymupdf.PDF_PERM_MODIFY == 0
    back = read_pdf_questionnaire(out)
    assert [back.questions[0].existing_answer, back.questions[1].existing_choice] == ["Acme", "Yes"]


def test_form_whose_permissions_forbid_filling_is_not_filled(tmp_path):
    doc, _, path = _form(tmp_path)
    doc.save(
        path, encryption=pymupdf.PDF_ENCRYPT_AES_128, owner_pw="owner", user_pw="", permissions=pymupdf.PDF_PERM_PRINT
    )
    q = read_pdf_questionnaire(path)
    with pytest.raises(PdfWriteError, match="its permissions forbid filling in its form fields") as err:
        write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, q.questions[0].text_cell, "Acme")])
    _one_line(err)
    assert not (tmp_path / "out.pdf").exists()


def test_hybrid_form_is_filled_through_its_fields_and_its_xfa_copy_removed(tmp_path):
    doc, _, path = _form(tmp_path)
    _add_xfa(save(doc, path), only=False)
    q = read_pdf_questionnaire(path)
    assert any("XFA copy" in n for n in q.notes)
    out = write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, q.questions[0].text_cell, "Acme")])
    with pymupdf.open(out) as d:
        cat = d.pdf_catalog()
        assert d.xref_get_key(cat, "AcroForm/XFA")[0] == "null" and d.xref_get_key(cat, "Perms")[0] == "null"
    assert read_pdf_questionnaire(out).questions[0].existing_answer == "Acme"


def test_a_page_crowded_with_fields_is_refused_before_the_layout_work(tmp_path):
    """One field more than ``Limits.page_fields`` (500; ``--max-page-fields``) on a page: refused
    from the page's annotation list (engine/core/pdf_scan.py), before any page is laid out (#56:
    the former bound, 2,000, let 1,999 fields cost 12 s a page)."""
    most = Limits().page_fields
    doc, page, path = _form(tmp_path, "crowded.pdf")
    source = doc.xref_object(page.first_widget.xref)
    copies = []
    for i in range(most):  # copies of the one field (PyMuPDF adds fields in quadratic time)
        x, y = 20 + (i % 50) * 11, 200 + (i // 50) * 11
        obj = re.sub(r"/T \([^)]*\)", f"/T (f{i})", source)
        obj = re.sub(r"/Rect \[[^\]]*\]", f"/Rect [{x} {y} {x + 10} {y + 10}]", obj)
        xref = doc.get_new_xref()
        doc.update_object(xref, obj)
        copies.append(xref)
    refs = " ".join(f"{x} 0 R" for x in [page.first_widget.xref, *copies])
    doc.xref_set_key(page.xref, "Annots", f"[{refs}]")
    doc.xref_set_key(doc.pdf_catalog(), "AcroForm/Fields", f"[{refs}]")
    with pytest.raises(
        LimitError, match=f"crowded.pdf: has {most + 1} form fields on page 1, over the limit of {most}"
    ) as err:
        read_pdf_questionnaire(save(doc, path))
    assert f"--max-page-fields {most + 1}" in _one_line(err)


def test_the_product_refuses_them_in_one_line_and_keeps_nothing(tmp_path, capsys):
    """Through the product (#48: .pdf is a questionnaire format): ``inspect`` and the app's upload
    (``Workspace.add_questionnaire``) refuse a password-protected PDF, an XFA-only form and a scanned
    PDF in one line naming the file, the problem and the fix; the workspace keeps no project."""
    doc, _, locked = _form(tmp_path, "locked.pdf")
    doc.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner")
    doc = pymupdf.open()
    label(doc.new_page(), 50, 100, "Please wait... If this message is not eventually replaced by the proper contents")
    _add_xfa(xfa := save(doc, tmp_path / "xfa.pdf"), only=True)
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 200, 100), 0)
    pix.clear_with(200)
    doc.new_page().insert_image(pymupdf.Rect(50, 50, 450, 250), pixmap=pix)
    scanned = save(doc, tmp_path / "scan.pdf")
    ws = Workspace(tmp_path / "workspace", Settings(reviewer="lead"))
    for path, problem, fix in (
        (locked, "is password-protected", "ask for the Word version"),
        (xfa, "is an XFA form", "Word version"),
        (scanned, "has no text layer", "OCR"),
    ):
        assert main(["inspect", str(path), "--json"]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and err.startswith(f"error: {path.name}: {problem}"), err
        assert fix in err
        with pytest.raises(QuestionnaireError, match=re.escape(f"{path.name}: {problem}")):
            ws.add_questionnaire(path.name, path.read_bytes())
    assert ws.projects() == []
