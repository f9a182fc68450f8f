"""Word questionnaires printed as flat PDFs (#55), p55charn8: a table of questions ("Question |
Guidance | Response") where a row without an ID states a condition for the rows under it ("If No to
the above question then:"), written here, printed by the bench's printer and read by the flat PDF
reader. Main's reader made that row a sub-question of the question above ending with "?" (its text
the question's and the condition, its options Yes / No): the question read twice."""

from __future__ import annotations

import pytest

from tests import word_fixtures as wf

_fold, _printed = wf.fold, wf.printed

ROWS = {
    "en": (
        ("Question", "Guidance", "Response"),
        "Are you reliant on the Cloud Service Provider for some accreditations?",
        "If No to the above question then:",
        "Provide your ISO 14001 certification",
    ),
    "de": (
        ("Frage", "Hinweise", "Antwort"),
        "Sind Sie für einige Zertifizierungen auf den Cloud-Anbieter angewiesen?",
        "Falls nein zur obigen Frage:",
        "Bitte laden Sie Ihr ISO-14001-Zertifikat hoch",
    ),
}


@pytest.mark.parametrize("rulings", ["ruled", "horizontal rules"])
@pytest.mark.parametrize("language", sorted(ROWS))
def test_a_condition_row_is_no_topic_of_the_question_above(tmp_path, language, rulings):
    """The question over "Yes/No", the condition row, the request under it: two questions, the
    condition row neither a question nor a topic of the question above."""
    header, ask, condition, request = ROWS[language]
    doc = wf.new()
    t = doc.add_table(rows=4, cols=3)
    for c, label in enumerate(header):
        t.cell(0, c).text = label
    t.cell(1, 0).text, t.cell(1, 1).text, t.cell(1, 2).text = ask, "The service may be accredited.", "Yes/No"
    t.cell(2, 0).text = condition
    t.cell(3, 0).text, t.cell(3, 2).text = request, "Upload"
    q = _printed(tmp_path, doc, rulings)
    assert [_fold(x.text) for x in q.questions] == [_fold(ask), _fold(request)]
