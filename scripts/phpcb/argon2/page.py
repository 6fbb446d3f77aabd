"""What the argon2 page needs beyond the analysis: reference profiles, the paper's tables, its conclusion."""

from __future__ import annotations

from typing import Any

from .analysis import Argon2Analysis, budget_choices

# Parameter sets a reader compares against; each is looked up in the run's grid.
PROFILES = (
    ("OWASP Password Storage Cheat Sheet, minimum for Argon2id", 19, 2, 1),
    ("RFC 9106, first recommended option", 2048, 1, 4),
    ("RFC 9106, second recommended option", 64, 3, 4),
    ("PHP's defaults (PASSWORD_ARGON2_DEFAULT_*)", 64, 4, 1),
)


def context(analysis: Argon2Analysis, reference: dict[str, Any]) -> dict[str, Any]:
    figures = {entry["id"]: entry["rows"] for entry in reference["figures"]}
    claim = next(c for c in reference["claims"] if c["id"] == "optimal")
    paper_php = [
        (row, analysis.find("password_hash", "argon2i", row["memory_mib"], row["threads"], t), t, row[f"t{t}_s"])
        for row in figures["php"]
        for t in (1, 3, 6)
    ]
    paper_cli = [
        (row, analysis.find("cli", variant, row["memory_mib"], row["threads"], t), variant, t, row[column])
        for row in figures["console"]
        for variant, t, column in (("argon2d", 1, "argon2d_t1_s"), ("argon2i", 3, "argon2i_t3_s"))
    ]
    return {
        "budgets": budget_choices(analysis),
        "profiles": [
            (name, m, t, p, analysis.find("password_hash", "argon2id", m, p, t)) for name, m, t, p in PROFILES
        ],
        "paper_php": [item for item in paper_php if item[1] is not None],
        "paper_cli": [item for item in paper_cli if item[1] is not None],
        "claim": claim,
        "claim_cells": [
            analysis.find("password_hash", "argon2i", m, claim["threads"], claim["time_cost"])
            for m in claim["memory_mib"]
        ],
    }
