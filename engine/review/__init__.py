"""Review of a drafted questionnaire: decisions, and everything written back out (workbook, CSV, citation excerpts)."""
