"""Word questionnaires that ask in paragraphs (issue #55, the sixth family of engine/bench/families.py:
engine/bench/paragraph_forms.py), one rule per test, each drawing the layout main's reader read
wrongly: small documents written with tests/word_fixtures.py and python-docx, read by the real reader,
and the generated family read whole and written back."""

from __future__ import annotations

import zipfile

from lxml import etree

from engine.bench.document_intake import answers_for, round_trip
from engine.bench.families import score_variant, variants
from engine.questionnaire import read_questionnaire
from engine.questionnaire.export import export
from engine.questionnaire.places import PlaceKind, place_key
from engine.questionnaire.writes import CellWrite
from tests import word_fixtures as wf

TEXT_BOX = (
    '<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:400pt;height:60pt">'
    "<v:textbox><w:txbxContent><w:p/></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"
)


def read(tmp_path, doc, name="q.docx"):
    return read_questionnaire(wf.save(doc, tmp_path / name))


def place(q, x):
    return q.places[place_key(x.sheet, x.text_cell)]


def body_text(q, loc: str) -> str:
    """The text of the paragraph a place's locator names (its last ``w:p[n]`` step)."""
    with zipfile.ZipFile(q.path) as zf:
        root = etree.fromstring(zf.read("word/document.xml"))
    ns = {"w": wf.W_NS}
    n = int(loc.split("w:p[")[1].split("]")[0])
    p = root.findall("w:body/w:p", ns)[n - 1]
    return "".join(t.text or "" for t in p.iter(f"{{{wf.W_NS}}}t"))


def test_an_answer_label_line_under_a_question_is_its_place_not_a_question(tmp_path):
    """ "Respuesta:" under "¿Cómo …?": main read the label as a question answered by the next
    question's text, and dropped the question (no place it knew)."""
    doc = wf.new()
    doc.add_paragraph("¿Cómo garantizará la calidad del servicio durante todo el contrato?")
    doc.add_paragraph("Respuesta:")
    doc.add_paragraph("¿Qué certificaciones tiene su organización?")
    doc.add_paragraph("回答：")
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == [
        "¿Cómo garantizará la calidad del servicio durante todo el contrato?",
        "¿Qué certificaciones tiene su organización?",
    ]
    assert all(place(q, x).kind is PlaceKind.AFTER_LABEL and x.existing_answer is None for x in q.questions)


def test_an_underscore_line_under_a_numbered_question_is_its_place(tmp_path):
    """Main wrote a new paragraph after "1. How …?", leaving the line to write on empty."""
    doc = wf.new()
    doc.add_paragraph("1. How will you ensure the quality of the service throughout the contract?")
    doc.add_paragraph("_" * 60)
    doc.add_paragraph("2. Provide details of your experience of delivering similar services.")
    doc.add_paragraph("_" * 60)
    q = read(tmp_path, doc)
    assert len(q.questions) == 2
    for x in q.questions:
        p = place(q, x)
        assert p.kind is PlaceKind.PARAGRAPH and set(body_text(q, p.locator)) == {"_"} and x.existing_answer is None


def test_a_text_control_alone_under_a_question_is_its_place_and_its_placeholder_no_answer(tmp_path):
    """A control on the line under the question showing Word's placeholder (German, not marked
    w:showingPlcHdr): main inserted a new paragraph after the question (or dropped it, unnumbered)."""
    doc = wf.new()
    placeholder = "Klicken oder tippen Sie hier, um Text einzugeben."
    doc.add_paragraph("Wie schützen Sie personenbezogene Daten im Rahmen des Auftrags?")
    wf.add(doc, wf.para(wf.sdt_text("a", placeholder).replace("<w:showingPlcHdr/>", "")))
    doc.add_paragraph("Bitte beschreiben Sie, wie Sie die Qualität der Leistung sicherstellen.")
    wf.add(doc, wf.para(wf.sdt_text("b", "Click or tap here to enter text.")))
    q = read(tmp_path, doc)
    assert len(q.questions) == 2
    assert all(place(q, x).kind is PlaceKind.CONTENT_CONTROL and x.existing_answer is None for x in q.questions)


