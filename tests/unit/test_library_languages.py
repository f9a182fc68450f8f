"""The answer library keeps the language each answer is written in (issue #58, item 6): detected
on import and stored (schema 5); a library of schema 4 still opens, its entries' language detected
on read or unknown; a Yes or No in the questionnaire's own words ("Ja", "Oui") is the same choice
as the English one; the listing counts the answers by language. The reuse across languages with a
real knowledge base: tests/integration/test_library_reuse_across_languages.py."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import numpy as np
import openpyxl
from openpyxl.worksheet.datavalidation import DataValidation

from engine.index.library import (
    AnswerLibrary,
    allowed_choice,
    choice_key,
    entry_language,
    language_counts,
    reusable_choice,
    written_language,
)
from engine.questionnaire.language import Language
from storage.library_store import SCHEMA_VERSION, LibraryEntry, LibraryStore, Origin

GERMAN = [
    ("ENC-01", "Werden die Daten der Institution bei der Speicherung verschlüsselt?", "Ja",
     "Alle Daten werden mit AES-256 verschlüsselt und die Schlüssel werden jährlich gewechselt."),
    ("BCK-01", "Wie lange werden die Sicherungen der Datenbanken aufbewahrt?", "Ja", ""),
]  # fmt: skip
ENGLISH = [
    ("ENC-01", "Is customer data encrypted at rest?", "Yes", "All customer data is encrypted with AES-256."),
    ("SOC-01", "SOC 2?", "Yes", ""),
]


def filled(path, rows, options):
    """A filled questionnaire: ID, question, a dropdown of ``options`` with the choice, an explanation."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Security"
    ws.append(["ID", "Question", "Answer", "Comment"])
    for row in rows:
        ws.append(list(row))
    dv = DataValidation(type="list", formula1='"{}"'.format(",".join(options)), allow_blank=True)
    ws.add_data_validation(dv)
    dv.add(f"C2:C{1 + len(rows)}")
    wb.save(path)
    return path


def test_an_import_stores_each_answers_language(tmp_path, encoder):
    library = AnswerLibrary(tmp_path / "store", encoder)
    try:
        library.import_file(filled(tmp_path / "fragebogen.xlsx", GERMAN, ("Ja", "Nein")))
        library.import_file(filled(tmp_path / "questionnaire.xlsx", ENGLISH, ("Yes", "No")))
        got = {(e.file, e.qid): e.language for e in library.entries()}
        # a bare "Ja" takes its question's language; "SOC 2?" too short to tell: the questionnaire's (English)
        assert got == {
            ("fragebogen.xlsx", "ENC-01"): "de",
            ("fragebogen.xlsx", "BCK-01"): "de",
            ("questionnaire.xlsx", "ENC-01"): "en",
            ("questionnaire.xlsx", "SOC-01"): "en",
        }
        assert language_counts(library.entries()) == {"German": 2, "English": 2}
    finally:
        library.close()


SCHEMA_4 = """
CREATE TABLE entries (id INTEGER PRIMARY KEY, question TEXT NOT NULL, choice TEXT, answer TEXT NOT NULL,
    comment TEXT, file TEXT NOT NULL, sheet TEXT NOT NULL, row INTEGER NOT NULL, qid TEXT, imported TEXT NOT NULL,
    origin TEXT NOT NULL, retired INTEGER NOT NULL DEFAULT 0, embedder TEXT NOT NULL, vector BLOB NOT NULL,
    product TEXT, source TEXT, sha256 TEXT, owner TEXT, dated TEXT, dated_from TEXT, review_by TEXT,
    pending INTEGER NOT NULL DEFAULT 0);
CREATE INDEX entries_by_file ON entries(file, origin);
CREATE TABLE changes (id INTEGER PRIMARY KEY, entry INTEGER NOT NULL, action TEXT NOT NULL, by TEXT NOT NULL,
    at TEXT NOT NULL, detail TEXT);
PRAGMA user_version=4;
"""


