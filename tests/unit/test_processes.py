"""engine/core/processes.py ``stop``: a real child process that ends when asked, and one that
ignores the request (SIGTERM) and is killed after the grace period; both are waited for."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from engine.core.processes import stop


def child(code: str) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", code + "\nprint('ready', flush=True)\ntime.sleep(60)"], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "ready"
    return proc


def test_a_child_that_ends_when_asked_is_terminated():
    proc = child("import time")
    assert stop(proc, grace=10) == -signal.SIGTERM and proc.poll() is not None


def test_a_child_that_ignores_the_request_is_killed_after_the_grace_period():
    proc = child("import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)")
    started = time.monotonic()
    assert stop(proc, grace=0.5) == -signal.SIGKILL
    assert 0.5 <= time.monotonic() - started < 10 and proc.poll() is not None
