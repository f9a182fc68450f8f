"""``make test`` runs the suite on pytest-xdist workers (``-n auto --dist loadgroup``); the tests of
one group (tests/conftest.py ``group``: the browser tests, the readers of one session run) must run
in one worker, or the session run is drafted twice and the browser tests share a folder at once.

A real parallel session in a child process, on a small generated project whose conftest uses the
suite's own hook: each test writes the worker that ran it, and the tests of each group must share
one worker while the others are spread over both."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CONFTEST = """
import json, os, time
from pathlib import Path

import pytest

from tests.conftest import pytest_collection_modifyitems  # noqa: F401 (the suite's grouping)


@pytest.fixture(scope="session")
def killed_draft():
    return "a session run"


@pytest.fixture(autouse=True)
def _where(request):
    time.sleep(0.2)  # long enough for both workers to take tests
    yield
    with open(os.environ["WHERE"], "a") as f:
        f.write(json.dumps([request.node.name, os.environ.get("PYTEST_XDIST_WORKER")]) + "\\n")
"""


def _tests(prefix: str, count: int, fixture: str = "") -> str:
    return "".join(f"def test_{prefix}_{i}({fixture}):\n    pass\n\n\n" for i in range(count))


def test_each_group_runs_in_one_worker_and_the_rest_on_both(tmp_path):
    project = tmp_path / "project"
    (project / "e2e").mkdir(parents=True)
    (project / "conftest.py").write_text(CONFTEST)
    (project / "e2e" / "test_browser_a.py").write_text(_tests("browser_a", 3))
    (project / "e2e" / "test_browser_b.py").write_text(_tests("browser_b", 3))
    (project / "test_resume_a.py").write_text(_tests("resume_a", 3, "killed_draft"))
    (project / "test_resume_b.py").write_text(_tests("resume_b", 3, "killed_draft"))
    (project / "test_plain.py").write_text(_tests("plain", 16))
    where = tmp_path / "where.jsonl"
    env = {**os.environ, "WHERE": str(where), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-p",
            "no:cacheprovider",
            "-q",
            str(project),
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    workers: dict[str, set[str]] = defaultdict(set)
    for name, worker in map(json.loads, where.read_text().splitlines()):
        workers[name.split("_")[1]].add(worker)
    assert len(sum((list(w) for w in workers.values()), [])) >= 4  # every kind ran
    assert len(workers["browser"]) == 1, workers  # both browser files, one worker
    assert len(workers["resume"]) == 1, workers  # both readers of the session run, one worker
    assert workers["plain"] == {"gw0", "gw1"}, workers  # and the session is parallel
