"""The integer-arithmetic int8 embedder (``all-MiniLM-L6-v2-int8-dynamic``,
engine/index/embed/int8_graph.py), all real: its graph derived from the installed package's ONNX
file into a cache folder of the test's own (``XDG_CACHE_HOME``), onnxruntime running it, the fp32
all-MiniLM-L6-v2 to compare with. What is checked: the graph's MatMuls of weights are integer ones
(also after onnxruntime's own optimisation), its vectors stay within a stated cosine of fp32 on the
bundled sample's sentences and do not depend on the batch, and a damaged cache file is derived
again while one onnxruntime cannot read is refused in one line naming it and the fix."""

from __future__ import annotations

import collections
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime
import pytest

from engine.index.embed.int8_graph import cached_file
from engine.index.embed.onnx_int8 import INT8_DYNAMIC_EMBEDDER, OnnxRuntime, onnx_spec
from engine.index.errors import EmbedderError
from tests.fixtures import sample_questions, sample_sentences

ROOT = Path(__file__).resolve().parents[2]
SPEC = onnx_spec(INT8_DYNAMIC_EMBEDDER)
WEIGHT_MATMULS = 36  # Q, K, V, attention output and the two feed-forward MatMuls of 6 layers
# Measured on these 63 sentences: cosine with fp32 mean 0.9974, min 0.9945 (the per-tensor
# DynamicQuantizeLinear of quantize_dynamic gave 0.9906 / 0.9827)
COSINE_MEAN, COSINE_MIN = 0.995, 0.99
# fp32 cosine: sentences this close to the 5th best may swap places (worst measured: 0.0126 below;
# the fp32-arithmetic int8 embedder stays within 0.01, tests/integration/test_int8_embedder.py)
NEAR_TIE = 0.02


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A cache folder of this module's own, the graph derived into it once."""
    folder = tmp_path_factory.mktemp("xdg")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield folder


@pytest.fixture(scope="module")
def int8(cache) -> OnnxRuntime:
    return OnnxRuntime(SPEC)


@pytest.fixture(scope="module")
def sentences() -> list[str]:
    return sample_sentences()


@pytest.fixture(scope="module")
def questions() -> list[str]:
    return sample_questions()


def _ops(model: onnx.ModelProto) -> collections.Counter:
    return collections.Counter(node.op_type for node in model.graph.node)


def test_the_derived_graph_multiplies_weights_in_integers(int8, tmp_path):
    derived = cached_file(SPEC.name, SPEC.sha256)
    assert derived.is_file() and derived.parent.parent.parent == Path(os.environ["XDG_CACHE_HOME"])
    model = onnx.load(str(derived))
    ops = _ops(model)
    weights = {t.name: t for t in model.graph.initializer}
    assert ops["MatMulInteger"] == WEIGHT_MATMULS and ops["IsNaN"] == 0
    for node in model.graph.node:
        if node.op_type == "MatMulInteger":  # both operands uint8, the weight a constant
            assert weights[node.input[1]].data_type == onnx.TensorProto.UINT8
    # what onnxruntime runs after its own optimisation: no fp32 MatMul with a constant weight left,
    # only the attention's activation×activation ones (two per layer)
    options = onnxruntime.SessionOptions()
    options.optimized_model_filepath = str(tmp_path / "optimised.onnx")
    onnxruntime.InferenceSession(str(derived), options, providers=["CPUExecutionProvider"])
    optimised = onnx.load(str(tmp_path / "optimised.onnx"))
    constants = {t.name for t in optimised.graph.initializer}
    float_matmuls = [n for n in optimised.graph.node if n.op_type in ("MatMul", "FusedMatMul", "Gemm")]
    assert _ops(optimised)["MatMulInteger"] == WEIGHT_MATMULS
    assert len(float_matmuls) == 12 and not any(n.input[1] in constants for n in float_matmuls)


