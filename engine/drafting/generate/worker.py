"""The local model in a process of its own, so that a native crash cannot take anything down.

llama.cpp is C++: a fault in it (a segfault, an illegal instruction, an abort) kills the whole
process that loaded it. In the Streamlit server that is every reviewer's session; in the CLI it
is the run with its progress bar; in pytest it is the rest of the suite. ``ModelWorker`` is the
same generator as ``LlamaCppGenerator`` (``generate``, ``chat_json``, ``count_tokens``,
``warm_up``, ``n_ctx``, ``name``) with the model loaded in a child process
(``python -c "from engine.drafting.generate.worker import serve; serve()"``) that it talks to over a pipe. When the child dies, the
call that was running raises ``ModelCrashed`` (a ``GeneratorError``) naming the signal (a child killed between two calls is reported by the
next one); what the caller stored before is untouched, and the call after starts a new child
(the model loads again, a few seconds). The child ignores Ctrl-C (the parent decides) and ends when the parent closes
the pipe or exits.

The child builds its object from a ``module:callable`` factory with keyword arguments (default
``LlamaCppGenerator``); tests name a factory of their own to make a child that crashes. Requests
and replies are pickled over the child's stdin and a private copy of its stdout; the child's own
stdout goes to stderr, so nothing llama.cpp prints can corrupt a reply.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading
import traceback
import weakref
from pathlib import Path
from typing import Any, Sequence

from engine.core.llm import GeneratorError, JsonReply
from engine.drafting.generate.backends import MAX_TOKENS, _Answers

ROOT = Path(__file__).resolve().parents[2]  # the project root: the child imports engine (and tests) from it
DEFAULT_FACTORY = "engine.drafting.generate.backends:LlamaCppGenerator"
DOCTOR = "python -m engine doctor"


class ModelCrashed(GeneratorError):
    """The model's process died (a signal or an exit) while it loaded or answered."""


def signal_name(returncode: int | None) -> str:
    """``-11`` → "SIGSEGV (signal 11)"; a plain exit status → "exit status N"."""
    if returncode is None:
        return "no exit status"
    if returncode < 0:
        try:
            return f"{signal.Signals(-returncode).name} (signal {-returncode})"
        except ValueError:
            return f"signal {-returncode}"
    return f"exit status {returncode}"


def _stop(proc: subprocess.Popen) -> None:
    """Close the child's pipe (it exits on its own) and make sure it is gone."""
    try:
        if proc.stdin:
            proc.stdin.close()
        proc.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait()


