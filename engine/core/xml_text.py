"""The one rule for text written into XML — the Word export (engine/questionnaire/word/writer.py),
the export into the customer's workbook (engine/questionnaire/sheet/writer.py), the workbooks the product makes
(packets, a flat PDF's answers, reports: engine/core/workbook_text.py, reports/xlsx.py) and a flat
PDF's Word response document (engine/questionnaire/pdf/response.py): what XML 1.0 cannot hold is dropped.

XML 1.0 allows tab, line feed, carriage return, U+0020–U+D7FF, U+E000–U+FFFD and U+10000–U+10FFFF.
Everything else goes: the other C0 control characters, lone surrogates, and the non-characters
U+FFFE and U+FFFF, which openpyxl's own rule (``ILLEGAL_CHARACTERS_RE``) lets through and lxml then
refuses ("All strings must be XML compatible", issue #56: a model's answer or a reviewer's edit
holding U+FFFE failed the flat PDF's response document, the coverage report and the packet)."""

from __future__ import annotations

import re

NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot hold (see the module docstring)."""
    return NOT_XML.sub("", text)


__all__ = ["NOT_XML", "xml_safe"]
