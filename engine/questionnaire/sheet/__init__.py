"""Spreadsheet questionnaires (.xlsx, .xlsm, .csv): read by reader.py (its dropdowns by
validation.py, its dates by date_format.py); written back cell by cell by writer.py, and the copy
compared with the original by check.py (the no-other-change check)."""