def test_one_blank_line_under_a_question_on_its_own_is_its_place(tmp_path):
    """An unnumbered question, one empty line, the next question: main took it for prose (no place)."""
    doc = wf.new()
    doc.add_paragraph("What experience do you have of delivering similar services?")
    doc.add_paragraph("")
    doc.add_paragraph("Which accreditations does your organisation hold?")
    doc.add_paragraph("")
    q = read(tmp_path, doc)
    assert len(q.questions) == 2
    assert all(place(q, x).kind is PlaceKind.PARAGRAPH for x in q.questions)


def test_one_blank_after_a_run_of_questions_is_spacing_not_the_last_ones_place(tmp_path):
    """Questions one under the other with no place between them, then one blank (the OpenChain
    self-certification's layout): each answered in a new paragraph, the blank left as spacing."""
    doc = wf.new()
    for k in (1, 2, 3):
        doc.add_paragraph(f"Do you have a documented procedure number {k} for open source?", style="List Number")
    doc.add_paragraph("")
    doc.add_paragraph("Have you documented the awareness of your Program participants?")
    q = read(tmp_path, doc)
    assert [place(q, x).kind for x in q.questions[:3]] == [PlaceKind.NEW_PARAGRAPH] * 3


def test_requests_in_five_languages_without_a_question_mark_are_questions(tmp_path):
    """ "Bitte …", "Veuillez …", "Gelieve …", "Por favor, …", "Q3 Describa …", "…ご記入ください。", each over a
    text box: main found none of them."""
    asked = [
        "Bitte bestätigen Sie, ob Sie über einen Notfallplan verfügen.",
        "Stellen Sie den gesellschaftlichen Mehrwert Ihres Angebots dar.",
        "Veuillez décrire comment vous garantirez la qualité du service.",
        "Énumérez les certifications de votre entreprise.",
        "Gelieve uw ervaring met vergelijkbare diensten te vermelden.",
        "Por favor, enumere las certificaciones de su organización.",
        "Q3 Describa cómo garantizará la calidad del servicio durante todo el contrato.",
        "契約期間中のサービス品質の確保方法をご記入ください。",
        "業務遂行上のリスク管理の方法を説明すること。",
    ]
    doc = wf.new()
    for text in asked:
        doc.add_paragraph(text)
        wf.add(doc, TEXT_BOX)
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == asked
    assert all("txbxContent" in place(q, x).locator for x in q.questions)


def test_a_japanese_question_over_hai_iie_boxes_is_one_choice(tmp_path):
    """ "…ご回答ください。" over "☐ はい ☐ いいえ": main read it twice (a text question and the boxes' one)."""
    doc = wf.new()
    doc.add_paragraph("A-１ ISO 9001認証の取得の有無をご回答ください。")
    doc.add_paragraph("☐ はい   ☐ いいえ")
    doc.add_paragraph("A-２ 契約条件に同意しますか？　はい/いいえ")
    q = read(tmp_path, doc)
    assert [(x.choices, x.text_cell) for x in q.questions] == [(("はい", "いいえ"), None)] * 2


def test_a_sentence_set_over_lines_and_a_bracketed_note_before_the_request_are_questions(tmp_path):
    """The Charnwood ITT's "Please provide details of two contracts … held" / "that are relevant …" /
    "specification." and "D-1 [Example Option 1] Please provide answers …": main found neither."""
    doc = wf.new()
    doc.add_paragraph("SECTION B References")
    doc.add_paragraph("Please provide details of two contracts that your organisation has held")
    doc.add_paragraph("that are relevant to the authority's requirements as stated in the")
    doc.add_paragraph("specification.")
    doc.add_paragraph("")
    doc.add_paragraph("Please include:-")
    doc.add_paragraph("D-1\t[Example Option 1] Please provide answers to the following Method Statements.")
    doc.add_paragraph("")
    doc.add_paragraph("Option 1:")
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == [
        "Please provide details of two contracts that your organisation has held that are relevant to the "
        "authority's requirements as stated in the specification.",
        "[Example Option 1] Please provide answers to the following Method Statements.",
    ]
    assert [x.id for x in q.questions] == [None, "D-1"]  # the typed number: the ID, not the words


