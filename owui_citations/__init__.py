"""Installs the Open WebUI Citations bundle as Open WebUI's /static/loader.js."""
