"""Arguments that cannot work are refused in one line before any file is read or model loads.

Before #16: ``draft --limit 0`` drafted everything and ``--limit -1`` all but one; ``--store``
naming a file printed a FileExistsError traceback; ``--out`` equal to the questionnaire was
refused only after the model had loaded and drafted. Each refusal here takes about the time
and memory of importing the command line's modules (≈ 370 MB with the readers, the anchorer
and llama.cpp's bindings; no embedder, no LLM: loading torch alone takes ≈ 1 GB), and writes
nothing: no review.sqlite, the questionnaire unchanged."""

from __future__ import annotations

import pytest

from tests.adversarial.conftest import CLI_IMPORTS_MB, measured
from tests.fixtures import write_questionnaire


@pytest.fixture()
def questionnaire(tmp_path):
    return write_questionnaire(tmp_path / "q.xlsx")


def refused(run, *words: str) -> str:
    assert run.rc == 2 and "Traceback" not in run.stderr, run.stderr
    (line,) = run.lines
    assert line.startswith("error: ") and all(w in line for w in words), line
    assert run.within(cpu_seconds=10, peak_mb=CLI_IMPORTS_MB), run
    return line


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_draft_limit_must_be_one_or_more(tmp_path, questionnaire, limit):
    before = questionnaire.read_bytes()
    run = measured("draft", str(questionnaire), "--store", str(tmp_path / "store"), "--limit", limit)
    refused(run, f"--limit {limit} is not a number of questions to take; give 1 or more")
    assert not (tmp_path / "store").exists() and questionnaire.read_bytes() == before


@pytest.mark.parametrize(
    "command",
    [["kb", "add", "{q}"], ["search", "backups"], ["kb", "list"], ["library", "import", "{q}"], ["draft", "{q}"]],
)
def test_store_must_be_a_folder(tmp_path, questionnaire, command):
    not_a_folder = tmp_path / "store.txt"
    not_a_folder.write_text("my notes", encoding="utf-8")
    args = [a.format(q=questionnaire) for a in command]
    refused(measured(*args, "--store", str(not_a_folder)), f"--store {not_a_folder} is not a folder")
    inside = measured(*args, "--store", str(not_a_folder / "sub"))
    refused(inside, f"({not_a_folder} is a file)")
    assert not_a_folder.read_text(encoding="utf-8") == "my notes"


@pytest.mark.parametrize("flag", ["--out", "--results"])
def test_draft_outputs_are_never_the_questionnaire(tmp_path, questionnaire, flag):
    before = questionnaire.read_bytes()
    store = tmp_path / "store"
    (tmp_path / "sub").mkdir()
    alias = f"{tmp_path}/sub/../q.xlsx"  # the questionnaire under another spelling
    run = measured("draft", str(questionnaire), "--store", str(store), flag, alias)
    refused(run, f"{flag} {alias} is the questionnaire itself; write to a new file")
    same = measured(
        "draft",
        str(questionnaire),
        "--store",
        str(store),
        "--out",
        str(tmp_path / "o.xlsx"),
        "--results",
        str(tmp_path / "o.xlsx"),
    )
    refused(same, "--results and --out are the same file")
    assert questionnaire.read_bytes() == before and not store.exists()
