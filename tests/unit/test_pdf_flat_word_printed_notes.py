"""Word questionnaires printed as flat PDFs (#55), p55flat7b: a tender's lettered requests written
here, printed by the bench's printer and read by the flat PDF reader. A drafting note in square
brackets before the words that ask ("D-1 [Example Option 1] Please provide …", the template's note to
its buyer) hid the request from main's reader; "E-1 - Please indicate …", its ID typed with a hyphen
after it, is read as E-1 "Please indicate …" (as the Word reader reads it), which main's bench counted
as a miss and an extra (its normalisation kept the lone hyphen, not an en dash)."""

from __future__ import annotations

import pytest
from docx.shared import Pt

from engine.bench.word_printed import score
from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed


def _para(doc, text: str, after: float = 0.0) -> None:
    doc.add_paragraph(text).paragraph_format.space_after = Pt(after)


@pytest.mark.parametrize("rulings", ["no rulings", "ruled"])
@pytest.mark.parametrize(
    ("note", "words"),
    [
        ("[Example Option 1] ", "Please provide answers to the following method statements."),
        ("[Exemple d'option 1] ", "Veuillez décrire votre méthode de travail pour ce contrat."),
    ],
)
def test_a_lettered_request_after_a_drafting_note_in_brackets_is_a_question(tmp_path, rulings, note, words):
    """A lettered request "D-1 [Example Option 1] Please provide …" over the paragraphs that follow it (no blank space):
    a question D-1, its text the note and the request; a bracketed note that asks nothing after it
    ("[Option 2: …]") is none."""
    doc = wf.new()
    _para(doc, "SECTION D\tProposed Working Methods", 12)
    _para(doc, f"D-1\t{note}{words} Response to be no more than two sides of A4.", 12)
    _para(doc, "Option 1:", 12)
    _para(doc, "Example Method Statement 1 – Potential suppliers are required to detail their staff cover.", 12)
    _para(doc, "D-2\t[Option 2] The headings could be: compliance, quality and customer service.", 12)
    _para(doc, "The above are included as examples only.", 12)
    q = _printed(tmp_path, doc, rulings)
    assert [(x.id, _fold(x.text)[: len(_fold(note + words))]) for x in q.questions] == [("D-1", _fold(note + words))]


def test_the_bench_matches_an_id_typed_with_a_hyphen_after_it(tmp_path):
    """The truth's "E-1 - Please indicate …" (the document's words) matches the question read as ID "E-1"
    and text "Please indicate …": a hyphen standing alone is a dash typed (as "–" is), no word."""
    doc = wf.new()
    _para(doc, "SECTION E\tEnvironmental Responsibility", 12)
    text = "Please indicate the measures you employ to minimise your carbon footprint."
    _para(doc, f"E-1 - {text}", 12)
    _para(doc, "Response to be no more than two sides of A4, please label your response as E-1.", 12)
    q = _printed(tmp_path, doc, "no rulings")
    assert [(x.id, x.text) for x in q.questions] == [("E-1", text)]
    item = {"page": 1, "text": f"E-1 - {text}", "options": [], "choice": False, "text_place": True, "either": False}
    scored = score(q, [item])
    assert (scored["matched"], scored["usable_n"], scored["extra"]) == (1, 1, [])
