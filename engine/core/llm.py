"""What indexing and drafting need from a language model, without any backend: the ``JsonChat``
interface (chat messages in, a reply forced through a JSON schema out), its ``JsonReply`` and the
one error a model raises, ``GeneratorError``. The backends that implement it live in
engine/drafting/generate/ (llama-cpp-python in a worker process, or an OpenAI-compatible server);
engine/index/ (LLM summaries, atom questions) uses only this module, so it stays below drafting."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence


class GeneratorError(Exception):
    """A generator that cannot run. The message names the model file or URL, the problem and the fix."""

    def __init__(self, source: str, problem: str, fix: str, status: int | None = None) -> None:
        self.source, self.problem, self.fix, self.status = source, problem, fix, status  # status: HTTP code
        super().__init__(f"{source}: {problem}. {fix}")


@dataclass(frozen=True)
class JsonReply:
    """The raw text of a schema-constrained chat completion, with its token counts and, where
    the backend gives them, each generated token's bytes with its probability among the tokens
    the grammar allowed at that step."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    steps: tuple[tuple[bytes, float], ...] = ()


class JsonChat(Protocol):
    """Any chat messages in, a reply forced through a JSON schema out (both backends are one).
    ``context``: a key for the prompt's long shared prefix (see engine/drafting/generate/backends.py)."""

    name: str

    def chat_json(
        self, messages: Sequence[dict], schema: dict, max_tokens: int | None = None, context: str | None = None
    ) -> JsonReply: ...
