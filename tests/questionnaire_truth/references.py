"""The truth for references (issue #59, item 2): the rows of the shared HECVATs whose question or
guidance asks for a reference or documentation, each with the company documents (of the PDFs of
``../shared/data/instructure``) that hold what is asked for, or none.

Made from the extracted questionnaires (``_extracted/*HECVAT*.jsonl``: question, guidance, the
vendor's answer and comment) and the PDFs' file names, with the standard library only, by the rules
in ``RULE`` below (written into the output); independent of the drafter, which reads the PDFs'
headings and sentences. Run from the repository root:

    python3 tests/questionnaire_truth/references.py ../shared/data/instructure \
      > tests/questionnaire_truth/references.json
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ASKS = re.compile(
    r"\b(?:provide|give|share|include|attach)\s+(?:a\s+|any\s+)?references?\b"
    r"|\bdescribe\s+or\s+provide\s+(?:a\s+)?references?\b"
    r"|\bprovide\s+(?:supporting\s+)?documentation\b|\bsupporting\s+documentation\b"
    r"|\bdocumentation\s+to\s+support\b|\breference\s+to\s+(?:your|the|this)\b",
    re.I,
)

# (what the question and guidance say, what the vendor's answer and comment say (None: anything),
# the document's file name pattern, whose folder: "company" = the company-wide folder, "product" =
# the product's own folder)
_ISO = r"\bISO\s*2700[01]|International Organi[sz]ation for Standardi[sz]ation"
_BCDR = r"business continuity|disaster recovery|\bBCP\b|\bDRP\b"
TOPICS = (
    (_BCDR, None, "Business Continuity & Disaster Recovery", "company"),
    (r"cloud security alliance|\bCSA\b", None, r"CSA STAR Certificate", "company"),
    (r"documentation to support the accessibility", None, r"VPAT", "product"),
    (r"security framework", _ISO, r"ISO 27001 Compliance Certificate", "company"),
    (r".", r"\barchitecture\b", r"Architecture", "product"),
)

RULE = (
    "Rows: every row of the 8 shared HECVATs (_extracted/*HECVAT*.jsonl) whose question or guidance "
    "matches, case aside, one of: 'provide|give|share|include|attach [a|any] reference(s)', "
    "'describe or provide [a] reference(s)', 'provide [supporting] documentation', 'supporting "
    "documentation', 'documentation to support', 'reference to your|the|this'. Documents: the PDFs "
    "whose file name matches a topic the row names (question and guidance, or for two topics the "
    "vendor's own answer): BCP/DRP/business continuity/disaster recovery -> 'Business Continuity & "
    "Disaster Recovery'; CSA / Cloud Security Alliance -> 'CSA STAR Certificate'; 'documentation to "
    "support the accessibility' -> the product's own 'VPAT'; a question on a 'security framework' whose "
    "vendor's answer names ISO 27001/27000 or the International Organisation for Standardisation -> "
    "'ISO 27001 Compliance Certificate'; the "
    "vendor's answer naming the architecture -> the product's own 'Architecture' document. A "
    "company-wide document (the Instructure folder) counts only for a product whose vendor (GNRL-01) "
    "is Instructure (Parchment's is Parchment LLC: the company's plans are not its plans); a product "
    "document only from the product's own folder. No document: null."
)


def _product_folder(name: str, root: Path) -> Path | None:
    """The product folder the extracted file is of ("Canvas_Credentials_HECVAT_Full" -> Canvas Credentials)."""
    for folder in root.iterdir():
        if folder.is_dir() and name.startswith(folder.name.replace(" ", "_") + "_"):
            return folder
    return None


def rows(root: Path) -> list[dict]:
    out = []
    company = sorted((root / "Instructure").glob("*.pdf"))
    for path in sorted((root / "_extracted").glob("*HECVAT*.jsonl")):
        items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        vendor = next((r["answer"] for r in items if r["id"] == "GNRL-01"), "")
        folder = _product_folder(path.stem, root)
        own = sorted(folder.glob("*.pdf")) if folder else []
        for r in items:
            ask = f"{r['question']} {r.get('guidance') or ''}"
            if not ASKS.search(ask):
                continue
            answer = f"{r.get('answer') or ''} {r.get('comment') or ''}"
            docs = []
            for asked, answered, title, whose in TOPICS:
                if not re.search(asked, ask, re.I):
                    continue
                if answered and not re.search(answered, answer, re.I):
                    continue
                pool = own if whose == "product" else (company if vendor.strip() == "Instructure" else [])
                docs += [p.name for p in pool if re.search(title, p.stem, re.I)]
            out.append(
                {
                    "file": path.stem,
                    "product": folder.name if folder else None,
                    "id": r["id"],
                    "question": r["question"],
                    "guidance": r.get("guidance") or "",
                    "documents": sorted(set(docs)) or None,
                }
            )
    return out


if __name__ == "__main__":
    found = rows(Path(sys.argv[1]))
    print(json.dumps({"rule": RULE, "rows": found}, indent=1, ensure_ascii=False))