def test_a_pick_written_after_yes_no_is_read_back_and_no_part_of_the_question(tmp_path):
    """ "… gecertificeerd?  Ja/Nee" answered "Ja" (written "Ja/Nee: Ja"): read back as the pick, the
    question's text as before (main kept ": Ja" in it, so the answer was not matched back)."""
    doc = wf.new()
    doc.add_paragraph("Is uw organisatie ISO 9001 gecertificeerd?  Ja/Nee", style="List Number")
    doc.add_paragraph("Beschikt u over een bedrijfscontinuïteitsplan?  Ja/Nee", style="List Number")
    q = read(tmp_path, doc)
    writes = [CellWrite(x.sheet, x.choice_cell, "Ja") for x in q.questions]
    again = read_questionnaire(export(q.path, tmp_path / "out.docx", writes, q))
    assert [x.text for x in again.questions] == [x.text for x in q.questions]
    assert [x.existing_choice for x in again.questions] == ["Ja", "Ja"]


def test_a_length_limit_between_a_question_and_its_place_is_read_with_the_question(tmp_path):
    """ "(maximum 500 words)" in italics between the question and its line (or its blank lines): read
    as part of the question, its limit kept in the place; main (and the first round's reader) dropped
    the unnumbered question or wrote a new paragraph under a numbered one."""
    doc = wf.new()
    doc.add_paragraph("Describe how you will ensure the quality of the service.")
    doc.add_paragraph().add_run("(maximum 500 words)").italic = True
    doc.add_paragraph("_" * 50)
    doc.add_paragraph("2. 業務遂行上のリスク管理の方法を説明してください。")
    doc.add_paragraph().add_run("（500字以内）").italic = True
    doc.add_paragraph("")
    doc.add_paragraph("")
    q = read(tmp_path, doc)
    assert [x.text for x in q.questions] == [
        "Describe how you will ensure the quality of the service. (maximum 500 words)",
        "業務遂行上のリスク管理の方法を説明してください。 （500字以内）",
    ]
    assert q.questions[1].id == "2"
    first, second = (place(q, x) for x in q.questions)
    assert first.kind is second.kind is PlaceKind.PARAGRAPH
    assert set(body_text(q, first.locator)) == {"_"} and body_text(q, second.locator) == ""
    assert first.max_words == 500


def test_the_paragraph_forms_family_is_read_whole(tmp_path):
    """Generated paragraph forms (six languages, every numbering, every answer place and Yes / No
    drawing): every question found once, in its place, headings and notes none, no placeholder read
    as an answer."""
    for v in variants("paragraph forms", 12):
        row = score_variant(v, tmp_path)
        assert row["found"] == row["matched"] == row["usable_n"] == row["truth"], row
        assert row["answer_in_empty_form"] == 0, row


def test_the_paragraph_forms_family_round_trips(tmp_path):
    """Every answer written into generated paragraph forms (a text in each place, a pick on each Yes /
    No) is read back where it was written, the export's no-other-change check passing."""
    for v in variants("paragraph forms", 8):
        score_variant(v, tmp_path)
    for path in sorted(tmp_path.glob("paragraph_forms_*.docx")):
        q = read_questionnaire(path)
        writes = answers_for(q)
        written = export(path, tmp_path / f"out-{path.name}", writes, q)
        rt = round_trip(q, read_questionnaire(written))
        assert rt["texts"] == rt["texts_back"] and rt["choices"] == rt["choices_back"] and not rt["wrong"], (path, rt)
