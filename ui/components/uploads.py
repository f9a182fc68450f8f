"""The name of an uploaded file as the user named it.

The browser sends an upload as a multipart form, and the form-data encoding of its file name
(the HTML standard's, which Streamlit's uploader follows) percent-encodes three characters:
``"`` as ``%22``, CR as ``%0D`` and LF as ``%0A``. ``Report "final".xlsx`` arrives as
``Report %22final%22.xlsx``; :func:`upload_name` gives back the name the user sees in their
file manager (control characters are then refused by the engine's name check like any other).
"""

from __future__ import annotations

import re

_FORM_ESCAPES = {"%22": '"', "%0D": "\r", "%0A": "\n"}
_ESCAPED = re.compile("|".join(_FORM_ESCAPES), re.IGNORECASE)


def upload_name(name: str) -> str:
    """An uploaded file's name with the form-data escapes undone."""
    return _ESCAPED.sub(lambda m: _FORM_ESCAPES[m.group(0).upper()], name)


__all__ = ["upload_name"]
