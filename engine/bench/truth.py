"""The truth file of a filled questionnaire (JSON lines ``{id, question, answer, comment}``, as in
../shared/data/instructure/_extracted), read by the evaluations (engine/bench/evaluate.py, draft.py,
rows.py)."""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.types import FileProblem


def load_truth(path: str | Path) -> dict[str, dict]:
    """Truth lines ``{id, question, answer, comment}`` by id."""
    fix = (
        'give a JSON-lines file with one {"id", "answer"} object per line (as in ../shared/data/instructure/_extracted)'
    )
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        rows = [json.loads(line) for line in lines if line.strip()]
    except OSError as exc:
        raise FileProblem(path, f"the truth file cannot be read ({exc.strerror or exc})", fix) from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FileProblem(path, f"is not a JSON-lines truth file ({exc})", fix) from exc
    return {d["id"]: d for d in rows if isinstance(d, dict) and d.get("id")}


def yes_no(answer: str | None) -> str | None:
    """``Yes`` / ``No`` for a truth or draft answer spelled any way, else None."""
    return {"yes": "Yes", "no": "No"}.get((answer or "").strip().lower())
