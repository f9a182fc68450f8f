"""The dense encoder keeps the vectors of the texts it encoded (engine/index/embed/dense.py,
``REMEMBERED_TEXTS``): drafting encodes the retrieved passages' sentences for question after
question, the same sentences again and again. Real default embedder (int8 MiniLM on
onnxruntime): a remembered vector is the very vector the model gives, a text is encoded once,
what a caller does to the array it got changes nothing kept, and the memory is bounded."""

from __future__ import annotations

import numpy as np

from engine.core.config import DEFAULT_EMBEDDER
from engine.index.embed.dense import DenseEncoder
from tests.fixtures import sample_sentences


class _Counted:
    """The runtime as it is, each text it is given counted (how many times the model ran)."""

    def __init__(self, runtime) -> None:
        self.runtime, self.texts = runtime, []
        self.dim, self.max_seq_length = runtime.dim, runtime.max_seq_length

    def encode(self, texts, batch_size, progress=False):
        self.texts += list(texts)
        return self.runtime.encode(texts, batch_size, progress)

    def encode_one(self, text):
        self.texts.append(text)
        return self.runtime.encode_one(text)


def test_a_text_seen_again_is_looked_up_and_its_vector_is_the_models():
    fresh = DenseEncoder(DEFAULT_EMBEDDER, remembered=0)
    encoder = DenseEncoder(DEFAULT_EMBEDDER)
    counted = encoder.model = _Counted(encoder.model)
    a, b, c = sample_sentences()[:3]

    first = encoder.encode_passages([a, b, a])
    assert counted.texts == [a, b]  # the repeated text of one call is encoded once
    again = encoder.encode_passages([b, c, a])
    assert counted.texts == [a, b, c]  # only the new one
    asked = encoder.encode_query(c)
    assert counted.texts == [a, b, c]

    expected = fresh.encode_passages([a, b, c])
    assert np.array_equal(first, expected[[0, 1, 0]])
    assert np.array_equal(again, expected[[1, 2, 0]])
    assert np.array_equal(asked, expected[2])


def test_what_a_caller_does_to_its_array_changes_nothing_kept():
    encoder = DenseEncoder(DEFAULT_EMBEDDER)
    a = sample_sentences()[0]
    kept = encoder.encode_passages([a]).copy()
    encoder.encode_passages([a])[0] *= 0
    encoder.encode_query(a)[:] = 1
    assert np.array_equal(encoder.encode_passages([a]), kept)


def test_the_least_recently_used_texts_are_forgotten_past_the_bound():
    encoder = DenseEncoder(DEFAULT_EMBEDDER, remembered=2)
    counted = encoder.model = _Counted(encoder.model)
    a, b, c = sample_sentences()[:3]
    encoder.encode_passages([a, b])
    encoder.encode_passages([a])  # a is now the most recent
    encoder.encode_passages([c])  # b is forgotten
    encoder.encode_passages([a, b])
    assert counted.texts == [a, b, c, b]
    off = DenseEncoder(DEFAULT_EMBEDDER, remembered=0)
    counted = off.model = _Counted(off.model)
    off.encode_passages([a])
    off.encode_passages([a])
    assert counted.texts == [a, a]  # a benchmark's encoder encodes every time
