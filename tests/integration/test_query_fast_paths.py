"""The query-time shortcuts with the real model: encoding one question directly, and the
in-memory copy of the local collection, each against the general path it replaces."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from engine.core.config import EngineConfig, Mode
from engine.index.embed.dense import DenseEncoder
from engine.index.embed.hybrid import query_vectors, weighted_query
from engine.index.kb import KnowledgeBase
from engine.retrieval.modes import weighted
from engine.retrieval.retrieve import search
from storage.vector_store import VectorIndex, release
from tests.fixtures import topic_pages, write_pdf

QUESTIONS = [
    "How long are backups kept?",
    "Is there an ISO 27001 certificate?",
    "Who is paged when production is down?",
    "  données chiffrées — AES-256? ",
    "encryption " * 300,  # past the model's 256 word pieces: truncated the same way
]


def test_encode_query_is_encode_of_one_text(encoder: DenseEncoder):
    threads = torch.get_num_threads()
    for question in QUESTIONS:
        one = encoder.encode_query(question)
        assert one.dtype == np.float32 and one.shape == (encoder.dim,)
        assert np.allclose(one, encoder.encode_queries([question])[0], atol=1e-6)
    assert torch.get_num_threads() == threads


def test_the_same_question_twice_is_encoded_once_and_handed_out_as_a_copy(encoder: DenseEncoder, monkeypatch):
    expected = encoder.encode_queries(["Are backups encrypted?"])[0]
    first = encoder.encode_query("Are backups encrypted?")
    first[:] = 0.0  # a caller changing its vector changes nobody else's
    monkeypatch.setattr(encoder.model, "preprocess", lambda texts: pytest.fail("encoded again"))
    assert np.allclose(encoder.encode_query("Are backups encrypted?"), expected, atol=1e-6)
    with pytest.raises(pytest.fail.Exception, match="encoded again"):
        encoder.encode_query("Is there a firewall?")  # another question is encoded


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
