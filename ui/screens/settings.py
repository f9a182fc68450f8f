"""Settings screen: which LLM drafts the answers (a registered model by name — the default
Qwen2.5-Coder-1.5B or the small SmolLM2 —, a GGUF file, or an OpenAI-compatible server) and how
retrieval works (embedder, mode, α, top-k), and the reviewer's name (empty: the login name), which
every run, decision, comment and assignment made here carries.

The widgets start from the saved settings (no model saved: the registry's default). *Save
settings* validates the values with ``Settings.changed`` and checks a newly chosen model file
(``check_model``: a missing, truncated or damaged file is refused with its one-line reason and
nothing is saved), then ``Workspace.apply_settings`` writes ``settings.json``; it is refused while
drafting runs. The models load in the background (``Workspace.warm_up``): their state, or the
reason one cannot load, is shown under each section. A new embedder or α takes effect for the
stored documents after a re-index (Knowledge base screen)."""

from __future__ import annotations

import streamlit as st

from engine.app.settings import SETTINGS_FILE, Settings, SettingsError, check_embedder, check_model
from engine.core.config import RETRIEVAL_MODES, Mode, Strategy, parse_mode
from engine.core.people import default_reviewer
from engine.drafting.generate.models import DEFAULT_MODEL, MODELS, ModelError, is_registered, resolve_model
from ui.components.kb_status import needs_reindex
from ui.components.messages import escape_md, flash, problem_text, sentence, show_flashed
from ui.components.warm_up import warm_up_status
from ui.resources import workspace

FLASH = "settings_messages"
GGUF, SERVER = "GGUF model file", "LLM server (OpenAI-compatible)"
LLM_CHOICES = [*MODELS, GGUF, SERVER]  # a registered model by name, a GGUF file, or a server
MODEL_NOTES = {  # what a reviewer needs to know to choose (measured on a 2-core CPU, docs/models.md)
    "qwen2.5-coder-1.5b": "drafts from documents, ≈ 5–6 s/question on 2 cores",
    "smollm2-135m": "fast, for tests; does not draft from documents",
}
KEYS = {  # widget key → how it starts from the saved settings
    "settings_llm": lambda s: llm_choice(s),  # defined below
    "settings_model": lambda s: "" if is_registered(s.generator.model) else s.generator.model or "",
    "settings_llm_url": lambda s: s.generator.llm_url or "",
    "settings_embedder": lambda s: s.engine.embedder,
    "settings_mode": lambda s: s.engine.mode.value,
    "settings_alpha": lambda s: float(s.engine.alpha),
    "settings_top_k": lambda s: int(s.engine.top_k),
    "settings_reviewer": lambda s: s.reviewer or "",
}
MODE_HELP = {
    Mode.DENSE: "the sentence-transformers vector alone",
    Mode.PAPER: "the RFP paper's Eq. 3: α·dense + (1−α)·TF-IDF/SVD added into one vector",
    Mode.CONCAT: "dense and TF-IDF/SVD vectors side by side: exactly α·cos dense + (1−α)·cos TF-IDF",
    Mode.DENSE_SPARSE: "a dense and a BM25 search, fused by rank",
    Mode.WEIGHTED: "a dense and a BM25 search, fused by score: α·dense + (1−α)·normalised BM25",
    Strategy.SUMMARY: "the 3 documents whose summaries match best, their best passages with the summaries",
    Strategy.SUMMARY_ONLY: "the 3 documents whose summaries match best, their summaries alone",
    Strategy.CONTENT_ONLY: "the 3 documents whose summaries match best, their best passages alone",
    Strategy.ATOMS: "each passage's best-matching sentence (needs the atoms index)",
    Strategy.ATOM_QUESTIONS: "each passage's sentences and the model's questions about them (needs that index)",
}


def load_widgets(settings: Settings, force: bool = False) -> None:
    for key, initial in KEYS.items():
        if force or key not in st.session_state:
            st.session_state[key] = initial(settings)


def discard() -> None:
    load_widgets(workspace().settings, force=True)


def llm_choice(settings: Settings) -> str:
    """The choice that shows saved generator settings (no model saved: the default model)."""
    model = settings.generator.model
    if settings.generator.llm_url:
        return SERVER
    if model is None:
        return DEFAULT_MODEL
    return model if is_registered(model) else GGUF


