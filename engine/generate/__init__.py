"""Drafting answers from retrieved passages: the prompt and answer schema (``prompt``) and
the generator backends (``backends``: llama-cpp-python in process, or an OpenAI-compatible
HTTP server) and the model registry (``models``: names → checked GGUF files). ``llama_cpp``
is imported only when a ``LlamaCppGenerator`` is built."""

from engine.generate.backends import (
    Generator,
    GeneratorError,
    HttpGenerator,
    JsonChat,
    JsonReply,
    LlamaCppGenerator,
    make_generator,
)
from engine.generate.prompt import (
    GeneratedAnswer,
    Passage,
    answer_schema,
    build_messages,
    compact_passages,
    parse_answer,
)

__all__ = [
    "GeneratedAnswer",
    "Generator",
    "GeneratorError",
    "HttpGenerator",
    "JsonChat",
    "JsonReply",
    "LlamaCppGenerator",
    "Passage",
    "answer_schema",
    "build_messages",
    "compact_passages",
    "make_generator",
    "parse_answer",
]
