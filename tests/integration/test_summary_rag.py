"""Summary RAG and the atom index modes in the knowledge base, with the real MiniLM, Qdrant local
mode and, where a model writes, the real SmolLM2-135M (the test model; the default 1.5B model is
for benchmarks): documents are selected by their summaries and their passages read within them;
an edited summary is re-embedded and selects its document; what the prompt gets in each
strategy; the atom indexes are built incrementally and stored with the chunks; a `kb add`
killed while summarising leaves the previous generation queryable and the re-run keeps the
summaries already written.

``RecordingGenerator`` is a stated fake LLM, only in the prompt test: it is about which passages
the Drafter hands the model, not about what the model answers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.core.config import EngineConfig, Strategy
from engine.drafting.drafter import Drafter
from engine.drafting.generate import GeneratedAnswer
from engine.drafting.generate.models import TEST_MODEL
from engine.drafting.passages import SUMMARY_TOKENS
from engine.index.errors import KnowledgeBaseError
from engine.index.kb import KnowledgeBase
from engine.index.summaries import SummaryMethod
from engine.questionnaire import Question
from engine.retrieval.retrieve import retrieve, search
from engine.retrieval.summary_rag import SUMMARY_DOCS
from storage.vector_store import release
from tests.fixtures import TOPICS, topic_pages, write_pdf

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(1200)


def write_topic_docs(folder: Path) -> Path:
    """One Markdown document per topic (encryption, backups, access, incident, vendors)."""
    folder.mkdir(parents=True, exist_ok=True)
    for topic, text in TOPICS.items():
        (folder / f"{topic}.md").write_text(f"# {topic.title()} policy\n\n{text}\n\n{text}\n", encoding="utf-8")
    return folder


@pytest.fixture()
def kb(tmp_path: Path, encoder):
    store = tmp_path / "store"
    base = KnowledgeBase(store, EngineConfig(), encoder)
    base.add([write_topic_docs(tmp_path / "docs")])
    yield base
    release(str(store / "qdrant"))


def test_the_summary_mode_reads_the_best_passages_of_the_documents_its_summaries_select(kb):
    got = retrieve(kb, "How long are backups of the production databases kept?", top_k=5, mode="summary")
    names = [d.doc.name for d in got.documents]
    assert len(names) == SUMMARY_DOCS and names[0] == "backups.md"
    assert all(d.summary.method is SummaryMethod.EXTRACTIVE for d in got.documents)  # no model given
    assert {h.chunk.doc for h in got.hits} <= set(names)  # passages only within the selected documents
    assert {h.chunk.doc for h in got.hits} == set(names)  # and every selected document gives its best one
    assert got.hits[0].chunk.doc == "backups.md" and [h.score for h in got.hits] == sorted(
        (h.score for h in got.hits), reverse=True
    )
    assert search(kb, "How long are backups of the production databases kept?", top_k=5, mode="summary") == list(
        got.hits
    )
    for mode in ("summary-only", "content-only"):  # the ablations retrieve the same
        assert retrieve(kb, "How long are backups of the production databases kept?", 5, mode).hits == got.hits


def test_an_edited_summary_is_re_embedded_kept_and_selects_its_document(kb, encoder):
    question = "Where is the Zanzibar quartz ledger kept?"
    assert retrieve(kb, question, mode="summary").documents[0].doc.name != "vendors.md"
    kb.indexes.edit_summary(
        "vendors.md",
        "The vendor register, also called the Zanzibar quartz ledger, lists every "
        "subprocessor and is kept by the procurement team.",
    )
    assert retrieve(kb, question, mode="summary").documents[0].doc.name == "vendors.md"  # no restart needed
    folder = kb.folder
    release(str(folder / "qdrant"))
    reopened = KnowledgeBase(folder, EngineConfig(), encoder)
    s = reopened.indexes.summary("vendors.md")
    assert s.method is SummaryMethod.EDITED and "Zanzibar quartz ledger" in s.text
    reopened.reindex(rewrite_summaries=True)  # rewriting summaries never touches an edited one
    assert reopened.indexes.summary("vendors.md") == s
    assert retrieve(reopened, question, mode="summary").documents[0].doc.name == "vendors.md"
    release(str(folder / "qdrant"))


class RecordingGenerator:
    """Stated fake LLM (see the module docstring): records the passages, answers nothing."""

    name = "recording"

    def __init__(self):
        self.passages = []

    def generate(self, question, passages, choices):
        self.passages.append(list(passages))
        return GeneratedAnswer((), "", None, True, 0, 0, 0.0)


def test_the_prompt_gets_summaries_and_passages_summaries_alone_or_passages_alone(kb):
    q = Question(
        "BCK-01",
        "Security",
        4,
        "How long are backups of the production databases kept?",
        "B4",
        "C4",
        "D4",
        ("Yes", "No"),
        None,
        None,
    )
    seen = {}
    for mode in ("summary", "summary-only", "content-only", "weighted"):
        fake = RecordingGenerator()
        Drafter(kb, fake, mode=mode).draft(q)
        seen[mode] = fake.passages[0]
    summary_labels = [p.label for p in seen["summary"] if "(summary of the document)" in p.label]
    assert len(summary_labels) == SUMMARY_DOCS and "backups.md" in summary_labels[0]
    assert seen["summary"][:SUMMARY_DOCS] == [
        p for p in seen["summary"] if p.label in summary_labels
    ]  # summaries first
    assert all("(summary of the document)" in p.label for p in seen["summary-only"])
    assert not any("(summary of the document)" in p.label for p in seen["content-only"] + seen["weighted"])
    content = [p for p in seen["summary"] if p.label not in summary_labels]
    unranked = lambda ps: [(p.label.split("] ", 1)[1], p.text) for p in ps]  # noqa: E731 (ranks follow the summaries)
    assert unranked(content) == unranked(seen["content-only"])  # the same passages, compacted to the same budget
    assert all(len(p.text) <= 4 * SUMMARY_TOKENS + 200 for p in seen["summary"] if p.label in summary_labels)
    assert "thirty-five days" in " ".join(p.text for p in content)


def test_atom_indexes_are_built_incrementally_and_stored_with_the_chunks(tmp_path, encoder):
    docs = write_topic_docs(tmp_path / "docs")
    store = tmp_path / "store"
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        kb.add([docs / "backups.md"])
        with pytest.raises(KnowledgeBaseError, match="kb reindex .*--index-modes atoms"):
            search(kb, "How long are backups kept?", mode="atoms")
        kb.add([docs / "encryption.md"], index_modes=["atoms"])  # a new index mode catches up on the kept document
        assert kb.manifest.index_modes == ("atoms",)
        meta = {d.name: store / "docs" / d.doc_hash / "atoms.json" for d in kb.documents()}
        first = {n: p.stat().st_mtime_ns for n, p in meta.items()}
        chunks = kb.chunks("backups.md")
        atoms = json.loads(meta["backups.md"].read_text())["chunks"]
        assert len(atoms) == len(chunks) and all(a in c.text for a_c, c in zip(atoms, chunks) for a in a_c["atoms"])
        hit = search(kb, "How long are backups of the production databases kept?", top_k=2, mode="atoms")[0]
        assert hit.chunk.doc == "backups.md" and "thirty-five days" in hit.chunk.text
        kb.add([docs / "access.md"])  # incremental: only the new document's atoms are built
        assert kb.manifest.index_modes == ("atoms",)
        assert all(meta[n].stat().st_mtime_ns == t for n, t in first.items())
        access = next(d for d in kb.documents() if d.name == "access.md")
        assert (store / "docs" / access.doc_hash / "atoms.json").is_file()
        assert (
            search(kb, "Is multi-factor authentication used to sign in?", top_k=1, mode="atoms")[0].chunk.doc
            == "access.md"
        )
        with pytest.raises(KnowledgeBaseError, match="no atom-questions index"):
            search(kb, "How long are backups kept?", mode="atom-questions")
    finally:
        release(str(store / "qdrant"))


@pytest.fixture(scope="module")
def smollm():
    from engine.drafting.generate import make_generator

    return make_generator(TEST_MODEL)


def test_the_model_writes_summaries_and_atom_questions_stored_with_the_chunks(tmp_path, encoder, smollm):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "backups.md").write_text(f"# Backups\n\n{TOPICS['backups']}\n", encoding="utf-8")
    store = tmp_path / "store"
    kb = KnowledgeBase(store, EngineConfig(), encoder, llm=smollm)
    try:
        steps = []
        kb.add([docs], progress=lambda stage, done, total: steps.append(stage), index_modes=["atom-questions"])
        s = kb.indexes.summary("backups.md")
        assert s.method is SummaryMethod.LLM and s.model == smollm.name and s.text and s.output_tokens > 0
        assert {"summarising", "writing questions", "encoding"} <= set(steps)
        assert kb.manifest.index_modes == ("atoms", "atom-questions")
        doc = kb.documents()[0]
        meta = json.loads((store / "docs" / doc.doc_hash / "atoms.json").read_text())
        assert meta["questions_by"] == smollm.name and meta["tau"] == 0.1
        questions = [q for c in meta["chunks"] for q in c["questions"]]
        assert questions and all(q.endswith("?") for q in questions)
        assert (store / "atom_questions.jsonl").is_file()  # resumable: every atom's questions as written
        hit = search(kb, "How long are backups of the production databases kept?", top_k=1, mode="atom-questions")[0]
        assert hit.chunk.doc == "backups.md"
    finally:
        release(str(store / "qdrant"))


def test_killing_kb_add_while_summarising_keeps_the_previous_generation_and_the_rerun_resumes(
    tmp_path, encoder, smollm
):
    store = tmp_path / "store"
    first = tmp_path / "first"
    first.mkdir()
    write_pdf(first / "handbook.pdf", topic_pages())
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    kb.add([first])
    release(str(store / "qdrant"))
    big = tmp_path / "big"
    big.mkdir()
    for i in range(4):
        write_pdf(big / f"policy{i}.pdf", [f"Policy {i}, section {p}. " + " ".join(TOPICS.values()) for p in range(3)])
    env = {**os.environ, "RFP_SUMMARIES": "llm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "engine", "kb", "add", str(big), "--store", str(store), "--model", TEST_MODEL],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    summaries = store / "summaries"
    handbook = {p.name for p in summaries.glob("*.json")}
    deadline = time.time() + 900
    while (
        proc.poll() is None
        and time.time() < deadline
        and len(set(p.name for p in summaries.glob("*.json")) - handbook) < 1
    ):
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    written = {p.name: json.loads(p.read_text())["written"] for p in summaries.glob("*.json") if p.name not in handbook}
    assert written, "the add was killed before it wrote a summary"
    reopened = KnowledgeBase(store, EngineConfig(), encoder, llm=smollm)
    try:
        assert [d.name for d in reopened.documents()] == ["handbook.pdf"]  # the previous generation, whole
        assert search(reopened, "How long are backups kept?", top_k=1)[0].chunk.doc == "handbook.pdf"
        assert (
            retrieve(reopened, "How long are backups kept?", mode=Strategy.SUMMARY).documents[0].doc.name
            == "handbook.pdf"
        )
        report = reopened.add([big])
        assert len(report.added) == 4 and not report.errors
        after = {p.name: json.loads(p.read_text()) for p in summaries.glob("*.json")}
        assert all(after[name]["written"] == when for name, when in written.items())  # kept, not written again
        assert sum(s["method"] == "llm" for s in after.values()) == 4  # the new documents, by the model
        assert len(after) == 5
    finally:
        release(str(store / "qdrant"))


def test_a_strategy_can_be_the_configured_retrieval_mode(kb, encoder):
    from engine.app.settings import Settings

    question = "How long are backups of the production databases kept?"
    expected = search(kb, question, mode="summary")
    folder = kb.folder
    release(str(folder / "qdrant"))
    configured = KnowledgeBase(folder, EngineConfig(mode="summary"), encoder)
    assert search(configured, question) == expected  # RFP_MODE=summary, the Settings screen, --mode
    fake = RecordingGenerator()  # a drafter with no mode of its own drafts in the configured one: summaries first
    Drafter(configured, fake).draft(
        Question("BCK-01", "Security", 4, question, "B4", "C4", "D4", ("Yes", "No"), None, None)
    )
    assert [("(summary of the document)" in p.label) for p in fake.passages[0][:SUMMARY_DOCS]] == [True] * SUMMARY_DOCS
    assert Settings().changed(mode="summary").engine.mode is Strategy.SUMMARY
    with pytest.raises(ValueError, match="use one of: dense, .*weighted, summary, summary-only, content-only, atoms"):
        EngineConfig(mode="nope")
    release(str(folder / "qdrant"))
