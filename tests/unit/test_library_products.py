"""Library entries carry a product: what "preferred" means for reuse (pure rules, on hand-made
hits), and the library and review databases of the version before products upgraded in place."""

from __future__ import annotations

import sqlite3

import numpy as np

from engine.index.library import LibraryHit, near_hits, preference, reused_hit
from storage.library_store import SCHEMA_VERSION as LIBRARY_VERSION
from storage.library_store import LibraryEntry, LibraryStore, Origin
from storage.review_store import SCHEMA_VERSION as REVIEW_VERSION
from storage.review_store import ReviewStore


def hit(i: int, choice: str, product: str | None, score: float = 0.95, origin: Origin = Origin.IMPORT) -> LibraryHit:
    e = LibraryEntry(
        i,
        "Is customer data encrypted at rest?",
        choice,
        f"answer {i}",
        None,
        f"f{i}.xlsx",
        "Security",
        4,
        "ENC-01",
        "2024-01-01",
        origin,
        product=product,
    )
    return LibraryHit(e, score, score, score)


def test_the_target_products_near_identical_answer_wins_over_other_products():
    others = [hit(1, "No", "Canvas LMS", 1.0), hit(2, "No", "Mastery Connect", 0.99), hit(3, "No", "Impact", 0.98)]
    own = hit(4, "Yes", "Canvas Studio", 0.91)
    company = hit(5, "No", None, 0.97)
    hits = others + [own, company]
    # the product's own answer: chosen over any number of others, whatever their choices and scores
    assert reused_hit(hits, product="Canvas Studio").entry.id == 4
    assert [h.entry.id for h in near_hits(hits, product="Canvas Studio")] == [4]  # the past choices shown
    # without an answer of the product, the company-wide one wins over other products'
    assert reused_hit(others + [company], product="Canvas Studio").entry.id == 5
    # only other products' answers: the usual rule among them (most common choice, …)
    assert reused_hit(others + [hit(6, "Yes", "Impact", 0.999)], product="Canvas Studio").entry.choice == "No"
    assert [h.entry.id for h in near_hits(others, product="Canvas Studio")] == [1, 2, 3]
    # a company-wide questionnaire prefers company-wide answers, then any product's
    assert reused_hit(hits, product=None).entry.id == 5
    # the product's own answer below the reuse line does not count; nothing near: nothing reused
    assert reused_hit(others + [hit(7, "Yes", "Canvas Studio", 0.89)], product="Canvas Studio").entry.choice == "No"
    assert reused_hit([hit(8, "Yes", "Canvas Studio", 0.5)], product="Canvas Studio") is None
    # libraries without products: every entry company-wide, the rule as before
    plain = [hit(1, "No", None, 1.0), hit(2, "Yes", None, 0.95), hit(3, "Yes", None, 0.93)]
    assert reused_hit(plain).entry.id in (2, 3) and reused_hit(plain, product="Canvas Studio").entry.id in (2, 3)
    assert [preference(h.entry, "Canvas Studio") for h in (own, company, others[0])] == [0, 1, 2]


def test_a_version_1_library_gains_the_product_column(tmp_path):
    path = tmp_path / "library.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE entries (id INTEGER PRIMARY KEY, question TEXT NOT NULL, choice TEXT, answer TEXT NOT NULL, "
        "comment TEXT, file TEXT NOT NULL, sheet TEXT NOT NULL, row INTEGER NOT NULL, qid TEXT, imported TEXT NOT NULL, "
        "origin TEXT NOT NULL, retired INTEGER NOT NULL DEFAULT 0, embedder TEXT NOT NULL, vector BLOB NOT NULL); "
        "INSERT INTO entries (question, choice, answer, file, sheet, row, imported, origin, embedder, vector) "
        "VALUES ('Q?', 'Yes', 'A.', 'old.xlsx', 'S', 4, '2024-01-01', 'import', 'm', x'0000803f'); "
        "PRAGMA user_version=1;"
    )
    db.close()
    store = LibraryStore(path)
    (old,) = store.entries()
    assert old.question == "Q?" and old.product is None  # company-wide
    new = LibraryEntry(
        0, "Q2?", "No", "B.", None, "new.xlsx", "S", 5, None, "2024-02-02", Origin.IMPORT, product="Canvas LMS"
    )
    store.replace_file("new.xlsx", "/past/new.xlsx", "ab" * 32, [new], np.ones((1, 1), dtype=np.float32), "m", by="t")
    assert [e.product for e in store.entries()] == [None, "Canvas LMS"]
    store.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == LIBRARY_VERSION == 5
    assert [e.product for e in LibraryStore(path).entries()] == [None, "Canvas LMS"]  # reopened: no second upgrade


def test_a_version_2_review_store_gains_the_projects_product(tmp_path):
    path = tmp_path / "review.sqlite"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL, file_name TEXT NOT NULL, "
        "file_sha256 TEXT NOT NULL, file_bytes BLOB NOT NULL, created TEXT NOT NULL); "
        "INSERT INTO projects VALUES (1, 'q', 'q.xlsx', 'abc', x'00', '2024-01-01'); "
        "PRAGMA user_version=2;"
    )
    db.close()
    store = ReviewStore(path)
    assert store.project(1).product is None
    assert store.set_product(1, "Canvas LMS").product == "Canvas LMS"
    assert [p.product for p in store.projects()] == ["Canvas LMS"]
    assert store.set_product(1, None).product is None
    store.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == REVIEW_VERSION == 6
