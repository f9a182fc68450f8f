"""Profile values: any text a responder means, never a control character (#36).

Before #36 a NUL typed into a profile value on the Knowledge base screen was saved, drafted into
the profile rows and written raw into the exported CSV, which the product's own ``inspect`` then
refused as binary; ``profile --set`` saved an escape sequence as it was; and ``profile --set
contact_phone -2+3`` failed in argparse ("expected 2 arguments"). Now a control character other
than a tab or a line break is refused in one line, nothing is written; the CSV writer drops such
characters whatever their source (a profile.json from before); and ``--set KEY -- VALUE`` takes
a value that starts with ``-`` (``--set KEY VALUE`` works as before).

The app test runs the real Knowledge base screen on a real workspace whose LLM is
``QuotingGenerator``, a stated fake (tests/ui/conftest.py): the test is about the profile form.
"""

from __future__ import annotations

import json

import pytest

from engine.index.profile import ProfileError, load_set, profile_of, saved_path, set_fact
from engine.questionnaire import read_questionnaire
from engine.questionnaire.csv_writer import csv_text
from engine.questionnaire.export import export
from engine.questionnaire.writes import CellWrite
from tests.adversarial.conftest import CLI_IMPORTS_MB, measured
from tests.ui.conftest import button, texts


def test_set_takes_a_value_that_starts_with_a_dash(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    run = measured("profile", "--store", str(store), "--set", "contact_phone", "--", "-2+3")
    assert run.rc == 0 and "Traceback" not in run.stderr, run.stderr
    assert "set contact_phone for the company" in run.stdout
    old_form = measured("profile", "--store", str(store), "--set", "support_hours", "9-5 MT", "--product", "Acme")
    assert old_form.rc == 0, old_form.stderr  # --set KEY VALUE, as before
    shown = measured("profile", "--store", str(store), "--json")
    company = json.loads(shown.stdout)["company"]
    assert company["contact_phone"]["value"] == "-2+3"
    assert load_set(store).products["Acme"]["support_hours"].value == "9-5 MT"
    assert all(r.within(cpu_seconds=20, peak_mb=CLI_IMPORTS_MB) for r in (run, old_form, shown))


def test_set_refuses_a_control_character_in_one_line_and_writes_nothing(tmp_path):
    store = tmp_path / "store"
    store.mkdir()
    set_fact(store, "contact_email", "security@acme.example")
    before = saved_path(store).read_bytes()
    run = measured("profile", "--store", str(store), "--set", "contact_phone", "555\x1b[2J0199")
    assert run.rc == 2, run.stderr
    line = run.error_line(str(saved_path(store)))
    assert "contact_phone not set: its value holds the control character U+001B (escape) at character 4" in line
    assert line.endswith("type the value again without it (tabs and line breaks are kept)")
    assert saved_path(store).read_bytes() == before
    missing = measured("profile", "--store", str(store), "--set", "contact_phone")
    assert missing.rc == 2 and "--set contact_phone needs a value" in missing.stderr, missing.stderr


@pytest.mark.parametrize("value", ["555\x000199", "Acme\x07Corp", "a\rb", "x\x85y"])
def test_set_fact_refuses_control_characters_and_keeps_tabs_and_line_breaks(tmp_path, value):
    with pytest.raises(ProfileError, match=r"not set: its value holds the control character U\+00"):
        set_fact(tmp_path, "vendor_name", value)
    assert not saved_path(tmp_path).exists()
    kept = set_fact(tmp_path, "address", "1 Main St\r\nSuite\t4")
    assert load_set(tmp_path).company["address"].value == kept.value == "1 Main St\nSuite\t4"


def test_a_nul_typed_in_the_app_is_refused_with_a_message(open_screen, ui_workspace):
    at = open_screen("knowledge_base")
    at.text_input(key="profile_key").input("contact_phone")
    at.text_input(key="profile_value").input("555\x000199")
    at = at.run()
    at = button(at, "Set fact").click().run()
    assert not at.exception, at.exception
    shown = texts(at.error).replace("\\", "")  # the message as Markdown, its "_" escaped
    assert "contact_phone not set: its value holds the control character U+0000 (NUL) at character 4" in shown
    assert "contact_phone" not in profile_of(ui_workspace.library).company


def test_csv_written_by_the_product_never_holds_a_nul(tmp_path):
    """A NUL from anywhere (a profile.json from before #36, a document) is dropped from every CSV
    the product writes: the questionnaire exported, read again by ``inspect``, and the review's download."""
    source = tmp_path / "q.csv"
    source.write_text("ID,Question,Answer\r\nGNRL-09,Vendor contact phone,\r\n", encoding="utf-8")
    out = export(source, tmp_path / "out.csv", [CellWrite("q", "C2", "555\x000199\x1b")])
    assert b"\x00" not in out.read_bytes()
    run = measured("inspect", str(out))
    assert run.rc == 0 and "Traceback" not in run.stderr, run.stderr
    assert read_questionnaire(out).questions[0].existing_answer == "5550199"
    download = csv_text(["id", "answer"], [["GNRL-09", "555\x000199"], ["GNRL-10", "\x00=1+2"]])
    assert "\x00" not in download and "'=1+2" in download  # still neutralised as a formula
