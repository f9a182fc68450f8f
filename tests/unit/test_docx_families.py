"""Word questionnaires of the families that went wrong (issue #55), one rule per test, each drawing
the layout the family generator (engine/bench/families.py) found read wrongly: small documents
written with tests/word_fixtures.py, read by the real reader."""

from __future__ import annotations

from engine.bench.families import score_variant, variants
from engine.cli.inspect import summary
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.places import PlaceKind, place_key
from engine.questionnaire.word.found import without_translator_note
from engine.questionnaire.writes import CellWrite
from tests import word_fixtures as wf


def places(q, question):
    get = lambda cell: q.places.get(place_key(question.sheet, cell)) if cell else None  # noqa: E731
    return get(question.choice_cell), get(question.text_cell)


def _box() -> str:
    return wf.para(wf.sdt_checkbox())


def _sym_box() -> str:
    return wf.para('<w:r><w:sym w:font="Wingdings" w:char="F06F"/></w:r>')


def test_yes_as_a_header_label_is_a_label_not_a_mark(tmp_path):
    """ "Yes" alone in a cell ticks it in a data row; in the header row it is an option's label:
    the header is no question and each row is one choice of Yes / No (Wingdings boxes under a
    section row spanning the table)."""
    doc = wf.new()
    rows = [["Requirement", "Guidance", "Yes", "No"], ["gs2:gs2:Security"]]
    rows += [[f"The supplier shall keep record {i}.", "", _sym_box(), _sym_box()] for i in (1, 2, 3)]
    xml = wf.table(rows, widths=4).replace('<w:gridSpan w:val="2"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">gs2:Security',
                                           '<w:gridSpan w:val="4"/></w:tcPr><w:p><w:r><w:t xml:space="preserve">Security')  # fmt: skip
    wf.add(doc, xml)
    q = read_questionnaire(wf.save(doc, tmp_path / "yes.docx"))
    assert [x.text for x in q.questions] == [f"The supplier shall keep record {i}." for i in (1, 2, 3)]
    assert all(x.choices == ("Yes", "No") for x in q.questions)


def test_yes_under_a_group_label_is_the_second_header_row(tmp_path):
    doc = wf.new()
    rows = [
        ["ID", "Requirement", "gs2:Response", "Comments"],
        ["", "", "Yes", "No", ""],
        *[[f"2.{i}", f"Is record {i} kept?", _box(), _box(), ""] for i in (1, 2)],
    ]
    wf.add(doc, wf.table(rows, widths=5))
    q = read_questionnaire(wf.save(doc, tmp_path / "group.docx"))
    assert [x.text for x in q.questions] == ["Is record 1 kept?", "Is record 2 kept?"]
    first = q.questions[0]
    choice, text = places(q, first)
    assert first.choices == ("Yes", "No") and choice.kind is PlaceKind.CHECKBOXES
    assert text is not None and text.column == "Comments"  # the text in the comments cell, not in "Yes"


def test_a_guidance_column_headed_in_spanish_is_not_the_answers_place(tmp_path):
    """ "Orientación" (guidance) left blank beside the options: the text goes to "Observaciones"."""
    doc = wf.new()
    rows = [["Requisito", "Orientación", "Sí", "No", "Observaciones"]]
    rows += [[f"1.{i} El proveedor debe cifrar el registro {i}.", "", _box(), _box(), ""] for i in (1, 2)]
    wf.add(doc, wf.table(rows))
    q = read_questionnaire(wf.save(doc, tmp_path / "es.docx"))
    assert len(q.questions) == 2 and q.questions[0].choices == ("Sí", "No")
    assert places(q, q.questions[0])[1].column == "Observaciones"


