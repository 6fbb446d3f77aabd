"""Which runs the judge measures a claim on: another run stands in for the shown one only where it might
decide what the shown one cannot. Each run measured costs that run's whole analysis in a build, so a
measure that no run can satisfy (Unavailable.elsewhere False) is measured on the shown run alone."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from phpcb.claims import judge as judging
from phpcb.claims.ledger import load_ledger
from phpcb.claims.results import Args, RatioResult, Result, Unavailable
from phpcb.data.loader import Run
from phpcb.data.selection import Choice, SiteConfig
from phpcb.experiments.argon2 import measures as argon2_measures
from phpcb.statistics.stats import Ratio

from .conftest import ROOT, named_run
from .test_claims import described

CLAIMS = ROOT / "data" / "reference" / "claims.yaml"
FULL, QUICK = "20260101T0000Z-a-php8.2", "20260102T0000Z-a-php8.2"


def judged(measure: judging.MeasureRun, focus: str | None) -> judging.Checked:
    runs = [
        described(named_run(FULL, "a", "full", "2026-01-01T00:00:00Z")),
        described(named_run(QUICK, "a", "quick", "2026-01-02T00:00:00Z")),
    ]
    choice = Choice(SiteConfig(Path("site.yaml"), "a", {}), focus)
    claim = next(c for c in load_ledger(CLAIMS).claims if c.id == "seed002-gcm-3x")
    claim = type(claim)(**{**claim.__dict__, "measure": "speed"})
    return judging.Judge({"aead"}, runs, choice, measure, CLAIMS).one(claim)


def recording(result_on_quick: Unavailable) -> tuple[judging.MeasureRun, list[str]]:
    """A measure that only the full run satisfies, and the runs it was asked about, in order."""
    measured: list[str] = []

    def measure(claim: Any, run: Run) -> Result:
        measured.append(run.run_id)
        if run.manifest["profile"] != "full":
            return result_on_quick
        return RatioResult("A", "B", Ratio(3.0, 2.9, 3.1), "10 MiB", (20, 20))

    return measure, measured


def test_what_another_run_may_record_is_measured_on_it_in_turn():
    measure, measured = recording(Unavailable("the 10 MiB payload is full-profile only"))
    checked = judged(measure, QUICK)
    assert measured == [QUICK, FULL]
    assert checked.verdict == "reproduced"
    assert checked.run is not None
    assert checked.run.run_id == FULL


def test_what_no_run_records_is_measured_on_the_shown_run_alone():
    measure, measured = recording(Unavailable("no run records the clock", "1 ms per GiB", elsewhere=False))
    checked = judged(measure, QUICK)
    assert measured == [QUICK], "no other run is analysed for a claim none can decide"
    assert checked.verdict == "not testable here"
    assert checked.run is not None
    assert checked.run.run_id == QUICK
    assert checked.instead == ""
    assert checked.measured == "1 ms per GiB"


CYCLES_ARGS = Args({"interface": "cli", "variant": "argon2i", "memory_mib": 32, "threads": 1, "time_cost": 3}, {})


def analysis_with(cell: Any) -> dict[str, Any]:
    return {"analysis": SimpleNamespace(find=lambda *where: cell)}


def test_cycles_per_byte_says_no_run_can_decide_it_whether_or_not_the_cell_was_measured():
    missing = argon2_measures.cycles_per_byte(analysis_with(None), None, CYCLES_ARGS)  # type: ignore[arg-type]
    assert isinstance(missing, Unavailable)
    assert (missing.elsewhere, missing.measured) == (False, "")
    wall = SimpleNamespace(median_ns=1e8, ci_low_ns=0.9e8, ci_high_ns=1.1e8, n=20)
    cell = SimpleNamespace(wall_ns=[1e8], wall=wall)
    measured = argon2_measures.cycles_per_byte(analysis_with(cell), None, CYCLES_ARGS)  # type: ignore[arg-type]
    assert isinstance(measured, Unavailable)
    assert measured.elsewhere is False
    assert measured.measured.startswith("cli argon2i, m=32 MiB, t=3, p=1: ")
    assert "per GiB of memory filled" in measured.measured
