"""Qualifiers and the sections they govern, on workbooks generated here with openpyxl in the
shape of HECVAT 3.x Full rows (ID, question, Vendor Answers with a dropdown, Additional
Information), and on a CSV whose questions say "If No, skip to …"."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from openpyxl.worksheet.datavalidation import DataValidation

from engine.questionnaire import read_questionnaire
from engine.questionnaire.qualifiers import (
    QualifierSource,
    answer_of,
    contradiction,
    drafting_order,
    find_qualifiers,
    gates,
    question_key,
)

HOSTING = [
    "1) Self owned and managed",
    "2) Physical Co-location",
    "3) Virtual Co-location",
    "4) AWS",
    "5) Azure",
    "6) GCP",
    "7) Other",
]
ROWS = [  # (ID, question): HECVAT 3.x Full's wording
    ("GNRL-01", "Vendor Name"),
    ("HIPA-01", "Do your workforce members receive regular training related to the HIPAA Privacy and Security Rules?"),
    ("HIPA-02", "Have you conducted a risk analysis as required under the Security Rule?"),
    ("PCID-01", "Do your systems or products store, process, or transmit cardholder data?"),
    ("DCTR-01", "Does the hosting provider have a SOC 2 Type 2 report available?"),
    ("DCTR-03", "Are the data centers staffed 24 hours a day, seven days a week?"),
    ("DCTR-15", "Are you requiring multi-factor authentication for administrators of your cloud environment?"),
    ("QUAL-01", "Does your product process protected health information (PHI) or any data covered by HIPAA?"),
    ("QUAL-05", "Is the vended product designed to process or store credit card information?"),
    ("QUAL-07", "Select your hosting option."),
]


def hecvat_like(path: Path, answers: dict[str, tuple[str, str]] | None = None, qual01_text: str | None = None) -> Path:
    """A one-sheet workbook shaped like HECVAT's Vendor Response rows; qualifiers last, so the
    drafting order has to move them first."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Vendor Response"
    ws.append(["ID", "Question", "Vendor Answers", "Additional Information", "Guidance"])
    yes_no = DataValidation(type="list", formula1='"Yes,No"', allow_blank=True)
    hosting = DataValidation(type="list", formula1='"' + ",".join(HOSTING) + '"', allow_blank=True)
    ws.add_data_validation(yes_no)
    ws.add_data_validation(hosting)
    for i, (ident, text) in enumerate(ROWS, start=2):
        if ident == "QUAL-01" and qual01_text:
            text = qual01_text
        value, note = (answers or {}).get(ident, (None, None))
        ws.append([ident, text, value, note, ""])
        if ident == "QUAL-07":
            hosting.add(f"C{i}")
        elif ident != "GNRL-01":
            yes_no.add(f"C{i}")
    wb.save(path)
    return path


def _state(path: Path):
    q = read_questionnaire(path)
    quals = find_qualifiers(q)
    answers = {question_key(x): answer_of(x, x.existing_choice, x.existing_answer) for x in q.questions}
    by_id = {x.id: question_key(x) for x in q.questions}
    return q, quals, gates(quals, answers, {question_key(x): x.choices for x in q.questions}), by_id


def test_hecvat_qualifiers_switch_their_sections_off_and_say_why(tmp_path):
    path = hecvat_like(tmp_path / "h.xlsx", {"QUAL-01": ("No", ""), "QUAL-05": ("Yes", ""), "QUAL-07": ("4) AWS", "")})
    q, quals, state, by_id = _state(path)
    assert {x.id for x in quals} == {"QUAL-01", "QUAL-05", "QUAL-07"}
    assert all(x.source is QualifierSource.TEMPLATE for x in quals)
    hipaa = next(x for x in quals if x.id == "QUAL-01")
    assert hipaa.governs_ids == ("HIPA-01", "HIPA-02") and hipaa.off_when == ("No",)
    assert not state[by_id["HIPA-01"]].required
    assert state[by_id["HIPA-01"]].reason == "not required (QUAL-01 = No)"
    assert state[by_id["PCID-01"]].required and state[by_id["PCID-01"]].reason == "required (QUAL-05 = Yes)"
    # hosting on AWS: the physical data-centre rows and the hosting provider's SOC 2 row are off, the cloud row on
    assert not state[by_id["DCTR-03"]].required and not state[by_id["DCTR-01"]].required
    assert state[by_id["DCTR-15"]].required
    assert by_id["GNRL-01"] not in state  # governed by nothing
    # qualifiers are drafted first, in questionnaire order
    order = [x.id for x in drafting_order(list(q.questions), quals)]
    assert order[:3] == ["QUAL-01", "QUAL-05", "QUAL-07"] and order[3] == "GNRL-01"


