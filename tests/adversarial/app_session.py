"""The app under attack, in a process of its own (so that its peak memory is measured alone):
``python -m tests.adversarial.app_session FILE [NAME]`` runs ``ui/app.py`` under AppTest on the
workspace folder ``$RFP_WORKSPACE``. One session uploads FILE (as NAME) on the Questionnaire
screen while a second session opens the Knowledge base screen; prints one JSON line: how long
the upload took (wall, and CPU of the process meanwhile), what the screen said, what is left in
``questionnaires/incoming/``, and how the other session fared. The LLM is never loaded (nothing is drafted)."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "ui" / "app.py")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def open_screen(screen: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(f"screens/{screen}.py")
    return at.run()


def main(file: Path, name: str) -> dict:
    workspace = Path(os.environ["RFP_WORKSPACE"])
    at = open_screen("questionnaire")
    other: dict = {}

    def second_session() -> None:
        started = time.perf_counter()
        kb = open_screen("knowledge_base")
        other.update(seconds=round(time.perf_counter() - started, 2), exception=bool(kb.exception),
                     title=[t.value for t in kb.title])

    generation = at.session_state["questionnaire_uploader_generation"]
    at.file_uploader(key=f"questionnaire_uploader_{generation}").upload(name, file.read_bytes(), XLSX)
    started, cpu = time.perf_counter(), time.process_time()
    thread = threading.Thread(target=second_session)
    thread.start()
    at.run()
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu  # cpu: both sessions
    thread.join()
    incoming = workspace / "questionnaires" / "incoming"
    return {
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds, 2),
        "exception": [str(e.value) for e in at.exception],
        "errors": [str(e.value) for e in at.error],
        "success": [str(e.value) for e in at.success],
        "incoming_left": sorted(str(p.relative_to(incoming)) for p in incoming.rglob("*")) if incoming.exists() else [],
        "projects": [p.name for p in (workspace / "questionnaires").iterdir() if p.name != "incoming"]
        if (workspace / "questionnaires").exists() else [],
        "other_session": other,
    }


if __name__ == "__main__":
    path = Path(sys.argv[1])
    print(json.dumps(main(path, sys.argv[2] if len(sys.argv) > 2 else path.name)))
