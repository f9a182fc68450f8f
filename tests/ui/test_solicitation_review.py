"""A solicitation's requirement on its own page in the Review card (AppTest, issue #57), on a real
workspace (real MiniLM, Qdrant local mode, review store): the tests' RFP (a generated two-page
PDF, tests/solicitation_fixtures.py) uploaded as a project, each requirement opened in Review
shows the solicitation's page it was found on, cut out and cropped as an evidence page is, with
the requirement's own words outlined (not its lead-in, not its section number); a Word
solicitation, which has no pages, says so in one line and shows the quote.

No drafting runs here: the card shows the requirement before any draft (the evidence pane then
holds no page, so the one PDF viewer on the screen is the requirement's)."""

from __future__ import annotations

import base64
import json
import re

import docx
import pymupdf

from engine.review.requirement_page import quote_span, raw_offsets
from tests.solicitation_fixtures import PAGE_ONE, PAGE_TWO, write_pdf
from tests.ui.conftest import texts
from ui.review.requirement import LABEL

LIST = "review_list"


def viewer(at) -> dict:
    """The arguments the one PDF viewer on the screen was sent on the last run."""
    (component,) = at.get("component_instance")
    args = json.loads(component.proto.json_args)
    args["pdf"] = pymupdf.open(stream=base64.b64decode(args.pop("binary")), filetype="pdf")
    return args


def outlined(args: dict) -> list[str]:
    """The words inside each outlined box of the viewer's (cropped) page."""
    page = args["pdf"][0]
    return [
        " ".join(page.get_textbox(pymupdf.Rect(a["x"], a["y"], a["x"] + a["width"], a["y"] + a["height"])).split())
        for a in args["annotations"]
    ]


def open_requirement(at, ws, pid: int, rid: str):
    key = next(i.key for i in ws.review(pid).items() if i.question.id == rid)
    at.sidebar.radio(key=LIST).set_value(key)
    return at.run()


def test_each_requirement_is_outlined_on_its_own_page(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    rfp = write_pdf(tmp_path / "parks_rfp.pdf", [PAGE_ONE, PAGE_TWO])
    project, _ = ws.add_questionnaire(rfp.name, rfp.read_bytes())

    at = open_screen("review")
    assert not at.exception
    (expander,) = [e for e in at.main.expander if e.label == LABEL]
    at = open_requirement(at, ws, project.id, "4.1")  # page 2
    assert not at.exception
    args = viewer(at)
    assert args["pdf"].page_count == 1  # the requirement's page alone
    assert "4.1 The Contractor shall maintain general liability insurance" in args["pdf"][0].get_text()
    assert outlined(args) == ["The Contractor shall maintain general liability insurance of $1,000,000."]
    assert "**parks\\_rfp.pdf**, page 2 — the quoted lines are outlined." in texts(at.main.caption)

    at = open_requirement(at, ws, project.id, "1.1a")  # a list item: its own words, not its lead-in
    args = viewer(at)
    assert "REQUEST FOR PROPOSALS" in args["pdf"][0].get_text()  # page 1
    assert outlined(args) == ["A cover letter signed by an officer of the firm."]

    at = open_requirement(at, ws, project.id, "2.1-2")  # the second sentence of its line
    assert outlined(viewer(at)) == ["The Contractor shall submit a monthly report."]


def test_a_word_solicitation_says_it_has_no_pages_and_shows_the_quote(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    document = docx.Document()
    for line in PAGE_ONE + PAGE_TWO[4:]:  # the evaluation list left aside: Word's reader takes it for a question
        document.add_paragraph(line)
    path = tmp_path / "parks_rfp.docx"
    document.save(path)
    project, _ = ws.add_questionnaire(path.name, path.read_bytes())

    at = open_screen("review")
    at = open_requirement(at, ws, project.id, "4.1")
    assert not at.exception
    assert not at.get("component_instance")  # no page to show
    assert (
        "parks\\_rfp.docx is a Word document: it has no pages to show. The requirement as quoted: "
        "“The Contractor shall maintain general liability insurance of \\$1,000,000.”" in texts(at.main.caption)
    )
    # where it is: its order in the document, not a "paragraph 1007" of the rows' numbering (page × 1000 + n)
    (where,) = [
        c for c in texts(at.main.caption).splitlines() if c.startswith("4\\.1 · ")
    ]  # its ID as markdown escapes it
    assert re.fullmatch(r"4\\\.1 · requirement \d{1,3} of the document", where), where


def test_a_quote_is_carried_back_to_the_raw_page_text():
    raw = "  1.1  The   Offeror\nshall  submit\n\n a   cover letter.\n"
    text, index = raw_offsets(raw)
    assert text == "1.1 The Offeror shall submit a cover letter."
    assert all(raw[index[i]] == c for i, c in enumerate(text) if c != " ")
    start, end = quote_span(raw, "Offeror shall submit a cover")
    assert raw[start:end] == "Offeror\nshall  submit\n\n a   cover"
    assert quote_span(raw, "The Offeror may submit") is None
