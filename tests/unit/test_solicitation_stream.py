"""A long solicitation shredded as a stream (engine/questionnaire/solicitation/shred.py, units.py):
progress page by page, a stop that keeps the requirements of the pages read, and the pages held
bounded by the splitter's window, on a 40-page PDF these tests write."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.questionnaire.solicitation import shred
from engine.questionnaire.solicitation.pages import read_pages
from engine.questionnaire.solicitation.shred import StopShredding
from engine.questionnaire.solicitation.units import page_units, stream_units
from tests.solicitation_fixtures import write_pdf

PAGES = 40
HEADER = "RFP 2026-ABC-17 Springfield Parks Maintenance"


def _page(n: int) -> list[str]:
    return [
        HEADER,
        f"{n}. TASK AREA {n}",
        f"{n}.1 The Contractor shall inspect the playground equipment of district {n} every week.",
        f"{n}.2 The Contractor shall submit an inspection report for district {n}.",
        f"{n}.3 The City will provide keys to the storage sheds of district {n}.",
        f"Page {n} of {PAGES}",
    ]


@pytest.fixture(scope="module")
def long_rfp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("long") / "long_rfp.pdf", [_page(n) for n in range(1, PAGES + 1)])


def _rows(requirements) -> list[tuple]:
    return [(r.id, r.page, r.quote, r.kind, r.mandatory) for r in requirements]


def test_progress_is_reported_page_by_page_with_the_page_count(long_rfp: Path) -> None:
    seen: list[tuple[str, int, int]] = []
    result = shred([long_rfp], progress=lambda name, page, pages: seen.append((name, page, pages)))
    assert seen == [("long_rfp.pdf", n, PAGES) for n in range(1, PAGES + 1)]
    assert result.stopped == "" and result.pages == PAGES
    assert len(result.requirements) == 2 * PAGES  # the City's sentence obliges nobody
    assert not any(HEADER in r.quote for r in result.requirements)  # the running header is skipped


@pytest.mark.parametrize("stop", [StopShredding, KeyboardInterrupt])
def test_a_stop_keeps_the_requirements_of_the_pages_read(long_rfp: Path, stop: type[BaseException]) -> None:
    whole = shred([long_rfp])

    def progress(name: str, page: int, pages: int) -> None:
        if page == 20:
            raise stop

    part = shred([long_rfp], progress=progress)
    assert part.pages == 20
    assert "stopped after page 20 of 40 of long_rfp.pdf" in part.stopped
    assert "run the same command again" in part.stopped
    assert _rows(part.requirements) == _rows(r for r in whole.requirements if r.page <= 20)  # same IDs, same quotes
    assert {f.fact for f in part.facts} == {f.fact for f in whole.facts}


def test_the_stream_holds_a_window_of_pages_not_the_file(long_rfp: Path) -> None:
    read: list[int] = []

    def pages():
        for page in read_pages(long_rfp):
            read.append(page.number)
            yield page

    first = next(stream_units(pages(), window=10))
    assert first.page == 1 and len(read) == 10  # page 1 split once the window ahead of it is read
    streamed = list(stream_units(read_pages(long_rfp), window=10))
    assert streamed == page_units(read_pages(long_rfp))  # a window that moves finds the same units
