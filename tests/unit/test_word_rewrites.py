"""The Word rewrites bench (engine/bench/word_rewrites.py, issue #55): each rewrite carries the truth by
its own rule (an address is the same element's), checked here on generated documents against the
document itself; and the reader's rules the rewrites found wanting, each on a generated rewrite."""

from __future__ import annotations

import random
import tempfile
import zipfile
from pathlib import Path

import docx
from lxml import etree

from engine.bench.document_intake import answers_for, round_trip
from engine.bench.document_places import Addresses, placed
from engine.bench.word_rewrites import (
    KINDS,
    REWRITES,
    W,
    addresses,
    carried,
    map_ids,
    relabel,
    rewrite,
    rewritten_id,
    transfer_places,
)
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.writes import CellWrite
from tests import word_fixtures as wf

ROWS = [
    ("1.1", "Do you keep an inventory of your systems?"),
    ("1.2", "Describe how access is reviewed."),
    ("1.3", "Do you encrypt data at rest?"),
    ("2.1", "Describe your incident response plan."),
    ("2.2", "Is there a named security officer?"),
    ("2.3", "Describe how backups are tested."),
    ("3.1", "Do you train staff each year?"),
    ("3.2", "Describe how vendors are assessed."),
]


def _questionnaire(path: Path, header=("ID", "Question", "Response", "Notes")) -> list[dict]:
    """A four-column requirement table and its truth: each row's answer cell [0, r, 2]."""
    doc = docx.Document()
    doc.add_heading("Security questionnaire", 1)
    table = doc.add_table(rows=1, cols=len(header))
    for c, label in enumerate(header):
        table.rows[0].cells[c].text = label
    for ident, text in ROWS:
        cells = table.add_row().cells
        cells[0].text, cells[1].text = ident, text
    doc.save(str(path))
    return [{"text": text, "answer": [0, r, 2]} for r, (_, text) in enumerate(ROWS, 1)]


def _cell(path: Path, address: list) -> str:
    with zipfile.ZipFile(path) as zf:
        root = etree.fromstring(zf.read("word/document.xml"))
    t, r, c = address
    tbl = list(root.iter(f"{W}tbl"))[t]
    tr = [x for x in tbl if x.tag == f"{W}tr"][r]
    return "".join(tr.findall(f"{W}tc")[c].itertext())


def test_every_rewrite_keeps_the_elements_it_moves_so_each_address_is_carried(tmp_path):
    """A rewrite moves the document's own cells and paragraphs: every address before it is the address
    of the same element after it (the truth's transfer), none lost."""
    src = tmp_path / "q.docx"
    _questionnaire(src)
    for kind in KINDS:
        if kind == "numbering":
            continue  # no typed numbers here (its own test below)
        with zipfile.ZipFile(src) as zf:
            root = etree.fromstring(zf.read("word/document.xml"))
        before = addresses(root)
        REWRITES[kind](root, random.Random(f"t:{kind}"))
        moved = carried(before, addresses(root))
        assert set(moved) == set(before.values()), kind


def test_a_column_reorder_carries_each_answer_cell_to_where_its_row_now_holds_it(tmp_path):
    src, dest = tmp_path / "q.docx", tmp_path / "columns.docx"
    items = _questionnaire(src)
    rw = rewrite(src, ("columns",), "3", dest)
    assert rw is not None
    moved = transfer_places(items, rw)
    assert [x["answer"] for x in moved] != [x["answer"] for x in items]  # the answer column moved
    for item in moved:  # the carried address is the Response column's cell of the question's row
        t, r, c = item["answer"]
        row = "".join(_cell(dest, [t, r, k]) for k in range(4))
        assert item["text"] in row and _cell(dest, [t, 0, c]) == "Response"


def test_a_split_table_repeats_its_header_and_its_lower_rows_move_to_the_second_table(tmp_path):
    src, dest = tmp_path / "q.docx", tmp_path / "split.docx"
    items = _questionnaire(src)
    rw = next(r for s in range(10) if (r := rewrite(src, ("split",), str(s), dest)) is not None)
    moved = transfer_places(items, rw)
    assert {x["answer"][0] for x in moved} == {0, 1}
    for item in moved:
        t, r, c = item["answer"]
        assert _cell(dest, [t, 0, c]) == "Response" and item["text"] in _cell(dest, [t, r, 1])


