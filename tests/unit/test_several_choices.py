"""Choices of several ("tick all that apply", issue #55): the cue in any language, each reader's
rule on a document the test draws (Word paragraphs of boxes, a PDF form's check boxes, a printed
web form's drawn options), each writer ticking every option picked and the document read back as
the same set, the model's list of options parsed, and the reviewer's check of a stored set."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import docx
import pymupdf
import pytest

from engine.drafting.generate.prompt import AnswerPrompt, Evidence, Passage, answer_schema
from engine.index.library import allowed_choice, reusable_choice
from engine.questionnaire import read_questionnaire
from engine.questionnaire.cues import asks_several, takes_several
from engine.questionnaire.export import CellWrite, export
from engine.questionnaire.mapping import mapping
from engine.questionnaire.pdf.reader import read_pdf_questionnaire
from engine.questionnaire.pdf.response import write_response_docx
from engine.questionnaire.pdf.writer import PdfWriteError, write_pdf
from engine.questionnaire.places import FORM_SHEET
from engine.questionnaire.records import Question, joined_choices, picked_choices
from tests import word_fixtures as wf
from tests.pdf_forms import CHECKBOX, RADIO, add_field, label, name_states, save


@dataclass(frozen=True)
class Write:
    sheet: str
    cell: str
    value: str


# ---------------------------------------------------------------- the cue and the records


@pytest.mark.parametrize(
    "line",
    [
        "Tick all that apply.",
        "Please select all that apply",
        "Check all the boxes that apply to you",
        "Select one or more options",
        "Mehrere Antworten möglich",
        "Kreuzen Sie alle zutreffenden an",
        "Plusieurs réponses possibles",
        "Cochez toutes les cases qui conviennent",
        "Marque todas las que correspondan",
        "Meerdere antwoorden mogelijk",
        "該当するものすべてに○をつけてください",
        "複数回答可",
    ],
)
def test_the_cue_of_a_choice_of_several_in_each_language(line):
    assert asks_several(line)


@pytest.mark.parametrize(
    "line",
    ["Please select one of the following statements which apply.", "Have you had one or more breaches?", "Tick one."],
)
def test_a_single_pick_or_a_question_about_many_things_is_no_cue(line):
    assert not asks_several(line)


def test_yes_and_no_exclude_each_other_whatever_the_text_says():
    assert not takes_several(("Yes", "No"), "Tick all that apply.")
    assert not takes_several(("Yes", "No", "N/A"), "Select all that apply")
    assert takes_several(("Bedford", "Luton"), "Tick all that apply.")
    assert not takes_several(("Bedford",), "Tick all that apply.")  # one option: nothing to pick several of


def test_a_set_of_options_is_stored_joined_and_read_back_in_the_list_order():
    choices = ("Bedford", "Central Bedfordshire", "Luton", "Oxford; Banbury")
    assert joined_choices(["Luton", "Bedford", "Luton"]) == "Luton; Bedford"
    assert picked_choices("luton; Bedford", choices) == ("Bedford", "Luton")
    assert picked_choices("Oxford; Banbury", choices) == ("Oxford; Banbury",)  # a label holding the separator
    assert picked_choices("Bedford; Mars", choices) == ("Bedford", "Mars")  # not an option: kept, for the refusal
    q = Question(None, "Document", 1, "Where?", "A1", "B1", None, choices, None, None, several=True)
    assert q.takes("Luton; Bedford") and q.takes("Luton") and not q.takes("Luton; Mars")
    assert not Question(None, "Document", 1, "Where?", "A1", "B1", None, choices, None, None).takes("Luton; Bedford")


# ---------------------------------------------------------------- Word


def test_word_boxes_under_a_tick_all_that_apply_line_are_one_choice_of_several_written_and_read_back(tmp_path):
    """Layout: a question, "Tick all that apply." on its own line, three paragraphs each opening with
    a check box control; then "Check one." over two boxes (one pick), then boxes under a plain
    heading (a Yes/No question per box, as before)."""
    doc = wf.new()
    doc.add_paragraph("Which services does your organisation provide?")
    doc.add_paragraph("Tick all that apply.")
    for service in ("Cleaning", "Catering", "Security"):
        wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text(service)))
    doc.add_paragraph("Check one.")
    for pick in ("Opt-out", "Opt-in"):
        wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text(pick)))
    doc.add_heading("General Exceptions", level=2)
    for box in ("Legacy ICT", "Undue Burden"):
        wf.add(doc, wf.para(wf.sdt_checkbox(), wf.text(box)))
    path = wf.save(doc, tmp_path / "services.docx")
    q = read_questionnaire(path)
    assert [(x.text, x.choices, x.several) for x in q.questions] == [
        (
            "Which services does your organisation provide? Tick all that apply.",
            ("Cleaning", "Catering", "Security"),
            True,
        ),
        ("Check one.", ("Opt-out", "Opt-in"), False),
        ("General Exceptions: Legacy ICT", ("Yes", "No"), False),
        ("General Exceptions: Undue Burden", ("Yes", "No"), False),
    ]
    services = q.questions[0]
    out = tmp_path / "answered.docx"
    export(path, out, [CellWrite(services.sheet, services.choice_cell, "Security; Cleaning")], q)
    back = read_questionnaire(out)
    assert back.questions[0].several and back.questions[0].existing_choice == "Cleaning; Security"


def test_word_glyph_boxes_in_a_question_whose_text_says_select_all_are_several(tmp_path):
    """Layout: one paragraph "Which clouds do you use? (select all that apply) ☐ AWS ☐ Azure ☐ GCP";
    a second "Do you use subprocessors? ☐ Yes ☐ No" stays one pick."""
    doc = wf.new()
    wf.add(doc, wf.para(wf.text("Which clouds do you use? (select all that apply) ☐ AWS ☐ Azure ☐ GCP")))
    wf.add(doc, wf.para(wf.text("Do you use subprocessors? ☐ Yes ☐ No")))
    path = wf.save(doc, tmp_path / "clouds.docx")
    q = read_questionnaire(path)
    clouds, yes_no = q.questions
    assert (clouds.choices, clouds.several) == (("AWS", "Azure", "GCP"), True)
    assert (yes_no.choices, yes_no.several) == (("Yes", "No"), False)
    assert [m.to_json().get("several", False) for m in mapping(q)] == [True, False]  # inspect --json, the screen
    out = tmp_path / "answered.docx"
    export(path, out, [CellWrite(clouds.sheet, clouds.choice_cell, "AWS; GCP")], q)
    assert "☒ AWS ☐ Azure ☒ GCP" in "\n".join(p.text for p in docx.Document(out).paragraphs)
    assert read_questionnaire(out).questions[0].existing_choice == "AWS; GCP"


# ---------------------------------------------------------------- PDF forms


def _form(tmp_path: Path) -> Path:
    """Layout: "Which services do you provide? Select all that apply." over three check boxes of
    their own fields in one XFA subform, each tooltip naming the question and its option (the IRS
    13614-C's way); "Type of system:" over a radio group; a grid "Legally blind" / "A full-time
    student" with You / Spouse / No columns of check boxes; "Did you move?" with Yes / No boxes."""
    doc = pymupdf.open()
    page = doc.new_page()
    asked = "Which services do you provide? Select all that apply."
    label(page, 50, 60, asked)
    for i, text in enumerate(("Cleaning", "Catering", "Security")):
        name = f"form1[0].page1[0].services[0].{text.lower()}[0]"
        add_field(page, CHECKBOX, name, (50 + 110 * i, 70, 59 + 110 * i, 79), tooltip=f"{asked} {text}.")
        label(page, 63 + 110 * i, 79, text)
    label(page, 50, 130, "Type of system:")
    for i, text in enumerate(("IaaS", "PaaS", "SaaS")):
        add_field(page, RADIO, "system_type", (150 + 70 * i, 120, 160 + 70 * i, 130))
        label(page, 163 + 70 * i, 129, text)
    for r, row in enumerate(("Legally blind", "A full-time student")):
        y = 170 + 16 * r
        label(page, 50, y + 9, row)
        for c, who in enumerate(("You", "Spouse", "No")):
            x = 200 + 60 * c
            add_field(page, CHECKBOX, f"grid{r}{c}", (x, y, x + 9, y + 9))
            label(page, x + 13, y + 9, who)
    label(page, 50, 239, "Did you move?")
    add_field(page, CHECKBOX, "moved_yes", (200, 230, 209, 239))
    label(page, 213, 239, "Yes")
    add_field(page, CHECKBOX, "moved_no", (260, 230, 269, 239))
    label(page, 273, 239, "No")
    path = save(doc, tmp_path / "form.pdf")
    name_states(path, {"system_type": ["iaas", "paas", "saas"]})
    return path


def test_pdf_form_independent_check_boxes_under_a_select_all_label_or_a_you_spouse_grid_are_several(tmp_path):
    q = read_pdf_questionnaire(_form(tmp_path))
    assert [(x.text, x.several) for x in q.questions] == [
        ("Which services do you provide? Select all that apply", True),
        ("Type of system", False),  # a radio group takes one, whatever its label says
        ("Legally blind", True),
        ("A full-time student", True),
        ("Did you move?", False),  # Yes / No: one
    ]


def test_pdf_form_ticks_every_option_picked_and_reads_back_the_same_set(tmp_path):
    q = read_pdf_questionnaire(_form(tmp_path))
    services, system, blind, student, moved = q.questions
    writes = [
        Write(FORM_SHEET, services.choice_cell, "Security; Cleaning"),
        Write(FORM_SHEET, blind.choice_cell, "You; Spouse"),
        Write(FORM_SHEET, system.choice_cell, "PaaS"),
        Write(FORM_SHEET, moved.choice_cell, "No"),
    ]
    out = write_pdf(q, tmp_path / "out.pdf", writes)
    with pymupdf.open(out) as d:
        ticked = {w.field_name for w in d[0].widgets() if w.field_type == CHECKBOX and w.field_value not in ("Off", "")}
    services = {f"form1[0].page1[0].services[0].{x}[0]" for x in ("cleaning", "security")}
    assert ticked == services | {"grid00", "grid01", "moved_no"}
    back = read_pdf_questionnaire(out)
    assert [x.existing_choice for x in back.questions] == ["Cleaning; Security", "PaaS", "You; Spouse", None, "No"]


def test_pdf_form_refuses_an_option_it_does_not_offer_or_two_buttons_of_one_radio_group(tmp_path):
    q = read_pdf_questionnaire(_form(tmp_path))
    services, system = q.questions[:2]
    with pytest.raises(PdfWriteError, match="'Cleaning; Laundry' is not one of the choices"):
        write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, services.choice_cell, "Cleaning; Laundry")])
    with pytest.raises(PdfWriteError, match="picks several options of the radio group"):
        write_pdf(q, tmp_path / "out.pdf", [Write(FORM_SHEET, system.choice_cell, "IaaS; SaaS")])
    assert not (tmp_path / "out.pdf").exists()


