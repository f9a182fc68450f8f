"""No function outside tests/ is longer than 80 lines (issue #25: a module a newcomer reads in a
minute). Measured over the source with ``ast``: from the ``def`` line to the function's last line,
decorators left out, docstring included. The functions that were longer when the rule came are named
in ``LONGER`` with their length then: each may only shrink, and leaves the list once it is 80 lines
or fewer."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 80
LONGER = {  # function → its length when the rule came; to split, never to grow
}


def _sources() -> list[Path]:
    """Every Python file git knows outside tests/ (a checkout without git: every file under ROOT)."""
    try:
        names = subprocess.run(
            ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py") if ".venv" not in p.parts]
    return [ROOT / n for n in names if not n.startswith("tests/") and (ROOT / n).is_file()]


def function_lengths() -> dict[str, int]:
    """``path::name`` → lines, for every function and method (nested ones by their own name)."""
    out: dict[str, int] = {}
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                key = f"{path.relative_to(ROOT).as_posix()}::{node.name}"
                out[key] = max(out.get(key, 0), node.end_lineno - node.lineno + 1)
    return out


def test_no_function_is_longer_than_80_lines():
    lengths = function_lengths()
    assert lengths, f"no Python source found under {ROOT}"
    over = {k: n for k, n in lengths.items() if n > MAX_LINES and k not in LONGER}
    assert not over, (
        f"functions over {MAX_LINES} lines: {over}; split them into functions named for what each part does"
    )
    grown = {k: (lengths.get(k), n) for k, n in LONGER.items() if lengths.get(k, 0) > n}
    assert not grown, f"listed long functions that grew (now, then): {grown}; split them instead"
    done = sorted(k for k in LONGER if lengths.get(k, 0) <= MAX_LINES)
    assert not done, f"{done} are {MAX_LINES} lines or fewer now (or gone): take them out of LONGER"
