"""The records and rules every layer may import (storage included): types (records, closed sets such as
DraftStatus), configuration, scopes, size limits, text decoding, the one atomic write (files), a
model's interface (llm), a workbook's sheets (ooxml) and the vector records (vectors)."""