# ---------------------------------------------------------------- a flat PDF (a printed web form)


def _option(page: pymupdf.Page, y: float, text: str) -> None:
    """A box drawn as four thin bars (the CCS RM6264 printout's), its label right of it."""
    for x0, y0, x1, y1 in ((49, y, 71, y + 1), (49, y + 21, 71, y + 22), (49, y, 50, y + 22), (70, y, 71, y + 22)):
        page.draw_rect(pymupdf.Rect(x0, y0, x1, y1), color=None, fill=(0.43, 0.43, 0.43))
    label(page, 79, y + 14, text, size=8.5)


def test_flat_pdf_options_under_a_tick_all_that_apply_line_are_several_and_the_response_names_them(tmp_path):
    """Layout: "1. Please select the location(s) within Devon in which you provide services." then
    "Tick all that apply." on its own line, then three drawn boxes; "2. Please confirm the trading
    status of your organisation." over two drawn boxes (one pick)."""
    doc = pymupdf.open()
    page = doc.new_page()
    label(page, 43, 60, "1. Please select the location(s) within Devon in which you provide services.", size=8.5)
    label(page, 43, 74, "Tick all that apply.", size=8.5)
    y = 84.0
    for text in ("Devon CC", "Plymouth", "Torbay"):
        _option(page, y, text)
        y += 39
    label(page, 43, y + 20, "2. Please confirm the trading status of your organisation.", size=8.5)
    y += 30
    for text in ("Limited company", "Sole trader"):
        _option(page, y, text)
        y += 39
    q = read_pdf_questionnaire(save(doc, tmp_path / "web.pdf"))
    assert [(x.id, x.choices, x.several) for x in q.questions] == [
        ("1", ("Devon CC", "Plymouth", "Torbay"), True),
        ("2", ("Limited company", "Sole trader"), False),
    ]
    devon = q.questions[0]
    out = write_response_docx(q, tmp_path / "answers.docx", [Write(devon.sheet, devon.choice_cell, "Torbay; Devon CC")])
    assert "Answer: Torbay; Devon CC" in [p.text for p in docx.Document(out).paragraphs]


