"""Word questionnaires saved by another word processor (issue #55, engine/bench/word_resaved.py): the
reader's rules for what LibreOffice writes differently, each on a small document written the way
LibreOffice writes it (tests/word_fixtures.py), read, exported and read back."""

from __future__ import annotations

from pathlib import Path

from engine.bench.document_intake import answers_for, round_trip
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from tests.word_fixtures import SAQ_OPTIONS, element, lo_formcheckbox, new, save, saq_table, symbol_text

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
ROWS = [
    ("1.3.1", "Inbound traffic to the CDE is restricted.", "Examine NSC configurations."),
    ("1.3.2", "Outbound traffic from the CDE is restricted.", "Examine NSC configurations."),
    ("1.3.3", "NSCs are installed between all wireless networks and the CDE.", "Examine configuration settings."),
]


def _saq_as_libreoffice_saves_it(tmp_path: Path) -> Path:
    """A PCI SAQ requirement table as LibreOffice saves it: the "Response" header's footnote mark (the
    Symbol font's ♦, a ``w:sym`` in Word's file) written as a private-use character in a Symbol-font run,
    each box a legacy checkbox field in LibreOffice's form."""
    doc = new()
    table = saq_table(doc, ROWS)
    response = table.cell(0, 3).paragraphs[0]._p
    response.append(element(symbol_text("F0A8")))
    mark = 1
    for r in range(2, 2 + len(ROWS)):
        for c in range(3, 7):
            p = table.cell(r, c).paragraphs[0]._p
            for run in p.findall(f"{W}r"):
                p.remove(run)
            for run in element(f"<w:p>{lo_formcheckbox(mark)}</w:p>"):
                p.append(run)
            mark += 1
    return save(doc, tmp_path / "saq_saved.docx")


def test_a_symbol_fonts_glyph_written_as_text_is_read_as_its_w_sym(tmp_path):
    """The header's "Response♦" (a footnote mark in the Symbol font, written as text) is "Response": the
    row's four boxes one choice of the four options, the requirement its question (main's reader took the
    mark for a Wingdings box: each box a question of no text)."""
    path = _saq_as_libreoffice_saves_it(tmp_path)
    q = read_questionnaire(path)
    assert [(x.id, x.choices) for x in q.questions] == [(i, SAQ_OPTIONS) for i, _, _ in ROWS]
    assert [x.text for x in q.questions] == [text for _, text, _ in ROWS]
    written = tmp_path / "answered.docx"
    export(path, written, answers_for(q), q)
    back = round_trip(q, read_questionnaire(written))
    assert back["choices_back"] == back["choices"] == len(ROWS), back
