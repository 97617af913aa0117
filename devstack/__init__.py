"""Starts the mock server and a real, pinned Open WebUI wired to it (for `make demo` and tests)."""