def test_german_and_french_not_applicable_labels_are_options(tmp_path):
    doc = wf.new()
    rows = [["Nr.", "Anforderung", "Ja", "Nein", "Nicht zutreffend"]]
    rows += [[f"3.{i}", f"Werden die Daten {i} verschlüsselt?", "", "", ""] for i in (1, 2)]
    wf.add(doc, wf.table(rows))
    rows = [["N°", "Exigence", "Oui", "Non", "S.O."]]
    rows += [[f"4.{i}", f"Le fournisseur doit chiffrer le lot {i}.", _box(), _box(), _box()] for i in (1, 2)]
    wf.add(doc, wf.table(rows))
    q = read_questionnaire(wf.save(doc, tmp_path / "de-fr.docx"))
    assert [x.choices for x in q.questions] == [("Ja", "Nein", "Nicht zutreffend")] * 2 + [("Oui", "Non", "S.O.")] * 2


def test_a_translators_note_before_the_question_is_not_its_text(tmp_path):
    doc = wf.new()
    rows = [["番号", "質問", "はい", "いいえ", "備考"]]
    rows += [["１", "[訳注：原文の表現を残しています] 個人データは暗号化されていますか。", _box(), _box(), ""]]
    rows += [["２", "(Translator's note: literal) バックアップをテストしていますか。", _box(), _box(), ""]]
    wf.add(doc, wf.table(rows))
    q = read_questionnaire(wf.save(doc, tmp_path / "ja.docx"))
    assert [x.text for x in q.questions] == ["個人データは暗号化されていますか。", "バックアップをテストしていますか。"]
    assert without_translator_note("【訳者注：参考訳】") == "【訳者注：参考訳】"  # a note alone stays what it is
    assert without_translator_note("[Insert name] Company") == "[Insert name] Company"  # a prompt is no note


def test_a_numbered_question_over_a_line_of_yes_no_boxes_is_one_question(tmp_path):
    doc = wf.new()
    for n, question in enumerate(("Has the entity completed every section?", "Has an assessor reviewed it?"), 1):
        wf.add(doc, wf.para(wf.text(f"{n}. {question}")))
        wf.add(doc, wf.para(wf.formcheckbox(), wf.text(" Yes   "), wf.formcheckbox(), wf.text(" No")))
    wf.add(doc, wf.para(wf.text("3. Describe the scope of the assessment?")))
    wf.add(doc, wf.para(wf.text("Other "), wf.formcheckbox(), wf.text(" Yes "), wf.formcheckbox(), wf.text(" No")))
    q = read_questionnaire(wf.save(doc, tmp_path / "attest.docx"))
    texts = [(x.text, x.choices) for x in q.questions]
    assert texts[:2] == [
        ("Has the entity completed every section?", ("Yes", "No")),
        ("Has an assessor reviewed it?", ("Yes", "No")),
    ]
    assert [x.id for x in q.questions[:2]] == ["1", "2"]
    # a line of boxes with a prompt of its own ("Other ☐ Yes ☐ No") leaves the question above its own
    assert [t for t, _ in texts[2:]] == ["Describe the scope of the assessment?", "Other"]


def test_a_group_label_that_asks_heads_the_options(tmp_path):
    """ "Compliant?" over "Yes | No" is the options' group label, not a question: the header holds."""
    doc = wf.new()
    rows = [
        ["No.", "Requirement", "gs2:Compliant?", "Comments"],
        ["", "", "Yes", "No", ""],
        *[[f"5.{i}", f"The supplier shall rotate key {i}.", _box(), _box(), ""] for i in (1, 2)],
    ]
    wf.add(doc, wf.table(rows, widths=5))
    q = read_questionnaire(wf.save(doc, tmp_path / "asks.docx"))
    assert [(x.id, x.choices) for x in q.questions] == [("5.1", ("Yes", "No")), ("5.2", ("Yes", "No"))]
    assert places(q, q.questions[0])[1].column == "Comments"


def test_a_translators_note_after_the_section_prefix_is_dropped_too():
    assert (
        without_translator_note("1. セキュリティ: [訳注：参考] 記録を暗号化すること。")
        == "1. セキュリティ: 記録を暗号化すること。"
    )
    assert without_translator_note("Section 2: (Translator's note: literal) Is it kept?") == "Section 2: Is it kept?"


