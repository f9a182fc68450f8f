"""Questionnaires: read the questions and answer cells of XLSX/XLSM/CSV files."""

from engine.questionnaire.reader import (
    Question,
    Questionnaire,
    QuestionnaireError,
    ReadOptions,
    SheetLayout,
    read_questionnaire,
)

__all__ = ["Question", "Questionnaire", "QuestionnaireError", "ReadOptions", "SheetLayout", "read_questionnaire"]
