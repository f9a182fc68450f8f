"""Word questionnaires printed as flat PDFs (#55), p55charn8: a tender's options one a paragraph, each
label ending with its box to tick, written here, printed by the bench's printer and read by the flat
PDF reader. The box follows the label's last word after a space ("… for the length of this contract ☐"),
or the label wraps and its box falls after the second line's words or alone on the line under it;
main's reader read only labels of twelve words at most with a tab's gap before their box, so these
options were lines of text and their question had no choice. In a document with table questions, a
run of such options under a lead-in was named by its first six words ("No Policy and 5 or more…"):
an option's label is its words, whole."""

from __future__ import annotations

import pymupdf
import pytest
from docx.shared import Pt

from engine.bench.word_printed import MARGIN, score, wrap
from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed

FILLER = {
    "en": "and will not obtain it in any other way before the start of this contract or during it".split(),
    "fr": "et ne l'obtiendrons pas autrement avant le début de ce contrat ni pendant sa durée".split(),
}
ENDS = ("", "a", "of", "to", "all", "any", "such", "there", "other", "whatever", "throughout")


def _para(doc, text: str, after: float = 0.0) -> None:
    doc.add_paragraph(text).paragraph_format.space_after = Pt(after)


def _wrapped(label: str, language: str, paper: str, alone: bool) -> str:
    """``label`` lengthened by words of the language's FILLER (and a last word of ENDS) until the
    printer's wrap (engine/bench/word_printed.py) puts its box, after one space, alone on a line of its
    own (``alone``) or after the words of the label's second line."""
    width = pymupdf.paper_size(paper.lower())[0] - 2 * MARGIN
    filler = FILLER[language] * 3
    for n in range(len(filler) + 1):
        for end in ENDS:
            text = " ".join([label, *filler[:n], end]).strip()
            lines = wrap(f"{text} ☐", width, 9.0)
            if len(lines) >= 2 and (lines[-1] == "☐" if alone else len(lines[-1].split()) > 2):
                return text
    raise AssertionError("no such label")


def _table(doc) -> None:
    """A checklist table (printed ruled: table questions, the options' runs read as lead-ins' lists)."""
    t = doc.add_table(rows=3, cols=2)
    t.cell(0, 0).text, t.cell(0, 1).text = "SCHEDULE HEADING", "COMPLETED?"
    t.cell(1, 0).text, t.cell(1, 1).text = "Schedule 5 – Business Questionnaire", "☐"
    t.cell(2, 0).text, t.cell(2, 1).text = "Schedule 6 – Legal Obligations", "☐"
    _para(doc, "", 12)


LANGUAGES = {
    "en": (
        "Please confirm that your organisation holds the required level of cover or will obtain it prior to award?",
        (
            "Yes, we hold the levels of cover already and will keep them for the length of this contract",
            "No, but we will obtain the required levels of cover if we are awarded the contract",
            "No, we do not hold the cover",
        ),
        "Bidders who cannot provide this level of cover will fail the questionnaire.",
    ),
    "fr": (
        "Veuillez confirmer que votre organisation dispose du niveau de couverture requis avant l'attribution ?",
        (
            "Oui, nous disposons déjà des niveaux de couverture et les garderons pendant toute la durée du contrat",
            "Non, mais nous obtiendrons les niveaux de couverture requis si le contrat nous est attribué",
            "Non, nous ne disposons pas de la couverture",
        ),
        "Les soumissionnaires qui ne peuvent pas fournir cette couverture seront exclus.",
    ),
}


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("table", [False, True])
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_options_ending_with_their_box_are_the_choice_of_the_question_above(tmp_path, language, table, paper):
    """A numbered question over three options, each a paragraph ending with its box: the first after
    a space on its line (thirteen words and more), the second wrapped with its box after the second
    line's words, the third wrapped with its box alone on the line under it: one question "2.1", its
    options the three labels whole; the note under them is no question."""
    ask, (first, second, third), note = LANGUAGES[language]
    labels = (first, _wrapped(second, language, paper, False), _wrapped(third, language, paper, True))
    doc = wf.new()
    if table:
        _table(doc)
    _para(doc, f"2.1\t{ask}", 12)
    for label in labels:
        _para(doc, f"{label} ☐", 8)
    _para(doc, note, 12)
    q = _printed(tmp_path, doc, "ruled" if table else "no rulings", paper)
    asked = [x for x in q.questions if "schedule" not in x.text[:9].lower()]  # the table's own rows
    assert [(x.id, [_fold(c) for c in x.choices]) for x in asked] == [("2.1", [_fold(s) for s in labels])]
    assert _fold(asked[0].text).startswith(_fold(ask))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_a_lead_in_s_options_with_their_box_after_are_named_whole(tmp_path, paper):
    """In a document with table questions, a paragraph whose last sentence asks over options with
    their box a tab after the label (seven and eight words: "Yes I have a Policy & Risk
    Assessments"): one question, its options the labels whole, not their first six words and "…"."""
    labels = ("Yes I have a Policy & Risk Assessments", "Fewer than 5 staff", "No Policy and 5 or more staff")
    doc = wf.new()
    _table(doc)
    _para(doc, "Suppliers that employ 5 or more staff are legally required to have a written policy.", 0)
    _para(doc, "Please confirm if you have a policy, or fewer than 5 staff.", 12)
    for label in labels:
        _para(doc, f"{label}\t\t\t\t☐", 0)
    _para(doc, "", 0)
    _para(doc, "Please note answering 'No Policy' will fail the schedule.", 12)
    q = _printed(tmp_path, doc, "ruled", paper)
    asked = [x for x in q.questions if x.choices and "schedule" not in x.text[:9].lower()]
    assert [list(x.choices) for x in asked] == [list(labels)]


