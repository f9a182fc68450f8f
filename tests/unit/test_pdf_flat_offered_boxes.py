"""A flat PDF table whose answer cells offer boxes with their labels before them ("Yes ☐ No ☐ N/A ☐", the
UK PPN 03/24 selection questionnaire's layout), printed by the bench's printer (engine/bench/word_printed.py)
and read by the flat PDF reader: the options to tick are the question's choices, not an answer already
given. Before, the cell's text was each question's existing answer ("Yes ▢ No ▢": the row read as answered)
and a question that does not start as a yes/no question had no choice at all."""

from __future__ import annotations

import pytest

from engine.questionnaire.pdf.flat.boxes import box_choices
from tests import word_fixtures as wf


def test_labels_before_their_boxes_are_read_only_in_an_answer_cell():
    """A line of a page's text ending with a box may hold the end of one question and the next's box (text
    set in columns): there, "Yes ☐ No ☐" names no options."""
    assert box_choices("Yes ☐ No ☐") == ()


@pytest.mark.parametrize(
    ("text", "choices"),
    [
        ("☐ Yes ☐ No", ("Yes", "No")),
        ("Yes ☐ No ☐ N/A ☐", ("Yes", "No", "N/A")),
        ("Ja ☐ Nein ☐", ("Ja", "Nein")),
        ("Yes No ☐ Yes ☐", ()),  # the lines of two rows read together: no option of its own words
        ("No ☐ Yes ☐ No ☐", ()),  # two options of one label
        ("Company registered in England ☐", ()),
    ],
)
def test_boxes_with_their_labels_before_or_after_them(text, choices):
    assert box_choices(text, before=True) == choices


@pytest.mark.parametrize("rulings", ["ruled", "no rulings"])
def test_an_answer_cell_offering_labelled_boxes_is_the_questions_choice_not_its_answer(tmp_path, rulings):
    doc = wf.new()
    doc.add_paragraph("Part 1: Supplier information")
    rows = [
        ["Question number", "Question", "Response"],
        ["1.1(g)", "Are you registered with the appropriate trade register?", "Yes ☐ No ☐ N/A ☐"],
        ["1.1(h)", "For procurements for services only, is it a legal requirement to hold an authorisation?", "Yes ☐ No ☐"],
        ["1.1(i)", "Please provide your registered VAT number.", ""],
    ]  # fmt: skip
    wf.add(doc, wf.table(rows))
    q = wf.printed(tmp_path, doc, rulings)
    got = [(x.id, x.choices, x.existing_answer, x.existing_choice) for x in q.questions]
    assert got == [
        ("1.1(g)", ("Yes", "No", "N/A"), None, None),
        ("1.1(h)", ("Yes", "No"), None, None),
        ("1.1(i)", (), None, None),
    ]
