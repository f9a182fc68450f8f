"""Searching within some documents (a scope), on a generated store with no model: four
documents of random unit vectors and random text, one point of another document planted as the
best possible match. The in-memory copy and Qdrant itself (its payload filter) must agree, and
agree with brute force over the allowed points only."""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from qdrant_client import QdrantClient

from engine.core.config import Mode
from engine.index.embed.hybrid import WeightedQuery, passage_vectors, query_vectors
from engine.index.embed.sparse import SparseModel
from engine.retrieval.modes import Within, weighted
from storage.lexical_index import LexicalIndex
from storage.vector_store import VectorIndex

DIM = 16
DOCS = ["a" * 64, "b" * 64, "c" * 64, "d" * 64]
WORDS = [f"term{i}" for i in range(80)]
QUESTION = "quasar ledger audit"  # words only the planted point holds


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=-1, keepdims=True)).astype(np.float32)


@pytest.fixture()
def store(tmp_path):
    rng = np.random.default_rng(11)
    texts = [" ".join(rng.choice(WORDS, size=rng.integers(5, 20))) for _ in range(160)]
    texts.append(QUESTION + " " + QUESTION)  # the planted point: document b, the best match
    owners = [DOCS[i % 3] for i in range(160)] + [DOCS[1]]  # d has no points
    dense = _unit(rng.normal(size=(len(texts), DIM)))
    probe = dense[-1].copy()
    sparse = SparseModel.fit(texts, dim=DIM)
    vectors = passage_vectors(texts, dense, sparse, 0.5)
    ids = [str(uuid.UUID(int=i + 1)) for i in range(len(texts))]
    payloads = [
        {"doc": f"{h[0]}.md", "doc_hash": h, "index": i, "text": t} for i, (h, t) in enumerate(zip(owners, texts))
    ]
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    index = VectorIndex.create(client, "kb_g1", DIM)
    index.upsert(ids, vectors, payloads)
    lexical = LexicalIndex.build(ids, [v.sparse for v in vectors], len(sparse.vocabulary))
    yield client, sparse, lexical, ids, owners, dense, probe
    client.close()


def _docs(scored) -> set[str]:
    return {s.payload["doc_hash"] for s in scored}


def test_dense_candidates_within_documents_are_the_best_allowed_points(store):
    client, _, _, ids, owners, dense, probe = store
    fast, qdrant = VectorIndex(client, "kb_g1"), VectorIndex(client, "kb_g1", in_memory=False)
    allowed = {DOCS[0], DOCS[2]}
    scores = dense @ probe
    brute = sorted((i for i in range(len(ids)) if owners[i] in allowed), key=lambda i: -scores[i])[:7]
    for index in (fast, qdrant):
        got = index.dense_candidates(probe, 7, allowed)
        assert [pid for pid, _ in got] == [ids[i] for i in brute]
        assert np.allclose([s for _, s in got], scores[brute], atol=1e-5)
        assert index.dense_candidates(probe, 1)[0][0] == ids[-1]  # unfiltered: the planted point
        assert index.dense_candidates(probe, 5, {DOCS[3]}) == []  # a document without points
        assert index.dense_candidates(probe, 5, set()) == []
    everything = fast.dense_candidates(probe, 1000, allowed)  # limit > allowed points
    assert len(everything) == sum(o in allowed for o in owners)


def test_weighted_within_never_returns_another_documents_best_match(store):
    client, sparse, lexical, ids, owners, _, probe = store
    fast, qdrant = VectorIndex(client, "kb_g1"), VectorIndex(client, "kb_g1", in_memory=False)
    query = WeightedQuery(probe, sparse.bm25_query(QUESTION))
    assert weighted(fast, lexical, query, 1, 0.5)[0].payload["index"] == len(ids) - 1  # the planted point wins
    rows = lexical.mask([tuple(pid for pid, o in zip(ids, owners) if o == doc) for doc in (DOCS[0], DOCS[2])])
    within = Within(frozenset({DOCS[0], DOCS[2]}), rows)
    got, want = weighted(fast, lexical, query, 10, 0.5, within), weighted(qdrant, lexical, query, 10, 0.5, within)
    assert [s.payload for s in got] == [s.payload for s in want] and len(got) == 10
    assert _docs(got) <= {DOCS[0], DOCS[2]}
    # the same as scoring the allowed points alone, by brute force
    allowed = [i for i, o in enumerate(owners) if o != DOCS[1]]
    bm25 = lexical.scores(query.sparse)
    fused = {i: 0.5 * float(fast.dense_vectors([ids[i]])[ids[i]] @ probe) + 0.5 * float(bm25[i]) for i in allowed}
    top = sorted(fused, key=fused.get, reverse=True)[:10]
    assert [s.payload["index"] for s in got] == top
    assert np.allclose([s.score for s in got], [fused[i] for i in top], atol=1e-5)


@pytest.mark.parametrize("mode", [m for m in Mode if m is not Mode.WEIGHTED])
def test_qdrant_modes_filter_inside_the_search(store, mode):
    client, sparse, _, ids, owners, _, probe = store
    vectors = query_vectors(QUESTION, probe, sparse, 0.5)
    for index in (VectorIndex(client, "kb_g1"), VectorIndex(client, "kb_g1", in_memory=False)):
        assert index.search(mode, vectors, 1)[0].payload["index"] == len(ids) - 1
        got = index.search(mode, vectors, 8, {DOCS[0], DOCS[2]})
        assert len(got) == 8 and _docs(got) <= {DOCS[0], DOCS[2]}
        assert index.search(mode, vectors, 8, {DOCS[1]})[0].payload["index"] == len(ids) - 1


def test_the_lexical_mask_zeroes_the_other_rows(store):
    _, sparse, lexical, ids, owners, _, _ = store
    query = sparse.bm25_query(QUESTION)
    full = lexical.scores(query)
    rows = lexical.mask([(ids[0], "not-a-point"), (ids[-1],)])
    assert rows.sum() == 2 and rows[0] and rows[-1]
    assert (lexical.mask([(ids[0], "not-a-point"), (ids[-1],)]) == rows).all()  # the second time from memory
    masked = lexical.scores(query, rows)
    assert masked[-1] == full[-1] > 0 and not masked[1:-1].any()