def test_ids_are_rewritten_once_and_only_where_the_text_starts_with_one():
    ids = {"1.3.1": "A-3.1", "3.1": "C-1"}
    assert map_ids("1.3.1 Inbound traffic", ids) == "A-3.1 Inbound traffic"  # not "A-C-1"
    assert map_ids("See 3.1 below", ids) == "See 3.1 below"
    assert rewritten_id("4.1.2", "letter") == "D-1.2" and rewritten_id("4.1.2", "q") == "Q4.1.2"


def test_typed_numbers_become_words_numbering_drawing_the_same_numbers(tmp_path):
    src, dest = tmp_path / "numbers.docx", tmp_path / "numbering.docx"
    doc = docx.Document()
    doc.add_paragraph("Supplier questions")
    for n, (_, text) in enumerate(ROWS[:4], 1):
        doc.add_paragraph(f"3.{n} {text}")
        doc.add_paragraph("")
        doc.add_paragraph("")
    doc.save(str(src))
    rw = rewrite(src, ("numbering",), "1", dest)
    assert rw is not None and rw.done["numbering"].changed == 4
    q = read_questionnaire(dest)
    assert [x.text for x in q.questions] == [text for _, text in ROWS[:4]]  # the number no longer typed
    assert [x.id for x in q.questions] == [f"3.{n}" for n in range(1, 5)]  # drawn by Word, read as the ID


# --- the reader's rules the rewrites found wanting ------------------------------------------------


def test_ids_written_with_a_letter_before_a_dotted_number_are_the_rows_ids(tmp_path):
    """ "A-3.1" and "Q1.3.1" in an ID column are IDs as "1.3.1" is (main's reader read none of them)."""
    src = tmp_path / "q.docx"
    _questionnaire(src)
    styles = set()
    for seed in range(6):
        dest = tmp_path / f"ids{seed}.docx"
        rw = rewrite(src, ("ids",), str(seed), dest)
        assert rw is not None
        styles.add(rw.ids["1.1"])
        q = read_questionnaire(dest)
        assert [x.id for x in q.questions] == [rw.ids[i] for i, _ in ROWS]
    assert styles == {"A-1", "Q1.1"}  # both styles drawn


def _relabelled(src: Path, dest: Path, language: str) -> None:
    """``src`` with its header relabelled in ``language`` (the bench's relabel, its language fixed)."""

    class Fixed(random.Random):
        def choice(self, seq):
            return language if language in seq else super().choice(seq)

    with zipfile.ZipFile(src) as zf:
        root = etree.fromstring(zf.read("word/document.xml"))
    assert relabel(root, Fixed(0)).changed
    xml = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, xml if info.filename == "word/document.xml" else zin.read(info.filename))


SIGN_OFF = [
    ("Measures approved by:", "Integrate actions back into project plan, with date and responsibility"),
    ("Residual risks approved by:", "If accepting any residual high risk, consult the ICO before going ahead"),
    ("DPO advice provided:", "DPO should advise on compliance and whether processing can proceed"),
    ("Consultation responses reviewed by:", "If your decision departs from individuals' views, explain why"),
]


def _sign_off_docx(path: Path) -> Path:
    """The ICO DPIA's sign-off table: "Item | Name/position/date | Notes", a label and its guidance a row."""
    doc = docx.Document()
    doc.add_paragraph("Step 7: Sign off and record outcomes")
    table = doc.add_table(rows=1, cols=3)
    for c, label in enumerate(("Item", "Name/position/date", "Notes")):
        table.rows[0].cells[c].text = label
    for label, note in SIGN_OFF:
        cells = table.add_row().cells
        cells[0].text, cells[2].text = label, note
    doc.save(str(path))
    return path


