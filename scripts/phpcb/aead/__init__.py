"""The `aead` experiment, build side: analysis (statistics + findings), figures, page context."""