def test_a_schema_4_library_opens_and_tells_its_entries_language_on_read(tmp_path):
    path = tmp_path / "library.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA_4)
        for qid, question, choice, answer in (GERMAN[0], ENGLISH[1]):
            db.execute(
                "INSERT INTO entries (question, choice, answer, file, sheet, row, qid, imported, origin, embedder, "
                "vector) VALUES (?, ?, ?, 'old.xlsx', 'S', 4, ?, '2024-01-01', 'import', 'm', x'0000803f')",
                (question, choice, answer, qid),
            )
    store = LibraryStore(path)
    german, bare = store.entries()
    assert german.language is None and german.question_en is None and german.answer_en is None  # nothing stored
    assert entry_language(german) is Language.DE  # detected on read
    assert entry_language(bare) is None  # "Yes" to "SOC 2?": unknown
    assert language_counts([german, bare]) == {"German": 1, "unknown": 1}
    new = replace(german, id=0, file="new.xlsx", row=5, language="fr", question_en="Q?", answer_en="A.")
    store.replace_file("new.xlsx", "/new.xlsx", "ab" * 32, [new], np.ones((1, 1), dtype=np.float32), "m", by="t")
    (kept,) = [e for e in store.entries() if e.file == "new.xlsx"]
    assert (kept.language, kept.question_en, kept.answer_en, kept.matched_by) == ("fr", "Q?", "A.", "Q?")
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
    assert [e.language for e in LibraryStore(path).entries()] == [None, None, "fr"]  # reopened: no second upgrade


def test_a_yes_or_no_in_any_language_is_the_same_choice():
    assert choice_key("Ja") == choice_key("Oui") == choice_key("はい") == choice_key("1) Yes") == "yes"
    assert choice_key("Nein") == choice_key("Nee") == choice_key("いいえ") == "no"
    assert choice_key("N/A") == "na" and choice_key("4) AWS") == "aws"
    assert allowed_choice("Ja", ("Yes", "No", "N/A")) == "Yes"
    assert allowed_choice("Yes", ("Oui", "Non")) == "Oui"
    # without a dropdown: another language's Yes or No in the company's words, any other choice as it is
    assert reusable_choice("Ja", ()) == "Yes" and reusable_choice("いいえ", ()) == "No"
    assert reusable_choice("1) Yes", ()) == "1) Yes" and reusable_choice("4) AWS", ()) == "4) AWS"
    assert reusable_choice("Nein", ("Yes", "No")) == "No"


def test_a_new_answers_language_is_its_texts_else_its_questions():
    assert written_language("Is data encrypted?", "Die Daten werden mit AES-256 verschlüsselt.") is Language.DE
    assert written_language("Werden die Daten verschlüsselt?", "Ja") is Language.DE
    assert written_language("SOC 2?", "Yes", Language.FR) is Language.FR
    assert written_language("SOC 2?", "Yes") is None


def test_the_entry_matched_by_its_english_question():
    e = LibraryEntry(
        1, "Werden die Daten verschlüsselt?", "Ja", "", None, "f.xlsx", "S", 2, None, "2024", Origin.REVIEW
    )
    assert e.matched_by == e.question
    assert replace(e, question_en="Is the data encrypted?").matched_by == "Is the data encrypted?"


def test_library_list_names_the_language_of_an_entry_not_in_english(tmp_path, encoder, monkeypatch, capsys):
    import engine.cli.common as common
    import engine.cli.main as cli

    monkeypatch.setattr(common, "encoder", lambda args: encoder)  # the session's MiniLM, not a second load
    store = str(tmp_path / "store")
    assert cli.main(["library", "import", filled(tmp_path / "fragebogen.xlsx", GERMAN, ("Ja", "Nein")).as_posix(),
                     "--store", store]) == 0  # fmt: skip
    assert cli.main(["library", "import", filled(tmp_path / "q.xlsx", ENGLISH, ("Yes", "No")).as_posix(),
                     "--store", store]) == 0  # fmt: skip
    capsys.readouterr()
    assert cli.main(["library", "list", "--store", store]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.endswith("(in German)") for line in lines] == [True, True, False, False]
