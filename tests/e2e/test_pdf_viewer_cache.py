"""The PDF viewer's script is kept by the browser between questions (ui/components/pdf_viewer.py).

Every question shown on a new page opens a new viewer, a new frame that loads the viewer's page
and its 2 MB script. Served from Streamlit's component address the script comes with no date and
no validator, so Chromium downloads it again for every viewer; served from the app's static
folder (``/app/static/pdf_viewer/``) it comes with its date (``Last-Modified``), from which the
browser keeps it fresh for a tenth of its age without asking again. The app is started as
``streamlit run ui/app.py`` on an empty workspace and opened once; Debian's Chromium through
Playwright loads the viewer's page twice in one browser context, as two questions do: the second
time the script comes from the browser's cache (nothing transferred). The package's own address
is loaded the same way beside it, to show what this avoids."""

from __future__ import annotations

import re
import urllib.request

import pytest

from tests.e2e.test_browser import CHROMIUM, CHROMIUM_ARGS, NEEDS_CHROMIUM, streamlit_app

pytestmark = [
    pytest.mark.timeout(300),
    NEEDS_CHROMIUM,
]

SCRIPT = re.compile(r'src="(js/chunk-vendors\.[0-9a-f]+\.js)"')
TRANSFERRED = """() => performance.getEntriesByType('resource')
    .filter(r => r.name.includes('/js/chunk-vendors.')).map(r => r.transferSize)"""


def transferred(page, url: str) -> list[int]:
    """Bytes transferred for the viewer's script when ``url`` (its page) is opened."""
    page.goto(url, wait_until="load")
    return page.evaluate(TRANSFERRED)


def test_the_viewer_script_is_served_once_per_browser(tmp_path):
    from playwright.sync_api import sync_playwright

    from ui.components.pdf_viewer import SERVED, pdf_viewer  # noqa: F401 - the import puts the page in ui/static

    assert (SERVED / "index.html").is_file()
    with streamlit_app(tmp_path / "ws", tmp_path / "streamlit.log") as url:
        ours = f"{url}/app/static/pdf_viewer/index.html"
        package = f"{url}/component/streamlit_pdf_viewer.streamlit_pdf_viewer/index.html"
        with urllib.request.urlopen(ours, timeout=30) as r:
            script = f"{url}/app/static/pdf_viewer/{SCRIPT.search(r.read().decode()).group(1)}"
        with urllib.request.urlopen(script, timeout=30) as r:  # its date: the browser keeps it fresh a while
            assert r.headers["Last-Modified"] and len(r.read()) > 1_000_000

        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
            try:
                page = browser.new_context().new_page()
                page.goto(url)  # the Review screen runs once: the package's component is declared in the server
                page.get_by_text("There is no questionnaire to review yet").wait_for(timeout=120_000)
                first, second = transferred(page, ours), transferred(page, ours)
                assert first and first[0] > 100_000, first  # downloaded once (gzip or not)
                assert second == [0], second  # then from the browser's cache
                # the package's address: downloaded again each time (what every new viewer cost before)
                theirs = transferred(page, package) + transferred(page, package)
                assert len(theirs) == 2 and all(t > 100_000 for t in theirs), theirs
            finally:
                browser.close()
