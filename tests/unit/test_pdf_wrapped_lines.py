"""A line a PDF's text wraps onto is joined back as the writing joins its words: after a space, with
none after a word broken at a hyphen, and none between two characters of Japanese or Chinese writing
(engine/questionnaire/pdf/layout.py ``wrapped``). A Japanese checklist printed to a flat PDF by the bench's
printer (engine/bench/word_printed.py), its questions wrapping in a narrow column, reads its questions
back as they were typed, whatever the table's rulings."""

from __future__ import annotations

import pytest

from engine.questionnaire.pdf.layout import wrapped
from tests import word_fixtures as wf

ASKED = [
    "情報セキュリティ方針を定めていますか。",
    "委託先の管理を行っていますか。",
    "アクセス権の見直しを行っていますか。",
    "ウイルス対策ソフトを導入していますか？",
    "バックアップを定期的に取得していますか？",
]


@pytest.mark.parametrize(
    ("text", "line", "joined"),
    [
        ("Do you use", "encryption?", "Do you use encryption?"),
        ("standards-", "based", "standards-based"),
        ("情報セキュリティ方針を", "定めていますか。", "情報セキュリティ方針を定めていますか。"),
        ("（ISMS）の認証を", "取得していますか？", "（ISMS）の認証を取得していますか？"),
        ("ISO 27001 の", "ISMS", "ISO 27001 の ISMS"),  # Japanese beside a Latin word keeps its space
        ("", "first line", "first line"),
    ],
)
def test_a_wrapped_line_joins_as_its_writing_does(text, line, joined):
    assert wrapped(text, line) == joined


@pytest.mark.parametrize("rulings", ["ruled", "no rulings", "horizontal rules"])
def test_a_japanese_checklist_printed_flat_reads_its_questions_as_typed(tmp_path, rulings):
    doc = wf.new()
    doc.add_heading("情報セキュリティチェックシート", level=1)
    wf.add(
        doc,
        wf.table(
            [["項番", "確認項目", "はい", "いいえ", "備考"], *([str(i), t, "", "", ""] for i, t in enumerate(ASKED, 1))]
        ),
    )
    q = wf.printed(tmp_path, doc, rulings)
    assert [(x.id, x.text, x.choices) for x in q.questions] == [
        (str(i), t, ("はい", "いいえ")) for i, t in enumerate(ASKED, 1)
    ]


LABELS = (("項番", "No."), ("確認項目", "Item"), ("はい", "Yes"), ("いいえ", "No"), ("備考", "Remarks"))


@pytest.mark.parametrize("rulings", ["ruled", "no rulings", "horizontal rules"])
@pytest.mark.parametrize("header", ["lines of a cell", "rows"])
def test_a_bilingual_checklist_printed_flat_reads_each_header_label_with_its_translation(tmp_path, rulings, header):
    """The header says each label again in English, on a line of its cell ("はい" over "Yes", two
    paragraphs) or in a row of its own under the Japanese one: printed flat, each column is one label and
    its translation, as in the Word file (tests/unit/test_docx_unseen_families.py): Yes/No questions named
    by the translation, not text questions under "はい Yes" nor the English row a question."""
    doc = wf.new()
    doc.add_heading("情報セキュリティチェックシート", level=1)
    if header == "rows":
        head = [[a for a, _ in LABELS], [b for _, b in LABELS]]
    else:
        head = [[wf.para(wf.text(a)) + wf.para(wf.text(b)) for a, b in LABELS]]
    wf.add(doc, wf.table([*head, *([str(i), t, "", "", ""] for i, t in enumerate(ASKED, 1))]))
    q = wf.printed(tmp_path, doc, rulings)
    assert [(x.id, x.text, x.choices) for x in q.questions] == [
        (str(i), t, ("Yes", "No")) for i, t in enumerate(ASKED, 1)
    ]


REQUIREMENT_HEADERS = {  # the word each language heads a requirement column with, its options, and rows that
    # ask, then a requirement that does not
    "es": (
        ["Nº", "Requisito", "Sí", "No", "No aplica", "Observaciones"],
        ("Sí", "No", "No aplica"),
        [
            "¿Cifra los datos en reposo?",
            "¿Realiza copias de seguridad diarias?",
            "El proveedor notifica los incidentes.",
        ],
    ),
    "fr": (
        ["N°", "Critère", "Oui", "Non", "Sans objet", "Commentaires"],
        ("Oui", "Non", "Sans objet"),
        [
            "Les données sont-elles chiffrées ?",
            "Faites-vous des sauvegardes ?",
            "Le prestataire notifie les incidents.",
        ],
    ),
    "nl": (
        ["Nr.", "Vereiste", "Ja", "Nee", "N.v.t.", "Opmerkingen"],
        ("Ja", "Nee", "N.v.t."),
        ["Versleutelt u gegevens in rust?", "Maakt u dagelijks back-ups?", "De leverancier meldt incidenten."],
    ),
    "de": (
        ["Nr.", "Kriterium", "Ja", "Nein", "Entfällt", "Bemerkungen"],
        ("Ja", "Nein", "Entfällt"),
        ["Werden Daten verschlüsselt?", "Gibt es tägliche Sicherungen?", "Der Anbieter meldet Vorfälle."],
    ),
}


@pytest.mark.parametrize("rulings", ["ruled", "no rulings"])
@pytest.mark.parametrize("language", sorted(REQUIREMENT_HEADERS))
def test_a_requirement_checklist_headed_in_another_language_printed_flat_is_one_choice_per_row(
    tmp_path, language, rulings
):
    """ "Nº | Requisito | Sí | No | No aplica | Observaciones" (and its French, Dutch and German twins) over
    numbered rows, a requirement that does not ask after questions that do: each row one question of the
    header's options, printed flat with or without rules. Before, without rules "Requisito" named no
    column: the rows were read as lines, with no choice, and the requirement was joined to the question
    above it."""
    header, options, asked = REQUIREMENT_HEADERS[language]
    doc = wf.new()
    doc.add_paragraph("Questionnaire")
    wf.add(doc, wf.table([header, *([f"{i}.1", t, "", "", "", ""] for i, t in enumerate(asked, 1))]))
    q = wf.printed(tmp_path, doc, rulings)
    assert [(x.id, x.text, x.choices) for x in q.questions] == [(f"{i}.1", t, options) for i, t in enumerate(asked, 1)]
