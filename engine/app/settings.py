"""Settings a reviewer can change in the app: the generator (a GGUF file or an LLM server), the
retrieval configuration and the reviewer's name (engine/core/people.py; not set: the OS user).
Persisted as ``settings.json`` in the workspace folder, validated on the way in, so a bad value is
refused with the reason and the fix, never half-applied."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from urllib.parse import urlparse

from engine.core.config import DEFAULT_EMBEDDER, EngineConfig, parse_mode
from engine.core.files import write_atomic
from engine.core.people import default_reviewer, person_name
from engine.drafting.generate.models import DEFAULT_MODEL, MODELS, ModelError, check_gguf, is_registered, resolve_model
from engine.drafting.generate.prompt import Evidence
from engine.index.embed.dense import DenseEncoder, EmbedderError
from engine.index.library import LibraryPolicy

SETTINGS_FILE = "settings.json"


class SettingsError(ValueError):
    """A setting that cannot be used; the message names the value, the rule and the fix."""


@dataclass(frozen=True)
class GeneratorConfig:
    """Which LLM drafts the answers: ``model`` (a registered model name such as
    ``smollm2-135m``, or a GGUF file), ``llm_url`` (an OpenAI-compatible server), or neither
    (the registry's default model, engine/drafting/generate/models.py); ``evidence``: how the
    model points at its evidence (engine/drafting/generate/prompt.py ``Evidence``; None: the
    prompt's default, numbered sentences)."""

    model: str | None = None
    llm_url: str | None = None
    evidence: str | None = None

    def __post_init__(self) -> None:
        model = (self.model or "").strip() or None
        url = (self.llm_url or "").strip() or None
        object.__setattr__(self, "model", model)
        object.__setattr__(self, "llm_url", url)
        if model and url:
            raise SettingsError("give either a model file or an LLM server URL, not both")
        if model and not is_registered(model):
            try:
                check_gguf(Path(model).expanduser())
            except ModelError as exc:
                raise SettingsError(str(exc)) from None
        if url:
            parsed = urlparse(url)
            if parsed.scheme not in ("http", "https") or not parsed.netloc:
                raise SettingsError(f"{url!r} is not an http(s) URL; use e.g. http://127.0.0.1:8080")
        if self.evidence is not None:
            try:
                object.__setattr__(self, "evidence", Evidence.parse(self.evidence).value)
            except ValueError as exc:
                raise SettingsError(str(exc)) from None

    @property
    def label(self) -> str:
        if self.llm_url:
            return f"LLM server {self.llm_url}"
        name = self.model or DEFAULT_MODEL
        return MODELS[name].title if is_registered(name) else Path(name).name


@dataclass(frozen=True)
class Settings:
    engine: EngineConfig = field(default_factory=EngineConfig)
    generator: GeneratorConfig = field(default_factory=GeneratorConfig)
    reviewer: str | None = None  # the name on drafts, decisions and comments; None: the OS user, read when used
    # the answer library's review period and admission of accepted answers (engine/index/library.py)
    library: LibraryPolicy = field(default_factory=LibraryPolicy)

    def __post_init__(self) -> None:
        if self.reviewer is not None and not str(self.reviewer).strip():
            object.__setattr__(self, "reviewer", None)  # an emptied field: back to the OS user
        elif self.reviewer is not None:
            try:
                object.__setattr__(self, "reviewer", person_name(self.reviewer))
            except ValueError as exc:
                raise SettingsError(str(exc)) from None

    @property
    def reviewer_name(self) -> str:
        """Who works in this workspace: the name set here, else the operating-system user."""
        return self.reviewer or default_reviewer()

    def to_json(self) -> dict:
        e = asdict(self.engine)
        e["mode"], e["summaries"] = self.engine.mode.value, self.engine.summaries.value
        generator = {k: v for k, v in asdict(self.generator).items() if k != "evidence" or v is not None}
        out = {"engine": e, "generator": generator}  # the evidence form only when one is set (the CLI's)
        out["library"] = asdict(self.library)
        return out | ({"reviewer": self.reviewer} if self.reviewer else {})

    @classmethod
    def from_json(cls, d: dict) -> Settings:
        known = EngineConfig.__dataclass_fields__
        engine = EngineConfig(**{k: v for k, v in d.get("engine", {}).items() if k in known})
        library = LibraryPolicy(**d.get("library", {}))
        return cls(engine, GeneratorConfig(**d.get("generator", {})), d.get("reviewer"), library)

    def changed(self, **values) -> Settings:
        """A copy with some values changed (engine or generator fields, ``reviewer``, the library's
        ``review_months``, ``admission`` and ``retired_products``), validated."""
        gen = {k: values.pop(k) for k in ("model", "llm_url", "evidence") if k in values}
        reviewer = values.pop("reviewer", self.reviewer)
        lib = {k: values.pop(k) for k in ("review_months", "admission", "retired_products") if k in values}
        try:
            if "mode" in values:
                values["mode"] = parse_mode(values["mode"])
            engine, generator = replace(self.engine, **values), replace(self.generator, **gen)
            return Settings(engine, generator, reviewer, replace(self.library, **lib))
        except SettingsError:
            raise
        except (TypeError, ValueError) as exc:
            raise SettingsError(str(exc)) from None

    @classmethod
    def load(cls, folder: Path) -> Settings:
        """The saved settings of a workspace (defaults and RFP_* environment variables when none)."""
        path = Path(folder) / SETTINGS_FILE
        if not path.is_file():
            return cls(EngineConfig.from_env())
        try:
            return cls.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, TypeError) as exc:
            raise SettingsError(
                f"{path}: unreadable settings ({exc}); fix the file or delete it to start from the defaults"
            ) from None

    def save(self, folder: Path) -> Path:
        path = Path(folder) / SETTINGS_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(self.to_json(), indent=1))
        return path


def check_embedder(name: str) -> None:
    """Load a new embedder once to make sure it exists here (no model hub at run time);
    SettingsError with the loader's reason when it cannot be loaded."""
    if not name:
        raise SettingsError(
            f"the embedder is empty; give a sentence-transformers model name or folder (the default is {DEFAULT_EMBEDDER})"
        )
    try:
        DenseEncoder(name)
    except EmbedderError as exc:
        raise SettingsError(str(exc)) from None


def check_model(model: str | None) -> None:
    """The model file of a registered name or a path exists and is whole (size and checksum of
    a registered model; the checksum is computed once per file); SettingsError when not."""
    try:
        resolve_model(model)
    except ModelError as exc:
        raise SettingsError(str(exc)) from None
