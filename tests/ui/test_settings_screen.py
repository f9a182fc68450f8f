"""Settings screen (AppTest) on a real workspace: the saved values are shown, a bad value (a file
that is not a GGUF model, a server address that is not an http(s) URL; α is bounded by its
slider; an embedder that is not on this computer) is refused with its reason and settings.json stays as it was, a good change is saved to settings.json, a new α asks for a
re-index, and nothing can be saved while drafting runs.

(Named ``*_screen`` so that its module name differs from tests/unit/test_settings.py: the test
folders have no ``__init__.py``.) No LLM is loaded: only the settings are tested."""

from __future__ import annotations

import json

from engine.app.settings import GeneratorConfig, Settings
from engine.core.config import DEFAULT_EMBEDDER, EngineConfig
from engine.drafting.generate.models import DEFAULT_MODEL, MODELS, TEST_MODEL, resolve_model
from tests.fixtures import QuotingGenerator, topic_pages, write_pdf, write_questionnaire
from tests.ui.conftest import add_questionnaire, button, texts
from ui.components.messages import escape_md


def saved(ws) -> dict | None:
    path = ws.folder / "settings.json"
    return json.loads(path.read_text()) if path.is_file() else None


def info_table(at) -> dict[str, str]:
    table = at.dataframe[-1].value
    return dict(zip(table["Item"], table["Value"]))


def test_current_values_and_refused_values(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    ws.apply_settings(Settings(EngineConfig(alpha=0.4, top_k=6)))  # a saved, non-default state
    before = saved(ws)
    at = open_screen("settings")
    assert not at.exception
    assert at.radio(key="settings_llm").value == DEFAULT_MODEL  # no model saved: the registry's default
    assert at.text_input(key="settings_embedder").value == DEFAULT_EMBEDDER
    assert at.selectbox(key="settings_mode").value == EngineConfig().mode.value
    assert at.slider(key="settings_alpha").value == 0.4
    assert at.number_input(key="settings_top_k").value == 6
    info = info_table(at)
    assert info["Workspace folder"] == str(ws.folder) and info["Documents"] == "0" and info["Chunks"] == "0"

    # a GGUF file chosen but not named (it would silently mean the default model)
    at.radio(key="settings_llm").set_value("GGUF model file").run()
    button(at, "Save settings").click()
    at.run()
    assert "The settings were not saved. The model file is empty; give the path of a .gguf model file" in texts(
        at.error
    )
    assert saved(ws) == before

    # a file that is not a GGUF model
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"not a model at all")
    at.text_input(key="settings_model").input(str(fake))
    button(at, "Save settings").click()
    at.run()
    assert not at.exception
    assert f"The settings were not saved. {escape_md(str(fake))}: not a GGUF model file" in texts(at.error)
    assert saved(ws) == before and ws.settings.generator.model is None

    # α cannot leave 0–1: the slider is bounded, and Streamlit puts an out-of-range value back
    alpha = at.slider(key="settings_alpha")
    assert (alpha.min, alpha.max) == (0.0, 1.0)

    # a server address that is not an http(s) URL
    at.radio(key="settings_llm").set_value("LLM server (OpenAI-compatible)").run()
    at.text_input(key="settings_llm_url").input("localhost:8080")
    button(at, "Save settings").click()
    at.run()
    assert "is not an http(s) URL" in texts(at.error)
    assert saved(ws) == before

    # an embedder that is not on this computer (there is no model hub at run time)
    at.radio(key="settings_llm").set_value(DEFAULT_MODEL)
    at.text_input(key="settings_embedder").input("no-such-embedder-here")
    button(at, "Save settings").click()
    at.run()
    assert "The settings were not saved. Cannot load embedder 'no-such-embedder-here'" in texts(at.error)
    assert saved(ws) == before and ws.settings.engine.embedder == DEFAULT_EMBEDDER

    # discard puts the saved values back
    button(at, "Discard changes").click()
    at.run()
    assert at.radio(key="settings_llm").value == DEFAULT_MODEL
    assert at.text_input(key="settings_embedder").value == DEFAULT_EMBEDDER


