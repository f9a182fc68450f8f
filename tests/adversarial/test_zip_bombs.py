"""Zip bombs and oversized workbooks: refused from the zip directory or a streaming count,
before openpyxl or python-docx builds anything, in one line naming the file, what was measured,
the limit and the flag — by ``kb add``, ``inspect`` and ``library import``, and by the app.

Before the limits (issue #16), the 3 MB cells bomb took ``kb add`` past 10 GB in 4 minutes
and ``inspect`` gave no answer in 10; here each refusal takes seconds and stays under the
memory the command needs to import its modules."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.adversarial import corpus
from tests.adversarial.conftest import CLI_IMPORTS_MB, assert_queryable, measured

BOMB_SECONDS = 10  # the bound for a zip bomb, CLI and app alike (CPU seconds: see conftest.py)
APP_MB = 500  # the bound on the memory the app spends on the bomb
APP_WARM_MB = 4_000  # the app with the embedder and the default LLM loaded by its warm-up


@pytest.fixture(scope="module")
def bombs(tmp_path_factory) -> dict[str, Path]:
    """Every oversized package once per module (≈ 10 s to write; 8 MB on disk)."""
    folder = tmp_path_factory.mktemp("bombs")
    return {
        "cells.xlsx": corpus.cells_bomb(folder / "cells.xlsx"),  # 3 MB → 1,150 MB of cells
        "whitespace.xlsx": corpus.whitespace_bomb(folder / "whitespace.xlsx"),  # 1 MB → 1,000 MB of spaces
        "body.docx": corpus.docx_bomb(folder / "body.docx"),  # 4 MB → 1,000 MB of paragraphs
        "lying.xlsx": corpus.lying_directory(folder / "lying.xlsx"),  # says 10 kB, inflates to 300 MB
        "dense.xlsx": corpus.many_cells(folder / "dense.xlsx", 1_200_000),  # 19 MB unpacked, 1.2 M cells
        "long.xlsx": corpus.many_rows(folder / "long.xlsx", 250_000),  # 6.5 MB unpacked, 250,000 rows
    }


EXPECTED = {  # what each refusal names
    "cells.xlsx": ("unpacks to 1,150.0 MB", "over the limit of 200 MB", "--max-unzipped-mb 1151"),
    "whitespace.xlsx": ("unpacks to 1,000.0 MB", "over the limit of 200 MB", "--max-unzipped-mb 1001"),
    "body.docx": ("unpacks to 1,000", "over the limit of 200 MB", "--max-unzipped-mb"),
    # a lying directory names no limit: none would make it safe (#56: the line suggested one far too low)
    "lying.xlsx": ("has more than 1,000,000 cells", "its zip directory says the part", "is 10,000 bytes", "no limit"),
    "dense.xlsx": ("has more than 1,000,000 cells", "over the limit of 1,000,000 cells", "--max-cells 1200"),
    "long.xlsx": (
        "has more than 200,000 rows",
        "over the limit of 200,000 rows",
        "(about 2",
        "--max-rows 2",
    ),  # ≈ 250,000
}


def test_kb_add_refuses_every_bomb_before_the_embedder_loads(tmp_path, bombs, store, encoder):
    folder = tmp_path / "incoming"
    folder.mkdir()
    for name, path in bombs.items():
        shutil.copy(path, folder / name)
    run = measured("kb", "add", str(folder), "--store", str(store))
    assert run.rc == 1, run.stderr  # nothing was added
    for name, words in EXPECTED.items():
        line = run.error_line(name)
        for word in words:
            assert word in line, line
        assert "RFP_MAX" in line or "readable" in line or "no limit makes such a file safe" in line
    assert "1 documents" in run.stdout  # the store as it was: handbook.pdf only
    assert run.within(BOMB_SECONDS, CLI_IMPORTS_MB), run
    assert_queryable(store, encoder)


@pytest.mark.parametrize("name", ["cells.xlsx", "whitespace.xlsx", "lying.xlsx", "dense.xlsx"])
def test_inspect_refuses_the_bomb_in_bounded_time_and_memory(bombs, name):
    run = measured("inspect", str(bombs[name]))
    assert run.rc == 2
    line = run.error_line(name)
    assert all(word in line for word in EXPECTED[name]), line
    assert run.within(BOMB_SECONDS, CLI_IMPORTS_MB), run


def test_library_import_refuses_the_bomb_and_keeps_the_library(tmp_path, bombs):
    run = measured("library", "import", str(bombs["cells.xlsx"]), "--store", str(tmp_path / "store"))
    assert run.rc == 1
    assert "--max-unzipped-mb 1151" in run.error_line("cells.xlsx")
    assert "0 entries in" in run.stdout
    assert run.within(BOMB_SECONDS, CLI_IMPORTS_MB), run


def test_a_raised_limit_is_honoured_and_the_next_limit_still_holds(bombs):
    """With the size limit raised (flag or variable), the 76 million cells are counted while
    unpacking and refused at the first million, still in bounded time and memory."""
    by_flag = measured("inspect", str(bombs["cells.xlsx"]), "--max-unzipped-mb", "2000")
    by_env = measured("inspect", str(bombs["cells.xlsx"]), env={"RFP_MAX_UNZIPPED_MB": "2000"})
    for run in (by_flag, by_env):
        line = run.error_line("cells.xlsx")
        assert "has more than 1,000,000 cells (about 76," in line and "--max-cells 76" in line, line
        assert run.within(BOMB_SECONDS, CLI_IMPORTS_MB), run
    bad = measured("inspect", str(bombs["cells.xlsx"]), "--max-cells", "0")
    assert bad.rc == 2 and "--max-cells / RFP_MAX_CELLS must be a whole number of cells, 1 or more" in bad.stderr


def test_the_app_refuses_the_bomb_and_stays_responsive(tmp_path, bombs):
    """Through the app (AppTest of ui/app.py, in its own process, its models loaded first): the
    Questionnaire screen says what the CLI says, in ≤ 10 s of CPU and ≤ 500 MB more memory,
    keeps no copy in questionnaires/incoming/, and a second session opens the Knowledge base
    screen meanwhile."""
    workspace = tmp_path / "workspace"
    run = measured(
        str(bombs["cells.xlsx"]), module="tests.adversarial.app_session", env={"RFP_WORKSPACE": str(workspace)}
    )
    assert run.rc == 0, run.stderr[-3000:]
    shown = json.loads(run.stdout.strip().splitlines()[-1])
    assert not shown["exception"], shown["exception"]
    (error,) = shown["errors"]
    assert "**cells.xlsx**: Unpacks to 1,150.0 MB" in error and "over the limit of 200 MB" in error
    assert "RFP\\_MAX\\_UNZIPPED\\_MB=1151" in error  # the app's way to raise it (Markdown-escaped)
    assert shown["cpu_seconds"] <= BOMB_SECONDS, shown
    assert shown["incoming_left"] == [] and shown["projects"] == []
    other = shown["other_session"]
    assert other["exception"] is False and other["title"] == ["Knowledge base"], other
    # the refusal's own memory: the process's peak afterwards less its resident memory before the
    # upload (the app had loaded the embedder and the LLM in the background first: ui/app.py)
    assert shown["added_mb"] <= APP_MB, shown
    assert run.peak_mb <= APP_WARM_MB, run  # the whole app process, models included
