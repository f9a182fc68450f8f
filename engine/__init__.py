"""RFP review engine: plain Python, no UI."""

import os
import sys

# llama.cpp and torch share one OpenMP runtime, which reads this once at load: spinning
# worker threads make generation about 6x slower whenever another process uses the cores.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# PyMuPDF 2 imports its optional layout analyser (pymupdf.layout, installed with it) on first
# import and loads its ONNX models (≈ 1-3 s of CPU in every process that reads a PDF); the engine
# reads text only and never asks for a page layout, so the import is marked absent (PyMuPDF
# catches the ImportError) and its suggestion to install it is switched off.
sys.modules.setdefault("pymupdf.layout", None)
os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

# Python 3.11's ast.parse fails when two threads parse at once (engine/core/threadsafe_ast.py):
# Streamlit compiles screens while the warm-up thread reads .npy headers.
from engine.core.threadsafe_ast import install as _serialise_ast_parse  # noqa: E402

_serialise_ast_parse()