def test_labelled_boxes_in_one_response_cell_are_the_rows_choice_and_the_text_goes_to_notes(tmp_path):
    """ "☐ Yes ☐ No ☐ N/A" in one "Response" cell per row: one choice per row, its options the
    boxes' labels; the text in the row's notes cell, never in the boxes' cell."""
    doc = wf.new()
    boxes = wf.para(wf.text("☐ Ja   ☐ Nee   ☐ N.v.t."))
    rows = [["Nr.", "Eis", "Antwoord", "Opmerkingen"]]
    rows += [[f"6.{i}", f"De leverancier moet back-ups {i} testen.", boxes, ""] for i in (1, 2, 3)]
    wf.add(doc, wf.table(rows))
    q = read_questionnaire(wf.save(doc, tmp_path / "nl.docx"))
    assert [(x.id, x.choices) for x in q.questions] == [(f"6.{i}", ("Ja", "Nee", "N.v.t.")) for i in (1, 2, 3)]
    choice, text = places(q, q.questions[0])
    assert choice.kind is PlaceKind.CHECKBOXES and choice.column == "Antwoord"
    assert text is not None and text.column == "Opmerkingen"


def test_a_question_label_over_an_empty_numbered_column_and_the_text_reads_the_text(tmp_path):
    """ "質問" spanning the ID column (its numbers drawn by Word: the cells hold no text) and the
    question column: the questions are the column of words, the empty one is the row's number."""
    doc = wf.new()
    numbered = '<w:p><w:pPr><w:pStyle w:val="ListNumber"/></w:pPr></w:p>'
    rows = [["gs2:質問", "はい", "いいえ", "備考"]]
    rows += [[numbered, f"記録{i}を暗号化すること。", "", "", ""] for i in (1, 2, 3)]
    wf.add(doc, wf.table(rows, widths=5))
    q = read_questionnaire(wf.save(doc, tmp_path / "numbered.docx"))
    assert [x.text for x in q.questions] == [f"記録{i}を暗号化すること。" for i in (1, 2, 3)]
    assert all(x.choices == ("はい", "いいえ") for x in q.questions)
    assert places(q, q.questions[0])[1].column == "備考"


def test_a_column_of_labels_each_with_its_field_is_a_question_per_row(tmp_path):
    """ "Date of assessment: YYYY-MM-DD" (a legacy field showing its mask) in one cell per row: a
    label and its field, never a title over the rows below it; the mask is no answer."""
    doc = wf.new()
    labels = [("Company name:", "Insert company name"), ("Date of assessment:", "YYYY-MM-DD"),
              ("Assessor name:", "Click here to enter text."), ("Contact e-mail:", "Click here to enter text.")]  # fmt: skip
    wf.add(doc, wf.table([[wf.para(wf.text(f"{label} "), wf.formtext(default=d))] for label, d in labels]))
    q = read_questionnaire(wf.save(doc, tmp_path / "attest.docx"))
    assert [x.text.rsplit(": ", 1)[-1] for x in q.questions] == [label.rstrip(":") for label, _ in labels]
    assert all(x.existing_answer is None for x in q.questions)


def test_an_empty_column_before_the_question_is_its_number_not_its_answer(tmp_path):
    """A column left of the requirements whose cells hold only the numbers Word draws (no text),
    its header empty or unknown ("N.º"), with a place after the question: the row's number; the
    text goes to the comments cell, never into the number's cell."""
    doc = wf.new()
    numbered = '<w:p><w:pPr><w:pStyle w:val="ListNumber"/></w:pPr></w:p>'
    rows = [["", "Requirement", "Y", "N", "Comments"]]
    rows += [[numbered, f"The supplier must test backup {i}.", _box(), _box(), ""] for i in (1, 2, 3)]
    wf.add(doc, wf.table(rows))
    rows = [["N.º", "Requisito", "Sí", "No", "Observaciones"]]
    rows += [[numbered, f"El proveedor debe probar la copia {i}.", "", "", ""] for i in (1, 2)]
    wf.add(doc, wf.table(rows))
    q = read_questionnaire(wf.save(doc, tmp_path / "ids.docx"))
    assert [x.choices for x in q.questions] == [("Y", "N")] * 3 + [("Sí", "No")] * 2
    assert [places(q, x)[1].column for x in q.questions] == ["Comments"] * 3 + ["Observaciones"] * 2


