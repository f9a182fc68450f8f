"""The knowledge base with the real MiniLM model and Qdrant local mode on a folder."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from engine.core.config import EngineConfig, Mode
from engine.index.embed.dense import DenseEncoder
from engine.index.embed.hybrid import passage_vectors
from engine.index.errors import KnowledgeBaseError
from engine.index.kb import KnowledgeBase, point_id
from engine.retrieval.retrieve import search
from storage.vector_store import CONCAT, DENSE, PAPER, SPARSE, StoreLockedError, release
from tests.fixtures import TOPICS, topic_pages, write_pdf

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    write_pdf(folder / "handbook.pdf", topic_pages())
    (folder / "runbook.md").write_text(
        "# Runbook\n\n## Paging\nThe on-call engineer is paged by PagerDuty around the clock.\n\n"
        "## Status page\nOutages are posted on status.example.com within thirty minutes.\n",
        encoding="utf-8",
    )
    (folder / "answers.csv").write_bytes(
        "Question,Answer\nIs the office badge-controlled?,Yes – badges are required at every door\n"
        "Do you hold an ISO 27001 certificate?,Yes – certified since 2021\n".encode("cp1252")
    )
    return folder


@pytest.fixture()
def kb(tmp_path: Path, encoder: DenseEncoder):
    store = tmp_path / "store"
    base = KnowledgeBase(store, EngineConfig(), encoder)
    yield base
    release(str(store / "qdrant"))


def top(kb: KnowledgeBase, question: str, mode: Mode = Mode.WEIGHTED):
    return search(kb, question, top_k=3, mode=mode)[0].chunk


@pytest.mark.parametrize("mode", list(Mode))
def test_each_mode_finds_the_right_source(kb, docs, mode):
    report = kb.add([docs])
    assert not report.errors and len(report.added) == 3
    c = top(kb, "How long are backups kept?", mode)
    assert c.doc == "handbook.pdf" and 2 in c.pages
    c = top(kb, "Is there an ISO 27001 certificate?", mode)
    assert (c.doc, c.sheet, c.row) == ("answers.csv", "answers", 3)
    assert "certified since 2021" in c.text  # cp1252 en dash decoded
    c = top(kb, "Who gets paged when something breaks?", mode)
    assert (c.doc, c.section) == ("runbook.md", "Runbook > Paging")


def test_hits_carry_provenance_and_offsets(kb, docs):
    kb.add([docs])
    hits = search(kb, "encryption keys rotation", top_k=5)
    assert len(hits) == 5 and hits[0].score >= hits[-1].score
    pages = {u.page: u.text for u in kb.units("handbook.pdf")}
    for hit in hits:
        c = hit.chunk
        if c.doc == "handbook.pdf" and c.page_start == c.page_end:
            assert pages[c.page_start][c.start : c.end] == c.text
    as_json = hits[0].to_json()
    assert set(as_json) >= {"file", "page", "sheet", "row", "score", "text"}


def test_same_content_is_indexed_once(kb, docs, tmp_path):
    kb.add([docs])
    copy = tmp_path / "copy-of-handbook.pdf"
    copy.write_bytes((docs / "handbook.pdf").read_bytes())
    report = kb.add([docs / "handbook.pdf", copy])
    assert report.added == [] and len(report.unchanged) == 2
    assert "same content as handbook.pdf" in report.unchanged[1]
    assert len(kb.documents()) == 3
    assert kb.index.count() == sum(d.chunks for d in kb.documents())


def test_changed_file_replaces_its_chunks_and_remove_removes_them(kb, docs):
    kb.add([docs])
    before = kb.document("runbook.md")
    (docs / "runbook.md").write_text(
        "# Runbook\n\n## Paging\nEngineers are paged through Opsgenie now.\n", encoding="utf-8"
    )
    report = kb.add([docs / "runbook.md"])
    assert report.replaced == ["runbook.md"]
    after = kb.document("runbook.md")
    assert after.doc_hash != before.doc_hash
    texts = [h.chunk.text for h in search(kb, "which paging tool is used", top_k=10)]
    assert any("Opsgenie" in t for t in texts) and not any("PagerDuty" in t for t in texts)
    assert kb.index.count() == sum(d.chunks for d in kb.documents())
    kb.remove("runbook.md")
    assert [d.name for d in kb.documents()] == ["answers.csv", "handbook.pdf"]
    assert all(h.chunk.doc != "runbook.md" for h in search(kb, "paging tool", top_k=10))
    assert not (kb.folder / "docs" / after.doc_hash).exists()
    with pytest.raises(KnowledgeBaseError, match="no document named"):
        kb.remove("runbook.md")


def test_after_a_refit_every_stored_vector_matches_the_new_model(kb, docs, tmp_path):
    kb.add([docs / "handbook.pdf"])
    first_vocabulary = dict(kb.sparse.vocabulary)
    kb.add([docs / "runbook.md", docs / "answers.csv"])  # the corpus changed: refit
    assert kb.sparse.vocabulary != first_vocabulary
    for doc in kb.documents():
        chunks = kb.chunks(doc.name)
        dense = np.load(kb._dense_path(doc.doc_hash, kb.encoder.name))
        expected = passage_vectors([c.text for c in chunks], dense, kb.sparse, kb.alpha)
        points = kb.client.retrieve(kb.index.name, [point_id(c.doc_hash, c.index) for c in chunks], with_vectors=True)
        stored = {p.id: p.vector for p in points}
        for chunk, want in zip(chunks, expected):
            got = stored[point_id(chunk.doc_hash, chunk.index)]
            assert np.allclose(got[DENSE], want.dense, atol=1e-5)
            assert np.allclose(got[PAPER], want.paper, atol=1e-5)
            assert np.allclose(got[CONCAT], want.concat, atol=1e-5)
            assert got[SPARSE].indices == want.sparse.indices
            assert np.allclose(got[SPARSE].values, want.sparse.values, atol=1e-6)


def test_state_survives_reopening_and_the_sparse_model_is_plain_files(tmp_path, docs, encoder):
    store = tmp_path / "store"
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    kb.add([docs])
    release(str(store / "qdrant"))
    again = KnowledgeBase(store, EngineConfig(), encoder)
    assert [d.name for d in again.documents()] == ["answers.csv", "handbook.pdf", "runbook.md"]
    assert 2 in top(again, "How long are backups kept?").pages
    generation = json.loads((store / "manifest.json").read_text())["generation"]
    assert sorted(p.name for p in (store / "sparse" / f"g{generation}").iterdir()) == [
        "bm25.npz",
        "bm25_ids.json",
        "components.npy",
        "df.npy",
        "params.json",
        "vocabulary.json",
    ]
    release(str(store / "qdrant"))


class FailingEncoder(DenseEncoder):
    """The real encoder, made to fail on the n-th encode call, to stand in for a crash in the
    middle of `kb add` (the test is about the store's crash safety, not about encoding)."""

    def __init__(self, base: DenseEncoder, fail_on_call: int) -> None:
        self.__dict__.update(base.__dict__)
        self.calls, self.fail_on_call = 0, fail_on_call

    def encode_passages(self, texts, progress=False):
        self.calls += 1
        if self.calls >= self.fail_on_call:
            raise RuntimeError("simulated crash")
        return super().encode_passages(texts, progress)


def test_a_crash_during_add_leaves_the_previous_state_queryable(tmp_path, docs, encoder):
    store = tmp_path / "store"
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    kb.add([docs / "handbook.pdf"])
    manifest = (store / "manifest.json").read_text()
    crashing = KnowledgeBase(store, EngineConfig(), FailingEncoder(encoder, fail_on_call=1))
    with pytest.raises(RuntimeError, match="simulated crash"):
        crashing.add([docs / "runbook.md"])
    assert (store / "manifest.json").read_text() == manifest
    release(str(store / "qdrant"))
    reopened = KnowledgeBase(store, EngineConfig(), encoder)
    assert [d.name for d in reopened.documents()] == ["handbook.pdf"]
    assert 2 in top(reopened, "How long are backups kept?").pages
    assert [c.name for c in reopened.client.get_collections().collections] == [reopened.index.name]
    assert len(list((store / "docs").iterdir())) == 1  # the unfinished document was cleaned up
    release(str(store / "qdrant"))


def test_killing_kb_add_mid_way_leaves_the_previous_state(tmp_path, docs, encoder):
    store = tmp_path / "store"
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    kb.add([docs / "handbook.pdf"])
    release(str(store / "qdrant"))
    big = tmp_path / "big"
    big.mkdir()
    for i in range(6):
        write_pdf(big / f"policy{i}.pdf", [f"Section {i}.{p}. " + " ".join(TOPICS.values()) for p in range(12)])
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine", "kb", "add", str(big), "--store", str(store)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    seen = ""
    deadline = time.time() + 120
    while "encoding" not in seen and time.time() < deadline and proc.poll() is None:
        seen += proc.stderr.read(64)
    proc.kill()
    proc.wait()
    assert "encoding" in seen, "the add never reached the encoding stage"
    reopened = KnowledgeBase(store, EngineConfig(), encoder)
    assert [d.name for d in reopened.documents()] == ["handbook.pdf"]
    assert 2 in top(reopened, "How long are backups kept?").pages
    release(str(store / "qdrant"))


def test_a_store_open_in_another_process_gives_a_clear_error(tmp_path, encoder):
    store = tmp_path / "store"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from engine.index.kb import KnowledgeBase; KnowledgeBase(sys.argv[1]); print('open', flush=True); time.sleep(60)",
            str(store),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "open"
        with pytest.raises(StoreLockedError, match="open in another process.*QDRANT_URL"):
            KnowledgeBase(store, EngineConfig(), encoder)
    finally:
        holder.kill()
        holder.wait()


def test_empty_store_search_says_what_to_do(kb):
    with pytest.raises(KnowledgeBaseError, match="empty; add documents"):
        search(kb, "anything")


def test_another_embedder_is_refused_with_the_fix(tmp_path, docs, encoder):
    store = tmp_path / "store"
    KnowledgeBase(store, EngineConfig(), encoder).add([docs / "runbook.md"])
    manifest = json.loads((store / "manifest.json").read_text())
    manifest["embedder"] = "BAAI/bge-large-en-v1.5"
    (store / "manifest.json").write_text(json.dumps(manifest))
    release(str(store / "qdrant"))
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    with pytest.raises(KnowledgeBaseError, match="kb reindex"):
        search(kb, "paging")
    release(str(store / "qdrant"))


def test_weighted_mode_agrees_with_brute_force_scoring(kb, docs):
    """Two implementations that must agree: the retriever's candidate fusion and a plain
    numpy computation of α·cos + (1−α)·BM25/BM25max over every chunk."""
    kb.add([docs])
    chunks = [c for d in kb.documents() for c in kb.chunks(d.name)]
    dense = np.vstack([np.load(kb._dense_path(d.doc_hash, kb.encoder.name)) for d in kb.documents()])
    question = "How quickly are customers told about a breach?"
    q = kb.encoder.encode_query(question)
    bm25_q = kb.sparse.bm25_query(question)
    lexical = np.zeros(len(chunks))
    for i, vector in enumerate(kb.sparse.bm25_passages([c.text for c in chunks])):
        weights = dict(zip(vector.indices, vector.values))
        lexical[i] = sum(weights.get(t, 0.0) * v for t, v in zip(bm25_q.indices, bm25_q.values))
    expected = kb.alpha * (dense @ q) + (1 - kb.alpha) * lexical
    best = np.argsort(-expected)[:5]
    hits = search(kb, question, top_k=5, mode=Mode.WEIGHTED)
    assert [(h.chunk.doc, h.chunk.index) for h in hits] == [(chunks[i].doc, chunks[i].index) for i in best]
    assert np.allclose([h.score for h in hits], expected[best], atol=1e-4)