def llm_title(choice: str) -> str:
    if choice in MODELS:
        return MODELS[choice].title + (" (default)" if choice == DEFAULT_MODEL else "")
    return choice


def llm_caption(choice: str) -> str:
    """Size, licence and what the model is good for; the other choices in a few words."""
    if choice == GGUF:
        return "any llama.cpp model file on this computer, e.g. a larger instruct model"
    if choice == SERVER:
        return "llama.cpp server, Ollama, vLLM… on this machine or your network (a GPU helps)"
    spec = MODELS[choice]
    size = spec.size
    if size is None and not spec.assembled:  # a packaged GGUF: found, not hashed
        try:
            size = resolve_model(choice).stat().st_size
        except ModelError:
            size = None
    parts = [f"{size / 1e9:.2f} GB" if size else "", spec.license, MODEL_NOTES.get(choice, "")]
    return " · ".join(p for p in parts if p)


def chosen_model(llm: str, path: str) -> str | None:
    """The ``model`` setting of a choice: None for the default model (it follows the registry's
    default), a registered name, or the GGUF path typed."""
    if llm == GGUF:
        return path
    return None if llm in (DEFAULT_MODEL, SERVER) else llm


def wanted_values() -> dict:
    """The values on screen, as ``Settings.changed`` takes them; a chosen GGUF file or server
    must be named (empty would silently mean the default model)."""
    state = st.session_state
    llm = state["settings_llm"]
    if llm == GGUF and not (state["settings_model"] or "").strip():
        raise SettingsError("the model file is empty; give the path of a .gguf model file, or choose a model by name")
    if llm == SERVER and not (state["settings_llm_url"] or "").strip():
        raise SettingsError("the LLM server URL is empty; give the server's address, e.g. http://127.0.0.1:8080")
    return {
        "model": chosen_model(llm, state["settings_model"]),
        "llm_url": state["settings_llm_url"] if llm == SERVER else None,
        "embedder": (state["settings_embedder"] or "").strip(),
        "mode": state["settings_mode"],
        "alpha": float(state["settings_alpha"]),
        "top_k": int(state["settings_top_k"]),
        "reviewer": state["settings_reviewer"],
    }


def save(ws) -> None:
    """Validate, then save; every refusal leaves settings.json as it was."""
    current = ws.settings
    try:
        new = current.changed(**wanted_values())
        if new == current:
            flash(FLASH, "info", "Nothing changed: these are the saved settings.")
            return
        if new.generator != current.generator and not new.generator.llm_url:
            with st.spinner(f"Checking the model file of {escape_md(new.generator.label)}…"):
                check_model(new.generator.model)
        if new.engine.embedder != current.engine.embedder:
            with st.spinner(f"Loading the embedder {escape_md(new.engine.embedder)} to check it…"):
                check_embedder(new.engine.embedder)
    except SettingsError as exc:
        flash(FLASH, "error", f"The settings were not saved. {escape_md(sentence(str(exc)))}")
        return
    try:
        with st.spinner("Saving (models still loading in the background finish first)…"):
            ws.apply_settings(new)
    except RuntimeError as exc:  # drafting is running
        flash(FLASH, "error", f"The settings were not saved. {escape_md(sentence(str(exc)))}")
        return
    except Exception as exc:
        flash(FLASH, "error", f"The settings were not saved. {problem_text(exc)}")
        return
    flash(FLASH, "success", f"Saved to `{ws.folder / SETTINGS_FILE}`.")


st.title("Settings")
ws = workspace()
load_widgets(ws.settings)

try:
    docs, built = ws.documents(), ws.index_manifest()
except Exception as exc:
    docs, built = [], None
    st.error(f"The knowledge base cannot be opened: {problem_text(exc)}")
reason = needs_reindex(built, ws.settings) if built is not None else None
if reason:
    st.warning(f"Re-index the knowledge base: {escape_md(reason)}.", icon=":material/sync_problem:")
    st.page_link("screens/knowledge_base.py", label="Re-index on the Knowledge base screen", icon=":material/sync:")

