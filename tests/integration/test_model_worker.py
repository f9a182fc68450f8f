"""The local model in a worker process (engine/drafting/generate/worker.py): a native crash of the model
ends one call with the signal named, never the process that asked. The crashing child is
``tests.model_probes.Segfaulting`` (it kills itself with SIGSEGV, as llama.cpp's AMX path did);
the drafting test kills the real SmolLM2 worker from outside while the workspace drafts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from engine.drafting.generate import GeneratorError, ModelCrashed, ModelWorker
from engine.drafting.generate.models import TEST_MODEL
from engine.drafting.generate.worker import signal_name
from tests.conftest import ROOT

SEGFAULTING = "tests.model_probes:Segfaulting"


def test_signal_names():
    assert signal_name(-11) == "SIGSEGV (signal 11)" and signal_name(-4) == "SIGILL (signal 4)"
    assert signal_name(3) == "exit status 3"


def test_a_model_process_killed_by_sigsegv_fails_the_call_with_the_signal_named_and_starts_again():
    worker = ModelWorker(None, factory=SEGFAULTING)
    try:
        first = worker.pid
        assert first is not None and first != os.getpid() and worker.count_tokens("three words here") == 3
        with pytest.raises(ModelCrashed, match=r"died with SIGSEGV \(signal 11\) while answering") as err:
            worker.chat_json([{"role": "user", "content": "Is data encrypted?"}], {"type": "object"})
        assert "segfaulting.gguf" in str(err.value) and "python -m engine doctor" in str(err.value)
        assert isinstance(err.value, GeneratorError) and worker.crashes == 1 and worker.pid is None
        assert worker.count_tokens("started again") == 2  # the next call starts a new child
        assert worker.pid not in (None, first)
    finally:
        worker.close()


def test_a_model_process_killed_between_calls_is_reported_by_the_next_call():
    worker = ModelWorker(None, factory=SEGFAULTING)
    try:
        os.kill(worker.pid, signal.SIGKILL)
        time.sleep(0.2)
        with pytest.raises(ModelCrashed, match="SIGKILL"):
            worker.count_tokens("a b")
        assert worker.count_tokens("a b") == 2
    finally:
        worker.close()


def test_the_suite_goes_on_after_a_model_process_segfaults(tmp_path):
    """A pytest run of two tests, the first drafting with a model whose process segfaults: that
    test fails with SIGSEGV named, the second still runs, and the run reports both."""
    (tmp_path / "test_inner.py").write_text(
        textwrap.dedent(f'''
        from engine.drafting.generate import ModelWorker
        from engine.drafting.generate.prompt import Passage

        def test_drafting_with_a_crashing_model():
            ModelWorker(None, factory="{SEGFAULTING}").generate("Is data encrypted?", [Passage("[1] a.pdf", "Yes.")], ["Yes", "No"])

        def test_after_it():
            assert True
    ''')
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_inner.py")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed" in run.stdout
    assert "ModelCrashed" in run.stdout and "SIGSEGV (signal 11)" in run.stdout


def test_a_model_that_cannot_load_is_refused_and_leaves_no_process(tmp_path):
    bad = tmp_path / "cut.gguf"
    bad.write_bytes(b"GGUF" + b"\0" * 4092)
    with pytest.raises(GeneratorError, match="could not load") as err:
        ModelWorker(str(bad))
    assert str(bad) in str(err.value)


def test_a_killed_model_worker_during_app_drafting_loses_no_stored_draft(tmp_path, encoder):
    """The workspace drafts with the real SmolLM2 in its worker; the worker is killed with
    SIGSEGV after the first drafts are stored: the run stops with the signal named, every
    stored draft is kept unchanged, and Start drafting again resumes and finishes the rest."""
    from engine.app.settings import Settings
    from engine.app.workspace import Workspace
    from engine.core.config import EngineConfig
    from engine.index.kb import KnowledgeBase
    from storage.vector_store import release
    from tests.fixtures import QUESTIONS, topic_pages, write_pdf, write_questionnaire

    docs = tmp_path / "docs"
    docs.mkdir()
    write_pdf(docs / "handbook.pdf", topic_pages())
    ws = Workspace(tmp_path / "ws", Settings())
    ws.__dict__["kb"] = KnowledgeBase(ws.folder, EngineConfig(), encoder)
    ws.kb.add([docs])
    worker = ModelWorker(TEST_MODEL)
    ws.__dict__["generator"] = worker
    questions = [(f"Q-{i}", text) for i, (_, text) in enumerate(QUESTIONS * 3, 1)]
    book = write_questionnaire(tmp_path / "Customer questionnaire.xlsx", questions=questions)
    try:
        project, _ = ws.add_questionnaire(book.name, book.read_bytes())
        ws.jobs.start(project.id)
        deadline = time.monotonic() + 300
        while ws.jobs.status(project.id).done < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(worker.pid, signal.SIGSEGV)
        stopped = ws.jobs.wait(project.id, timeout=300)
        assert not stopped.running and stopped.error and "SIGSEGV" in stopped.error, stopped
        kept = ws.review_store.latest_drafts(project.id)
        assert 2 <= len(kept) < len(questions)
        assert ws.review_store.runs(unfinished=True) == []  # the run ended, with its reason

        again = ws.jobs.start(project.id)  # Start drafting: the worker starts again, drafted questions are kept
        final = ws.jobs.wait(project.id, timeout=600)
        assert final.error is None and again.total == final.done == len(questions), final
        after = ws.review_store.latest_drafts(project.id)
        assert len(after) == len(questions)
        assert all(after[k] == d for k, d in kept.items())  # nothing stored before the crash changed
        assert worker.crashes == 1
    finally:
        worker.close()
        release(str(ws.folder / "qdrant"))


def test_the_llama_cpp_build_has_no_amx_and_no_native_only_code_path():
    """From llama.cpp's own system info (read in a child process): the library set-up built has
    no AMX, and every instruction set compiled in is one the stated portable set declares, so
    it runs on every CPU that set names, whatever CPU the build ran on. With the ``variants``
    build, the CPU backend the process loaded is the variant ggml should choose for this CPU
    (none with AMX is built), and what it reports compiled in is that variant's set."""
    from engine import llama_build
    from engine.cli.doctor import compiled_features

    code = (
        "import llama_cpp; from engine import llama_build; "
        "print(llama_build.loaded_cpu_backend()); print(llama_cpp.llama_print_system_info().decode())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    backend, info = out.split("\n", 1)
    features = compiled_features(info)
    assert features.get("SSE3"), info  # a CPU backend is loaded
    assert not any(v for k, v in features.items() if k.startswith("AMX")), info
    recorded = llama_build.recorded()
    assert recorded is not None, (
        f"{llama_build.record_path()} is missing: llama-cpp-python was not built by `make setup`"
    )
    assert "-DGGML_NATIVE=OFF" in recorded["cmake_args"] and recorded["cmake_args"] == llama_build.cmake_args(
        recorded["cpu"]
    )
    if recorded["cpu"] == llama_build.VARIANTS:
        tag = llama_build.best_variant()
        assert backend == f"libggml-cpu-{tag}.so" and tag in recorded["variants"], (backend, tag, recorded)
        assert not any("AMX" in feats for feats, _, _ in llama_build.CPU_VARIANTS.values())
        allowed = {"SSE3", "SSSE3"} | set(llama_build.CPU_VARIANTS[tag][0]) - {"SSE42"}
    else:
        assert features.get("AVX2") and features.get("FMA"), info
        allowed = {
            "avx2": {"SSE3", "SSSE3", "AVX", "AVX2", "F16C", "FMA", "BMI2"},
            "avx512": {
                "SSE3",
                "SSSE3",
                "AVX",
                "AVX2",
                "F16C",
                "FMA",
                "BMI2",
                "AVX512",
                "AVX512_VBMI",
                "AVX512_VNNI",
                "AVX512_BF16",
            },
        }[recorded["cpu"]]
    isa = {k for k, v in features.items() if v and k not in ("LLAMAFILE", "OPENMP", "REPACK", "KLEIDIAI")}
    assert isa <= allowed, f"compiled in beyond the {recorded['cpu']} set: {sorted(isa - allowed)}"
    assert recorded["cpu"] == llama_build.DEFAULT_CPU
