"""Word questionnaires printed as flat PDFs (#55), a PCI SAQ-like requirement table in the buyer's language
(German, French, Spanish, Dutch, Japanese; English as the guard): ID | requirement | expected testing |
four option columns of boxes, the header's words translated ("PCI-DSS-Anforderung | Erwartete Prüfung |
Antwort" over "Umgesetzt | Umgesetzt mit CCW | Nicht zutreffend | Nicht umgesetzt"). Small Word documents
written here at the SAQ's widths, printed by the bench's printer ruled, without rules and with horizontal
rules, and read by the flat PDF reader: every requirement is one question with its ID, its text and the
four options, as in English.

Main's reader read none of them printed without rules: it took option columns only where their labels were
option words it knew ("Umgesetzt", "En place", "Implementado", "Aanwezig", "実施済み" are none), did not
read "Exigence PCI DSS" / "Requisito de la PCI DSS" (the noun first) nor the Dutch "PCI DSS-eis" (the
singular "eis") as a requirement's column; with horizontal rules, a requirement's line filled to its
cell's edge ("… según" then "Examinar los registros." 4 pt on, the bench printer's padding) made the
requirement and testing cells one."""

from __future__ import annotations

import pytest

from tests import word_fixtures as wf

LANGUAGES = {
    "en": (
        wf.SAQ_ENGLISH,
        "Requirement 9: Restrict Physical Access to Cardholder Data",
        [
            ("9.4.1", "All media with cardholder data is physically secured.", "Examine documentation."),
            (
                "9.4.2",
                "All media with cardholder data is classified in accordance with the sensitivity of the data.",
                "Examine media logs.",
            ),
        ],
    ),
    "de": (
        wf.SaqLabels(
            "PCI-DSS-Anforderung",
            "Erwartete Prüfung",
            "Antwort",
            "(Eine Antwort pro Anforderung ankreuzen)",
            ("Umgesetzt", "Umgesetzt mit CCW", "Nicht zutreffend", "Nicht umgesetzt"),
        ),
        "Anforderung 9: Physischen Zugang zu Karteninhaberdaten beschränken",
        [
            ("9.4.1", "Alle Medien mit Karteninhaberdaten sind physisch gesichert.", "Dokumentation prüfen."),
            (
                "9.4.2",
                "Alle Medien mit Karteninhaberdaten werden nach der Sensibilität der Daten klassifiziert.",
                "Medienprotokolle prüfen.",
            ),
        ],
    ),
    "fr": (
        wf.SaqLabels(
            "Exigence PCI DSS",
            "Test attendu",
            "Réponse",
            "(Cocher une réponse pour chaque exigence)",
            ("En place", "En place avec CCW", "Non applicable", "Pas en place"),
        ),
        "Exigence 9 : Restreindre l'accès physique aux données de titulaires de carte",
        [
            (
                "9.4.1",
                "Tous les supports contenant des données de titulaires de carte sont physiquement sécurisés.",
                "Examiner la documentation.",
            ),
            ("9.4.2", "Tous les supports sont classés selon la sensibilité des données.", "Examiner les journaux."),
        ],
    ),
    "es": (
        wf.SaqLabels(
            "Requisito de la PCI DSS",
            "Prueba esperada",
            "Respuesta",
            "(Marque una respuesta para cada requisito)",
            ("Implementado", "Implementado con CCW", "No aplicable", "No implementado"),
        ),
        "Requisito 9: Restringir el acceso físico a los datos del titular de la tarjeta",
        [
            (
                "9.4.1",
                "Todos los medios con datos del titular de la tarjeta están protegidos físicamente.",
                "Examinar la documentación.",
            ),
            ("9.4.2", "Todos los medios se clasifican según la sensibilidad de los datos.", "Examinar los registros."),
        ],
    ),
    "nl": (
        wf.SaqLabels(
            "PCI DSS-eis",
            "Verwachte toetsing",
            "Antwoord",
            "(Vink één antwoord aan per eis)",
            ("Aanwezig", "Aanwezig met CCW", "Niet van toepassing", "Niet aanwezig"),
        ),
        "Eis 9: Fysieke toegang tot kaarthoudergegevens beperken",
        [
            ("9.4.1", "Alle media met kaarthoudergegevens zijn fysiek beveiligd.", "Documentatie onderzoeken."),
            (
                "9.4.2",
                "Alle media worden geclassificeerd volgens de gevoeligheid van de gegevens.",
                "Logboeken onderzoeken.",
            ),
        ],
    ),
    "ja": (
        wf.SaqLabels(
            "PCI DSS 要件",
            "想定されるテスト",
            "回答",
            "（各要件について回答を1つ選択）",
            ("実施済み", "CCW で実施済み", "該当なし", "未実施"),
        ),
        "要件 9：カード会員データへの物理アクセスの制限",
        [
            ("9.4.1", "カード会員データを含むすべての媒体は物理的に保護されている。", "文書を調べる。"),
            ("9.4.2", "すべての媒体はデータの機密性に従って分類されている。", "媒体ログを調べる。"),
        ],
    ),
}


@pytest.mark.parametrize("rulings", ["ruled", "no rulings", "horizontal rules"])
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_requirement_table_in_another_language_reads_as_in_english(tmp_path, language, rulings):
    labels, title, rows = LANGUAGES[language]
    doc = wf.new()
    doc.add_paragraph(title)
    wf.saq_table(doc, [wf.SaqTitle(f"9.4 {rows[0][1]}"), *rows, wf.SaqNote((rows[1][2], rows[0][1]))], labels=labels)
    q = wf.printed(tmp_path, doc, rulings, "Letter" if language in ("en", "es") else "A4")
    assert [(x.id, wf.fold(x.text)) for x in q.questions] == [(i, wf.fold(t)) for i, t, _ in rows]
    options = [wf.fold(o) for o in labels.options]
    assert [[wf.fold(c) for c in x.choices] for x in q.questions] == [options] * len(rows)


@pytest.mark.parametrize("rulings", ["ruled", "no rulings", "horizontal rules"])
@pytest.mark.parametrize("language", ["de", "es", "ja"])
def test_option_labels_broken_in_their_narrow_columns_read_whole(tmp_path, language, rulings):
    """The option columns are narrow (0.55 in): "Umgesetzt" prints as "Umgeset" / "zt", "No implementado"
    as "No" / "implemen" / "tado", "CCW で実施済み" as "CCW で" / "実施済み"; the choices are the labels as
    written. Main's reader joined them with spaces ("Umgeset zt", "CCW で 実施済み")."""
    labels, title, rows = LANGUAGES[language]
    doc = wf.new()
    doc.add_paragraph(title)
    wf.saq_table(doc, rows, labels=labels)
    q = wf.printed(tmp_path, doc, rulings, "A4")
    assert [x.choices for x in q.questions] == [labels.options] * len(rows)
