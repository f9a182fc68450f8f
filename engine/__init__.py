"""RFP review engine: plain Python, no UI."""
