"""An uploaded file read apart from the server (issue #56): the served app reads an uploaded
questionnaire, document or packet in a child process with a memory ceiling (``RLIMIT_AS``: the
child's address space may grow by at most ``RFP_UPLOAD_MB``, default 1,000 MB, once its modules are
loaded) and a time limit (``RFP_UPLOAD_SECONDS``, default 60 s), so one file can neither take the
server's memory nor make another reviewer wait: the server's thread only waits on a pipe. The
child is a fresh Python (``python -c``, as the model worker, engine/drafting/generate/worker.py),
never a fork of the threaded server; the call and its result travel pickled over its stdin and
stdout. The file's own refusal (a :class:`~engine.core.types.FileProblem`) comes back as it is;
when the child is stopped, :class:`UploadStopped` says in one line which limit it met and how to
raise it.

A solicitation's shred reports its pages and can be stopped (#57): the call is given a
:class:`Reading`, and two more pipes join the child: on one it writes "page, pages, file" after
every page; on the other the server writes one byte when the reviewer stops it, or when the time
limit comes. The child's progress callback then raises StopShredding, and the requirements of the
pages read come back as any answer (the time limit grants :data:`GRACE` seconds for it, then kills
the child as before). The shred stays in the child: the file is parsed only there (#56), and only
page numbers and one byte cross the pipes.

The size limits (engine/core/limits.py) still refuse most hostile files in the child before
anything is parsed; this is the bound on what they do not foresee."""

from __future__ import annotations

import os
import pickle
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any

from engine.core.processes import stop
from engine.core.types import FileProblem, IngestError

ROOT = Path(__file__).resolve().parents[2]
_CHILD = "from engine.app.read_apart import serve; serve()"
_NEAR = 32 * 1_000_000  # a read whose peak came this close to the ceiling met it, whatever it raised
GRACE = 5  # seconds a stopped shred has to send back the pages read, once the time limit asked it to stop
_PRELOAD = ("pymupdf", "engine.questionnaire.formats", "engine.questionnaire.pdf.reader", "engine.ingest")


class UploadStopped(IngestError):
    """An upload whose reading was stopped at the memory ceiling or the time limit (an
    IngestError, so that indexing reports it like any file it cannot take)."""


@dataclass(frozen=True)
class Ceiling:
    """What reading one upload may take: megabytes of memory (beyond the child's loaded modules)
    and seconds (wall clock, the child's start included)."""

    memory_mb: int = 1_000
    seconds: int = 60

    @classmethod
    def from_env(cls) -> Ceiling:
        values = {}
        for field, env in (("memory_mb", "RFP_UPLOAD_MB"), ("seconds", "RFP_UPLOAD_SECONDS")):
            raw = os.environ.get(env, "").strip().replace("_", "").replace(",", "")
            if raw:
                if not raw.isdigit() or int(raw) < 1:
                    raise ValueError(
                        f"{env}={os.environ[env]!r} is not a whole number, 1 or more; unset it for the default"
                    )
                values[field] = int(raw)
        return cls(**values)


@dataclass
class Reading:
    """An upload being read: where its shred stands (``at``: file, page, pages, as reported after
    each page) and its stop (``stop``: set by the reviewer, or by the time limit, ``timed_out``).
    ``progress`` is the callback for a shred in this process; a child's reports arrive through
    :func:`read_apart`."""

    stop: threading.Event = dataclass_field(default_factory=threading.Event)
    at: tuple[str, int, int] = ("", 0, 0)
    timed_out: bool = False

    def reported(self, file: str, page: int, pages: int) -> None:
        self.at = (file, page, pages)

    def progress(self, file: str, page: int, pages: int) -> None:
        from engine.questionnaire.solicitation.shred import StopShredding  # noqa: PLC0415

        self.reported(file, page, pages)
        if self.stop.is_set():
            raise StopShredding

    @property
    def stopped_at(self) -> int | None:
        """The last page read when a stop cut the shred short (None: read to its end, or not a shred)."""
        _, page, pages = self.at
        return page if self.stop.is_set() and 0 < page < pages else None


def read_apart(
    name: str,
    function: str,
    *args: Any,
    ceiling: Ceiling | None = None,
    reading: Reading | None = None,
    **kwargs: Any,
) -> Any:
    """``function(*args, **kwargs)`` ("package.module:function") called in a child process within
    ``ceiling`` (default: :meth:`Ceiling.from_env`); its result, or the FileProblem it raised, or
    :class:`UploadStopped` naming ``name`` and the limit it met. With ``reading``, ``function``
    takes ``progress=`` (a shred's): its reports land in ``reading.at``, and ``reading.stop`` (or
    the time limit) stops it, the pages read kept (see the module docstring)."""
    ceiling = ceiling or Ceiling.from_env()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    report_r, report_w = os.pipe() if reading else (-1, -1)
    halt_r, halt_w = os.pipe() if reading else (-1, -1)
    channels = (report_w, halt_r) if reading else None
    call = pickle.dumps((function, args, kwargs, ceiling.memory_mb, channels), protocol=pickle.HIGHEST_PROTOCOL)
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHILD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        pass_fds=channels or (),
    )
    try:
        if reading is None:
            out, _ = proc.communicate(call, timeout=ceiling.seconds)
        else:
            os.close(report_w)
            os.close(halt_r)
            out = _follow(proc, call, reading, report_r, halt_w, ceiling.seconds)
    except subprocess.TimeoutExpired:
        stop(proc, grace=0)
        raise UploadStopped(
            name,
            f"reading it took more than {ceiling.seconds} s, the time limit for reading an upload; it was stopped",
            f"If you trust the file, raise the limit: RFP_UPLOAD_SECONDS={ceiling.seconds * 4} for the app "
            "(set before it starts), or read it with `python -m engine inspect`",
        ) from None
    finally:
        for fd in (report_r, halt_w):
            if fd >= 0:
                os.close(fd)
    try:
        kind, payload = pickle.loads(out)
    except Exception:  # noqa: BLE001 (no answer: the child died, most likely at the memory ceiling)
        kind, payload = "memory", None
    if kind == "ok":
        return payload
    if kind == "problem":
        raise payload
    if kind == "memory":
        raise UploadStopped(
            name,
            f"reading it needed more than {ceiling.memory_mb:,} MB of memory, the limit for reading an upload; "
            "it was stopped",
            f"If you trust the file, raise the limit: RFP_UPLOAD_MB={ceiling.memory_mb * 4} for the app "
            "(set before it starts), or read it with `python -m engine inspect`",
        )
    raise UploadStopped(
        name,
        "could not be read: it is damaged, or built in a way the reader does not take",
        "open it in the program that made it, save a new copy and upload that",
    )


