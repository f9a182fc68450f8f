"""Text from a questionnaire or an upload is shown as text on every screen (#23 item 4).

Streamlit reads Markdown in messages, toasts, spinners, captions, progress texts, radio options
and widget labels: a question ID ``:red[ID-RED]`` was shown red in the toast after Accept, a
question or file name holding ``[click](javascript:alert(1))`` became a link. The app passes every
such value through one helper (``ui.components.messages.escape_md``). Here a real workspace
holds a questionnaire whose IDs, question, sheet and file name, and a document whose name, are
hostile Markdown; each screen is opened (AppTest), the actions that report a question by its ID
are pressed (Accept, Regenerate), and every Markdown string the app sent is checked: no hostile
fragment is there unescaped, and the escaped value is there, so the reader sees it literally.

Drafting uses the stated stand-in LLM of tests/ui/conftest.py (``QuotingGenerator``): the test is
about the screens, not about generation. The helper itself is checked against a CommonMark
renderer (markdown-it-py): rendered, the escaped text gives back exactly the original.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import openpyxl
import pytest
import streamlit

from tests.fixtures import topic_pages, write_pdf, write_questionnaire
from tests.ui.conftest import button
from ui.components.messages import escape_md

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
RED_ID = ":red[ID-RED]"
LINK_ID = "[click](javascript:alert(1))"
QUESTION = "Is customer data encrypted at rest? [q](javascript:alert(2)) **BOLD** $x^2$ <b>HTML</b> :blue[Q-BLUE]"
SHEET = "$S$ _SHEET_ <i>#1 &amp;"  # Excel refuses \ / ? * [ ] : in a sheet name
FILE = ":red[FILE-RED] [f](javascript:alert(3)).xlsx"
DOC = ":blue[DOC-BLUE] [d](javascript:alert(4)) _x_.pdf"
HOSTILE = (RED_ID, LINK_ID, QUESTION, SHEET, FILE, DOC)
# what a value shows when it is read as Markdown: a colour directive, a link, emphasis, LaTeX, HTML
RAW = (
    ":red[ID-RED",
    ":red[FILE-RED",
    ":blue[Q-BLUE",
    ":blue[DOC-BLUE",
    "](javascript:",
    "**BOLD**",
    "$x^2$",
    "<b>",
    "<i>",
    "_SHEET_",
    "_x_",
    "&amp;",
)
# proto fields shown as plain text by Streamlit (selectbox options, typed values, data frames)
PLAIN_FIELDS = {"id", "form_id", "default", "value", "set_value", "raw_value", "raw_values", "placeholder"}
PLAIN_OPTIONS = {"selectbox", "multiselect", "select_slider"}  # their options are plain; a radio's are Markdown
PLAIN_TYPES = {"dataframe", "arrow_data_frame", "code", "text", "json"}  # elements shown as plain text


def hostile_questionnaire(path: Path) -> Path:
    book = write_questionnaire(
        path,
        questions=[
            (RED_ID, QUESTION),
            (LINK_ID, "How long are backups of the production databases kept?"),
            ("INC-01", "Are customers notified of a confirmed breach?"),
        ],
    )
    wb = openpyxl.load_workbook(book)
    wb.active.title = SHEET
    wb.save(book)
    return book


def _strings(message, plain: bool = False, plain_options: bool = False):
    """The Markdown string fields of a proto message, recursively (none if ``plain``)."""
    for field, value in message.ListFields():
        repeated = (
            hasattr(value, "__len__") and not isinstance(value, (str, bytes)) and not hasattr(value, "ListFields")
        )
        for v in value if repeated else [value]:
            if isinstance(v, str):
                if not plain and field.name not in PLAIN_FIELDS and not (plain_options and field.name == "options"):
                    yield v
            elif hasattr(v, "ListFields"):
                yield from _strings(v, plain)


def markdown_strings(at) -> list[str]:
    """The Markdown the app sent in its last run: every element's and block's string fields,
    less those Streamlit shows as plain text."""
    found: list[str] = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None and hasattr(proto, "ListFields"):
            kind = getattr(node, "type", "")
            found.extend(_strings(proto, plain=kind in PLAIN_TYPES, plain_options=kind in PLAIN_OPTIONS))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    found += [str(t.proto.body) for t in at.toast]  # toasts live in the event container
    return found


def assert_literal(strings: list[str], *values: str) -> None:
    """No hostile fragment is sent unescaped, and each of ``values`` is sent escaped."""
    joined = "\n".join(strings)
    for fragment in RAW:
        bad = [s for s in strings if re.search(r"(?<!\\)" + re.escape(fragment), s)]  # not after a backslash
        assert not bad, f"{fragment!r} reaches the screen as Markdown in: {bad}"
    for value in values:
        assert escape_md(value) in joined, f"{value!r} is not shown (escaped) anywhere: {strings}"


def test_escape_md_renders_back_to_the_original_text():
    markdown_it = pytest.importorskip("markdown_it", reason="markdown-it-py (a CommonMark renderer) is not installed")
    md = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"])
    for value in (
        *HOSTILE,
        "# heading",
        "- item",
        "1. first",
        "===",
        "a | b",
        "~~gone~~",
        "`code`",
        "![i](x.png)",
        "<script>alert(1)</script>",
        "&lt;tag&gt;",
        "C:\\evil\\x.xlsx",
        "50% of $5 * 2_000",
    ):
        rendered = md.render(escape_md(value)).strip()
        assert rendered.startswith("<p>") and rendered.endswith("</p>"), (value, rendered)
        assert "<" not in rendered[3:-4], (value, rendered)  # no element inside: no link, emphasis, HTML, code
        assert html.unescape(rendered[3:-4]) == value
        # Streamlit's own Markdown: colour directives, icons and emoji start ":" + letter, LaTeX "$"
        assert not re.search(r"(?<!\\)(:[A-Za-z]|\$)", escape_md(value)), value


def test_hostile_names_show_as_text_on_every_screen(open_screen, ui_workspace, tmp_path, monkeypatch):
    ws = ui_workspace
    spinners: list[str] = []
    real_spinner = streamlit.spinner

    def recording_spinner(text="In progress...", *args, **kwargs):  # records the text, spins as before
        spinners.append(text)
        return real_spinner(text, *args, **kwargs)

    monkeypatch.setattr(streamlit, "spinner", recording_spinner)

    # questionnaire screen: the upload's name, the sheet, the flash after adding it
    at = open_screen("questionnaire")
    book = hostile_questionnaire(tmp_path / "book.xlsx")
    at.file_uploader(key="questionnaire_uploader_0").upload(FILE, book.read_bytes(), XLSX)
    at.run()
    assert not at.exception, at.exception
    (project,) = ws.projects()
    assert project.file_name == FILE
    assert_literal(markdown_strings(at), FILE, SHEET)

    # knowledge base screen: the uploaded document's name in the progress, the result and the lists
    at.switch_page("screens/knowledge_base.py")
    at.run()
    pdf = write_pdf(tmp_path / "handbook.pdf", topic_pages())
    at.file_uploader[0].upload(DOC, pdf.read_bytes(), "application/pdf")
    at.run()
    button(at, "Index files").click()
    at.run()
    assert not at.exception, at.exception
    assert [d.name for d in ws.kb.documents()] == [DOC]
    assert_literal(markdown_strings(at), DOC)
    button(at, "Remove…").click()
    at.run()
    assert_literal(markdown_strings(at), DOC)  # "Remove **DOC** from the knowledge base?"
    button(at, "Cancel").click()
    at.run()

    ws.jobs.start(project.id)
    assert ws.jobs.wait(project.id, 120)

    # review screen: the question, its ID, sheet and citation, then the toast after Accept
    at.switch_page("screens/review.py")
    at.run()
    red = next(i.key for i in ws.review(project.id).items() if i.question.id == RED_ID)
    at.radio(key="review_list").set_value(red).run()
    assert not at.exception, at.exception
    strings = markdown_strings(at)
    assert_literal(strings, RED_ID, SHEET, QUESTION, DOC)
    button(at, "Regenerate").click()
    at.run()
    assert not at.exception, at.exception
    assert spinners and all(escape_md(RED_ID) in s for s in spinners), spinners
    assert_literal(spinners + markdown_strings(at), RED_ID)
    button(at, "Accept").click()
    at.run()
    assert not at.exception, at.exception
    toasts = [str(t.proto.body) for t in at.toast]
    assert any(t.startswith(escape_md(RED_ID) + " accepted.") for t in toasts), toasts
    assert_literal(markdown_strings(at), LINK_ID)  # the next question opened: the other hostile ID

    # export screen: the file name, the list of questions not accepted yet
    at.switch_page("screens/export.py")
    at.run()
    assert not at.exception, at.exception
    assert_literal(markdown_strings(at), FILE, LINK_ID)

    at.switch_page("screens/settings.py")
    at.run()
    assert not at.exception, at.exception
    assert_literal(markdown_strings(at))
