"""A long solicitation's upload in a real browser (issue #57 item 8): the app (``streamlit run
ui/app.py``, its uploads read in the read-apart child as served) driven by Playwright through
Debian's Chromium. Questionnaire → upload a 2,000-page RFP the test writes (the most pages an
upload may have): the bar says "Reading page N of 2000 of long_rfp.pdf" while it is shredded;
**Stop reading** stops it, and the requirements of the pages read are shown under one line
saying where it stopped; **Read the rest** reads it whole. Screenshots go to
``tests/e2e/screens/`` (git-ignored) as ``upload_progress_NN_<step>.png``."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_browser import NEEDS_CHROMIUM
from tests.e2e.test_browser_cases import assert_no_traceback, browser_on
from tests.solicitation_fixtures import long_pages, write_pdf

pytestmark = [pytest.mark.timeout(600), NEEDS_CHROMIUM]


def test_a_long_solicitation_upload_shows_its_pages_is_stopped_and_read_whole(tmp_path):
    rfp = write_pdf(tmp_path / "long_rfp.pdf", long_pages(2000))
    folder = tmp_path / "workspace"
    folder.mkdir()
    with browser_on(folder, tmp_path / "streamlit.log", "upload_progress") as app:
        page = app.page
        app.go("Questionnaire")
        app.uploader("Upload questionnaire").set_input_files(str(rfp))
        app.expect_text("of 2000 of long_rfp.pdf", timeout=120)  # the bar, page by page
        app.shot("reading")
        app.button("Stop reading").click()
        app.expect_text("was read only up to page", timeout=60)
        app.settle()
        body = page.locator("body").inner_text()
        found = re.search(r"Read only up to page (\d+) of 2000 of long_rfp\.pdf", body)
        assert found and 1 <= int(found.group(1)) < 2000, body[:3000]
        assert_no_traceback(app)
        app.shot("stopped")

        app.button("Read the rest").click()
        # the whole file read: the "read only up to" lines go (the earlier count of requirements is on the page
        # meanwhile, so "requirements found" alone would be seen before the rest is read)
        page.get_by_text("read only up to page").first.wait_for(state="detached", timeout=180_000)
        app.expect_text("requirements found", timeout=180)
        app.settle()
        body = page.locator("body").inner_text()
        assert "Read only up to" not in body and "was read only up to" not in body
        assert_no_traceback(app)
        app.shot("whole")
