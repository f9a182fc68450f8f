"""The in-memory copy of a local collection against Qdrant itself (two implementations that
must agree), on a generated store with no model: random unit vectors and BM25 of random text."""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from qdrant_client import QdrantClient

from engine.core.config import Mode
from engine.index.embed.hybrid import WeightedQuery, passage_vectors, query_vectors
from engine.index.embed.sparse import SparseModel
from engine.retrieval.modes import weighted
from storage.lexical_index import LexicalIndex
from storage.vector_store import VectorIndex

DIM = 24
WORDS = [f"term{i}" for i in range(120)] + ["encryption", "backup", "incident", "password", "audit"]


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=-1, keepdims=True)).astype(np.float32)


def _texts(rng: np.random.Generator, n: int) -> list[str]:
    return [" ".join(rng.choice(WORDS, size=rng.integers(5, 30))) for _ in range(n)]


@pytest.fixture()
def store(tmp_path):
    """300 points in a local Qdrant folder, their lexical index and the sparse model."""
    rng = np.random.default_rng(7)
    texts = _texts(rng, 300)
    sparse = SparseModel.fit(texts, dim=DIM)
    vectors = passage_vectors(texts, _unit(rng.normal(size=(len(texts), DIM))), sparse, 0.5)
    ids = [str(uuid.UUID(int=i + 1)) for i in range(len(texts))]
    payloads = [{"doc": "generated.md", "index": i, "text": t} for i, t in enumerate(texts)]
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    index = VectorIndex.create(client, "kb_g1", DIM)
    for start in range(0, len(ids), 128):  # several writes, as the knowledge base makes them
        index.upsert(ids[start : start + 128], vectors[start : start + 128], payloads[start : start + 128])
    lexical = LexicalIndex.build(ids, [v.sparse for v in vectors], len(sparse.vocabulary))
    yield client, sparse, lexical, rng
    client.close()


def test_local_mode_keeps_a_copy_and_a_server_is_always_asked(store):
    client, *_ = store
    assert VectorIndex(client, "kb_g1").in_memory
    assert not VectorIndex(client, "kb_g1", in_memory=False).in_memory
    server = QdrantClient(url="http://localhost:1", check_compatibility=False)  # never connects
    assert not VectorIndex(server, "kb_g1").in_memory


def test_weighted_and_dense_agree_with_qdrant(store):
    client, sparse, lexical, rng = store
    fast, qdrant = VectorIndex(client, "kb_g1"), VectorIndex(client, "kb_g1", in_memory=False)
    for text in _texts(rng, 20) + ["encryption audit", "nothing known here"]:
        dense = _unit(rng.normal(size=DIM))
        query = WeightedQuery(dense, sparse.bm25_query(text))
        for top_k in (1, 5, 60):
            got, want = weighted(fast, lexical, query, top_k, 0.5), weighted(qdrant, lexical, query, top_k, 0.5)
            assert [s.payload for s in got] == [s.payload for s in want]
            assert np.allclose([s.score for s in got], [s.score for s in want], atol=1e-6)
        vectors = query_vectors(text, dense, sparse, 0.5)
        got, want = fast.search(Mode.DENSE, vectors, 10), qdrant.search(Mode.DENSE, vectors, 10)
        assert [s.payload for s in got] == [s.payload for s in want]
        assert np.allclose([s.score for s in got], [s.score for s in want], atol=1e-6)


def test_vectors_payloads_and_unknown_ids_agree_with_qdrant(store):
    client, *_ = store
    fast, qdrant = VectorIndex(client, "kb_g1"), VectorIndex(client, "kb_g1", in_memory=False)
    ids = [str(uuid.UUID(int=i)) for i in (1, 50, 300, 301)]  # 301 is not stored
    got, want = fast.dense_vectors(ids), qdrant.dense_vectors(ids)
    assert got.keys() == want.keys() and len(got) == 3
    assert all(np.array_equal(got[pid], want[pid]) for pid in got)
    assert fast.payloads(ids) == qdrant.payloads(ids)
    fast.payloads(ids[:1])[ids[0]]["doc"] = "changed by a caller"
    assert fast.payloads(ids[:1])[ids[0]]["doc"] == "generated.md"  # callers get copies
    everything = fast.dense_candidates(np.ones(DIM, dtype=np.float32), 1000)  # limit > points
    assert sorted(pid for pid, _ in everything) == sorted(str(uuid.UUID(int=i + 1)) for i in range(300))


def test_a_write_after_a_search_is_seen(store):
    client, sparse, _, rng = store
    index = VectorIndex(client, "kb_g1")
    probe = _unit(rng.normal(size=DIM))
    assert len(index.dense_candidates(probe, 500)) == 300  # the copy is loaded now
    [vector] = passage_vectors(["encryption audit"], probe[np.newaxis, :], sparse, 0.5)
    new_id = str(uuid.UUID(int=1000))
    VectorIndex(client, "kb_g1").upsert([new_id], [vector], [{"doc": "new.md"}])
    best = index.dense_candidates(probe, 500)
    assert len(best) == 301 and best[0][0] == new_id and best[0][1] == pytest.approx(1.0, abs=1e-6)
    assert index.payloads([new_id]) == {new_id: {"doc": "new.md"}}
    VectorIndex.create(client, "kb_g1", DIM)  # recreated empty
    assert index.dense_candidates(probe, 5) == [] and index.payloads([new_id]) == {}
