"""Generator backends behind one small interface, chosen once by ``make_generator``:

* ``LlamaCppGenerator``: llama-cpp-python in process. A registered model by name
  (engine/drafting/generate/models.py; default Qwen2.5-Coder-1.5B-Instruct) or any GGUF file. The chat template comes
  from the GGUF; the answer schema is enforced by a grammar built from the JSON schema,
  checked token by token grammar-first (engine/drafting/generate/grammar_sampling.py). The app, the CLI
  and the benchmarks run it in a child process (``ModelWorker``, engine/drafting/generate/worker.py:
  the default of ``make_generator`` in engine/drafting/generate/factory.py), where a native crash ends
  one call, not the process.
* ``HttpGenerator``: an OpenAI-compatible ``/v1/chat/completions`` server
  (``python -m llama_cpp.server``, vLLM, Ollama), sent the same messages and JSON schema, and
  asked for the tokens' logprobs, which give the choice its probability as the local sampler's
  steps do (``prompt.steps_from_logprobs``); a server that refuses them gives no confidence.

Both use temperature 0 and a bounded ``max_tokens``. Under ``generate`` is ``chat_json``: any
chat messages, the reply forced through a JSON schema; other prompts (the synthetic questions
of engine/index/embed/atoms.py, the questions asked of one document in engine/drafting/ask.py) call it directly.
``chat_json(..., context=KEY)`` names the long prompt prefix a call shares with other calls (a
document read before the question, or a question whose evidence and choice ``choose`` asked
before ``generate`` writes its text): llama.cpp keeps the KV state of each key
(engine/drafting/generate/prefix_states.py) until ``forget``; a server keeps its own prompt cache and
ignores the key.
"""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request
from typing import Protocol, Sequence

from engine.core.llm import GeneratorError, JsonReply
from engine.drafting.generate.prompt import (
    CONTEXT_FIX,
    AnswerPrompt,
    Evidence,
    GeneratedAnswer,
    Passage,
    steps_from_logprobs,
)

MAX_TOKENS = 256
TOP_LOGPROBS = 10  # alternatives per token asked of a server: enough for every choice value and null
SMALL_MODEL_BYTES = 1 << 30  # a GGUF under this size decodes on one thread (see LlamaCppGenerator)
FORBIDDEN = -100.0  # the logit bias of a word the reply may not write (never taken at temperature 0)
LLAMA_PIP = "pip install 'llama-cpp-python==0.3.36'"


class Generator(Protocol):
    name: str  # what produced the answers (model file or URL + model), for logs and results

    # ``several``: a choice of several (records.Question.several), passed only for one (a generator
    # that takes no such keyword answers single choices alone)
    def generate(
        self, question: str, passages: Sequence[Passage], choices: Sequence[str], *, several: bool = False
    ) -> GeneratedAnswer: ...


DEFAULT_EVIDENCE = Evidence.SENTENCES  # chosen by `bench draft --evidence` (docs/confidence.md)


class _Answers:
    """``generate`` for any backend with ``chat_json``: the answer prompt in the generator's
    evidence form, the reply parsed with its choice probability. A prompt over the model's
    context because of its dropdown raises ``DropdownTooLong`` (``AnswerPrompt.explained``)."""

    evidence: Evidence = DEFAULT_EVIDENCE

    def warm_up(self) -> None:
        """Evaluate the system prompt once (llama.cpp keeps it as the cached prefix of every
        question), so the first question does not pay for it; run it while the embedder loads."""
        prompt = AnswerPrompt.build("Ready?", [], (), self.evidence)
        self.chat_json(prompt.messages, prompt.schema, max_tokens=1)

    def generate(
        self,
        question: str,
        passages: Sequence[Passage],
        choices: Sequence[str],
        *,
        several: bool = False,
        context: str | None = None,
        text: bool = True,
    ) -> GeneratedAnswer:
        """The answer to ``question`` from ``passages``; ``context``: a key for this prompt's KV
        state (``chat_json``), kept between :meth:`choose` and this call and forgotten after it;
        without ``text``, :meth:`choose`."""
        prompt = AnswerPrompt.build(question, passages, choices, self.evidence, several)
        prompt = prompt if text else prompt.choosing()
        try:
            reply = self.chat_json(prompt.messages, prompt.schema, context=context)
        except GeneratorError as e:
            raise prompt.explained(e, passages) from None
        if context is not None and text:  # the prompt's last question: its state is not kept
            self.forget(context)
        return prompt.parse(reply.text, reply.prompt_tokens, reply.completion_tokens, reply.seconds, reply.steps)

    def choose(self, question: str, passages: Sequence[Passage], choices: Sequence[str], **how) -> GeneratedAnswer:
        """``generate``'s evidence and choice without its text (``AnswerPrompt.choosing``): the
        first fields of the same reply, for a fraction of its time; ``generate`` with the same
        ``context`` afterwards writes the rest (its prompt already read, on llama.cpp)."""
        return self.generate(question, passages, choices, text=False, **how)

    def forget(self, context: str) -> None:
        """Drop the KV state kept for ``context`` (``chat_json``); a server keeps its own cache."""


