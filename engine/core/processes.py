"""Stopping a child process (a server the engine or a test started): asked to end first, killed
when it does not within a grace period, and always waited for, so no zombie or open port stays."""

from __future__ import annotations

import subprocess


def stop(proc: subprocess.Popen, grace: float = 30.0) -> int:
    """Terminate ``proc``, wait up to ``grace`` seconds, then kill it; its exit status."""
    proc.terminate()
    try:
        return proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()
