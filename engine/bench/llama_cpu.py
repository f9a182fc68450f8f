"""``bench llama-cpu``: llama.cpp built for each CPU set of engine/llama_build.py, A/B interleaved.

Each set's wheel (built once, kept in ~/.cache/rfp-review) is unpacked into a folder of its own
and put first on ``PYTHONPATH`` of the child processes, so the same checkout, model and prompts
run against each build in turn. Per round, each set runs once, in alternating order (A B, B A,
…), so a machine that drifts weighs on both alike:

* ``engine doctor --json``: prompt and generation tokens per second of one answer prompt under
  the answer grammar (llama.cpp's own counters), the instruction sets the build reports and the
  CPU backend it loaded (for the ``variants`` set, the variant chosen for this CPU);
* ``engine draft`` of the bundled sample's first ``questions`` questions with the default
  model, on a knowledge base of the sample indexed once: seconds per question (the median of
  the drafts' own times: retrieval, prompt and generation).

The figures are medians over the rounds, and the median over the rounds of each set's ratio to
the first set's run of the same round (paired ratios: a machine shared with other jobs drifts
between rounds far more than within one).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from engine import llama_build

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "assets" / "sample"


def unpacked(cpu: str) -> Path:
    """A folder holding the ``cpu`` build of llama-cpp-python alone (for PYTHONPATH)."""
    wheel = llama_build.build_wheel(cpu)
    site = wheel.parent / "site"
    if not (site / "llama_cpp").is_dir():
        tmp = Path(tempfile.mkdtemp(dir=wheel.parent))
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(tmp), str(wheel)],
            check=True,
        )
        shutil.rmtree(site, ignore_errors=True)
        tmp.rename(site)
    return site


def _run(args: list[str], site: Path, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], env=env, cwd=ROOT, capture_output=True, text=True, **kw
    )


def _draft_seconds(site: Path, store: Path, questions: int, model: str | None, work: Path) -> list[float]:
    for leftover in store.glob("review.sqlite*"):
        leftover.unlink()  # a fresh review store: draft would resume the last run's drafts instead
    results = work / "results.jsonl"
    results.unlink(missing_ok=True)
    args = [
        "draft",
        str(SAMPLE / "questionnaire" / "Sample_Security_Questionnaire.xlsx"),
        "--store",
        str(store),
        "--limit",
        str(questions),
        "--out",
        str(work / "out.xlsx"),
        "--results",
        str(results),
    ]
    run = _run(args + (["--model", model] if model else []), Path(site))
    if run.returncode:
        raise RuntimeError(f"draft with the {site.parent.name} build failed ({run.returncode}): {run.stderr[-500:]}")
    return [json.loads(line)["seconds"] for line in results.read_text().splitlines() if line.strip()]


def bench_llama_cpu(cpus: list[str], rounds: int = 3, questions: int = 6, model: str | None = None) -> dict:
    sites = {cpu: unpacked(cpu) for cpu in cpus}
    figures: dict[str, dict[str, list]] = {
        cpu: {"prompt_tps": [], "generation_tps": [], "s_per_question": []} for cpu in cpus
    }
    compiled: dict[str, str] = {}
    loaded: dict[str, str | None] = {}
    with tempfile.TemporaryDirectory(prefix="bench-llama-cpu-") as tmp:
        work, store = Path(tmp), Path(tmp) / "store"
        if questions:
            add = _run(
                ["kb", "add", str(SAMPLE / "kb"), "--store", str(store), "--summaries", "extractive"], sites[cpus[0]]
            )
            if add.returncode:
                raise RuntimeError(f"indexing the sample failed: {add.stderr[-500:]}")
        for r in range(rounds):
            for cpu in cpus if r % 2 == 0 else cpus[::-1]:
                doctor = _run(["doctor", "--json"] + (["--model", model] if model else []), sites[cpu])
                report = json.loads(doctor.stdout.strip().splitlines()[-1])
                if "error" in report:
                    raise RuntimeError(f"the {cpu} build failed: {report['error']}")
                compiled[cpu] = report["llama_cpp"]["system_info"]
                loaded[cpu] = report["llama_cpp"].get("cpu_backend")
                figures[cpu]["prompt_tps"].append(report["speed"]["prompt_tokens_per_s"])
                figures[cpu]["generation_tps"].append(report["speed"]["generation_tokens_per_s"])
                if questions:
                    figures[cpu]["s_per_question"].append(
                        statistics.median(_draft_seconds(sites[cpu], store, questions, model, work))
                    )
                print(
                    f"round {r + 1}/{rounds} {cpu}: "
                    + ", ".join(f"{k} {v[-1]:.2f}" for k, v in figures[cpu].items() if v),
                    file=sys.stderr,
                    flush=True,
                )
    base = cpus[0]
    out: dict = {
        "rounds": rounds,
        "questions": questions,
        "cpu": llama_build.cpu_flags() and sorted(f for f in llama_build.cpu_flags() if f.startswith(("avx", "amx"))),
        "sets": {},
    }
    for cpu in cpus:
        med = {k: round(statistics.median(v), 3) for k, v in figures[cpu].items() if v}
        # each round's two runs are next to each other in time: their ratio is what drift spares
        paired = {
            k: round(statistics.median(x / y for x, y in zip(v, figures[base][k])), 3)
            for k, v in figures[cpu].items()
            if v
        }
        out["sets"][cpu] = {
            "cmake_args": llama_build.cmake_args(cpu),
            "system_info": compiled.get(cpu),
            "cpu_backend": loaded.get(cpu),
            "median": med,
            f"paired_ratio_to_{base}": paired,
            "runs": figures[cpu],
        }
    return out
