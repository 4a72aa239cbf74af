"""Security tests: every write guarded, headers, tokens kept out of logs and responses."""