def test_a_numbered_option_leading_its_explanation_is_the_answer(tmp_path):
    """A workbook whose hosting cell has no dropdown: the draft writes the option first ("4) AWS —
    statement", engine/drafting/hosting.py), and that option decides the rows; a sentence with a
    dash that opens with no option answers nothing."""
    q, quals, _, by_id = _state(hecvat_like(tmp_path / "h.xlsx"))
    key = by_id["QUAL-07"]
    drafted = "4) AWS — Canvas Credentials is hosted by Amazon Web Services (AWS) with services based in regions."
    state = gates(quals, {key: (drafted, None)}, {key: HOSTING})
    assert not state[by_id["DCTR-03"]].required and state[by_id["DCTR-15"]].required
    assert state[by_id["DCTR-03"]].reason == "not required (QUAL-07 = 4) AWS)"
    prose = "We run on AWS — and a co-location for the document imaging service, in two regions of the US."
    assert all(g.required for g in gates(quals, {key: (prose, None)}, {key: HOSTING}).values())


def test_an_explanation_naming_another_hosting_option_keeps_its_rows_required(tmp_path):
    path = hecvat_like(tmp_path / "h.xlsx", {"QUAL-07": ("4) AWS", "AWS and Colocation (if applicable)")})
    _, _, state, by_id = _state(path)
    assert state[by_id["DCTR-03"]].required and state[by_id["DCTR-01"]].required and state[by_id["DCTR-15"]].required


def test_an_unanswered_qualifier_switches_nothing_off_and_another_questionnaires_id_is_not_gated(tmp_path):
    _, _, state, by_id = _state(hecvat_like(tmp_path / "blank.xlsx"))
    assert all(g.required and g.value is None for g in state.values())
    assert state[by_id["HIPA-01"]].reason == "depends on QUAL-01 (unanswered)"
    # a QUAL-01 that does not ask about health data is not HECVAT's: it governs nothing
    other = hecvat_like(
        tmp_path / "other.xlsx", {"QUAL-01": ("No", "")}, qual01_text="Is the service available in Europe?"
    )
    assert "QUAL-01" not in {x.id for x in find_qualifiers(read_questionnaire(other))}


def test_a_follow_up_answered_against_its_qualifier_is_a_contradiction(tmp_path):
    path = hecvat_like(tmp_path / "h.xlsx", {"QUAL-01": ("No", ""), "HIPA-01": ("Yes", "Annual HIPAA training.")})
    _, _, state, by_id = _state(path)
    gate = state[by_id["HIPA-01"]]
    message = contradiction(gate, ("Yes", "Annual HIPAA training."))
    assert message and "QUAL-01 = No" in message and "HIPAA" in message
    assert contradiction(gate, (None, "N/A")) is None  # "not applicable" agrees with the qualifier
    assert contradiction(state[by_id["PCID-01"]], ("Yes", "")) is None  # its section is required (unanswered: on)


def test_the_questionnaires_own_words_make_a_qualifier(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text(
        "Question,Answer\n"
        '"1. Do you use subcontractors to process customer data? If No, skip to 4.",\n'
        "2. List each subcontractor and its role.,\n"
        "3. Are subcontractors bound by written data protection terms?,\n"
        "4. Is customer data encrypted at rest?,\n"
        '"5. Do you offer on-site consulting? If no, no need to answer questions 6 and 7.",No\n'
        "6. Do consultants receive security training?,\n"
        "7. Do consultants need network access?,\n"
        "8. Do you run annual penetration tests?,\n",
        encoding="utf-8",
    )
    q = read_questionnaire(path)
    quals = find_qualifiers(q)
    assert [x.source for x in quals] == [QualifierSource.WORDING] * 2
    skip, dont = quals
    assert len(skip.governs) == 2 and skip.required_when == ("yes",)
    answers = {question_key(x): answer_of(x, x.existing_choice, x.existing_answer) for x in q.questions}
    state = gates(quals, answers)
    assert all(state[k].required for k in skip.governs)  # unanswered: on
    assert len(dont.governs) == 2 and all(not state[k].required for k in dont.governs)
    answers[skip.key] = ("No", None)
    assert all(not g.required for k, g in gates(quals, answers).items() if k in skip.governs)
