"""Library entries belong to a file by its path and content, not its bare name.

Before #16, ``library import custB/HECVAT.xlsx`` deleted every entry of ``custA/HECVAT.xlsx``
(one customer's answers silently replaced by another's). Now each keeps its own; importing
custA's file again (changed) replaces custA's entries only; the same bytes from another folder
replace rather than duplicate; and a ``library.sqlite`` written by an earlier version (schema 1;
schema 2, which added products; or #16's development schema 2, which added the source and
SHA-256) opens, keeps its entries, and is migrated to the current schema, which has all three columns
(schema 4's governance: tests/adversarial/test_library_governance.py)."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from engine.index.library import AnswerLibrary
from storage.library_store import SCHEMA_VERSION, LibraryStore
from tests.fixtures import QUESTIONS, write_questionnaire


def customer_file(folder, answers: dict[int, str]):
    folder.mkdir(exist_ok=True)
    return write_questionnaire(folder / "HECVAT.xlsx", answered=answers)


def choices(library: AnswerLibrary) -> list[tuple[str, str, str | None]]:
    return sorted((e.source.split("/")[-2], e.qid, e.choice) for e in library.entries())


def test_same_name_other_customer_keeps_both(tmp_path, encoder):
    library = AnswerLibrary(tmp_path / "store", encoder)
    a = customer_file(tmp_path / "custA", {4: "Yes", 5: "Yes"})
    b = customer_file(tmp_path / "custB", {4: "No", 5: "No"})
    assert library.import_file(a).replaced == 0
    assert library.import_file(b).replaced == 0  # custA's answers are not touched
    assert choices(library) == [
        ("custA", "BCK-01", "Yes"),
        ("custA", "ENC-01", "Yes"),
        ("custB", "BCK-01", "No"),
        ("custB", "ENC-01", "No"),
    ]
    customer_file(tmp_path / "custA", {4: "N/A"})  # custA's file changed: re-importing replaces custA only
    assert library.import_file(a).replaced == 2
    assert choices(library) == [("custA", "ENC-01", "N/A"), ("custB", "BCK-01", "No"), ("custB", "ENC-01", "No")]
    copy = tmp_path / "archive" / "HECVAT.xlsx"
    copy.parent.mkdir()
    copy.write_bytes(b.read_bytes())  # custB's exact bytes from elsewhere: the same file, not a duplicate
    assert library.import_file(copy).replaced == 2
    assert choices(library) == [("archive", "BCK-01", "No"), ("archive", "ENC-01", "No"), ("custA", "ENC-01", "N/A")]
    library.close()


PREVIOUS_SCHEMAS = {  # the columns each earlier version added after ``vector``, and its user_version
    "1": ("", 1),
    "2 (products)": (", product TEXT", 2),
    "2 (#16 development build)": (", source TEXT, sha256 TEXT", 2),
}


@pytest.mark.parametrize("schema", PREVIOUS_SCHEMAS)
def test_a_library_of_an_earlier_schema_opens_and_migrates(tmp_path, encoder, schema):
    """The file an earlier version wrote (its exact schema), with one imported entry and one a
    reviewer recorded: both read back; the current schema has the product and the source and SHA-256
    columns; a new import of the same name replaces the old import."""
    columns, version = PREVIOUS_SCHEMAS[schema]
    path = tmp_path / "store" / "library.sqlite"
    path.parent.mkdir()
    vector = np.ones(encoder.dim, dtype="<f4").tobytes()
    with sqlite3.connect(path) as db:
        db.executescript(f"""
            CREATE TABLE entries (id INTEGER PRIMARY KEY, question TEXT NOT NULL, choice TEXT, answer TEXT NOT NULL,
                comment TEXT, file TEXT NOT NULL, sheet TEXT NOT NULL, row INTEGER NOT NULL, qid TEXT,
                imported TEXT NOT NULL, origin TEXT NOT NULL, retired INTEGER NOT NULL DEFAULT 0,
                embedder TEXT NOT NULL, vector BLOB NOT NULL{columns});
            CREATE INDEX entries_by_file ON entries(file, origin);
            PRAGMA user_version={version};""")
        for origin, qid in (("import", "ENC-01"), ("review", "BCK-01")):
            db.execute(
                "INSERT INTO entries (question, choice, answer, file, sheet, row, qid, imported, origin, embedder, "
                "vector) VALUES (?, 'Yes', '', 'HECVAT.xlsx', 'Security', 4, ?, '2024-01-01', ?, 'old', ?)",
                (dict(QUESTIONS)[qid], qid, origin, vector),
            )
    library = AnswerLibrary(path.parent, encoder)
    assert [(e.qid, e.origin.value, e.source, e.product) for e in library.entries()] == [
        ("ENC-01", "import", None, None),
        ("BCK-01", "review", None, None),
    ]
    assert library.match("Is customer data encrypted at rest?")[0].entry.qid == "ENC-01"  # old vectors re-made
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        assert {"product", "source", "sha256"} <= {row[1] for row in db.execute("PRAGMA table_info(entries)")}
    report = library.import_file(customer_file(tmp_path / "custA", {6: "Yes"}))
    assert report.replaced == 1  # the old import of that name; the reviewer's answer stays
    assert sorted((e.qid, e.origin.value) for e in library.entries()) == [("BCK-01", "review"), ("INC-01", "import")]
    library.close()
    LibraryStore(path).close()  # opening a migrated file again changes nothing
