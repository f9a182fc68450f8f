"""What every adversarial test checks, in one place.

* :func:`measured` runs a command in a child process and measures it from a small wrapper
  process whose only child is the command: ``resource.getrusage(RUSAGE_CHILDREN)`` gives its
  peak memory (``ru_maxrss``) and its CPU time (user + system), beside the wall time. Time
  bounds are on CPU time, which a busy shared machine does not stretch (the wall time is
  reported in failure messages). For reference, a ``python -m engine`` command that reads no
  document and no index (review, library, profile) starts in ≈ 80 MB and ≈ 1.5 s of CPU, one that
  opens the knowledge base in ≈ 130 MB and ≈ 3.5 s (Qdrant's client); ≈ 1 GB once the embedder
  (torch) is loaded. :func:`start` starts the same measured run and returns at once (its
  ``result()`` waits), optionally at the lowest priority (the sample's drafting run, tests/conftest.py).
* :meth:`Run.error_line` finds the one ``error: FILE: …`` line about a file and checks that
  nothing in the output is a Python traceback.
* :func:`killed_when` runs a command and kills it (SIGKILL) as soon as a condition holds;
  :func:`finished_drafts` counts the drafts a review store holds.
* :func:`assert_queryable` opens the store afterwards and retrieves from it.
* ``store``: a copy of a small knowledge base (one generated PDF, ``handbook.pdf``), released
  so that a command in another process can open it.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.core.config import EngineConfig
from engine.index.kb import KnowledgeBase
from engine.retrieval.retrieve import search
from storage.vector_store import release
from tests.fixtures import topic_pages, write_pdf
from tests.ui.conftest import downloads, open_screen, ui_workspace  # noqa: F401 (the UI fixtures, for the adversarial app tests)

ROOT = Path(__file__).resolve().parents[2]
MB = 1_000_000
CLI_IMPORTS_MB = 500  # the bound of a command that refuses its input before any model loads

_WRAPPER = r"""
import json, os, resource, subprocess, sys, time
if sys.argv[2] == "background":
    os.nice(19)  # inherited by the command: it runs on the cycles the rest of the session leaves idle
started = time.perf_counter()
try:
    rc = subprocess.run(sys.argv[3:], timeout=float(sys.argv[1])).returncode
except subprocess.TimeoutExpired:
    rc = "timeout"
seconds = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": rc, "seconds": seconds, "cpu_seconds": usage.ru_utime + usage.ru_stime,
                  "peak_mb": usage.ru_maxrss * 1024 / 1e6}), file=sys.stderr)  # ru_maxrss: kilobytes on Linux
"""


@dataclass(frozen=True)
class Run:
    rc: int | str
    stdout: str
    stderr: str
    seconds: float  # wall
    cpu_seconds: float  # user + system
    peak_mb: float

    def within(self, cpu_seconds: float, peak_mb: float) -> bool:
        """At most ``cpu_seconds`` of CPU and ``peak_mb`` of memory (use as ``assert run.within(…), run``)."""
        return self.cpu_seconds <= cpu_seconds and self.peak_mb <= peak_mb

    @property
    def lines(self) -> list[str]:
        """stderr as shown on a terminal: progress bars redrawn with CR keep their last state."""
        return [line.split("\r")[-1] for line in self.stderr.splitlines() if line.split("\r")[-1].strip()]

    def error_line(self, file: str) -> str:
        """The one ``error: FILE…`` line; fails on a traceback or on several lines for the file."""
        assert "Traceback" not in self.stderr + self.stdout, self.stderr[-3000:]
        found = [line for line in self.lines if line.startswith(f"error: {file}")]
        assert len(found) == 1, f"expected one error line about {file}, got {found}; stderr: {self.stderr[-2000:]}"
        return found[0]


class Started:
    """A command :func:`start` has started; :meth:`result` waits for it and measures it."""

    def __init__(self, command: list[str], env: dict[str, str] | None, timeout: float, background: bool) -> None:
        # files, not pipes: a command that writes more than a pipe holds must not stall until
        # someone reads it (a background run is read only at its end)
        self.stdout, self.stderr = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
        self.timeout, self.background = timeout, background
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WRAPPER, str(timeout), "background" if background else "-", *command],
            cwd=ROOT,
            stdout=self.stdout,
            stderr=self.stderr,
            text=True,
            env={**os.environ, **(env or {})},
        )

    def result(self) -> Run:
        """The run once it has ended: output, exit code, wall time, CPU time, peak memory. A
        background run that has not ended is first given the normal priority back (a test now
        waits for it), where the system lets this process raise it."""
        if self.background and self.process.poll() is None:
            _normal_priority(self.process.pid)
        try:
            self.process.wait(timeout=self.timeout + 60)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        self.stdout.seek(0), self.stderr.seek(0)
        stdout, stderr = self.stdout.read(), self.stderr.read()
        *rest, figures = stderr.rstrip("\n").split("\n")
        numbers = json.loads(figures)
        return Run(
            numbers["rc"], stdout, "\n".join(rest), numbers["seconds"], numbers["cpu_seconds"], numbers["peak_mb"]
        )


def _normal_priority(root: int) -> None:
    """Every thread of process ``root`` and of its descendants at nice 0 (Linux keeps the nice
    value per thread); nothing where the system refuses (lowering it needs privilege)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):  # ended meanwhile
            continue
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree, grown = tree | more, bool(more)
    for pid in tree:
        for task in Path(f"/proc/{pid}/task").glob("[0-9]*"):
            try:
                os.setpriority(os.PRIO_PROCESS, int(task.name), 0)
            except (OSError, ValueError):  # ended meanwhile, or not allowed
                continue


