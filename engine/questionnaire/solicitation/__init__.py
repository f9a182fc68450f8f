"""Solicitations (RFP, RFQ, RFI, tender: a document written as prose, not a questionnaire)
shredded into a compliance matrix: every requirement quoted verbatim on its page, with its ID,
kind and mandatory flag, and the key facts (docs/solicitations.md)."""

from engine.questionnaire.solicitation.records import (
    NOT_STATED,
    Compliance,
    DueDateAlert,
    Fact,
    KeyFact,
    Kind,
    MatrixEntry,
    Page,
    Requirement,
    Shredded,
    Unit,
)
from engine.questionnaire.solicitation.shred import looks_like_solicitation, shred

__all__ = [
    "NOT_STATED",
    "Compliance",
    "DueDateAlert",
    "Fact",
    "KeyFact",
    "Kind",
    "MatrixEntry",
    "Page",
    "Requirement",
    "Shredded",
    "Unit",
    "looks_like_solicitation",
    "shred",
]