def test_a_sign_off_table_headed_in_spanish_reads_its_answers_back(tmp_path):
    """Labels beside an empty column, guidance in a "Notes" column (the ICO DPIA's sign-off table):
    headed "Observaciones" (or "Remarks", "Bemerkungen", "備考") instead, the labels are the questions
    and the answers written are read back (main's reader took the Spanish-headed guidance for the
    questions; in the ICO DPIA itself, the filled table for a reference list: 19 of 28 read back)."""
    src, rows = _sign_off_docx(tmp_path / "signoff.docx"), SIGN_OFF
    for language in ("es", "en", "de", "ja"):
        dest = tmp_path / f"signoff_{language}.docx"
        _relabelled(src, dest, language)
        q = read_questionnaire(dest)
        assert [x.text.split(": ")[-1] for x in q.questions] == [label.rstrip(":") for label, _ in rows], language
        with tempfile.TemporaryDirectory() as tmp:
            written = Path(tmp) / "answered.docx"
            export(dest, written, answers_for(q), q)
            back = round_trip(q, read_questionnaire(written))
        assert back["texts_back"] == back["texts"] == len(rows), (language, back)


def test_a_tables_caption_is_its_context_past_the_empty_lines_an_author_left(tmp_path):
    """A caption, an empty line, a table of labels beside empty cells (the FedRAMP SSP's "Table 5-1. …
    Point of Contact"): with the spacers rewrite's empty line added, the caption is still each label's
    context (main's reader looked two blocks back only: "Name" alone)."""
    src, dest = tmp_path / "caption.docx", tmp_path / "spaced.docx"
    doc = docx.Document()
    doc.add_paragraph("Table 5-1. Information System Owner")
    doc.add_paragraph("")
    table = doc.add_table(rows=0, cols=2)
    for label in ("Name", "Title", "Phone Number", "Email Address"):
        table.add_row().cells[0].text = label
    doc.save(str(src))
    want = [x.text for x in read_questionnaire(src).questions]
    assert want[0].startswith("Table 5-1. Information System Owner") and len(want) == 4
    assert rewrite(src, ("spacers",), "0", dest) is not None
    assert [x.text for x in read_questionnaire(dest).questions] == want


def test_a_row_of_boxes_of_mixed_kinds_is_ticked_each_its_own_way(tmp_path):
    """The boxes rewrite leaves a FORMCHECKBOX it cannot redraw beside the "☐" it drew (the PCI SAQ): a
    row of "☐" and FORMCHECKBOX options is one choice, and writing it ticks the chosen box whatever its
    kind (main's writer ticked every box as the first one's kind: the export failed on "NoneType")."""
    doc = wf.new()
    rows = [["Requirement", "In Place", "Not Applicable", "Not in Place"]]
    for text in ("Firewalls are configured.", "Vendor defaults are changed.", "Stored data is protected."):
        rows.append([text, wf.para(wf.formcheckbox()), wf.para(wf.text("☐")), wf.para(wf.formcheckbox())])
    wf.add(doc, wf.table(rows))
    src = wf.save(doc, tmp_path / "mixed.docx")
    q = read_questionnaire(src)
    assert [x.choices for x in q.questions] == [("In Place", "Not Applicable", "Not in Place")] * 3
    for pick in ("In Place", "Not Applicable", "Not in Place"):
        writes = [CellWrite(x.sheet, x.choice_cell, pick) for x in q.questions]
        written = tmp_path / f"written_{pick}.docx"
        export(src, written, writes, q)
        assert [x.existing_choice for x in read_questionnaire(written).questions] == [pick] * 3


# --- the second round: rows, merges and tables another author draws ------------------------------


def _answer_cells(path: Path) -> list[tuple[str, list]]:
    """Each question read in ``path`` and the address (document_places') of its answer place."""
    q = read_questionnaire(path)
    return [(x.text, list(p.text or ())) for x, p in zip(q.questions, placed(q, Addresses(path)), strict=True)]


def _read_as_the_original(tmp_path: Path, kind: str, seeds=range(6)) -> None:
    """The generated questionnaire rewritten by ``kind``: its eight questions read with the same text
    and each answered in the carried address of its Response cell."""
    src = tmp_path / "q.docx"
    items = _questionnaire(src)
    for seed in seeds:
        dest = tmp_path / f"{kind}{seed}.docx"
        rw = rewrite(src, (kind,), str(seed), dest)
        if rw is None:
            continue
        want = [(x["text"], x["answer"]) for x in transfer_places(items, rw)]
        assert _answer_cells(dest) == want, (kind, seed)
        return
    raise AssertionError(f"{kind} changed nothing")


