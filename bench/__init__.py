"""`make bench`: the extension's cost in a real Open WebUI and Chromium (see __main__)."""
