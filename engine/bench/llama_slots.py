"""``bench llama-slots``: llama.cpp's own server (``make llama-server``) with one slot against
several, the same calls sent at once (docs/models.md).

For each slot count in turn, rounds alternating (1 4, 4 1, …), ``<venv>/bin/llama-server`` is
started on 127.0.0.1 with the model and ``--parallel N`` (the context: N × 4,096 tokens), one
call warms it, then ``calls`` drafting calls of the app's own HTTP client (``HttpGenerator``,
as ``--llm-url`` drafts) are sent at the same time: the wall time until the last answer and each
call's latency. A reviewer waiting on *Regenerate* while three others do feels the latency; a
team drafting feels the wall time. Figures are medians over the rounds."""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from engine.core.processes import stop
from engine.drafting.generate import Passage, make_generator
from engine.drafting.generate.models import resolve_model

SERVER = Path(sys.prefix) / "bin" / "llama-server"
PASSAGES = [
    Passage(
        "[1] Security_Overview.pdf p. 4", "All customer data is encrypted at rest with AES-256. Keys rotate yearly."
    ),
    Passage("[2] Business_Continuity_Plan.pdf p. 2", "Backups run every night and are kept for 35 days."),
]
QUESTIONS = (
    "Is customer data encrypted at rest?",
    "Are backups kept for at least 30 days?",
    "Are encryption keys rotated?",
    "Do backups run every night?",
)


@contextmanager
def serving(model: Path, slots: int, log=subprocess.DEVNULL) -> Iterator[str]:
    """``llama-server`` serving ``model`` on a free 127.0.0.1 port with ``slots`` slots (4,096
    tokens of context each), its output to ``log``: its URL once /health answers; stopped after."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [str(SERVER), "-m", str(model), "--host", "127.0.0.1", "--port", str(port),
           "--parallel", str(slots), "--ctx-size", str(4096 * slots)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while not _healthy(url):
            if proc.poll() is not None:
                raise SystemExit(f"error: {SERVER} exited with {proc.returncode}; fix: run it by hand to read why")
            if time.monotonic() > deadline:
                raise SystemExit(f"error: {SERVER} did not answer /health in 180 s")
            time.sleep(0.5)
        yield url
    finally:
        stop(proc)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/health", timeout=2) as resp:
            return json.loads(resp.read()).get("status") == "ok"
    except OSError:
        return False


def _round(model: Path, slots: int, calls: int) -> dict:
    with serving(model, slots) as url:
        generator = make_generator(None, url)
        generator.generate(QUESTIONS[0], PASSAGES, ["Yes", "No"])  # warm
        t0 = time.perf_counter()

        def one(i: int) -> float:
            generator.generate(QUESTIONS[i % len(QUESTIONS)], PASSAGES, ["Yes", "No"])
            return time.perf_counter() - t0

        with ThreadPoolExecutor(calls) as pool:
            latencies = sorted(pool.map(one, range(calls)))
        return {"wall_s": latencies[-1], "latencies_s": latencies}


def bench_llama_slots(slots: list[int], calls: int = 4, rounds: int = 2, model: str | None = None) -> dict:
    if not SERVER.is_file():
        raise SystemExit(f"error: {SERVER}: llama-server is not built; fix: make llama-server")
    path = resolve_model(model)
    runs: dict[int, list[dict]] = {n: [] for n in slots}
    for r in range(rounds):
        for n in slots if r % 2 == 0 else list(reversed(slots)):
            runs[n].append(_round(path, n, calls))
    return {
        "model": path.name,
        "calls_at_once": calls,
        "rounds": rounds,
        "slots": {
            str(n): {
                "wall_s": round(statistics.median(x["wall_s"] for x in rs), 2),
                "first_answer_s": round(statistics.median(x["latencies_s"][0] for x in rs), 2),
                "latency_p50_s": round(statistics.median(statistics.median(x["latencies_s"]) for x in rs), 2),
                "walls_s": [round(x["wall_s"], 2) for x in rs],
            }
            for n, rs in runs.items()
        },
    }