def _list_of_questions(path: Path) -> list[str]:
    """A table of questions with no answer column (the OpenChain questionnaires' "Section | Number |
    Spec Ref | Question Text"): its truth, the question texts in order."""
    doc = docx.Document()
    doc.add_heading("Program questionnaire", 1)
    table = doc.add_table(rows=1, cols=4)
    for c, label in enumerate(("Section", "Number", "Spec Ref", "Question Text")):
        table.rows[0].cells[c].text = label
    for ident, text in ROWS:
        cells = table.add_row().cells
        cells[0].text, cells[1].text, cells[2].text, cells[3].text = f"{ident[0]}. Program", ident, "3.1.2", text
    doc.save(str(path))
    return [text for _, text in ROWS]


def _texts_as_the_original(tmp_path: Path, kind: str) -> None:
    src = tmp_path / "list.docx"
    want = _list_of_questions(src)
    before = [(x.id, x.text) for x in read_questionnaire(src).questions]
    assert [t for _, t in before] == want
    for seed in range(6):
        dest = tmp_path / f"{kind}{seed}.docx"
        if rewrite(src, (kind,), str(seed), dest) is not None:
            assert [(x.id, x.text) for x in read_questionnaire(dest).questions] == before, (kind, seed)
            return
    raise AssertionError(f"{kind} changed nothing")


def test_a_header_row_drawn_as_a_table_of_its_own_above_a_list_of_questions(tmp_path):
    """The header of a table of questions with no answer column moved into a one-row table above it
    (main's reader read no question of the OpenChain questionnaire so rewritten: 0 of 29)."""
    _texts_as_the_original(tmp_path, "header_table")


def test_an_empty_row_in_a_list_of_questions_is_a_spacer(tmp_path):
    """Empty rows between the rows of a table of questions with no answer column: the same questions."""
    _texts_as_the_original(tmp_path, "empty_rows")


def test_an_empty_row_between_labels_and_their_blanks_is_a_spacer(tmp_path):
    """A form's labels beside empty cells ("Part 3b. Merchant Attestation" in the PCI AOC), an empty
    row inserted before some labels: each label still answered in the cell beside it (main's reader
    took the empty row for the answer of the label above and lost the label under it)."""
    src = tmp_path / "form.docx"
    labels = ["Company name:", "Contact name:", "Title:", "Telephone:", "E-mail:", "Business address:", "City:"]
    doc = docx.Document()
    table = doc.add_table(rows=1, cols=2)
    table.rows[0].cells[0].merge(table.rows[0].cells[1]).text = "Part 1. Contact Information"
    for label in labels:
        table.add_row().cells[0].text = label
    doc.save(str(src))
    items = [{"text": label, "answer": [0, r, 1]} for r, label in enumerate(labels, 1)]
    assert [a for _, a in _answer_cells(src)] == [x["answer"] for x in items]
    for seed in range(6):
        dest = tmp_path / f"empty{seed}.docx"
        if (rw := rewrite(src, ("empty_rows",), str(seed), dest)) is not None:
            assert [a for _, a in _answer_cells(dest)] == [x["answer"] for x in transfer_places(items, rw)], seed
            return
    raise AssertionError("empty_rows changed nothing")


def test_a_header_row_drawn_as_a_table_of_its_own_above_is_still_the_header(tmp_path):
    """ "ID | Question | Response | Notes" moved into a one-row table just above the rows (main's reader
    read the rows as a table with no header: the IDs' texts as questions, no answer column)."""
    _read_as_the_original(tmp_path, "header_table")


def test_a_question_row_merged_down_over_a_second_row_is_one_question(tmp_path):
    """Each cell of some question rows vertically merged with a new row under it (main's reader read the
    lower row's continued cells as rows of their own: questions lost or answered below)."""
    _read_as_the_original(tmp_path, "merge_question")


def test_an_empty_row_between_questions_is_a_spacer_not_the_answer_row(tmp_path):
    """An empty row inserted before some question rows (main's reader took it for the answer row of the
    question above)."""
    _read_as_the_original(tmp_path, "empty_rows")


def test_a_table_framed_in_a_one_cell_layout_table_reads_as_the_table(tmp_path):
    """The questions' table put inside a one-cell layout table: read as if it stood in the body."""
    _read_as_the_original(tmp_path, "nested")


