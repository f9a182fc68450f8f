"""PDF questionnaires: reader.py reads a form's fields (form.py) or a flat PDF's questions
(flat.py, questions.py, layout.py); writer.py fills a form's fields (with its no-other-change
check); response.py writes a flat PDF's answers into a Word response document."""
