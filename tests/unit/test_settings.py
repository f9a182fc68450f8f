"""Settings: validated on the way in, saved as JSON, refused with the reason and the fix."""

from __future__ import annotations

import json

import pytest

from engine.app.settings import Settings, SettingsError
from engine.core.config import Mode


def test_defaults_round_trip(tmp_path):
    s = Settings()
    s.save(tmp_path)
    assert Settings.load(tmp_path) == s
    assert json.loads((tmp_path / "settings.json").read_text())["engine"]["mode"] == s.engine.mode.value


def test_changes_are_validated(tmp_path):
    s = Settings()
    changed = s.changed(mode="dense", alpha=0.3, top_k=8, llm_url="http://127.0.0.1:8080")
    assert changed.engine.mode is Mode.DENSE and changed.engine.alpha == 0.3 and changed.generator.llm_url
    with pytest.raises(SettingsError, match="alpha"):
        s.changed(alpha=1.5)
    with pytest.raises(SettingsError, match="retrieval mode"):
        s.changed(mode="magic")
    with pytest.raises(SettingsError, match="top_k"):
        s.changed(top_k=0)
    with pytest.raises(SettingsError, match="http"):
        s.changed(llm_url="ftp://server")
    with pytest.raises(SettingsError, match="model file not found"):
        s.changed(model=str(tmp_path / "missing.gguf"))
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"PK\x03\x04 a zip, not a model")
    with pytest.raises(SettingsError, match="not a GGUF"):
        s.changed(model=str(fake))
    with pytest.raises(SettingsError, match="not both"):
        s.changed(model=str(fake), llm_url="http://x")
    assert s.changed(model="  ", llm_url="").generator.label.startswith("Qwen2.5-Coder-1.5B")  # the default
    assert s.changed(model="smollm2-135m").generator.label.startswith("SmolLM2-135M")  # by name, no file check
    with pytest.raises(SettingsError, match="registered model name: qwen2.5-coder-1.5b, smollm2-135m"):
        s.changed(model="qwen-7b")
    quoting = s.changed(evidence="quotes")  # draft --evidence: how the model points at its evidence
    assert quoting.generator.evidence == "quotes" and Settings.from_json(quoting.to_json()) == quoting
    with pytest.raises(SettingsError, match="unknown evidence form 'labels'; use one of: quotes, sentences"):
        s.changed(evidence="labels")


def test_unreadable_file_names_the_fix(tmp_path):
    (tmp_path / "settings.json").write_text("{not json")
    with pytest.raises(SettingsError, match="delete it"):
        Settings.load(tmp_path)


def test_the_reviewers_name_defaults_to_the_login_name_and_is_validated(tmp_path, monkeypatch):
    """Every draft run, decision and comment carries a name (issue #39, item 1): the settings'
    reviewer, else the operating-system user, read when used (``getpass`` reads LOGNAME first)."""
    from engine.app.workspace import Workspace

    monkeypatch.setenv("LOGNAME", "jdoe")
    assert Settings().reviewer is None and Settings().reviewer_name == "jdoe"
    named = Settings().changed(reviewer="  Ana   Lima ")
    assert named.reviewer == "Ana Lima" and named.reviewer_name == "Ana Lima"
    named.save(tmp_path)
    assert json.loads((tmp_path / "settings.json").read_text())["reviewer"] == "Ana Lima"
    assert Settings.load(tmp_path) == named and Workspace(tmp_path).reviewer == "Ana Lima"
    assert named.changed(reviewer="").reviewer_name == "jdoe"  # emptied: the login name again
    for bad, said in (("a\nb", "line break"), ("x" * 81, "at most 80"), ("@ana", "starts with @")):
        with pytest.raises(SettingsError, match=said):
            Settings().changed(reviewer=bad)
    ws = Workspace(tmp_path / "other")
    ws.apply_settings(ws.settings.changed(reviewer="Bob"))  # a name alone: saved, nothing reloaded
    assert ws.reviewer == "Bob" and Settings.load(ws.folder).reviewer == "Bob"
