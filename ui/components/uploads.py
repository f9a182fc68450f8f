"""The name of an uploaded file as the user named it, and the message for an upload the
uploader itself refuses.

The browser sends an upload as a multipart form, and the form-data encoding of its file name
(the HTML standard's, which Streamlit's uploader follows) percent-encodes three characters:
``"`` as ``%22``, CR as ``%0D`` and LF as ``%0A``. ``Report "final".xlsx`` arrives as
``Report %22final%22.xlsx``; :func:`upload_name` gives back the name the user sees in their
file manager; the engine then makes it a plain name (``engine/ingest/upload_names.py``: control
characters removed like any other). A NUL in a name never gets that far: Streamlit's uploader
refuses it before the app's script runs; :func:`guard_uploads` turns that refusal into a
:class:`RefusedUpload` value the screens word (without it, every screen showed a traceback).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from streamlit.elements.widgets.file_uploader import FileUploaderSerde
from streamlit.errors import StreamlitAPIException

from ui.components.messages import escape_md

_FORM_ESCAPES = {"%22": '"', "%0D": "\r", "%0A": "\n"}
_ESCAPED = re.compile("|".join(_FORM_ESCAPES), re.IGNORECASE)


def upload_name(name: str) -> str:
    """An uploaded file's name with the form-data escapes undone."""
    return _ESCAPED.sub(lambda m: _FORM_ESCAPES[m.group(0).upper()], name)


@dataclass(frozen=True)
class RefusedUpload:
    """What ``st.file_uploader`` gives back for an upload its own name check refused (see
    :func:`guard_uploads`): the names sent and Streamlit's reason. One for a single-file
    uploader, the only item of the list for a multiple-file one."""

    names: tuple[str, ...]
    reason: str

    def message(self) -> str:
        """The refusal as Markdown, every name and the reason shown as text."""
        shown = ", ".join(escape_md(_shown(n)) for n in self.names)
        return (
            f"The upload was refused ({shown}): {escape_md(self.reason.rstrip('.'))}. No file was kept. Rename "
            "the file to a plain name (no control characters, one of the extensions listed) and upload it again."
        )


def _shown(name: str) -> str:
    """A name with its control characters written as escapes (``\\x00``, ``\\n``)."""
    return (
        "".join(
            c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) in ("Cc", "Cf") else c for c in name
        )
        or '""'
    )


def refusal_of(value) -> RefusedUpload | None:
    """The refusal an uploader's value holds, if any (``value``: what ``st.file_uploader`` returned)."""
    items = value if isinstance(value, list) else [value]
    return next((v for v in items if isinstance(v, RefusedUpload)), None)


def guard_uploads() -> None:
    """Make Streamlit's own refusal of an upload's name a value the screen words, not a traceback.

    Streamlit 1.67 checks each uploaded name when it reads the uploader's state
    (``FileUploaderSerde.deserialize`` → ``enforce_filename_restriction``): a NUL in a name, or
    an extension outside ``type=`` (only from a forged request: no file system allows a NUL,
    and the browser's picker offers only the listed types), raises ``StreamlitAPIException``
    before the app's script runs, so no ``try`` in a screen can catch it and every screen shows
    the traceback. Wrapped here (once per process), the same refusal becomes a
    :class:`RefusedUpload` returned by ``st.file_uploader``; the check itself is Streamlit's,
    unchanged."""
    if getattr(FileUploaderSerde.deserialize, "_refusal_guard", False):
        return
    check = FileUploaderSerde.deserialize

    def deserialize(self, ui_value):
        try:
            return check(self, ui_value)
        except StreamlitAPIException as exc:
            names = tuple(f.name for f in ui_value.uploaded_file_info) if ui_value is not None else ()
            refusal = RefusedUpload(names, str(exc))
            return [refusal] if self.accept_multiple_files in (True, "directory") else refusal

    deserialize._refusal_guard = True  # type: ignore[attr-defined]
    FileUploaderSerde.deserialize = deserialize  # type: ignore[method-assign]


guard_uploads()

__all__ = ["RefusedUpload", "guard_uploads", "refusal_of", "upload_name"]
