"""The records and rules every layer may import: types, configuration, scopes, size limits, text decoding."""
