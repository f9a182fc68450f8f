"""Spreadsheet questionnaires (.xlsx, .xlsm, .csv): read by reader.py (its dropdowns by
validation.py, its dates by date_format.py); written back cell by cell by writer.py."""
