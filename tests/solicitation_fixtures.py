"""Solicitation PDFs the tests write (PyMuPDF): a small RFP over two pages, one line per text line."""

from __future__ import annotations

from pathlib import Path

import pymupdf

PAGE_ONE = [
    "REQUEST FOR PROPOSALS",
    "RFP No. 2026-ABC-17",
    "Issued by: The City of Springfield Department of Parks (DPR)",
    "Proposals are due no later than March 3, 2031, 2:00 PM ET.",
    "1. INSTRUCTIONS TO OFFERORS",
    "1.1 Submission: Proposals must be submitted via email to bids@springfield.example.",
    "The proposal shall include the following:",
    "a. A cover letter signed by an officer of the firm.",
    "b. A technical approach not to exceed ten (10) pages.",
    "1.2 The City reserves the right to reject any proposal.",
    "2. STATEMENT OF WORK",
    "2.1 The Contractor shall mow all parks weekly. The Contractor shall submit a monthly report.",
    "2.2 The Contractor should use electric equipment where possible.",
]
PAGE_TWO = [
    "3. EVALUATION CRITERIA",
    "3.1 Proposals will be evaluated on the following factors:",
    "a. Technical approach (40 points)",
    "b. Price (60 points)",
    "4. TERMS AND CONDITIONS",
    "4.1 The Contractor shall maintain general liability insurance of $1,000,000.",
    "4.2 This contract shall be governed by the laws of the State.",
]


def write_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A text PDF at ``path``: each page's lines drawn top to bottom."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page()
        for i, line in enumerate(lines):
            page.insert_text((50, 60 + 18 * i), line, fontsize=10)
    doc.save(path)
    doc.close()
    return path


def long_pages(count: int = 40) -> list[list[str]]:
    """A long RFP's pages: the first page of :data:`PAGE_ONE` (one more "shall", so that page
    alone reads as a solicitation), then one section per page, each with three requirements."""
    first = [*PAGE_ONE, "1.3 Offerors shall register in SAM before the due date."]
    rest = [
        [
            f"{n}. TASK AREA {n}",
            f"{n}.1 The Contractor shall deliver the task {n} report each month.",
            f"{n}.2 The Contractor must keep the task {n} records for three years.",
            f"{n}.3 The Contractor shall staff task {n} with a named lead.",
        ]
        for n in range(2, count + 1)
    ]
    return [first, *rest]
