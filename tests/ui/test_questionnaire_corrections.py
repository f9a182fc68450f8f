"""The mapping, correctable per table (#55 item 4), on the Questionnaire screen (AppTest) over a real
workspace: a Word checklist whose "Adopted" / "Not adopted" columns (labels the table model does not
know as options; "In Place" / "Not in Place" it reads as one choice unaided) the reader takes for
answer text shows each question's answer place by its column's header; the responder makes those
two columns the options of one choice once, and every row of the table follows (a choice of
Adopted / Not adopted, its text in "Observations"); then corrects one question's text and kind. The
corrections are kept with the questionnaire (``ReadOptions.tables`` / ``.questions``).

The LLM is ``QuotingGenerator``, a stated fake from tests/fixtures.py (installed by the
``ui_workspace`` fixture): nothing is drafted here, the test is about the screen."""

from __future__ import annotations

from pathlib import Path

from engine.questionnaire.corrections import ColumnRole, QuestionKind, TableCorrection
from tests import word_fixtures as wf
from tests.ui.conftest import button, texts

REQUIREMENTS = (
    "Firewall rules are reviewed every six months.",
    "Vendor default passwords are changed before use.",
    "Cardholder data is encrypted in transit.",
)


def checklist(path: Path) -> Path:
    doc = wf.new()
    doc.add_paragraph("Requirement checklist")
    wf.add(doc, wf.table([["Requirement", "Adopted", "Not adopted", "Observations"],
                          *[[r, "", "", ""] for r in REQUIREMENTS]]))  # fmt: skip
    return wf.save(doc, path)


def key(pid: int, name: str, generation: int) -> str:
    return f"questionnaire_override_{pid}_{name}_{generation}"


def test_a_columns_role_corrected_once_every_row_of_its_table_follows(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    source = checklist(tmp_path / "checklist.docx")
    project, _ = ws.add_questionnaire(source.name, source.read_bytes())
    pid = project.id
    at = open_screen("questionnaire")
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["Question"]) == list(REQUIREMENTS)
    assert list(table["Answer goes in"]) == ["Adopted"] * 3  # by its column's header, not "table cell"
    assert list(table["Kind"]) == ["text"] * 3
    columns = at.dataframe[1].value  # each table read by columns, what each column holds
    assert list(columns["Columns"]) == [
        "Requirement: question · Adopted: answer text · Not adopted: answer text · Observations: answer text"
    ]

    tables = at.selectbox(key=key(pid, "table", 0))
    assert tables.options == ["Table 1: Requirement checklist · 3 questions"]
    roles = [at.selectbox(key=key(pid, f"role_0_{c}", 0)) for c in range(4)]
    assert [r.label for r in roles] == [
        "Column 1: Requirement",
        "Column 2: Adopted",
        "Column 3: Not adopted",
        "Column 4: Observations",
    ]
    assert [r.value for r in roles] == [ColumnRole.QUESTION, ColumnRole.ANSWER, ColumnRole.ANSWER, ColumnRole.ANSWER]
    roles[1].select(ColumnRole.OPTIONS)
    roles[2].select(ColumnRole.OPTIONS)
    at.run()
    button(at, "Apply corrections").click()
    at.run()
    assert not at.exception
    assert "Read again with the corrections: 3 questions." in texts(at.success)
    table = at.dataframe[0].value
    assert list(table["Kind"]) == ["choice"] * 3  # every row of the table follows
    assert list(table["Choices"]) == ["Adopted / Not adopted"] * 3
    assert list(table["Answer goes in"]) == ["one of the columns: Adopted / Not adopted; Observations"] * 3
    assert list(at.dataframe[1].value["Columns"]) == [
        "Requirement: question · Adopted: option · Not adopted: option · Observations: answer text"
    ]
    assert ws.read_options(pid).tables == (
        TableCorrection(0, 1, ColumnRole.OPTIONS),
        TableCorrection(0, 2, ColumnRole.OPTIONS),
    )
    assert "2 table columns given a role, 0 questions corrected" in texts(at.caption)

    # one question: its text and its kind (a choice only: no text in Observations)
    edit = at.selectbox(key=key(pid, "edit", 1))
    label = next(o for o in edit.options if o and "Vendor default passwords" in o)
    edit.select(label)
    at.run()
    at.text_input(key=key(pid, "edit_text", 1)).input("Are vendor default passwords changed before use?")
    at.selectbox(key=key(pid, "edit_kind", 1)).select(QuestionKind.CHOICE)
    at.run()
    button(at, "Apply corrections").click()
    at.run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["Question"])[1] == "Are vendor default passwords changed before use?"
    assert list(table["Answer goes in"])[1] == "one of the columns: Adopted / Not adopted"
    assert list(table["Answer goes in"])[2].endswith("; Observations")  # the others as they were
    (fix,) = ws.read_options(pid).questions
    assert (fix.text, fix.kind) == ("Are vendor default passwords changed before use?", QuestionKind.CHOICE)
    again = ws.questionnaire(pid)  # kept with the questionnaire: read again the same way
    assert [q.choices for q in again.questions] == [("Adopted", "Not adopted")] * 3
