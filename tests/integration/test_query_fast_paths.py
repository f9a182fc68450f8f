"""The query-time shortcuts with the real model: encoding one question directly, and the
in-memory copy of the local collection, each against the general path it replaces; a question
embedded once per draft (``QuestionVectors``) for the library, retrieval and the support."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.core.config import DEFAULT_EMBEDDER, EngineConfig, Mode
from engine.core.types import DraftStatus
from engine.drafting.drafter import Drafter
from engine.index.embed.dense import DenseEncoder
from engine.index.embed.hybrid import query_vectors, weighted_query
from engine.index.embed.question import QuestionVectors, question_vectors
from engine.index.kb import KnowledgeBase
from engine.index.library import AnswerLibrary
from engine.questionnaire import read_questionnaire
from engine.retrieval.modes import weighted
from engine.retrieval.retrieve import search
from storage.vector_store import VectorIndex, release
from tests.fixtures import QuotingGenerator, topic_pages, write_pdf, write_questionnaire

QUESTIONS = [
    "How long are backups kept?",
    "Is there an ISO 27001 certificate?",
    "Who is paged when production is down?",
    "  données chiffrées — AES-256? ",
    "encryption " * 300,  # past the model's 256 word pieces: truncated the same way
]


def test_encode_query_is_encode_of_one_text(encoder: DenseEncoder):
    """The default int8 embedder (onnxruntime, no PyTorch): its one-question path against its batch path."""
    for question in QUESTIONS:
        one = encoder.encode_query(question)
        assert one.dtype == np.float32 and one.shape == (encoder.dim,)
        assert np.allclose(one, encoder.encode_queries([question])[0], atol=1e-6)


def test_the_pytorch_one_question_path_is_encode_of_one_text_on_one_thread(fp32_encoder: DenseEncoder):
    """The PyTorch runtime's ``encode_one`` (the modules called directly) against its
    ``encode([text])``, and the thread count it promises: one intra-op thread while it runs (read
    by a forward hook on the transformer, which changes nothing), the caller's count restored after.
    The caller's count is set to 3 first, neither 1 nor the default, so that a count left at 1 or
    reset to the default shows."""
    import torch

    before = torch.get_num_threads()
    seen: list[int] = []
    hook = fp32_encoder.model.model[0].register_forward_pre_hook(
        lambda module, args: seen.append(torch.get_num_threads())
    )
    torch.set_num_threads(3)
    runtime = fp32_encoder.model  # the runtime itself: the encoder would look a text seen before up
    try:
        for question in QUESTIONS:
            one = runtime.encode_one(question)
            assert one.dtype == np.float32 and one.shape == (fp32_encoder.dim,)
            assert torch.get_num_threads() == 3  # restored
            assert np.allclose(one, runtime.encode([question], fp32_encoder.batch_size)[0], atol=1e-6)
    finally:
        hook.remove()
        torch.set_num_threads(before)
    assert seen == [1, 3] * len(QUESTIONS)  # encode_one on one thread, encode on the caller's three


def test_a_question_is_embedded_once_as_the_text_is_and_shared_read_only(encoder: DenseEncoder):
    asked = QuestionVectors.of("  Are backups encrypted? ", encoder)
    assert asked.text == "Are backups encrypted?"  # as every reader strips it
    assert asked.model == DEFAULT_EMBEDDER
    assert np.allclose(asked.dense, encoder.encode_queries(["Are backups encrypted?"])[0], atol=1e-6)
    assert np.array_equal(asked.dense, encoder.encode_query("  Are backups encrypted? "))  # whitespace is no token
    with pytest.raises(ValueError):
        asked.dense[0] = 0.0  # shared by the library, retrieval and the support: nobody may change it
    assert asked.dense_for(encoder) is asked.dense  # the embedder that made it: not encoded again
    assert question_vectors(asked, encoder) is asked
    other = QuestionVectors(asked.text, np.zeros(encoder.dim, dtype=np.float32), "another-embedder")
    assert np.allclose(other.dense_for(encoder), asked.dense, atol=1e-6)  # another model: encoded in this one's space


class CountingEncoder:
    """The real encoder, counting the questions it encodes (each still encoded for real)."""

    def __init__(self, real: DenseEncoder) -> None:
        self.real, self.questions = real, []

    def __getattr__(self, name):
        return getattr(self.real, name)

    def encode_query(self, text: str):
        self.questions.append(text)
        return self.real.encode_query(text)


@pytest.mark.parametrize("mode", [None, "summary"])
def test_drafting_embeds_each_question_once_for_the_library_retrieval_and_the_support(tmp_path, encoder, mode):
    """The generator is ``QuotingGenerator``, a stated fake: the test is about how often the
    question is embedded, not about generation."""
    counting = CountingEncoder(encoder)
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    base = KnowledgeBase(tmp_path / "store", EngineConfig(), counting)
    try:
        assert not base.add([docs]).errors
        library = AnswerLibrary(tmp_path / "store", counting)
        library.import_file(
            write_questionnaire(
                tmp_path / "past.xlsx",
                answered={4: "Yes"},
                questions=[("OLD-1", "Do you rotate the encryption keys yearly?")],
            )
        )
        drafter = Drafter(base, QuotingGenerator(), library=library, mode=mode)
        questionnaire = read_questionnaire(write_questionnaire(tmp_path / "q.xlsx"))
        counting.questions.clear()
        drafts = [drafter.draft(q) for q in questionnaire.questions]
    finally:
        release(str(tmp_path / "store" / "qdrant"))
    assert [d.status for d in drafts].count(DraftStatus.DRAFTED) >= 2 and any(d.support for d in drafts)
    assert counting.questions == [q.text for q in questionnaire.questions]  # once each, in turn


@pytest.fixture()
def kb(tmp_path: Path, encoder: DenseEncoder):
    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    (docs / "runbook.md").write_text(
        "# Runbook\n\n## Paging\nThe on-call engineer is paged by PagerDuty around the clock.\n\n"
        "## Certificates\nWe hold an ISO 27001 certificate, renewed every three years.\n",
        encoding="utf-8",
    )
    store = tmp_path / "store"
    base = KnowledgeBase(store, EngineConfig(), encoder)
    assert not base.add([docs]).errors
    yield base
    release(str(store / "qdrant"))


def test_search_with_the_in_memory_copy_matches_qdrant(kb: KnowledgeBase):
    assert kb.index.in_memory
    qdrant = VectorIndex(kb.client, kb.index.name, in_memory=False)
    for question in QUESTIONS[:4]:
        vector = kb.encoder.encode_query(question)
        query = weighted_query(question, vector, kb.sparse)
        got = weighted(kb.index, kb.lexical, query, 5, kb.alpha)
        want = weighted(qdrant, kb.lexical, query, 5, kb.alpha)
        assert [s.payload for s in got] == [s.payload for s in want]
        assert np.allclose([s.score for s in got], [s.score for s in want], atol=1e-6)
        hits = search(kb, question, top_k=5)
        assert [h.chunk.to_dict() for h in hits] == [s.payload for s in want]
        dense = search(kb, question, top_k=5, mode=Mode.DENSE)
        want = qdrant.search(Mode.DENSE, query_vectors(question, vector, kb.sparse, kb.alpha), 5)
        assert [h.chunk.to_dict() for h in dense] == [s.payload for s in want]
        assert np.allclose([h.score for h in dense], [s.score for s in want], atol=1e-6)