def test_an_answer_box_framed_in_a_layout_table_is_still_the_answer_of_the_question_above(tmp_path):
    """Questions asked in paragraphs, each answered in a one-cell box under it (the FedRAMP PIA), the
    boxes framed in one-cell layout tables: each question answered in its box (main's reader answered
    them in a new paragraph: the frame hid the box from the question above it)."""
    src = tmp_path / "boxes.docx"
    doc = docx.Document()
    doc.add_heading("Privacy questions", 1)
    for n, (_, text) in enumerate(ROWS[:5], 1):
        doc.add_paragraph(f"{n}. {text}")
        doc.add_table(rows=1, cols=1)
        doc.add_paragraph("")
    doc.save(str(src))
    items = [{"text": text, "answer": [t, 0, 0]} for t, (_, text) in enumerate(ROWS[:5])]
    assert [a for _, a in _answer_cells(src)] == [x["answer"] for x in items]
    for seed in range(6):
        dest = tmp_path / f"nested{seed}.docx"
        if (rw := rewrite(src, ("nested",), str(seed), dest)) is not None:
            assert [a for _, a in _answer_cells(dest)] == [x["answer"] for x in transfer_places(items, rw)], seed
            return
    raise AssertionError("nested changed nothing")


# --- the third round: guidance before the answer, descriptions before the labels, merged blanks ------


def _columns_rewrite(src: Path, dest: Path, rule: str):
    """``src`` with its columns reordered by the bench's ``columns`` rewrite, by ``rule`` (the first seed
    that draws it)."""
    for seed in range(40):
        rw = rewrite(src, ("columns",), str(seed), dest)
        if rw is not None and rw.done["columns"].labels["rule"] == rule:
            return rw
    raise AssertionError(f"no seed draws {rule}")


def test_a_notes_column_of_guidance_moved_before_the_answer_column_is_never_the_answer_place(tmp_path):
    """The ICO DPIA's sign-off table ("Item | Name/position/date | Notes", the notes guidance on every
    row) with its last column moved next to the first: each label still answered in the empty
    Name/position/date cell, the guidance no answer given, and the answers written read back (main's
    reader took the guidance beside the label for each answer: every question answered already)."""
    src, dest = _sign_off_docx(tmp_path / "signoff.docx"), tmp_path / "moved.docx"
    items = [{"text": label, "answer": [0, r, 1]} for r, (label, _) in enumerate(SIGN_OFF, 1)]
    before = read_questionnaire(src)
    assert [a for _, a in _answer_cells(src)] == [x["answer"] for x in items]
    rw = _columns_rewrite(src, dest, "last_after_first")
    q = read_questionnaire(dest)
    assert [x.text for x in q.questions] == [x.text for x in before.questions]
    assert [x.existing_answer for x in q.questions] == [None] * len(SIGN_OFF)
    assert [a for _, a in _answer_cells(dest)] == [x["answer"] for x in transfer_places(items, rw)]
    with tempfile.TemporaryDirectory() as tmp:
        written = Path(tmp) / "answered.docx"
        export(dest, written, answers_for(q), q)
        back = round_trip(q, read_questionnaire(written))
    assert back["texts_back"] == back["texts"] == len(SIGN_OFF), back


def test_a_list_of_boxes_with_each_description_moved_before_its_label_keeps_its_options(tmp_path):
    """The FedRAMP SSP's "Cloud Deployment Model" (a box, its label, a description of it, per row) with
    the description moved before the label: one choice, its options still the labels (main's reader
    took the descriptions for the options)."""
    src, dest = tmp_path / "models.docx", tmp_path / "moved.docx"
    models = [
        ("Public", "Cloud services and infrastructure supporting multiple organizations and agency clients"),
        ("Private", "Cloud services and infrastructure dedicated to a specific organization and no other"),
        ("Community", "Cloud services and infrastructure shared by several organizations or agencies"),
        ("Hybrid", "Explain: (e.g., cloud services partially provided by one model and partially by another)"),
    ]
    doc = wf.new()
    doc.add_paragraph("Select the cloud deployment model of the service.")
    wf.add(doc, wf.table([[wf.para(wf.formcheckbox()), label, text] for label, text in models]))
    wf.save(doc, src)
    want = [(x.text, x.choices) for x in read_questionnaire(src).questions]
    assert want and want[0][1] == tuple(label for label, _ in models)
    _columns_rewrite(src, dest, "last_after_first")
    assert [(x.text, x.choices) for x in read_questionnaire(dest).questions] == want


