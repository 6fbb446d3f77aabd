"""Layer 3, statistics of samples: medians and their CIs, ratios, interleaved rounds, the spread between runs,
plausibility checks, contests. Imports data and below."""
