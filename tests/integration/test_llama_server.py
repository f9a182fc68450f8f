"""llama.cpp's own server with parallel slots, the optional set-up step for a team (issue #39 item
8, docs/models.md): ``make llama-server`` builds ``<venv>/bin/llama-server`` from the pinned
llama-cpp-python sdist's vendored llama.cpp with the same instruction set as the binding
(engine/llama_build.py ``install_server``). Here it serves the real SmolLM2-135M GGUF (the
registry's fast test model) with two slots, and the app's own HTTP client (``--llm-url``, the
Settings screen's "LLM server") drafts through it: two reviewers' calls at the same time are both
answered under the answer schema, each with its choice's probability, and the server says it has
two slots. Skips, naming the command, where the optional binary was not built."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine import llama_build
from engine.bench.llama_slots import SERVER, serving
from engine.drafting.generate import HttpGenerator, make_generator
from engine.drafting.generate.models import TEST_MODEL, resolve_model
from tests.integration.test_generate import CONTEXT, QUESTION, YES_NO, check_answer

pytestmark = pytest.mark.skipif(
    not SERVER.is_file(), reason=f"the optional llama-server is not built at {SERVER} (run `make llama-server`)"
)


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())


@pytest.fixture(scope="module")
def slots_url(tmp_path_factory):
    """``llama-server`` on 127.0.0.1 with two slots (``--parallel 2``), once /health answers
    (started as ``bench llama-slots`` starts it); its log kept beside the test."""
    log_path = tmp_path_factory.mktemp("llama_server") / "server.log"
    with log_path.open("w") as log, serving(resolve_model(TEST_MODEL), 2, log) as url:
        yield url


def test_the_server_was_built_from_the_pinned_source_for_the_stated_instruction_set():
    record = json.loads((Path(sys.prefix) / "llama-server.json").read_text())
    assert record["version"] == llama_build.VERSION
    assert record["cmake_args"] == llama_build.cmake_args(record["cpu"])
    assert "-DGGML_NATIVE=OFF" in record["cmake_args"] and "-DGGML_AMX_TILE=OFF" in record["cmake_args"]
    version = subprocess.run([str(SERVER), "--version"], capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and "version" in (version.stdout + version.stderr)


def test_two_calls_at_once_are_both_answered_by_the_slots(slots_url):
    assert get(slots_url + "/props")["total_slots"] == 2
    generator = make_generator(None, slots_url)
    assert isinstance(generator, HttpGenerator)
    calls = [(QUESTION, CONTEXT, YES_NO), ("How long are backups kept?", CONTEXT, [])]
    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(lambda call: generator.generate(*call), calls))
    check_answer(replies[0], YES_NO)
    check_answer(replies[1], [])
    assert replies[1].choice is None
    # the server's logprobs give the choice (or null) its probability against the other values
    assert generator.logprobs and replies[0].choice_probability is not None
    assert 0 < replies[0].choice_probability <= 1
    served = get(slots_url + "/slots")
    assert len(served) == 2
