"""Layer 7, runs against runs: comparisons and their exporters, the noise model's estimation, baselines,
what a run would change in the advice, A/B jobs, PHP against the native tool across runs."""
