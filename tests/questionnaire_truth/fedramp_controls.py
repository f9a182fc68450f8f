"""The questions of a FedRAMP control document's control sections, listed from each control table's paragraph
texts with the standard library (independent of engine/questionnaire): [control, field] pairs in document order.

    python3 fedramp_controls.py FILE.docx [--remediation]   # prints the count and the pairs as JSON
"""

import json
import re
import sys
import zipfile
from xml.etree import ElementTree as ET

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
CONTROL = re.compile(r"^([A-Z]{2,4}-\d{1,3}(?:\s?\(\d{1,2}\))?)(?!\w)")


def text(p: ET.Element) -> str:
    return " ".join("".join(t.text or "" for t in p.iter(W + "t")).replace("\u2610", " ").split())


def items(path: str, remediation: bool = False) -> list[list[str]]:
    root = ET.fromstring(zipfile.ZipFile(path).read("word/document.xml"))
    out: list[list[str]] = []
    for tbl in root.iter(W + "tbl"):
        paras = [p for p in (text(p) for p in tbl.iter(W + "p")) if p]
        m = CONTROL.match(paras[0]) if paras else None
        if not m:
            continue
        control = m.group(1)
        if "Summary Information" in " ".join(paras[:2]) or "Control Requirement" in " ".join(paras[:2]):
            labelled = any(p.startswith("Control Origination") for p in paras)
            for p in paras:
                if p.startswith("Responsible Role"):
                    out.append([control, "Responsible Role"])
                elif re.match(r"Parameter[\s:]", p):
                    out.append([control, p.rstrip(": ").strip()])
                elif p.startswith("Implementation Status"):
                    out.append([control, "Implementation Status"])
                elif p.startswith("Control Origination"):
                    out.append([control, "Control Origination"])
                elif p == "Service Provider Corporate" and not labelled:  # the origination boxes, under no label
                    out.append([control, "Service Provider Corporate"])
        if any("What is the solution" in p for p in paras):
            parts = [p for p in paras if re.fullmatch(r"Part [a-z]|Req\. \d+", p)]
            out += [[control, p] for p in parts] if parts else [[control, "What is the solution"]]
        if remediation and any(p.startswith("Define remediation plans") for p in paras):
            out.append([control, "Define remediation plans"])
    return out


if __name__ == "__main__":
    found = items(sys.argv[1], "--remediation" in sys.argv)
    print(len(found))
    print(json.dumps(found))