def test_a_signature_block_whose_blanks_are_merged_into_its_labels_is_still_no_question(tmp_path):
    """The British Council annex's signature block ("Supplier: | ___", "Date: | ___", … "Signature:")
    with each label's row made one cell across the table (the merge_header rewrite): still the
    signatory's block, no question (main's reader asked each label as a question)."""
    src = tmp_path / "sign.docx"
    doc = docx.Document()
    doc.add_paragraph("Signed for and on behalf of the supplier")
    table = doc.add_table(rows=0, cols=2)
    for label in ("Supplier:", "Date:", "Name (print):", "Position:", "Signature:", "Title:"):
        table.add_row().cells[0].text = label
    doc.add_paragraph("Describe how your organisation manages information security.")
    doc.add_table(rows=1, cols=1)
    doc.save(str(src))
    want = [x.text for x in read_questionnaire(src).questions]
    assert want == ["Describe how your organisation manages information security."]
    for seed in range(6):
        dest = tmp_path / f"merged{seed}.docx"
        if (rw := rewrite(src, ("merge_header",), str(seed), dest)) is not None:
            assert rw.done["merge_header"].changed >= 3
            assert [x.text for x in read_questionnaire(dest).questions] == want, seed
            return
    raise AssertionError("merge_header changed nothing")


def test_an_empty_row_over_a_box_and_its_label_is_a_spacer_not_the_answer_row(tmp_path):
    """A question across the table over its options, a box and its label a row (the FedRAMP PIA's
    "If PII fields are used, can individuals opt-out …?" over "☐ | Yes", "☐ | No"), an empty row
    inserted over some options: the same question and choices, no text place in the empty row (main's
    reader answered the question in the empty row and lost the options under it)."""
    src = tmp_path / "optout.docx"
    doc = wf.new()
    rows = [["gs2:If PII fields are used, can individuals opt-out of PII fields by declining to provide PII?"]]
    rows += [[wf.para(wf.text("☐")), label] for label in ("Yes", "No", "Only for some uses")]
    rows += [["gs2:Do you share PII with other government agencies?"]]
    rows += [[wf.para(wf.text("☐")), label] for label in ("Yes", "No")]
    wf.add(doc, wf.table(rows))
    wf.save(doc, src)

    def read(path: Path) -> list:
        return [
            (x.text, x.choices, x.text_cell is None, x.choice_cell is None) for x in read_questionnaire(path).questions
        ]

    want = read(src)
    assert [c for _, c, _, _ in want] == [("Yes", "No", "Only for some uses"), ("Yes", "No")]
    changed = 0
    for seed in range(6):
        dest = tmp_path / f"empty{seed}.docx"
        if rewrite(src, ("empty_rows",), str(seed), dest) is not None:
            assert read(dest) == want, seed
            changed += 1
    assert changed >= 3


def test_a_worksheet_of_row_labels_with_its_columns_reversed_keeps_its_questions(tmp_path):
    """The PCI SAQ's compensating-controls worksheet (an empty corner over row labels, "Information
    Required | Explanation": what to give, and the empty cell to give it in) with the columns after the
    first reversed or swapped: the same questions (what to give), answered in the carried Explanation
    cells (main's reader took the row labels beside the empty cells for the questions)."""
    src = tmp_path / "worksheet.docx"
    rows = [
        ("Constraints", "Document the legitimate technical or business constraints precluding compliance."),
        ("Objective", "Define the objective of the original control."),
        ("Identified Risk", "Identify any additional risk posed by the lack of the original control."),
        ("Maintenance", "Define process(es) and controls in place to maintain compensating controls."),
    ]
    doc = docx.Document()
    doc.add_paragraph("Compensating Controls Worksheet")
    table = doc.add_table(rows=1, cols=3)
    table.rows[0].cells[1].text, table.rows[0].cells[2].text = "Information Required", "Explanation"
    for label, asked in rows:
        cells = table.add_row().cells
        cells[0].text, cells[1].text = label, asked
    doc.save(str(src))
    items = [{"text": asked, "answer": [0, r, 2]} for r, (_, asked) in enumerate(rows, 1)]
    assert [(x.text, x.id) for x in read_questionnaire(src).questions] == [(asked, None) for _, asked in rows]
    assert [a for _, a in _answer_cells(src)] == [x["answer"] for x in items]
    for rule in ("swap_last_two", "reverse_after_first"):
        dest = tmp_path / f"{rule}.docx"
        rw = _columns_rewrite(src, dest, rule)
        assert _answer_cells(dest) == [(x["text"], x["answer"]) for x in transfer_places(items, rw)], rule