@pytest.mark.parametrize("rulings", ["no rulings", "ruled"])
@pytest.mark.parametrize(
    ("ask", "row", "options"),
    [
        ("Please confirm you agree to the [12] month fixed price period", "Yes ☐\tNo ☐", ["Yes", "No"]),
        ("Bitte bestätigen Sie den Festpreis für [12] Monate", "Ja ☐\tNein ☐", ["Ja", "Nein"]),
    ],
)
def test_option_words_each_before_its_box_under_a_request_are_its_choice(tmp_path, rulings, ask, row, options):
    """A request (no "?") over a row of option words each before its box ("Yes ☐ No ☐"): one question,
    its options those words, in a document with a table question above it (a pricing table)."""
    doc = wf.new()
    t = doc.add_table(rows=3, cols=2)
    t.cell(0, 0).text, t.cell(0, 1).text = "Service component description", "Costs (£)"
    t.cell(1, 0).text, t.cell(2, 0).text = "Please describe the first component of the service.", "Total Costs (£)"
    _para(doc, "", 12)
    _para(doc, ask, 12)
    _para(doc, row, 12)
    _para(doc, "Prices are to be submitted exclusive of VAT.", 12)
    q = _printed(tmp_path, doc, rulings)
    asked = [x for x in q.questions if _fold(x.text).startswith(_fold(ask))]
    assert [list(x.choices) for x in asked] == [options]


def test_the_bench_matches_options_by_the_first_words_the_truth_keeps(tmp_path):
    """The truth keeps a box list's labels by their first four words ("Yes I have a"): the bench counts
    the question usable when its options are those labels whole ("Yes I have a Policy & Risk
    Assessments"), and not when one of them is another label."""
    labels = ("Yes I have a Policy & Risk Assessments", "Fewer than 5 staff", "No Policy and 5 or more staff")
    doc = wf.new()
    _para(doc, "1.4\tSuppliers that employ 5 or more staff must have a policy. Please confirm if you have a policy", 12)
    for label in labels:
        _para(doc, f"{label}\t\t\t\t☐", 0)
    q = _printed(tmp_path, doc, "no rulings")
    item = {"page": 1, "text": "1.4 Suppliers that employ 5 or", "choice": True, "text_place": False, "either": False}
    kept = [" ".join(label.split()[:4]) for label in labels]
    assert score(q, [item | {"options": kept}])["usable_n"] == 1
    assert score(q, [item | {"options": [*kept[:2], "No Policy but 6"]}])["usable_n"] == 0


PARAGRAPHS = {
    "en": (
        "In accordance with the Modern Slavery Act 2015 all organisations carrying out business within the UK "
        "with a total annual turnover of £36m or more are required to produce a slavery and human trafficking "
        "statement for each financial year.",
        "Please confirm if your organisation has an annual turnover of £36m or more",
        "Yes/No",
        "Are you compliant with the annual reporting requirements of the Act?",
    ),
    "de": (
        "Nach dem Gesetz gegen moderne Sklaverei müssen alle Organisationen, die im Vereinigten Königreich tätig "
        "sind und einen Jahresumsatz von 36 Mio. £ oder mehr haben, für jedes Geschäftsjahr eine Erklärung zu "
        "Sklaverei und Menschenhandel veröffentlichen.",
        "Bitte bestätigen Sie, ob Ihre Organisation einen Jahresumsatz von 36 Mio. £ oder mehr hat",
        "Ja/Nein",
        "Erfüllen Sie die jährlichen Berichtspflichten des Gesetzes?",
    ),
}


@pytest.mark.parametrize("paper", ["A4", "Letter"])
@pytest.mark.parametrize("language", sorted(PARAGRAPHS))
def test_a_request_after_a_numbered_paragraph_s_spacing_is_a_question_of_its_own(tmp_path, language, paper):
    """A numbered paragraph that asks nothing, wrapped back to the margin over two lines, then, after a
    paragraph's spacing (not a line's), a request over "Yes/No", then a question with its "Yes/No" typed
    after tabs on its line: two questions, each with those options; the numbered paragraph's lines
    are no part of either."""
    intro, request, options, question = PARAGRAPHS[language]
    doc = wf.new()
    _table(doc)
    _para(doc, f"1.6\t{intro}", 10)
    _para(doc, request, 0)
    _para(doc, options, 10)
    _para(doc, f"{question}\t\t\t{options}", 10)
    _para(doc, "Bidders who answer 'No' will fail the schedule.", 10)
    q = _printed(tmp_path, doc, "ruled", paper)
    asked = [(x.text, list(x.choices)) for x in q.questions if "schedule" not in x.text[:9].lower()]
    assert [(text[: len(ask)], choices) for (text, choices), ask in zip(asked, (request, question))] == [
        (request, options.split("/")),
        (question, options.split("/")),
    ]
    assert len(asked) == 2
