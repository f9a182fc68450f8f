"""The app's Streamlit configuration (.streamlit/config.toml) keeps the promises the README makes:
local only, no usage statistics, no forced garbage collection after each rerun, and the PDF
viewer served from the app's static folder."""

import tomllib
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"


def test_the_server_is_local_and_sends_no_statistics():
    config = tomllib.loads(CONFIG.read_text())
    assert config["server"]["address"] == "127.0.0.1"
    assert config["browser"]["gatherUsageStats"] is False


def test_no_full_garbage_collection_after_each_rerun():
    # gc.collect(2) over the loaded models held the source page back by ~170 ms per question
    # (tests/e2e timing: selection → highlight 1.12–1.27 s with it, 0.74–0.85 s without)
    assert tomllib.loads(CONFIG.read_text())["runner"]["postScriptGC"] is False


def test_the_pdf_viewer_is_served_from_the_app_static_folder():
    # ui/components/pdf_viewer.py: from there the browser keeps the viewer's 2 MB script between
    # questions (Streamlit's component address made it download and compile it for every new viewer)
    assert tomllib.loads(CONFIG.read_text())["server"]["enableStaticServing"] is True