def test_a_good_change_is_saved_and_asks_for_a_reindex(open_screen, ui_workspace, tmp_path):
    ws = ui_workspace
    pdf = write_pdf(tmp_path / "handbook.pdf", topic_pages()[:2])
    assert not ws.kb.add_file(pdf, "handbook.pdf").errors
    chunks = ws.kb.documents()[0].chunks
    at = open_screen("settings")
    info = info_table(at)
    assert info["Documents"] == "1" and info["Chunks"] == str(chunks)
    assert info["Index built with"] == f"{DEFAULT_EMBEDDER}, α = 0.5"
    assert not at.warning

    at.selectbox(key="settings_mode").set_value("concat")
    at.slider(key="settings_alpha").set_value(0.7)
    at.number_input(key="settings_top_k").set_value(3)
    button(at, "Save settings").click()
    at.run()
    assert not at.exception
    assert f"Saved to `{ws.folder / 'settings.json'}`." in texts(at.success)
    engine = saved(ws)["engine"]
    assert engine["mode"] == "concat" and engine["alpha"] == 0.7 and engine["top_k"] == 3
    assert ws.settings.engine.alpha == 0.7
    warning = texts(at.warning)
    assert "Re-index the knowledge base: the index was built with α = 0.5, the settings now say α = 0.7" in warning
    assert "Re-index on the Knowledge base screen" in [link.value for link in at.page_link]

    # the same values again: nothing to save
    button(at, "Save settings").click()
    at.run()
    assert "Nothing changed" in texts(at.info)


def test_saving_is_refused_while_drafting_runs(open_screen, ui_workspace, gated_generator, tmp_path):
    """A real drafting run, held at its first question by the fake LLM (``gated_generator``)."""
    ws = ui_workspace
    pdf = write_pdf(tmp_path / "handbook.pdf", topic_pages()[:2])
    assert not ws.kb.add_file(pdf, "handbook.pdf").errors
    book = write_questionnaire(tmp_path / "Vendor.xlsx")
    project, _ = ws.add_questionnaire(book.name, book.read_bytes())
    at = open_screen("settings")
    before = saved(ws)
    at.number_input(key="settings_top_k").set_value(9)
    ws.jobs.start(project.id)  # starts after the screen was drawn: the button is still enabled
    button(at, "Save settings").click()
    at.run()
    assert "The settings were not saved. Drafting is running" in texts(at.error)
    assert saved(ws) == before and ws.settings.engine.top_k == 5
    assert "Drafting is running for Vendor" in texts(at.warning)
    assert button(at, "Save settings").disabled

    gated_generator.gate.set()
    ws.jobs.wait(project.id, 60)
    at.run()
    assert not button(at, "Save settings").disabled
    button(at, "Save settings").click()
    at.run()
    assert saved(ws)["engine"]["top_k"] == 9


