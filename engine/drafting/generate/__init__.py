"""Drafting answers from retrieved passages: the prompt and answer schema (``prompt``), the
replies set aside (``glitches``), the generator backends (``backends``: llama-cpp-python, or an
OpenAI-compatible HTTP server), the worker process the local model runs in (``worker``), the
choice between them (``factory.make_generator``) and the model registry (``models``: names →
checked GGUF files).
``llama_cpp`` is imported only where a ``LlamaCppGenerator`` is built: in the worker process."""

from engine.core.llm import GeneratorError, JsonChat, JsonReply  # defined below drafting: indexing uses them too
from engine.drafting.generate.backends import Generator, HttpGenerator, LlamaCppGenerator
from engine.drafting.generate.factory import make_generator
from engine.drafting.generate.glitches import glitch, set_aside
from engine.drafting.generate.prompt import (
    DropdownTooLong,
    GeneratedAnswer,
    Passage,
    answer_schema,
    build_messages,
    compact_passages,
    parse_answer,
)
from engine.drafting.generate.worker import ModelCrashed, ModelWorker

__all__ = [
    "DropdownTooLong",
    "GeneratedAnswer",
    "Generator",
    "GeneratorError",
    "HttpGenerator",
    "JsonChat",
    "JsonReply",
    "LlamaCppGenerator",
    "ModelCrashed",
    "ModelWorker",
    "Passage",
    "answer_schema",
    "build_messages",
    "compact_passages",
    "glitch",
    "make_generator",
    "parse_answer",
    "set_aside",
]