# --- the fourth round: Yes/No tables and rows of response boxes, written otherwise -----------------

PAYMENT = "Are any payment channels not included in this assessment?"
SEGMENTS = "Indicate whether the environment includes segmentation to reduce the scope of the assessment."
STEM = "Does the merchant have relationships with one or more third-party service providers that:"
STORES = (
    "Store, process, or transmit account data on the merchant's behalf (for example, payment gateways, payment "
    "processors and off-site storage)."
)
MANAGES = "Manage system components included in the scope of the merchant's assessment (for example, web hosting)."


def _yes_no_form(path: Path) -> list[dict]:
    """A form of questions each beside a cell of two labelled boxes ("☐ Yes ☐ No"), a stem over two of
    them and a list of records under "If Yes:" (the PCI attestation's look); its truth: each box cell."""
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Part 2. Executive Summary")))
    boxes = wf.para(wf.formcheckbox(), wf.text(" Yes  "), wf.formcheckbox(), wf.text(" No"))
    rows = [[PAYMENT, boxes], [SEGMENTS, boxes], [f"gs2:{STEM}"], [STORES, boxes], [MANAGES, boxes], ["gs2:If Yes:"]]
    rows += [["Name of service provider:", "Description of service(s) provided:"], ["", ""], ["", ""], ["", ""]]
    wf.add(doc, wf.table(rows))
    wf.save(doc, path)
    return [{"text": text, "choice": [[0, r, 1]], "options": ["Yes", "No"], "answer": [0, r, 1]}
            for r, text in ((0, PAYMENT), (1, SEGMENTS), (3, STEM), (4, STEM))]  # fmt: skip


def test_option_text_writes_each_cell_of_labelled_boxes_as_its_options_and_carries_the_choice_to_the_cell(tmp_path):
    src, dest = tmp_path / "form.docx", tmp_path / "options.docx"
    items = _yes_no_form(src)
    rw = rewrite(src, ("option_text",), "0", dest)
    assert rw is not None and rw.done["option_text"].changed == 4
    sep = rw.done["option_text"].labels["separator"]
    moved = transfer_places(items, rw)
    for item in moved:  # the pick is now written in place of the options: the cell, no boxes
        assert "choice" not in item and _cell(dest, item["answer"]) == f"Yes{sep}No"
    assert [x["answer"] for x in moved] == [x["answer"] for x in items]


def test_a_form_row_whose_options_are_written_as_text_is_a_pick_written_in_their_place(tmp_path):
    """ "Yes / No" (or "Yes or No") typed beside a question instead of its boxes: the row's pick, its place
    that cell, the stem's rows too, and the pick written there is read back (main's reader lost all four:
    the text beside the question was no place, the stem's rows a list of records' header)."""
    src = tmp_path / "form.docx"
    items = _yes_no_form(src)
    for seed in ("0", "1", "2"):
        dest = tmp_path / f"options{seed}.docx"
        rw = rewrite(src, ("option_text",), seed, dest)
        q = read_questionnaire(dest)
        where = placed(q, Addresses(dest))
        assert [set(p.choice) for p in where] == [{tuple(x["answer"])} for x in transfer_places(items, rw)], seed
        assert [tuple(x.choices) for x in q.questions] == [("Yes", "No")] * 4
        assert q.questions[2].text.startswith(STEM.rstrip(":")) and "Store, process" in q.questions[2].text
        with tempfile.TemporaryDirectory() as tmp:
            written = Path(tmp) / "answered.docx"
            export(dest, written, answers_for(q), q)
            back = round_trip(q, read_questionnaire(written))
        assert back["choices_back"] == back["choices"] == 4, (seed, back)