def test_a_model_is_chosen_by_name_and_saved_choices_from_before_still_open(open_screen, ui_workspace):
    """Each registered model is listed by its title with its size and what it is for; choosing
    one saves its name, choosing the default saves nothing (it follows the registry's default),
    and a GGUF path saved before opens as the GGUF choice. After a change the new model loads in
    the background (here the real, small SmolLM2) and the screen says when it is loaded."""
    ws = ui_workspace
    at = open_screen("settings")
    radio = at.radio(key="settings_llm")
    assert radio.value == DEFAULT_MODEL
    assert radio.options == [
        MODELS[DEFAULT_MODEL].title + " (default)",
        *[m.title for name, m in MODELS.items() if name != DEFAULT_MODEL],
        "GGUF model file",
        "LLM server (OpenAI-compatible)",
    ]
    captions = dict(zip(MODELS, radio.proto.captions))
    assert captions[DEFAULT_MODEL] == "1.12 GB · Apache-2.0 · drafts from documents, ≈ 5–6 s/question on 2 cores"
    assert captions[TEST_MODEL] == "0.10 GB · Apache-2.0 · fast, for tests; does not draft from documents"

    at.radio(key="settings_llm").set_value(TEST_MODEL)
    button(at, "Save settings").click()
    at.run()
    assert not at.exception and not at.error, texts(at.error)
    assert saved(ws)["generator"] == {"model": TEST_MODEL, "llm_url": None}
    assert f"Drafting now with: **{escape_md(MODELS[TEST_MODEL].title)}**" in texts(at.caption)
    assert ws.warming is not None and ws.warming.wait(120)  # the new model, loaded in the background
    at.run()
    assert f"The language model {escape_md(MODELS[TEST_MODEL].title)} is loaded" in texts(at.caption)

    at.radio(key="settings_llm").set_value(DEFAULT_MODEL)
    button(at, "Save settings").click()
    at.run()
    assert saved(ws)["generator"] == {"model": None, "llm_url": None}
    assert f"Drafting now with: **{escape_md(MODELS[DEFAULT_MODEL].title)}**" in texts(at.caption)

    # a GGUF path saved before the registry existed
    smollm2 = resolve_model(TEST_MODEL)
    ws.apply_settings(Settings(generator=GeneratorConfig(model=str(smollm2))))
    at = open_screen("settings")
    assert at.radio(key="settings_llm").value == "GGUF model file"
    assert at.text_input(key="settings_model").value == str(smollm2)
    button(at, "Save settings").click()
    at.run()
    assert "Nothing changed" in texts(at.info)


def test_a_model_that_cannot_load_shows_its_one_line_reason(open_screen, ui_workspace, tmp_path):
    """A GGUF file cut short after its header (a broken copy): the model loading in the
    background fails, and the Settings and Questionnaire screens show the file, the problem and
    the fix, with no traceback."""
    ws = ui_workspace
    broken = tmp_path / "half.gguf"
    broken.write_bytes(b"GGUF" + bytes(4096))
    ws.apply_settings(Settings(generator=GeneratorConfig(model=str(broken))))
    assert ws.warm_up().wait(120)
    expected = (
        f"The language model could not be loaded: {escape_md(str(broken))}: llama.cpp could not load the "
        f"model (Failed to load model from file: {escape_md(str(broken))}). check that it is a complete GGUF file"
    )

    at = open_screen("settings")
    assert not at.exception
    assert at.radio(key="settings_llm").value == "GGUF model file"
    assert expected in texts(at.error)

    add_questionnaire(ws, tmp_path)
    at = open_screen("questionnaire")
    assert not at.exception
    assert expected in texts(at.error)
    assert "Go to the Settings screen" in [link.value for link in at.page_link]


def test_a_missing_or_truncated_registered_model_is_refused_when_saving(
    open_screen, ui_workspace, tmp_path, monkeypatch
):
    """On a machine where set-up has not assembled the default model (an empty models folder),
    choosing it is refused with the model error's one line; a truncated file too."""
    import engine.drafting.generate.models as models

    ws = ui_workspace
    ws.apply_settings(Settings(generator=GeneratorConfig(model=TEST_MODEL)))
    ws.__dict__["generator"] = QuotingGenerator()  # nothing to load: this test is about saving
    before = saved(ws)
    folder = tmp_path / "models"
    folder.mkdir()
    monkeypatch.setattr(models, "models_dir", lambda: folder)
    path = escape_md(str(folder / MODELS[DEFAULT_MODEL].file))

    at = open_screen("settings")
    at.radio(key="settings_llm").set_value(DEFAULT_MODEL)
    button(at, "Save settings").click()
    at.run()
    assert not at.exception
    assert (
        f"The settings were not saved. {path}: the model {DEFAULT_MODEL} is not assembled. run \\`make setup\\`"
    ) in texts(at.error)
    assert saved(ws) == before

    (folder / MODELS[DEFAULT_MODEL].file).write_bytes(b"GGUF" + bytes(1000))
    button(at, "Save settings").click()
    at.run()
    assert (
        f"The settings were not saved. {path}: the file has 1,004 bytes, {DEFAULT_MODEL} has 1,117,320,768 "
        "(truncated or wrong file). delete it and run \\`make setup\\`"
    ) in texts(at.error)
    assert saved(ws) == before and ws.settings.generator.model == TEST_MODEL
