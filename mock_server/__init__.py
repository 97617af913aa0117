"""A mock OpenAI-compatible server that replays each citation producer's real wire format."""
