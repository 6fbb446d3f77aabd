"""The `symmetric` experiment, build side: analysis (statistics + findings), figures."""