class ModelWorker(_Answers):
    """A generator whose model runs in a child process; calls are serialised, as the model's are."""

    def __init__(
        self,
        model_path: str | os.PathLike | None = None,
        *,
        factory: str = DEFAULT_FACTORY,
        max_tokens: int = MAX_TOKENS,
        **options: Any,
    ) -> None:
        if factory == DEFAULT_FACTORY:  # a missing or damaged file is refused here, before a process starts
            # deferred: `python -m engine.drafting.generate.models` (make setup) runs that module as a
            # script, which an import with this package would load twice (runpy's warning)
            from engine.drafting.generate.models import resolve_model  # noqa: PLC0415

            model_path = str(resolve_model(model_path))
        self.model_path, self.factory = model_path, factory
        self.options = {"max_tokens": max_tokens, **options}
        self.name = Path(str(model_path)).name if model_path else factory
        self.n_ctx: int | None = options.get("n_ctx")
        self.max_tokens = max_tokens
        self.crashes = 0  # children that died under this worker (a restart follows on the next call)
        self._lock = threading.Lock()
        self._proc: subprocess.Popen | None = None
        self._finalizer: weakref.finalize | None = None
        with self._lock:
            self._start()

    @property
    def pid(self) -> int | None:
        """The child's process id (None before the first start or after it died)."""
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    def _start(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
        proc = subprocess.Popen(
            [sys.executable, "-c", "from engine.drafting.generate.worker import serve; serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._proc = proc
        self._finalizer = weakref.finalize(self, _stop, proc)
        try:
            info = self._exchange(("start", self.factory, self.model_path, self.options), "loading the model")
        except GeneratorError:
            if self._proc is not None:  # the model could not load: no child is kept for it
                self._finalizer()
                self._proc = None
            raise
        self.name = info.get("name") or self.name
        self.n_ctx = info.get("n_ctx", self.n_ctx)

    def _exchange(self, message: tuple, doing: str) -> Any:
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            pickle.dump(message, proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            proc.stdin.flush()
            kind, *payload = pickle.load(proc.stdout)
        except (EOFError, OSError, pickle.UnpicklingError):
            self._died(doing)
        except BaseException:  # Ctrl-C while waiting: the reply would come out of turn, so end this child
            if self._finalizer is not None:
                self._finalizer()
            self._proc = None
            raise
        if kind == "ok":
            return payload[0]
        if kind == "generator-error":
            raise GeneratorError(*payload)
        name, text, trace = payload
        raise GeneratorError(
            self.name,
            f"the model process raised {name}: {text}",
            f"report it with the output of `{DOCTOR}` and this trace:\n{trace}",
        )

    def _died(self, doing: str) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                returncode = proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                returncode = proc.wait()
            if self._finalizer is not None:
                self._finalizer.detach()
        else:
            returncode = None
        self.crashes += 1
        raise ModelCrashed(
            self.name,
            f"the model process died with {signal_name(returncode)} while {doing}",
            "what was stored before is kept and the model starts again on the next call; if it happens again, "
            f"check the llama.cpp build with `{DOCTOR}` (`make setup` rebuilds it for a portable CPU set)",
        ) from None

    def call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """``method(*args, **kwargs)`` on the child's object. A child found dead (killed between
        two calls) is reported by this call with ``ModelCrashed``, like one that dies during it;
        the call after starts a new one."""
        with self._lock:
            if self._proc is not None and self._proc.poll() is not None:
                self._died("waiting for the next call")
            if self._proc is None:
                self._start()
            return self._exchange(
                ("call", method, args, kwargs), "answering" if method == "chat_json" else f"running {method}"
            )

    def chat_json(
        self,
        messages,
        schema: dict,
        max_tokens: int | None = None,
        context: str | None = None,
        avoid: Sequence[str] = (),
    ) -> JsonReply:
        more = {"avoid": list(avoid)} if avoid else {}
        return self.call("chat_json", list(messages), schema, max_tokens=max_tokens, context=context, **more)

    def forget(self, context: str) -> None:
        if self._proc is not None:  # a model not started (or crashed) keeps no state to drop
            self.call("forget", context)

    def count_tokens(self, text: str) -> int:
        return self.call("count_tokens", text)

    def close(self) -> None:
        """End the child now (it also ends when this object is collected or the process exits)."""
        with self._lock:
            if self._finalizer is not None:
                self._finalizer()
            self._proc = None


def _build(factory: str, model_path: str | None, options: dict) -> Any:
    module, _, attr = factory.partition(":")
    __import__(module)
    return getattr(sys.modules[module], attr)(model_path, **options)


def serve() -> None:
    """The child's loop: one object, built by the first message, then one call per message."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed to stdout, by Python or by C, goes to stderr instead
    sys.stdout = sys.stderr
    requests = sys.stdin.buffer
    target = None
    while True:
        try:
            message = pickle.load(requests)
        except EOFError:
            return  # the parent closed the pipe or exited
        try:
            if message[0] == "start":
                _, factory, model_path, options = message
                target = _build(factory, model_path, options)
                value: Any = {"name": getattr(target, "name", None), "n_ctx": getattr(target, "n_ctx", None)}
            else:
                _, method, args, kwargs = message
                value = getattr(target, method)(*args, **kwargs)
            reply: tuple = ("ok", value)
        except GeneratorError as e:
            reply = ("generator-error", e.source, e.problem, e.fix, e.status)
        except Exception as e:  # noqa: BLE001 - sent to the parent, which raises it as a GeneratorError
            reply = ("exception", type(e).__name__, str(e), traceback.format_exc(limit=8))
        pickle.dump(reply, replies, protocol=pickle.HIGHEST_PROTOCOL)
        replies.flush()
