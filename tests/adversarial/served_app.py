"""The app as a team serves it, attacked from outside without a browser: ``python -m engine serve``
on a free port, and visitors that speak Streamlit's own protocol to it (the websocket
``/_stcore/stream`` a browser tab opens, protobuf messages both ways: streamlit.proto), so that
tens of them can sign in at the same moment, as a script would.

* :func:`serving` starts the server and gives its port and its process (``serve`` becomes
  ``streamlit run``: the same process), stopped afterwards.
* :class:`Visitor` is one browser tab: :meth:`~Visitor.load` runs the page, :meth:`~Visitor.sign_in`
  fills the sign-in form and sends it, :meth:`~Visitor.upload` sends a file to Streamlit's upload
  endpoint for its session, as its uploader widgets would. A visitor makes its own XSRF token
  (cookie and header alike), as any client outside a browser can.
* :func:`resident_mb` and :func:`peak_mb`: a process's memory now (VmRSS) and its highest so far
  (VmHWM), from ``/proc``.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string

from engine.core.processes import stop

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery staple"


def serve_command(workspace: Path, port: int, *address: str) -> list[str]:
    return [sys.executable, "-m", "engine", "serve", "--store", str(workspace), "--port", str(port), *address]


@contextmanager
def serving(workspace: Path, log: Path, *address: str):
    """``python -m engine serve --store WORKSPACE`` on a free port (``address``: e.g. ``--address
    0.0.0.0``), its output in ``log``: (port, process) once ``/_stcore/health`` answers on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "RFP_WORKSPACE"}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            serve_command(workspace, port, *address),
            cwd=ROOT,
            env={**env, "PYTHONUNBUFFERED": "1"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 180
            while True:
                assert proc.poll() is None, f"the app exited:\n{log.read_text()[-3000:]}"
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                        if r.read().strip() == b"ok":
                            break
                except OSError:
                    pass
                assert time.monotonic() < deadline, f"no /_stcore/health:\n{log.read_text()[-3000:]}"
                time.sleep(0.3)
            yield port, proc
        finally:
            stop(proc)


def _status(pid: int, field_name: str) -> float:
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith(field_name + ":"))
    return int(line.split()[1]) * 1024 / 1e6  # kB


def resident_mb(pid: int) -> float:
    return _status(pid, "VmRSS")


def peak_mb(pid: int) -> float:
    return _status(pid, "VmHWM")


@dataclass
class Page:
    """What one run of the script drew: its elements (``ForwardMsg`` deltas), in order."""

    session_id: str | None
    elements: list = field(default_factory=list)

    def of(self, kind: str) -> list:
        return [getattr(e, kind) for e in self.elements if e.WhichOneof("type") == kind]

    @property
    def titles(self) -> list[str]:
        return [h.body for h in self.of("heading")]

    @property
    def alerts(self) -> list[str]:
        return [a.body for a in self.of("alert")]

    @property
    def signed_in_as(self) -> str | None:
        """The name the sidebar says this session is signed in as (None: not signed in)."""
        said = [m.body for m in self.of("markdown") if m.body.startswith("Signed in as **")]
        return said[0].split("**")[1] if said else None

    def widget(self, kind: str, label: str) -> str:
        """The id of the ``kind`` widget labelled ``label`` (what the browser sends back)."""
        found = [w.id for w in self.of(kind) if w.label == label]
        assert len(found) == 1, f"{len(found)} {kind} {label!r} on the page: {self.titles} {self.alerts}"
        return found[0]


class Visitor:
    """One browser tab of the served app (see the module docstring); use ``async with``."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.xsrf = generate_xsrf_token_string()
        self.session_id: str | None = None
        self.page: Page | None = None

    async def __aenter__(self) -> Visitor:
        self.ws = await websockets.connect(
            f"ws://127.0.0.1:{self.port}/_stcore/stream",
            subprotocols=["streamlit", self.xsrf],
            additional_headers={"Cookie": f"_streamlit_xsrf={self.xsrf}"},
            max_size=None,
            open_timeout=60,
        )
        return self

    async def __aexit__(self, *exc) -> None:
        await self.ws.close()

    async def run(self, widgets: dict[str, str | bool] | None = None, timeout: float = 120) -> Page:
        """One run of the page (a load, or a click: ``widgets`` maps a widget's id to its text, or
        True for the button pressed); what it drew."""
        msg = BackMsg()
        msg.rerun_script.query_string = ""
        for wid, value in (widgets or {}).items():
            state = msg.rerun_script.widget_states.widgets.add()
            state.id = wid
            if value is True:
                state.trigger_value = True
            else:
                state.string_value = value
        await self.ws.send(msg.SerializeToString())
        page = Page(self.session_id)
        while True:
            reply = ForwardMsg()
            reply.ParseFromString(await asyncio.wait_for(self.ws.recv(), timeout))
            kind = reply.WhichOneof("type")
            if kind == "new_session":
                page.session_id = self.session_id = reply.new_session.initialize.session_id
            elif kind == "delta" and reply.delta.WhichOneof("type") == "new_element":
                page.elements.append(reply.delta.new_element)
            elif kind == "script_finished" and reply.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                page.elements = []  # st.rerun(): the page the run after it draws
            elif kind == "script_finished" and reply.script_finished != ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                self.page = page
                return page

    async def load(self) -> Page:
        return await self.run()

    async def sign_in(self, name: str, password: str) -> Page:
        """Fill the sign-in form on the page and send it; the page drawn then."""
        form = self.page or await self.load()
        return await self.run(
            {
                form.widget("text_input", "Name"): name,
                form.widget("text_input", "Password"): password,
                form.widget("button", "Sign in"): True,
            }
        )

    async def upload(self, data: bytes, name: str = "notes.txt") -> int:
        """PUT ``data`` to Streamlit's upload endpoint for this session; the HTTP status (204: kept)."""
        async with httpx.AsyncClient(timeout=60) as client:
            reply = await client.put(
                f"http://127.0.0.1:{self.port}/_stcore/upload_file/{self.session_id}/file-{time.monotonic_ns()}",
                files={"file": (name, data)},
                headers={"X-Xsrftoken": self.xsrf},
                cookies={"_streamlit_xsrf": self.xsrf},
            )
        return reply.status_code


def engine(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """``python -m engine ARGS…`` in a child process (``stdin``: its standard input)."""
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )
