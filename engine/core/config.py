"""Engine configuration: frozen, validated, with closed sets as Enums."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import TypeVar


def models_dir() -> Path:
    """Where ``make bench-models`` and the model registry put assembled models: ``models/`` in the
    environment (.venv)."""
    return Path(sys.prefix) / "models"


def cache_home() -> Path:
    """The project's folder in the user's cache (``$XDG_CACHE_HOME`` or ``~/.cache``): built
    llama.cpp wheels (engine/llama_build.py) and derived ONNX graphs (engine/index/embed/int8_graph.py)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rfp-review"


E = TypeVar("E", bound=Enum)

# The dense encoder: all-MiniLM-L6-v2's int8 weights with integer arithmetic on onnxruntime
# (engine/index/embed/int8_graph.py), no PyTorch; FP32_EMBEDDER is the PyTorch model it was
# exported from, kept as an option and as the benchmarks' reference (docs/benchmarks.md).
DEFAULT_EMBEDDER = "all-MiniLM-L6-v2-int8-dynamic"
FP32_EMBEDDER = "all-MiniLM-L6-v2"


class Mode(str, Enum):
    """How a chunk and a question are turned into vectors and compared.

    dense         the embedder's vector alone
    paper         Eq. 3 of the RFP paper: α·B/‖B‖ + (1−α)·T/‖T‖ (T = TF-IDF reduced by SVD)
    concat        [√α·B̂, √(1−α)·T̂]: its dot product is exactly α·cos_B + (1−α)·cos_T
    dense+sparse  the dense vector plus a native Qdrant sparse BM25 vector, fused by
                  reciprocal rank
    weighted      the same two searches, fused by score: α·cos_dense + (1−α)·BM25/BM25max,
                  where BM25max is the best score the question could reach (so both parts
                  lie in [0, 1]); Qdrant computes it with a formula query over the candidates
    """

    DENSE = "dense"
    PAPER = "paper"
    CONCAT = "concat"
    DENSE_SPARSE = "dense+sparse"
    WEIGHTED = "weighted"

    @classmethod
    def parse(cls, value: str | Mode) -> Mode:
        try:
            return cls(value)
        except ValueError:
            allowed = ", ".join(m.value for m in cls)
            raise ValueError(f"unknown retrieval mode {value!r}; use one of: {allowed}") from None


class Strategy(str, Enum):
    """Retrieval over the knowledge base's other indexes (engine/index/kb_indexes.py,
    engine/retrieval/summary_rag.py), beside the chunk vectors of ``Mode``:

    summary         Summary RAG: the question picks the top documents by their summaries
                    (weighted scoring over the summary index), then the best passages within
                    them (weighted); the prompt gets each document's summary and its passages
    summary-only    the same documents; the prompt gets their summaries alone (ablation)
    content-only    the same documents and passages; the prompt gets the passages alone (ablation)
    atoms           a chunk scores the best cosine of the question with its sentence atoms
    atom-questions  … with its atoms and the LLM's questions about them (index mode, built by
                    `kb add --index-modes atom-questions`)
    """

    SUMMARY = "summary"
    SUMMARY_ONLY = "summary-only"
    CONTENT_ONLY = "content-only"
    ATOMS = "atoms"
    ATOM_QUESTIONS = "atom-questions"

    @classmethod
    def of(cls, value: str | Mode | Strategy | None) -> Strategy | None:
        """The strategy ``value`` names, or None (a ``Mode``, or nothing)."""
        try:
            return cls(value) if value is not None and not isinstance(value, Mode) else None
        except ValueError:
            return None


# Every value `--mode` takes: the chunk-vector modes, then the strategies.
RETRIEVAL_MODES = (*(m.value for m in Mode), *(s.value for s in Strategy))


def parse_mode(value: str | Mode | Strategy) -> Mode | Strategy:
    """A retrieval mode or strategy by name, or a ValueError listing every one."""
    strategy = Strategy.of(value)
    if strategy is not None:
        return strategy
    try:
        return Mode(value)
    except ValueError:
        raise ValueError(f"unknown retrieval mode {value!r}; use one of: {', '.join(RETRIEVAL_MODES)}") from None


# The atomic-unit modes (the atomic-units paper; engine/index/embed/atoms.py), also `bench retrieval` modes.
ATOM_MODES = (Strategy.ATOMS.value, Strategy.ATOM_QUESTIONS.value)

# Picked by `python -m engine bench retrieval` (figures: docs/benchmarks.md).
DEFAULT_MODE = Mode.WEIGHTED


class SummaryWriter(str, Enum):
    """Who writes the document summaries when documents are added (engine/index/summaries.py)."""

    LLM = "llm"  # the local LLM (the default model); extractive when no model can be loaded
    EXTRACTIVE = "extractive"  # the documents' most central sentences, no LLM

    @classmethod
    def parse(cls, value: str | SummaryWriter) -> SummaryWriter:
        return parse_choice(cls, value, "summary writer")


def parse_choice(enum: type[E], value: str | E, what: str) -> E:
    """``enum(value)``, or a ValueError naming the value and the allowed ones."""
    try:
        return enum(value)
    except ValueError:
        raise ValueError(f"unknown {what} {value!r}; use one of: {', '.join(m.value for m in enum)}") from None


@dataclass(frozen=True)
class EngineConfig:
    embedder: str = DEFAULT_EMBEDDER  # an ONNX embedder's name, or a sentence-transformers name or local path
    mode: Mode | Strategy = DEFAULT_MODE  # a strategy (summary, atoms…) is retrieved by engine/retrieval/summary_rag.py
    alpha: float = 0.5  # weight of the dense part in the hybrid modes
    top_k: int = 5
    chunk_overlap: int = 20  # tokens
    batch_size: int = 32  # dense encoding batch
    qdrant_url: str | None = None  # a Qdrant server; None = local mode on the store folder
    summaries: SummaryWriter = SummaryWriter.LLM  # who writes the document summaries at `kb add`

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", parse_mode(self.mode))
        object.__setattr__(self, "summaries", SummaryWriter.parse(self.summaries))
        if not 0.0 <= self.alpha <= 1.0:
            raise ValueError(f"alpha must be between 0 and 1 (got {self.alpha}); 0.5 weighs dense and TF-IDF equally")
        if self.top_k < 1:
            raise ValueError(f"top_k must be at least 1 (got {self.top_k})")
        if self.chunk_overlap < 0:
            raise ValueError(f"chunk_overlap must be 0 or more tokens (got {self.chunk_overlap})")
        if self.batch_size < 1:
            raise ValueError(f"batch_size must be at least 1 (got {self.batch_size})")

    @classmethod
    def from_env(cls, **overrides) -> EngineConfig:
        """Defaults, then RFP_* / QDRANT_URL environment variables, then explicit overrides."""
        env = {
            "embedder": os.environ.get("RFP_EMBEDDER"),
            "mode": os.environ.get("RFP_MODE"),
            "alpha": _float(os.environ.get("RFP_ALPHA")),
            "top_k": _int(os.environ.get("RFP_TOP_K")),
            "qdrant_url": os.environ.get("QDRANT_URL") or None,
            "summaries": os.environ.get("RFP_SUMMARIES") or None,
        }
        values = {k: v for k, v in env.items() if v is not None}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)


def _float(value: str | None) -> float | None:
    return None if value in (None, "") else float(value)


def _int(value: str | None) -> int | None:
    return None if value in (None, "") else int(value)
