"""How an upload's shred reports its pages and stops in the served app's read-apart child
(issue #57 item 8, engine/app/read_apart.py): a generated RFP of ``--pages`` pages (default
1,000) read whole, then read again and stopped when page ``--pages``/2 is reported. Prints one
JSON line: seconds to the first page reported (the child's start and the PDF questionnaire
reader's pass over the whole file come first), seconds to read it whole, the rows found; for the
stop, the page it was asked at, the page it stopped after, the seconds from the stop to the
answer, and the rows kept (the same as ``read_questionnaire(pages=N)`` in this process).

    python -m tests.e2e.upload_progress_timing [--pages 1000]"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path

from engine.app.read_apart import Ceiling, Reading, read_apart
from engine.questionnaire.formats import read_questionnaire
from tests.solicitation_fixtures import long_pages, write_pdf

READ = "engine.questionnaire.formats:read_questionnaire"


def _timed(path: Path, stop_at: int | None) -> dict:
    reading, marks, start = Reading(), {}, time.monotonic()

    def watch() -> None:
        while "first" not in marks or (stop_at and "stop" not in marks):
            _, page, _ = reading.at
            if page and "first" not in marks:
                marks["first"] = time.monotonic() - start
            if stop_at and page >= stop_at and "stop" not in marks:
                marks["stop"], marks["asked_at"] = time.monotonic() - start, page
                reading.stop.set()
            time.sleep(0.002)

    threading.Thread(target=watch, daemon=True).start()
    found = read_apart(path.name, READ, path, reading=reading, ceiling=Ceiling(seconds=600))
    end = time.monotonic() - start
    out = {"first_page_s": round(marks.get("first", end), 2), "total_s": round(end, 2), "rows": len(found.questions)}
    if stop_at:
        kept = read_questionnaire(path, pages=reading.stopped_at)
        out |= {
            "stop_asked_at_page": marks.get("asked_at"),
            "stopped_after_page": reading.stopped_at,
            "stop_to_answer_s": round(end - marks.get("stop", end), 2),
            "rows_same_as_pages_n": [q.id for q in kept.questions] == [q.id for q in found.questions],
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000)
    pages = parser.parse_args().pages
    with tempfile.TemporaryDirectory() as folder:
        path = write_pdf(Path(folder) / "long_rfp.pdf", long_pages(pages))
        print(json.dumps({"pages": pages, "whole": _timed(path, None), "stopped": _timed(path, pages // 2)}))


if __name__ == "__main__":
    main()