def test_a_header_drawn_as_a_table_of_its_own_heads_the_table_below(tmp_path):
    """The header rows in a table of their own right above the rows (an empty line between): not
    questions; the rows below are read under it, one choice of its option labels per row."""
    doc = wf.new()
    wf.add(doc, wf.table([["Nr.", "Eis", "gs2:Antwoord", "Opmerkingen"], ["", "", "Ja", "Nee", ""]], widths=5))
    wf.add(doc, wf.para())
    rows = [[f"7.{i}", f"De leverancier moet logboek {i} bewaren.", _box(), _box(), ""] for i in (1, 2, 3)]
    wf.add(doc, wf.table(rows))
    q = read_questionnaire(wf.save(doc, tmp_path / "split.docx"))
    assert [(x.id, x.choices) for x in q.questions] == [(f"7.{i}", ("Ja", "Nee")) for i in (1, 2, 3)]
    choice, text = places(q, q.questions[0])
    assert choice.column == "Antwoord" and text.column == "Opmerkingen"
    assert any("is the header of the table below it" in n for n in q.notes)


def test_a_group_label_alone_over_the_option_labels_is_the_header(tmp_path):
    """The first header row holds only the options' group label ("回答" over "はい | いいえ"), the
    other cells empty (the options before the question): both rows are the header."""
    doc = wf.new()
    rows = [["", "gs2:回答", ""], ["", "はい", "いいえ", ""]]
    rows += [[f"１．{i}", "", "", f"記録{i}を暗号化すること。"] for i in (1, 2, 3)]
    wf.add(doc, wf.table(rows, widths=4))
    q = read_questionnaire(wf.save(doc, tmp_path / "group-only.docx"))
    assert [(x.text, x.choices) for x in q.questions] == [
        (f"記録{i}を暗号化すること。", ("はい", "いいえ")) for i in (1, 2, 3)
    ]


def test_a_header_table_over_requirements_that_read_like_labels_still_heads_them(tmp_path):
    """Requirement rows short enough to look like labels (empty option cells, a section row first)
    under a header drawn as a table of its own: the header is the table above, not the first row."""
    doc = wf.new()
    wf.add(doc, wf.table([["ID", "Requirement", "Expected Testing", "In Place", "Not in Place"]]))
    rows = [["gs2:Requirement 1: Network security controls"]]
    rows += [["", f"Network rule set {i} is reviewed.", "Examine configurations.", "", ""] for i in (1, 2, 3)]
    xml = wf.table(rows, widths=5).replace('<w:gridSpan w:val="2"/>', '<w:gridSpan w:val="5"/>')
    wf.add(doc, xml)
    q = read_questionnaire(wf.save(doc, tmp_path / "split-pci.docx"))
    assert [(x.text, x.choices) for x in q.questions] == [
        (f"Network rule set {i} is reviewed.", ("In Place", "Not in Place")) for i in (1, 2, 3)
    ]


# --- long tables (the fifth family): a table over many pages ----------------------------------


def _tc(body: str = "", span: int = 1, merge: str = "") -> str:
    """A cell: its text (or paragraphs' XML), spanning ``span`` columns, ``merge`` "restart" or "continue"."""
    pr = (f'<w:gridSpan w:val="{span}"/>' if span > 1 else "") + (f'<w:vMerge w:val="{merge}"/>' if merge else "")
    inner = body if body.startswith("<w:") else wf.para(wf.text(body)) if body else "<w:p/>"
    return f"<w:tc>{f'<w:tcPr>{pr}</w:tcPr>' if pr else ''}{inner}</w:tc>"


