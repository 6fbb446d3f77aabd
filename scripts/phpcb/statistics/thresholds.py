"""The thresholds the pages, the comparisons and the fidelity check decide by, owned here so that every
layer above (the pages' wording in presentation/render.py, the verdicts in compare/, the claims) reads the
same number. The confidence level is stats.CONFIDENCE."""

from __future__ import annotations

# A difference, one number for every page: two things measured side by side (A against B, PHP against
# native, a case of one run or stack against the other's) differ measurably only when their ratio's whole CI
# lies more than this from 1, beyond ×(1 + DIFFERENCE) or ÷(1 + DIFFERENCE); a comparison's case or class is
# `faster` or `slower` only beyond it too. Below it, what a machine does from one minute to the next
# (frequency, cache, neighbours) is as large as the difference.
DIFFERENCE = 0.02
# A comparison's case or class is `faster` or `slower` only with a Benjamini–Hochberg-adjusted p below this
# and a change beyond DIFFERENCE.
ALPHA = 0.05
# `make bench-fidelity`'s goal: each ratio's CI within ± this share of its value.
HALF_WIDTH_GOAL = 0.05
# The harness may add at most this share to what it measures (the aead page's harness overhead).
OVERHEAD_GOAL = 0.05
