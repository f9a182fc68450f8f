"""The app under attack, in a process of its own (so that its peak memory is measured alone):
``python -m tests.adversarial.app_session FILE [NAME]`` runs ``ui/app.py`` under AppTest on the
workspace folder ``$RFP_WORKSPACE``. The app loads its models in the background when it starts
(the embedder and the default LLM, ui/app.py); the session waits for that warm-up to end, so
that what the upload costs is measured apart from it. Then one session uploads FILE (as NAME)
on the Questionnaire screen and, while it is read in the background, a second session opens the
Knowledge base screen; prints one JSON line: how long the upload took (wall, and CPU of the process meanwhile), the most memory
the upload can have added (the process's peak afterwards less its resident memory before the
upload), what the screen said (once the upload, read in the background, has ended), what is left in ``questionnaires/incoming/``, and how the
other session fared. Nothing is drafted."""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui.components import upload_progress

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "ui" / "app.py")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def open_screen(screen: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page(f"screens/{screen}.py")
    return at.run()


def resident_mb() -> float:
    """This process's resident memory now (VmRSS)."""
    kb = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith("VmRSS:"))
    return int(kb.split()[1]) * 1024 / 1e6


def main(file: Path, name: str) -> dict:
    from ui.resources import workspace as app_workspace

    workspace = Path(os.environ["RFP_WORKSPACE"])
    at = open_screen("questionnaire")
    warming = app_workspace().warming  # the app's own workspace (st.cache_resource: one per process)
    warm_started = time.perf_counter()
    if warming is not None:
        warming.wait(600)
    warm = {
        "seconds": round(time.perf_counter() - warm_started, 1),
        "steps": {n: s.state.value for n, s in warming.steps.items()} if warming else {},
    }
    other: dict = {}

    def second_session() -> None:
        started = time.perf_counter()
        kb = open_screen("knowledge_base")
        other.update(
            seconds=round(time.perf_counter() - started, 2),
            exception=bool(kb.exception),
            title=[t.value for t in kb.title],
        )

    generation = at.session_state["questionnaire_uploader_generation"]
    at.file_uploader(key=f"questionnaire_uploader_{generation}").upload(name, file.read_bytes(), XLSX)
    before_mb = resident_mb()
    started, cpu = time.perf_counter(), time.process_time()
    # the upload is read in the background (#57: its page returns at once here), and the second session opens
    # meanwhile, in this thread: two AppTest runs at once would share AppTest's one mock runtime, which the
    # first to end takes away from the other ("Runtime hasn't been created!")
    upload_progress.WAIT = 0.0
    at.run()
    second_session()
    job = at.session_state[upload_progress.JOB] if upload_progress.JOB in at.session_state else None
    if job is not None and job.wait(600):
        at.run()  # the read ended: the page says what it said
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu  # cpu: both sessions
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6  # kilobytes on Linux
    incoming = workspace / "questionnaires" / "incoming"
    return {
        "seconds": round(seconds, 2),
        "cpu_seconds": round(cpu_seconds, 2),
        "added_mb": round(max(0.0, peak_mb - before_mb), 1),  # at most what the upload (and the other session) added
        "resident_before_mb": round(before_mb),
        "warm_up": warm,
        "exception": [str(e.value) for e in at.exception],
        "errors": [str(e.value) for e in at.error],
        "success": [str(e.value) for e in at.success],
        "incoming_left": sorted(str(p.relative_to(incoming)) for p in incoming.rglob("*")) if incoming.exists() else [],
        "projects": [p.name for p in (workspace / "questionnaires").iterdir() if p.name != "incoming"]
        if (workspace / "questionnaires").exists()
        else [],
        "other_session": other,
    }


if __name__ == "__main__":
    path = Path(sys.argv[1])
    print(json.dumps(main(path, sys.argv[2] if len(sys.argv) > 2 else path.name)))
