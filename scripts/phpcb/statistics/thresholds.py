"""The thresholds a comparison and the fidelity check decide by, owned here so that every layer above
(the pages' wording in presentation/render.py, the verdicts in compare/) reads the same number.
The confidence level and the noise floor of a claimed difference are stats.CONFIDENCE and
stats.NOISE_THRESHOLD."""

from __future__ import annotations

# A comparison's case or class is `faster` or `slower` only with a Benjamini–Hochberg-adjusted p below this…
ALPHA = 0.05
# …and its residual (the change beyond the machine's shift) more than this from 1.
CHANGE_THRESHOLD = 0.05
# `make bench-fidelity`'s goal: each ratio's CI within ± this share of its value.
HALF_WIDTH_GOAL = 0.05
# The harness may add at most this share to what it measures (the aead page's harness overhead).
OVERHEAD_GOAL = 0.05
