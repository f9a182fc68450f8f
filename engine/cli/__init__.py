"""The command line: ``python -m engine`` (engine/__main__.py calls engine/cli/main.py)."""