def _radio(page: pymupdf.Page, y: float, text: str) -> None:
    """A radio button drawn as a grey ring (two circles filled even-odd), its label right of it."""
    shape = page.new_shape()
    shape.draw_circle((60, y + 11), 10.8)
    shape.draw_circle((60, y + 11), 10.2)
    shape.finish(color=None, fill=(0.43, 0.43, 0.43), even_odd=True)
    shape.commit()
    label(page, 79, y + 14, text, size=8.5)


def _printed_form(path: Path, radios: bool) -> Path:
    """Layout: "1. Please confirm the trading status of your organisation." over two options drawn
    as radio rings (as squares when ``radios`` is false); "2. Please confirm the services you provide
    for Cleaning Services." over three drawn squares, no line saying how many; "3. Is your
    organisation an SME?" over Yes / No squares."""
    doc = pymupdf.open()
    page = doc.new_page()
    y = 40.0
    for n, (asked, options, round_) in enumerate(
        [
            ("Please confirm the trading status of your organisation.", ("Limited company", "Sole trader"), radios),
            ("Please confirm the services you provide for Cleaning Services.", ("Deep cleaning", "Housekeeping",
             "Pest control"), False),
            ("Is your organisation an SME?", ("Yes", "No"), False),
        ],
        1,
    ):  # fmt: skip
        label(page, 43, y + 20, f"{n}. {asked}", size=8.5)
        y += 30
        for text in options:
            (_radio if round_ else _option)(page, y, text)
            y += 39
    return save(doc, path)


