"""A drafted questionnaire and its review: the drafting run over a whole questionnaire into the review
store (draft_run), decisions (review), everything written back out (workbook, CSV, citation
excerpts), and the reports over the reviews and the answer library (reports/)."""
