"""The workspace service: the one doorway the UI (and the CLI's draft) use."""