def start(
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 300,
    module: str = "engine",
    background: bool = False,
) -> Started:
    """``python -m MODULE ARGS…`` started in a child process, measured from a small wrapper whose
    only child it is; ``background``: at the lowest priority (``nice`` 19), so that it takes only
    the CPU the tests running meanwhile leave idle (its CPU time, the bound tests read, is the same)."""
    return Started([sys.executable, "-m", module, *args], env, timeout, background)


def measured(*args: str, env: dict[str, str] | None = None, timeout: float = 300, module: str = "engine") -> Run:
    """``python -m MODULE ARGS…`` in a child process: output, exit code, wall time, peak memory."""
    return start(*args, env=env, timeout=timeout, module=module).result()


def killed_when(args: list[str], ready, timeout: float = 300) -> None:
    """Run ``python -m engine ARGS`` and SIGKILL it as soon as ``ready()`` holds."""
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    started = time.perf_counter()
    try:
        while not ready() and process.poll() is None and time.perf_counter() - started < timeout:
            time.sleep(0.05)
        assert process.poll() is None, "the command ended before it could be killed"
    finally:
        process.kill()
        process.wait()


def finished_drafts(review_db: Path) -> int:
    """How many questions have a draft stored in ``review_db`` (0 before the store exists)."""
    if not review_db.exists():
        return 0
    try:
        with sqlite3.connect(review_db) as db:
            return db.execute("SELECT COUNT(DISTINCT key) FROM drafts").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is being created
        return 0


def assert_queryable(store: Path, encoder, expect: str = "handbook.pdf") -> None:
    """The store opens, and the backups question still finds ``expect`` first."""
    kb = KnowledgeBase(store, EngineConfig(), encoder)
    try:
        hits = search(kb, "How long are backups of the production databases kept?")
        assert hits and hits[0].chunk.doc == expect, [h.chunk.doc for h in hits]
    finally:
        release(str(store / "qdrant"))


@pytest.fixture(scope="session")
def store_template(tmp_path_factory, encoder) -> Path:
    folder = tmp_path_factory.mktemp("template") / "store"
    docs = folder.parent / "docs"
    docs.mkdir()
    kb = KnowledgeBase(folder, EngineConfig(), encoder)
    report = kb.add([write_pdf(docs / "handbook.pdf", topic_pages())])
    assert [d.name for d in report.added] == ["handbook.pdf"]
    release(str(folder / "qdrant"))
    return folder


@pytest.fixture()
def store(tmp_path, store_template) -> Path:
    """This test's own copy of the one-document store."""
    copy = tmp_path / "store"
    shutil.copytree(store_template, copy)
    return copy