def _follow(proc: subprocess.Popen, call: bytes, reading: Reading, report: int, halt: int, seconds: int) -> bytes:
    """The child's answer, its page reports passed to ``reading`` meanwhile; one byte on ``halt``
    once ``reading.stop`` is set or ``seconds`` have passed (then :data:`GRACE` more seconds for the
    pages read to come back). Raises TimeoutExpired when the answer does not come in time."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(call)
    proc.stdin.close()
    deadline, halted, out, pending = time.monotonic() + seconds, False, bytearray(), b""
    answer = proc.stdout.fileno()
    while True:
        now = time.monotonic()
        if not halted and (reading.stop.is_set() or now >= deadline):
            if now >= deadline:
                reading.timed_out, deadline = True, now + GRACE
            reading.stop.set()
            try:
                os.write(halt, b"x")
            except OSError:  # the child already ended: its answer is on the way
                pass
            halted = True
        if now >= deadline:
            raise subprocess.TimeoutExpired(proc.args, seconds)
        ready, _, _ = select.select([answer, report], [], [], 0.1)
        if report in ready:
            chunk = os.read(report, 65536)
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                page, pages, file = line.decode("utf-8", "replace").split("\t", 2)
                reading.reported(file, int(page), int(pages))
        if answer in ready:
            chunk = os.read(answer, 1 << 20)
            if not chunk:
                proc.wait()
                return bytes(out)
            out += chunk


class _Reports:
    """The child's progress callback: "page, pages, file" on the report pipe after each page, and
    StopShredding once the server wrote on the halt pipe."""

    def __init__(self, report: int, halt: int) -> None:
        self.report, self.halt = report, halt

    def __call__(self, file: str, page: int, pages: int) -> None:
        from engine.questionnaire.solicitation.shred import StopShredding  # noqa: PLC0415

        name = file.replace("\n", " ").replace("\t", " ")
        os.write(self.report, f"{page}\t{pages}\t{name}\n".encode())
        if select.select([self.halt], [], [], 0)[0]:
            raise StopShredding


def _peak_address_space() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmPeak:"):
                return int(line.split()[1]) * 1024
    return 0


def _address_space() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def serve() -> None:
    """The child: read one call from stdin, answer on stdout (see :func:`read_apart`)."""
    import importlib  # noqa: PLC0415
    import resource  # noqa: PLC0415

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever the call prints stays off the answer's pipe
    function, args, kwargs, memory_mb, channels = pickle.load(stdin)
    if channels is not None:
        kwargs["progress"] = _Reports(*channels)
    module, _, attr = function.partition(":")
    for preload in _PRELOAD:  # every reader's modules loaded before the ceiling is set (a reader imports some lazily)
        importlib.import_module(preload)
    target = getattr(importlib.import_module(module), attr)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    ceiling = _address_space() + memory_mb * 1_000_000
    resource.setrlimit(resource.RLIMIT_AS, (ceiling if hard == resource.RLIM_INFINITY else min(ceiling, hard), hard))
    try:
        answer: tuple = ("ok", target(*args, **kwargs))
    except FileProblem as exc:  # its own refusal, unless it came of the ceiling (a parser's "unknown error")
        answer = ("memory", None) if _peak_address_space() >= ceiling - _NEAR else ("problem", exc)
    except MemoryError:
        answer = ("memory", None)
    except Exception as exc:  # noqa: BLE001 (a reader's bug on a hostile file: one line, never the server's)
        text = str(exc)
        answer = (
            ("memory", None)
            if "malloc" in text or "memory" in text.lower()
            else ("error", f"{type(exc).__name__}: {text}"[:300])
        )
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    try:
        data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001
        data = pickle.dumps(("error", f"its result could not be returned ({exc})"))
    stdout.write(data)
    stdout.flush()


def vet_document(path: Path, name: str) -> None:
    """Load a knowledge-base document as indexing would (engine/ingest), keeping nothing: what
    the served app runs apart before it indexes an upload."""
    from engine.ingest import load_document  # noqa: PLC0415 (in the child only)

    load_document(path, name)


__all__ = ["GRACE", "Ceiling", "Reading", "UploadStopped", "read_apart", "serve", "vet_document"]
