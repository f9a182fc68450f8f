"""What ``python -m engine serve`` (``make run``, ``make serve``) runs: ``streamlit run ui/served.py``,
which serves ui/app.py as a Streamlit ``st.App`` behind one middleware, :class:`SignedInRequests`,
for what Streamlit's server answers outside any session's script (SECURITY.md, "Serving the app
to a team"):

* ``/_stcore/metrics`` (Streamlit's counters: sessions, cached functions and their sizes) is not
  served (404), to anyone;
* an upload (``PUT /_stcore/upload_file/SESSION/FILE``, where every ``st.file_uploader`` sends
  its file before the script sees it) is refused (403, before its body is read) unless that
  session's last run found it signed in, or found no account in the workspace
  (``ui.components.sign_in.may_upload``): a visitor who has not signed in cannot make the server
  hold files.

An app started around it (``streamlit run ui/app.py``) has neither: it is Streamlit's own server.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # streamlit puts ui/ on the path, the engine lives beside it
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402
from starlette.responses import PlainTextResponse  # noqa: E402

from ui.components.sign_in import may_upload  # noqa: E402

_UPLOAD = re.compile(r"/_stcore/upload_file/(?P<session>[^/]+)/")
_METRICS = "/_stcore/metrics"


class SignedInRequests:
    """ASGI middleware: the two refusals of the module docstring; every other request goes on."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            path = scope["path"]
            refused = None
            if path.rstrip("/").endswith(_METRICS):
                refused = PlainTextResponse("Not served.", status_code=404)
            elif scope["method"] == "PUT" and (m := _UPLOAD.search(path)) and not may_upload(m["session"]):
                refused = PlainTextResponse("Sign in first: this session may not upload files.", status_code=403)
            if refused is not None:
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


app = st.App(str(ROOT / "ui" / "app.py"), middleware=[Middleware(SignedInRequests)])