def _cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class LlamaCppGenerator(_Answers):
    """llama-cpp-python in process. Not thread-safe by itself, so calls are serialised."""

    def __init__(
        self,
        model_path: str | os.PathLike | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_threads_batch: int | None = None,
        max_tokens: int = MAX_TOKENS,
        seed: int = 0,
        prefix_bytes: int | None = None,
    ) -> None:
        # OpenMP threads that spin while waiting collapse throughput when the cores are shared
        # (5x slower on 2 busy cores). libgomp reads this once, when it loads: torch loads the
        # same libgomp.so.1 first, so set it before importing torch (at engine start) too.
        # Threads: the prompt is one big batch and uses every core. Decoding is one token at a
        # time, where a small model spends more on waking sleeping threads than on arithmetic
        # (SmolLM2-135M on 2 cores: 50 tokens/s with one thread, 20 with two), so a model file
        # under 1 GB decodes on one thread unless told otherwise.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import llama_cpp  # noqa: F401
        except ImportError:
            raise GeneratorError("llama-cpp-python", "is not installed", f"run: {LLAMA_PIP}") from None
        # deferred: these two import llama_cpp at their top; the HTTP backend needs no llama-cpp-python
        from engine.drafting.generate.grammar_sampling import GreedyLlama  # noqa: PLC0415

        # deferred: `python -m engine.drafting.generate.models` runs that module as a script (see worker.py)
        from engine.drafting.generate.models import resolve_model  # noqa: PLC0415
        from engine.drafting.generate.prefix_states import DEFAULT_CAPACITY, PrefixStates  # noqa: PLC0415

        path = resolve_model(model_path)  # a registered name or a GGUF path; checked
        decode_threads = n_threads or (1 if path.stat().st_size < SMALL_MODEL_BYTES else _cpu_count())
        try:
            self.llm = GreedyLlama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=decode_threads,
                n_threads_batch=n_threads_batch or _cpu_count(),
                flash_attn=True,
                seed=seed,
                verbose=False,  # flash attention: prompts ≈ 15 % faster here
            )
        except (ValueError, RuntimeError) as e:
            raise GeneratorError(
                str(path), f"llama.cpp could not load the model ({e})", "check that it is a complete GGUF file"
            ) from None
        self.name, self.max_tokens, self.n_ctx = path.name, max_tokens, n_ctx
        self.prefix_states = PrefixStates(self.llm, DEFAULT_CAPACITY if prefix_bytes is None else prefix_bytes)
        self._lock = threading.Lock()

    def forget(self, context: str) -> None:
        with self._lock:
            self.prefix_states.forget(context)

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` with the model's own tokenizer (no BOS)."""
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _forbidden(self, words: Sequence[str]) -> dict[int, float]:
        """The logit bias that forbids ``words`` written whole: each word's token as it is, after
        a space, and capitalised after a space, where that form is one token (a word of several
        tokens is left alone: forbidding its first token would forbid every word that starts so).
        Asked again after copying ITAC-03's English back into Dutch twice, even when told the
        words it copied, the real model wrote Dutch with those words forbidden (#58)."""
        out: dict[int, float] = {}
        for word in words:
            for form in (word, " " + word, " " + word[:1].upper() + word[1:]):
                tokens = self.llm.tokenize(form.encode("utf-8"), add_bos=False, special=False)
                if len(tokens) == 1:
                    out[tokens[0]] = FORBIDDEN
        return out

    def chat_json(
        self,
        messages: Sequence[dict],
        schema: dict,
        max_tokens: int | None = None,
        context: str | None = None,
        avoid: Sequence[str] = (),
    ) -> JsonReply:
        """``avoid``: words the reply may not write (:meth:`_forbidden`)."""
        response_format = {"type": "json_object", "schema": schema}
        forbidden = self._forbidden(avoid)
        with self._lock:
            start = time.perf_counter()
            self.prefix_states.use(context)
            self.llm.last_steps = []  # filled by the grammar-first sampler (greedy, constrained calls)
            try:
                out = self.llm.create_chat_completion(
                    messages=list(messages),
                    response_format=response_format,
                    temperature=0.0,
                    max_tokens=max_tokens or self.max_tokens,
                    **({"logit_bias": forbidden} if forbidden else {}),
                )
            except ValueError as e:  # e.g. "Requested tokens (…) exceed context window of …"
                raise GeneratorError(self.name, str(e), CONTEXT_FIX) from None
            seconds = time.perf_counter() - start
            steps = tuple((self.llm.detokenize([t]), p) for t, p in self.llm.last_steps)
        usage = out.get("usage") or {}
        raw = out["choices"][0]["message"].get("content") or ""
        return JsonReply(raw, usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0), seconds, steps)


class HttpGenerator(_Answers):
    """An OpenAI-compatible chat-completions server. ``base_url`` may end in ``/v1`` or not.
    ``model`` defaults to the first model the server lists. Timeouts, refused connections
    and 429/502/503/504 answers are retried ``retries`` times, then raise ``GeneratorError``.

    The schema goes as OpenAI's ``{"type": "json_schema", …}`` (vLLM, Ollama, llama.cpp's
    own server); a server that rejects that form, like llama-cpp-python's
    ``llama_cpp.server``, is sent ``{"type": "json_object", "schema": …}`` from then on."""

    def __init__(
        self,
        base_url: str,
        model: str | None = None,
        timeout: float = 120.0,
        retries: int = 2,
        max_tokens: int = MAX_TOKENS,
    ) -> None:
        url = base_url.rstrip("/")
        self.base_url = url if url.endswith("/v1") else url + "/v1"
        self.timeout, self.retries, self.max_tokens = timeout, retries, max_tokens
        self.model = model or self._first_model()
        self.name = f"{self.model} @ {self.base_url}"
        self.schema_form = "json_schema"
        self.logprobs = True  # asked for until the server refuses them (then no confidence)

    def _first_model(self) -> str:
        models = self._request("GET", "/models").get("data") or []
        if not models or not models[0].get("id"):
            raise GeneratorError(self.base_url, "the server lists no model", "pass --llm-model NAME")
        return models[0]["id"]

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        url = self.base_url + path
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
        for attempt in range(self.retries + 1):
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return json.loads(resp.read())
            except urllib.error.HTTPError as e:
                detail = e.read().decode("utf-8", "replace")[:300]
                if e.code not in (429, 502, 503, 504) or attempt == self.retries:  # only those are transient
                    raise GeneratorError(
                        url, f"HTTP {e.code}: {detail}", "check the server log and the model name", e.code
                    ) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
                if attempt == self.retries:
                    reason = getattr(e, "reason", e)
                    raise GeneratorError(
                        url, f"the LLM server did not answer ({reason})", "start the server or fix --llm-url"
                    ) from None
            except ValueError:
                raise GeneratorError(
                    url, "the answer is not JSON", "point --llm-url at an OpenAI-compatible server"
                ) from None
            time.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    def chat_json(
        self,
        messages: Sequence[dict],
        schema: dict,
        max_tokens: int | None = None,
        context: str | None = None,
        avoid: Sequence[str] = (),
    ) -> JsonReply:
        """``context`` is not sent: the server's own prompt cache (llama.cpp server: per slot,
        ``cache_prompt``) reuses a prefix it has seen. Nor is ``avoid``: an OpenAI-compatible
        ``logit_bias`` takes the server's own token ids, which this client does not know; the
        words are still named in the prompt by the caller."""
        forms = {
            "json_schema": {"type": "json_schema", "json_schema": {"name": "answer", "strict": True, "schema": schema}},
            "json_object": {"type": "json_object", "schema": schema},
        }
        body = {
            "model": self.model,
            "messages": list(messages),
            "temperature": 0.0,
            "max_tokens": max_tokens or self.max_tokens,
        }
        start = time.perf_counter()
        while True:
            extra = {"logprobs": True, "top_logprobs": TOP_LOGPROBS} if self.logprobs else {}
            try:
                out = self._request(
                    "POST", "/chat/completions", {**body, **extra, "response_format": forms[self.schema_form]}
                )
                break
            except GeneratorError as e:  # a server that refuses one of the two is asked again without it
                if e.status is None:
                    raise
                if self.logprobs and "logprob" in e.problem.lower():
                    self.logprobs = False
                elif self.schema_form == "json_schema" and "response_format" in e.problem:
                    self.schema_form = "json_object"
                else:
                    raise
        seconds = time.perf_counter() - start
        usage = out.get("usage") or {}
        try:
            choice = out["choices"][0]
            raw = choice["message"].get("content") or ""
        except (KeyError, IndexError, TypeError, AttributeError):
            return JsonReply(
                json.dumps(out)[:1000], usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0), seconds
            )
        values = ((schema.get("properties") or {}).get("choice") or {}).get("enum")
        steps = _logprob_steps(choice.get("logprobs"), values) if values else ()
        return JsonReply(raw, usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0), seconds, steps)


def _token_bytes(item: dict) -> bytes:
    """An OpenAI logprobs entry's token as bytes (its ``bytes`` when the server gives them)."""
    raw = item.get("bytes")
    return bytes(raw) if isinstance(raw, list) else str(item.get("token", "")).encode("utf-8")


def _logprob_steps(logprobs: dict | None, values: Sequence[str | None]) -> tuple[tuple[bytes, float], ...]:
    """The reply's steps for ``prompt.choice_probability`` from an OpenAI-style ``logprobs``
    object (llama.cpp's server, vLLM, Ollama); none when the server sent none."""
    content = (logprobs or {}).get("content") if isinstance(logprobs, dict) else None
    if not content:
        return ()
    try:
        tokens = [
            (
                _token_bytes(c),
                float(c["logprob"]),
                [(_token_bytes(a), float(a["logprob"])) for a in c.get("top_logprobs") or ()],
            )
            for c in content
        ]
    except (KeyError, TypeError, ValueError):
        return ()  # a form this reader does not know: no confidence rather than a wrong one
    return steps_from_logprobs(tokens, values)
