"""The Streamlit review app. Only this package imports streamlit."""