def test_flat_pdf_square_boxes_in_a_form_that_draws_its_radios_round_are_several(tmp_path):
    q = read_pdf_questionnaire(_printed_form(tmp_path / "both.pdf", radios=True))
    assert [(x.id, x.choices, x.several) for x in q.questions] == [
        ("1", ("Limited company", "Sole trader"), False),  # radio rings: one pick
        ("2", ("Deep cleaning", "Housekeeping", "Pest control"), True),  # check boxes: several
        ("3", ("Yes", "No"), False),  # Yes / No: one, whatever draws them
    ]
    only_squares = read_pdf_questionnaire(_printed_form(tmp_path / "squares.pdf", radios=False))
    assert [x.several for x in only_squares.questions] == [False, False, False]  # no radio to tell them from


# ---------------------------------------------------------------- drafting: the model's list


def test_the_model_is_asked_for_a_list_and_each_option_is_kept_only_when_its_quotes_name_it():
    passages = [Passage("[1] Coverage.pdf p. 2", "We provide services in Plymouth. Our Torbay team opened in 2021.")]
    choices = ("Devon CC", "Plymouth", "Torbay")
    prompt = AnswerPrompt.build("Which locations? Tick all that apply.", passages, choices, Evidence.SENTENCES, True)
    assert prompt.schema["properties"]["choice"] == {"type": "array", "items": {"enum": list(choices)}, "maxItems": 3}
    assert "several may apply" in prompt.messages[0]["content"] and "several may apply" in prompt.messages[1]["content"]
    reply = {"sentences": ["S1", "S2"], "choice": ["Torbay", "Devon CC", "Plymouth", "Exeter"], "answer": "We serve"
             " Plymouth and Torbay.", "insufficient_context": False}  # fmt: skip
    got = prompt.parse(json.dumps(reply))
    assert got.choice == "Plymouth; Torbay"  # Devon CC is in no quote; Exeter is no option
    assert prompt.parse(json.dumps({**reply, "sentences": []})).choice is None  # no quote, no choice
    single = AnswerPrompt.build("Which location?", passages, choices, Evidence.SENTENCES)
    assert (
        single.schema == answer_schema(choices, sentences=2)
        and single.schema["properties"]["choice"]["enum"][-1] is None
    )


def test_word_writes_in_place_alone_and_refuses_an_option_it_does_not_offer(tmp_path):
    """Layout: "Implementation Status (check all that apply)" over two glyph boxes whose second
    label begins with the first's ("In Place", "In Place with CCW", the PCI SAQ's)."""
    doc = wf.new()
    wf.add(
        doc, wf.para(wf.text("Implementation Status (check all that apply) ☐ In Place ☐ In Place with CCW ☐ Planned"))
    )
    path = wf.save(doc, tmp_path / "status.docx")
    q = read_questionnaire(path)
    (status,) = q.questions
    assert status.several
    export(path, tmp_path / "a.docx", [CellWrite(status.sheet, status.choice_cell, "In Place")], q)
    assert read_questionnaire(tmp_path / "a.docx").questions[0].existing_choice == "In Place"
    with pytest.raises(Exception, match="'Retired' is none of the options"):
        export(path, tmp_path / "b.docx", [CellWrite(status.sheet, status.choice_cell, "Planned; Retired")], q)


def test_a_past_answer_of_several_options_is_reused_for_a_choice_of_several_only():
    choices = ("Bedford", "Luton", "Oxford")
    assert allowed_choice("luton; BEDFORD", choices, several=True) == "Bedford; Luton"  # the workbook's spelling
    assert allowed_choice("Luton; Bedford", choices) is None  # one pick: a set is no value of it
    assert allowed_choice("Luton; Mars", choices, several=True) is None  # every option must be offered
    assert reusable_choice("luton", choices, several=True) == "Luton"
