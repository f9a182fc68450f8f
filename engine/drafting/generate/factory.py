"""``make_generator``: the one place that picks a generator backend from the settings."""

from __future__ import annotations

import os

from engine.core.llm import GeneratorError
from engine.drafting.generate.backends import Generator, HttpGenerator
from engine.drafting.generate.prompt import Evidence
from engine.drafting.generate.worker import ModelWorker


def make_generator(
    model_path: str | os.PathLike | None = None,
    llm_url: str | None = None,
    evidence: Evidence | str | None = None,
    n_ctx: int | None = None,
) -> Generator:
    """The generator to use, chosen once: the HTTP server when ``llm_url`` is given, else the
    llama.cpp model ``model_path`` (a registered model name, engine/drafting/generate/models.py, or a
    GGUF path; default the registry's default model) in a worker process (``ModelWorker``: a
    native crash of llama.cpp ends a call with ``ModelCrashed``, not the caller's process).
    ``n_ctx``: the llama.cpp context in tokens (default 4096; asking a document of 3,000-word
    parts needs ``engine.drafting.ask.CONTEXT_TOKENS``)."""
    if llm_url and model_path:
        raise GeneratorError(
            str(model_path), "both a model file and an LLM server URL were given", "pass either --model or --llm-url"
        )
    generator = HttpGenerator(llm_url) if llm_url else ModelWorker(model_path, **({"n_ctx": n_ctx} if n_ctx else {}))
    if evidence is not None:
        generator.evidence = Evidence.parse(evidence)
    return generator
