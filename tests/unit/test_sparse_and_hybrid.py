"""TF-IDF/SVD + BM25 model: small corpora, exact persistence without pickle, hybrid algebra."""

from __future__ import annotations

import numpy as np
import pytest

from engine.index.embed.hybrid import concat_vectors, paper_vectors
from engine.index.embed.sparse import SparseModel

CORPUS = [
    "Customer data is encrypted at rest with AES-256 and keys rotate yearly.",
    "Backups run nightly and are kept for thirty-five days.",
    "Employees use single sign-on with multi-factor authentication.",
    "Incidents are triaged within fifteen minutes by the on-call engineer.",
]


def test_small_corpus_fewer_chunks_than_dimensions():
    model = SparseModel.fit(CORPUS, dim=384)
    svd = model.svd(CORPUS)
    assert svd.shape == (4, 384)
    assert model.components.shape[0] <= 4  # no more components than the corpus has rank
    assert np.allclose(np.linalg.norm(svd, axis=1), 1.0, atol=1e-5)
    assert np.allclose(svd[:, model.components.shape[0] :], 0.0)  # zero padding
    # each text is closest to itself in the reduced space
    assert list(np.argmax(svd @ svd.T, axis=1)) == [0, 1, 2, 3]


def test_svd_has_at_most_dense_dim_components():
    texts = [f"term{i} word{i % 13} topic{i % 7} shared" for i in range(60)]
    model = SparseModel.fit(texts, dim=16)
    assert model.components.shape[0] == 16
    assert model.svd(texts).shape == (60, 16)


def test_bm25_ranks_the_matching_text_first_and_query_scores_stay_in_unit_range():
    model = SparseModel.fit(CORPUS, dim=384)
    docs = model.bm25_passages(CORPUS)
    q = model.bm25_query("How long are backups kept?")
    scores = []
    for d in docs:
        weights = dict(zip(d.indices, d.values))
        scores.append(sum(weights.get(i, 0.0) * v for i, v in zip(q.indices, q.values)))
    assert int(np.argmax(scores)) == 1
    assert 0.0 < max(scores) <= 1.0
    assert model.bm25_query("the of and").indices == []  # stop words only: no lexical side


def test_stemming_matches_word_forms():
    model = SparseModel.fit(CORPUS, dim=384)
    assert set(model.bm25_query("encrypting rotation").indices) & set(model.bm25_passages(CORPUS)[0].indices)


def test_persistence_round_trip_without_pickle(tmp_path):
    model = SparseModel.fit(CORPUS, dim=384)
    model.save(tmp_path / "m")
    files = sorted(p.name for p in (tmp_path / "m").iterdir())
    assert files == ["components.npy", "df.npy", "params.json", "vocabulary.json"]
    loaded = SparseModel.load(tmp_path / "m")
    assert np.array_equal(loaded.svd(CORPUS), model.svd(CORPUS))
    assert loaded.bm25_passages(CORPUS) == model.bm25_passages(CORPUS)
    for name in ("components.npy", "df.npy"):
        np.load(tmp_path / "m" / name, allow_pickle=False)  # plain arrays, never objects


def test_corpus_of_only_stop_words_still_fits():
    model = SparseModel.fit(["the and of", "a an the"], dim=8)
    assert model.svd(["the"]).shape == (1, 8)
    assert not model.svd(["the"]).any()


@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.5, 1.0])
def test_concat_dot_is_the_weighted_sum_of_cosines(alpha):
    rng = np.random.default_rng(0)
    b = rng.normal(size=(5, 8)).astype(np.float32)
    t = rng.normal(size=(5, 8)).astype(np.float32)
    b /= np.linalg.norm(b, axis=1, keepdims=True)
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    c = concat_vectors(b, t, alpha)
    expected = alpha * (b @ b.T) + (1 - alpha) * (t @ t.T)
    assert np.allclose(c @ c.T, expected, atol=1e-5)


def test_paper_vectors_follow_eq3_up_to_length():
    b = np.array([[1.0, 0.0]], dtype=np.float32)
    t = np.array([[0.0, 1.0]], dtype=np.float32)
    v = paper_vectors(b, t, 0.25)
    raw = 0.25 * b + 0.75 * t
    assert np.allclose(v, raw / np.linalg.norm(raw))
