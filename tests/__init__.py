"""The test suite (a regular package: streamlit-pdf-viewer installs a stray top-level `tests` package that would shadow a namespace one)."""