def test_its_vectors_are_within_the_stated_cosine_of_fp32(fp32_encoder, int8, sentences, questions):
    assert len(sentences) >= 50
    fp32, quantised = fp32_encoder.encode_passages(sentences), int8.encode(sentences, 32)
    assert quantised.dtype == np.float32 and np.allclose(np.linalg.norm(quantised, axis=1), 1.0, atol=1e-5)
    cosine = np.sum(fp32 * quantised, axis=1)
    assert cosine.mean() >= COSINE_MEAN and cosine.min() >= COSINE_MIN, (cosine.mean(), cosine.min())
    asked = np.vstack([int8.encode_one(q) for q in questions])
    assert np.sum(asked * fp32_encoder.encode_queries(questions), axis=1).min() >= COSINE_MIN
    # the same best sentence for each question, and no sentence in its top 5 that fp32 scores
    # more than NEAR_TIE below its own 5th
    for row, other in zip(fp32_encoder.encode_queries(questions) @ fp32.T, asked @ quantised.T):
        best, best_int8 = np.argsort(-row)[:5], np.argsort(-other)[:5]
        assert best[0] == best_int8[0]
        assert min(row[best_int8]) >= row[best[4]] - NEAR_TIE


def test_a_text_has_the_same_vector_alone_and_in_any_batch(int8, sentences, questions):
    """Activations are quantised per token, so neither the other texts of a batch nor its
    padding move a text's vector (with one scale per batch, a question's cosine to itself
    batched was 0.987)."""
    alone = np.vstack([int8.encode_one(q) for q in questions])
    assert np.allclose(alone, int8.encode(questions, 32), atol=1e-5)
    mixed = int8.encode(questions + sentences, 32)[: len(questions)]  # longer neighbours, more padding
    assert np.allclose(alone, mixed, atol=1e-5)


def _whole(derived: Path) -> bool:
    recorded = derived.with_name(derived.name + ".sha256").read_text(encoding="ascii").strip()
    return hashlib.sha256(derived.read_bytes()).hexdigest() == recorded


def test_a_damaged_cache_file_is_derived_again(int8, questions):
    derived = cached_file(SPEC.name, SPEC.sha256)
    expected = np.vstack([int8.encode_one(q) for q in questions[:5]])
    whole = derived.read_bytes()
    damages = {
        "one byte flipped": lambda: derived.write_bytes(whole[:1000] + bytes([whole[1000] ^ 0xFF]) + whole[1001:]),
        "truncated": lambda: derived.write_bytes(whole[: len(whole) // 2]),
        "digest missing": lambda: derived.with_name(derived.name + ".sha256").unlink(),
        "file missing": lambda: derived.unlink(),
    }
    for what, damage in damages.items():
        damage()
        again = OnnxRuntime(SPEC)
        assert derived.read_bytes() == whole and _whole(derived), what
        assert np.allclose(np.vstack([again.encode_one(q) for q in questions[:5]]), expected, atol=1e-6), what


def test_a_cache_file_onnxruntime_cannot_read_is_refused_in_one_line(int8, tmp_path, monkeypatch):
    """A file that matches its recorded digest but is not a model (both replaced): refused, naming
    the cache file and the fix, in one line."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    derived = cached_file(SPEC.name, SPEC.sha256)
    derived.parent.mkdir(parents=True)
    derived.write_bytes(b"not an onnx model")
    derived.with_name(derived.name + ".sha256").write_text(hashlib.sha256(b"not an onnx model").hexdigest())
    with pytest.raises(EmbedderError) as refused:
        OnnxRuntime(SPEC)
    message = str(refused.value)
    assert message.startswith(f"{derived}: onnxruntime cannot load it (") and "\n" not in message
    assert message.endswith("; delete it (it is derived again at the next load)")
    derived.unlink()  # the fix it names
    assert OnnxRuntime(SPEC).encode_one("backups").shape == (SPEC.dim,)


def test_a_cache_that_cannot_be_written_is_skipped(int8, tmp_path, monkeypatch, questions):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    runtime = OnnxRuntime(SPEC)  # derived in memory
    assert np.allclose(runtime.encode_one(questions[0]), int8.encode_one(questions[0]), atol=1e-6)


def test_a_cached_load_does_not_import_onnx(int8, cache):
    """A child process with the module's (filled) cache: only the cached file is read."""
    code = (
        "import sys\n"
        "from engine.index.embed.onnx_int8 import INT8_DYNAMIC_EMBEDDER, OnnxRuntime, onnx_spec\n"
        "OnnxRuntime(onnx_spec(INT8_DYNAMIC_EMBEDDER)).encode_one('backups')\n"
        "print('onnx' in sys.modules)\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "False", done.stderr[-2000:]