def _control_summary(path: Path, repeat_at: int | None = None) -> None:
    """A control's summary table (the FedRAMP SSP's): "AC-1 | Control Summary Information" over rows of
    one cell each, a label and its place after it; ``repeat_at``: the first row typed again before that row."""
    labels = ["Responsible Role:", "Parameter AC-1(a):", "Parameter AC-1(b)(1):", "Parameter AC-1(b)(2):"]
    rows = [["AC-1", "Control Summary Information"], *([f"gs2:{label}"] for label in labels)]
    if repeat_at is not None:
        rows.insert(repeat_at, list(rows[0]))
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("AC-1 Access Control Policy and Procedures")))
    wf.add(doc, wf.table(rows))
    wf.save(doc, path)


def test_a_header_row_typed_again_mid_table_is_no_question_and_moves_no_answer_place(tmp_path):
    """The table's first row written again mid-table (a page break's repeat, typed): the rows under it
    are read as before (main's reader read the repeat as a question answered in the next row's place)."""
    src, dest = tmp_path / "summary.docx", tmp_path / "repeated.docx"
    _control_summary(src)
    _control_summary(dest, repeat_at=4)
    before, after = read_questionnaire(src), read_questionnaire(dest)
    assert len(before.questions) == 4
    assert [(x.id, x.text) for x in after.questions] == [(x.id, x.text) for x in before.questions]
    assert not any("Control Summary Information (" in x.text for x in after.questions)


def test_reply_and_query_headers_name_the_answer_and_question_columns(tmp_path):
    """ "Query | Guidance | Reply" over questions whose reply cells say what to give ("Upload", "Yes/No"):
    each question answered in its Reply cell (main's reader knew neither word: every answer a new
    paragraph after the question, and "If No to the above question then:" a question)."""
    rows = [["Query", "Guidance", "Reply"], ["Provide your ISO 9001 certification", "", "Upload"]]
    rows += [["Provide your ISO 27001 certification", "", "Upload"]]
    rows += [["Are you reliant on the Cloud Service Provider for some accreditations?", "This means …", "Yes/No"]]
    rows += [["gs2:If No to the above question then:"], ["Provide your ISO 14001 certification", "", "Upload"]]
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Lot 1a")))
    tbl = wf.table(rows, widths=3).replace('<w:gridSpan w:val="2"/>', '<w:gridSpan w:val="3"/>')
    wf.add(doc, tbl)
    path = wf.save(doc, tmp_path / "reply.docx")
    q = read_questionnaire(path)
    where = placed(q, Addresses(path))
    assert [x.text for x in q.questions] == [r[0] for r in rows[1:] if not r[0].startswith("gs2:")]
    assert [p.text for p in where] == [(0, r, 2) for r in (1, 2, 3, 5)]


def test_a_number_typed_before_a_question_is_its_id_and_no_part_of_its_words(tmp_path):
    """ "1.2 ", "3) ", "b) ", "(iii) ", "A-1 - ", "１．", "（２）" typed before a question (Word's numbering
    written out by hand, the typed_numbers rewrite): the number is the question's ID, its words the rest
    (main's reader kept "1.2 Do you …" as the text beside the ID "1.2", and took no letter or full-width one)."""
    typed = [("1.2 ", "1.2"), ("3) ", "3"), ("b) ", "b"), ("(iii) ", "(iii"), ("A-1 - ", "A-1"), ("１．", "１"),
             ("（２）", "（２")]  # fmt: skip
    asked = [text for _, text in ROWS[: len(typed)]]
    doc = docx.Document()
    doc.add_paragraph("Supplier questions")
    for (number, _), text in zip(typed, asked, strict=True):
        doc.add_paragraph(f"{number}{text}")
        doc.add_paragraph("")
        doc.add_paragraph("")
    doc.save(str(tmp_path / "typed.docx"))
    q = read_questionnaire(tmp_path / "typed.docx")
    assert [(x.id, x.text) for x in q.questions] == [(ident, text) for (_, ident), text in zip(typed, asked)]
