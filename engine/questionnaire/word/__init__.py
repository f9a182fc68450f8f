"""Word questionnaires (.docx, .docm): read by reader.py (paragraphs, lists, tables, forms,
content controls: package, xmltree, lists, found, places, tables) and written back by writer.py,
which ends with check.py's no-other-change check."""
