"""Before/after figures of issue #56: each hostile file of tests/adversarial/test_hostile_structure.py
through ``python -m engine inspect`` in the checkout ROOT, measured by the adversarial tests' wrapper
(tests/adversarial/conftest.py: exit status, peak memory and CPU of the child; wall time), under a
3.5 GB address-space limit and a 150 s wall limit; one JSON line per file on stdout.

    python -m tests.adversarial.measure_hostile ROOT FOLDER [FILE…]

ROOT: the checkout to measure (this one, or the code before, e.g. ``git archive 4a1873d | tar -x -C
/tmp/base``); FOLDER: where the hostile files are written (once) and read from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.adversarial.conftest import _WRAPPER
from tests.adversarial.test_hostile_structure import CASES


def main(argv: list[str]) -> None:
    root, folder, *names = argv
    Path(folder).mkdir(parents=True, exist_ok=True)
    for name in names or list(CASES):
        path = Path(folder) / name
        if not path.exists():
            CASES[name][0](path)
        child = f"ulimit -v 3500000; exec {sys.executable} -m engine inspect {path}"
        run = subprocess.run(
            [sys.executable, "-c", _WRAPPER, "150", "-", "bash", "-c", child],
            cwd=root,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": root},
        )
        *rest, figures = run.stderr.rstrip("\n").split("\n")
        measured = json.loads(figures)
        stderr = "\n".join(rest)
        lines = [line for line in stderr.splitlines() if line.startswith(f"error: {name}")]
        print(
            json.dumps(
                {
                    "file": name,
                    "rc": measured["rc"],
                    "one_line": len(lines) == 1 and "Traceback" not in stderr,
                    "peak_mb": round(measured["peak_mb"]),
                    "cpu_s": round(measured["cpu_seconds"], 1),
                    "wall_s": round(measured["seconds"], 1),
                    "said": (lines[0] if lines else (stderr.strip().splitlines() or [""])[-1])[:200],
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