def _long(rows: list[list[str]], width: int, header_rows: int = 1) -> str:
    """A table of raw rows (each a list of :func:`_tc`), its first ``header_rows`` marked to repeat on each page."""
    grid = "".join('<w:gridCol w:w="1500"/>' for _ in range(width))
    marked = "<w:trPr><w:tblHeader/></w:trPr>"
    trs = "".join(f"<w:tr>{marked if i < header_rows else ''}{''.join(r)}</w:tr>" for i, r in enumerate(rows))
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{trs}</w:tbl>'


def test_a_question_cut_over_two_rows_is_one_question_with_its_whole_text(tmp_path):
    """A requirement whose text goes on in the next row (no ID, no boxes there; or its ID and boxes
    merged down over it) is one question, its text both rows' words, its choice the first row's
    boxes; the rows after it are questions of their own."""
    doc = wf.new()
    head = [_tc("ID"), _tc("Requirement"), _tc("Yes"), _tc("No"), _tc("Comments")]
    rows = [
        head,
        [_tc("1.1"), _tc("Does the supplier encrypt"), _tc(_box()), _tc(_box()), _tc()],
        [_tc(), _tc("personal data at rest?"), _tc(), _tc(), _tc()],
        [_tc("1.2", merge="restart"), _tc("Are security incidents reported within"),
         *(_tc(_box(), merge="restart") for _ in range(2)), _tc(merge="restart")],
        [_tc(merge="continue"), _tc("24 hours?"), *(_tc(merge="continue") for _ in range(3))],
        [_tc("1.3"), _tc("Is access reviewed every quarter?"), _tc(_box()), _tc(_box()), _tc()],
    ]  # fmt: skip
    wf.add(doc, _long(rows, 5))
    q = read_questionnaire(wf.save(doc, tmp_path / "split.docx"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("1.1", "Does the supplier encrypt personal data at rest?"),
        ("1.2", "Are security incidents reported within 24 hours?"),
        ("1.3", "Is access reviewed every quarter?"),
    ]
    assert all(x.choices == ("Yes", "No") for x in q.questions)
    choice, text = places(q, q.questions[1])
    assert choice.kind is PlaceKind.CHECKBOXES and text.column == "Comments"
    shown = summary(q).splitlines()[-1]  # inspect: the option columns are one choice's
    assert "2 Yes = choice (several); 3 No = choice (several); 4 Comments = answer text" in shown


def test_a_long_table_with_an_answer_column_reads_past_its_sections_and_repeated_header(tmp_path):
    """Requirement | Supplier response, its header marked to repeat and written again under
    "Table 1 (continued)", section rows spanning it (the first right under the header), a
    requirement cut over two rows: a question per requirement, its text whole, its answer the
    response cell; the header, the sections and the "(continued)" row are no questions."""
    doc = wf.new()
    head = [_tc("Requirement"), _tc("Supplier response"), _tc("Comments")]
    rows = [
        head,
        [_tc("1. Governance", span=3)],
        [_tc("The supplier shall keep an inventory"), _tc(), _tc()],
        [_tc("of information assets."), _tc(), _tc()],
        [_tc("The supplier shall review user access every quarter."), _tc(), _tc()],
        [_tc("Table 1: Security requirements (continued)", span=3)],
        head,
        [_tc("2. Access control", span=3)],
        [_tc("The supplier must enforce multi-factor authentication for administrators."), _tc(), _tc()],
    ]
    wf.add(doc, _long(rows, 3))
    q = read_questionnaire(wf.save(doc, tmp_path / "text.docx"))
    assert [x.text for x in q.questions] == [
        "The supplier shall keep an inventory of information assets.",
        "The supplier shall review user access every quarter.",
        "The supplier must enforce multi-factor authentication for administrators.",
    ]
    assert [places(q, x)[1].column for x in q.questions] == ["Supplier response"] * 3


def test_a_japanese_requirement_is_a_sentence_not_a_label_and_its_cut_text_is_joined(tmp_path):
    """要件 | 回答内容: a requirement ending in "。" is a sentence (no title put before it, as a short
    label's is), one cut where its cell wrapped goes on in the next row with no space between."""
    doc = wf.new()
    rows = [
        [_tc("番号"), _tc("要件"), _tc("回答内容")],
        [_tc("１．１"), _tc("管理者に多要素認証を適用すること。"), _tc()],
        [_tc("１．２"), _tc("セキュリティインシデントを"), _tc()],
        [_tc(), _tc("24時間以内に報告すること。"), _tc()],
    ]
    wf.add(doc, wf.para(wf.text("表1：セキュリティ要件")))
    wf.add(doc, _long(rows, 3))
    q = read_questionnaire(wf.save(doc, tmp_path / "ja.docx"))
    assert [x.text for x in q.questions] == [
        "管理者に多要素認証を適用すること。",
        "セキュリティインシデントを24時間以内に報告すること。",
    ]


def test_an_id_drawn_by_word_above_and_none_below_joins_the_cut_text(tmp_path):
    """IDs drawn by Word's numbering (the cells hold no text) and empty option cells: the row whose
    ID cell is not numbered goes on with the question above it."""
    doc = wf.new()
    numbered = '<w:p><w:pPr><w:pStyle w:val="ListNumber"/></w:pPr></w:p>'
    rows = [
        [_tc("Nr."), _tc("Anforderung"), _tc("Ja"), _tc("Nein")],
        [_tc(numbered), _tc("Werden die"), _tc(), _tc()],
        [_tc(), _tc("Mitarbeiter jährlich geschult?"), _tc(), _tc()],
        [_tc(numbered), _tc("Werden Zugriffsrechte vierteljährlich überprüft?"), _tc(), _tc()],
    ]
    wf.add(doc, _long(rows, 4))
    q = read_questionnaire(wf.save(doc, tmp_path / "de.docx"))
    assert [(x.text, x.choices) for x in q.questions] == [
        ("Werden die Mitarbeiter jährlich geschult?", ("Ja", "Nein")),
        ("Werden Zugriffsrechte vierteljährlich überprüft?", ("Ja", "Nein")),
    ]


def test_the_long_tables_family_is_read_whole(tmp_path):
    """Variants of the generated long tables family (engine/bench/families.py) with a repeated
    header, sections and cut questions: every question found once, in its places, its text the
    generator's, no free text in an option cell."""
    picked = [v for v in variants("long tables", 12) if v.split_every and v.header_repeat != "none"][:4]
    assert picked
    for v in picked:
        row = score_variant(v, tmp_path)
        assert row["found"] == row["matched"] == row["usable_n"] == row["truth"], row
        assert row["text_right_n"] == row["truth"] and row["free_text_in_option"] == 0, row


def test_a_bold_section_row_not_merged_is_a_section_and_a_lone_question_mark_goes_on(tmp_path):
    """A section's title in bold in the question's cell (its number in the ID's), the rest of its
    row empty: no question, in an option table and in a table of answer text; a row holding only
    the "?" that French spacing cut off goes on with the question above it."""
    doc = wf.new()
    bold = lambda t: wf.para(f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{t}</w:t></w:r>')  # noqa: E731
    rows = [
        [_tc("N°"), _tc("Exigence"), _tc("Oui"), _tc("Non")],
        [_tc(bold("1")), _tc(bold("Gouvernance")), _tc(), _tc()],
        [_tc("1.1"), _tc("Les sauvegardes sont-elles testées chaque année"), _tc(_box()), _tc(_box())],
        [_tc(), _tc("?"), _tc(), _tc()],
        [_tc(bold("2")), _tc(bold("Contrôle d'accès")), _tc(), _tc()],
        [_tc("2.1"), _tc("Les droits d'accès sont-ils revus ?"), _tc(_box()), _tc(_box())],
    ]
    wf.add(doc, _long(rows, 4))
    wf.add(doc, wf.para())
    rows = [
        [_tc("ID"), _tc("Requirement"), _tc("Supplier response")],
        [_tc(bold("1")), _tc(bold("Governance")), _tc()],
        [_tc("1.1"), _tc("Encrypt personal data at rest."), _tc()],
        [_tc("1.2"), _tc("Keep an inventory of information assets."), _tc()],
        [_tc(bold("2")), _tc(bold("Access control")), _tc()],
        [_tc("2.1"), _tc("Review user access every quarter."), _tc()],
    ]
    wf.add(doc, _long(rows, 3))
    q = read_questionnaire(wf.save(doc, tmp_path / "bold.docx"))
    assert [(x.id, x.text) for x in q.questions] == [
        ("1.1", "Les sauvegardes sont-elles testées chaque année ?"),
        ("2.1", "Les droits d'accès sont-ils revus ?"),
        ("1.1", "Encrypt personal data at rest."),
        ("1.2", "Keep an inventory of information assets."),
        ("2.1", "Review user access every quarter."),
    ]
    assert [places(q, x)[1].column for x in q.questions[2:]] == ["Supplier response"] * 3


def test_a_lettered_item_under_a_requirement_is_its_own_question_not_the_rest_of_its_text(tmp_path):
    """Rows "a) …", "b) …" under a requirement whose words end without a full stop, each with its
    own empty answer cell: items of their own, not the rest of the text above; a plain number
    starting a row ("24 hours?") under an unnumbered question cut short is the rest of its text."""
    doc = wf.new()
    rows = [
        [_tc("Requirement"), _tc("Response")],
        [_tc("Describe how the supplier protects"), _tc()],
        [_tc("a) backups held off site."), _tc()],
        [_tc("b) logs kept for a year."), _tc()],
        [_tc("Are security incidents reported within"), _tc(merge="restart")],
        [_tc("24 hours?"), _tc(merge="continue")],
    ]
    wf.add(doc, _long(rows, 2))
    q = read_questionnaire(wf.save(doc, tmp_path / "items.docx"))
    texts = [x.text for x in q.questions]
    assert not any(t.startswith("Describe how the supplier protects a)") for t in texts), texts
    assert "Are security incidents reported within 24 hours?" in texts


def test_option_labels_written_before_their_boxes_name_those_boxes(tmp_path):
    """ "Yes ☐ No ☐" (each label before its box, the line ending with a box; the Charnwood ITT's "Please
    confirm you agree to the [12] month fixed price period" over such a line): each box is named by the
    words before it, so the question is the prompt above with options Yes / No, and "No" ticks the box
    after "No". Before, each box took the words after it: the question read "Yes", its options "No" and
    "No". A prompt before the first label on the same line stays the question ("Do you agree? Yes ☐ No ☐")."""
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Please confirm you agree to the 12 month fixed price period")))
    wf.add(doc, wf.para(wf.text("Yes "), wf.formcheckbox(), wf.text(" No "), wf.formcheckbox()))
    wf.add(doc, wf.para(wf.text("Do you accept the contract conditions? Yes "), wf.formcheckbox(), wf.text(" No "),
                        wf.formcheckbox()))  # fmt: skip
    q = read_questionnaire(wf.save(doc, tmp_path / "tender.docx"))
    assert [(x.text, x.choices) for x in q.questions] == [
        ("Please confirm you agree to the 12 month fixed price period", ("Yes", "No")),
        ("Do you accept the contract conditions?", ("Yes", "No")),
    ]
    cells = [CellWrite(x.sheet, x.choice_cell, v) for x, v in zip(q.questions, ["No", "Yes"])]
    back = read_questionnaire(export(q.path, tmp_path / "answered.docx", cells, q))
    assert [x.existing_choice for x in back.questions] == ["No", "Yes"]