drafting = [p.name for p in ws.projects() if ws.jobs.running(p.id)]
if drafting:
    st.warning(
        f"Drafting is running for {escape_md(', '.join(drafting))}. The settings can be changed once it "
        "has finished or been stopped (on the Questionnaire screen).",
        icon=":material/hourglass_top:",
    )

# ---- who works here ------------------------------------------------------------------------------------
st.subheader("Reviewer")
st.text_input(
    "Your name",
    key="settings_reviewer",
    placeholder=default_reviewer(),
    help="The name on your drafting runs, decisions, comments and assignments, and whose questions "
    "“My questions” lists. Empty: your login name on this computer.",
)
st.caption(f"Working as: **{escape_md(ws.reviewer)}**")

# ---- the language model ------------------------------------------------------------------------------
st.subheader("Language model")
st.caption(f"Drafting now with: **{escape_md(ws.settings.generator.label)}**")
llm = st.radio(
    "Language model",
    LLM_CHOICES,
    key="settings_llm",
    format_func=llm_title,
    captions=[llm_caption(c) for c in LLM_CHOICES],
    help="The models are local files, installed by `make setup`. A larger GGUF model or an LLM "
    "server on a machine with a GPU writes better answers, faster.",
)
if llm == GGUF:
    st.text_input(
        "Model file (.gguf)",
        key="settings_model",
        placeholder="/path/to/model.Q4_K_M.gguf",
        help="The full path of a GGUF model file on this computer (llama.cpp format).",
    )
elif llm == SERVER:
    st.text_input(
        "LLM server URL",
        key="settings_llm_url",
        placeholder="http://127.0.0.1:8080",
        help="An OpenAI-compatible server on this machine or your network (llama.cpp server, vLLM, Ollama…).",
    )

warm_up_status(ws, ("model",))

# ---- retrieval ---------------------------------------------------------------------------------------
st.subheader("Retrieval")
st.text_input(
    "Embedder",
    key="settings_embedder",
    help="A sentence-transformers model name or folder available on this computer, or "
    "all-MiniLM-L6-v2-int8 (the default model as int8 ONNX, without PyTorch). "
    "Changing it needs a re-index of the knowledge base.",
)
st.selectbox(
    "Retrieval mode",
    RETRIEVAL_MODES,
    key="settings_mode",
    format_func=lambda v: f"{v} — {MODE_HELP.get(parse_mode(v), '')}",
    help="How questions and passages are compared. The default was picked by the retrieval benchmark.",
)
st.slider(
    "α (weight of the dense part)",
    min_value=0.0,
    max_value=1.0,
    step=0.05,
    key="settings_alpha",
    help="1 = meaning only (dense vectors), 0 = words only (TF-IDF/BM25). Changing it needs a "
    "re-index of the knowledge base.",
)
st.number_input(
    "Top-k passages", min_value=1, step=1, key="settings_top_k", help="How many passages the LLM reads per question."
)
warm_up_status(ws, ("embedder",))
st.caption(
    "A new embedder or α applies to the stored documents after **Re-index** on the Knowledge base "
    "screen; the mode, top-k and language model apply to the next draft."
)

save_col, discard_col, _ = st.columns([1, 1, 3])
save_col.button(
    "Save settings", type="primary", icon=":material/save:", on_click=save, args=(ws,), disabled=bool(drafting)
)
discard_col.button("Discard changes", on_click=discard)
show_flashed(FLASH)

# ---- about this workspace ----------------------------------------------------------------------------
st.subheader("Workspace")
engine = ws.settings.engine
rows = [
    ("Workspace folder", str(ws.folder)),
    ("Settings file", str(ws.folder / SETTINGS_FILE)),
    ("Documents", str(len(docs))),
    ("Chunks", str(sum(d.chunks for d in docs))),
    ("Index built with", f"{built.embedder}, α = {built.alpha:g}" if built is not None and docs else "—"),
    ("Vector store", engine.qdrant_url or "Qdrant, local files in the workspace folder"),
    ("Questionnaires", str(len(ws.projects()))),
]
st.dataframe([{"Item": k, "Value": v} for k, v in rows], hide_index=True, width="stretch")
