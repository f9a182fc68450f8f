"""Questionnaires: read the questions and answer places of XLSX/XLSM/CSV and Word (.docx/.docm) files."""

from engine.questionnaire.formats import read_questionnaire
from engine.questionnaire.records import Question, Questionnaire, QuestionnaireError, ReadOptions, SheetLayout

__all__ = ["Question", "Questionnaire", "QuestionnaireError", "ReadOptions", "SheetLayout", "read_questionnaire"]
