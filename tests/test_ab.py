"""`make ab`'s analysis (ab.py): rounds of base and head runs compared round by round; what a change in
one case, a change of a whole class and no change at all give; the report in Markdown and JSON."""

import json
import re

import numpy as np
import pytest

from phpcb.compare import ab, ab_export
from phpcb.compare.comparison import Verdict
from phpcb.data.loader import Run
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry

from .conftest import ROOT
from .test_comparison import manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")
JWT = [e for e in registry.discover() if e.name == "jwt"]
ALGS = {"ES256": 50_000.0, "RS256": 30_000.0, "PS256": 32_000.0, "EdDSA": 20_000.0, "HS256": 2_000.0, "ES384": 90_000.0}


def jwt_run(run_id, machine_speed, changes=None, seed=0):
    """One run of the JWT sign and verify cases: every time × the round's machine speed, × a case's
    planted change, with a little per-run noise of each case."""
    rng = np.random.default_rng(seed)
    rows = []
    for operation in ("sign", "verify"):
        for alg, ns in ALGS.items():
            factor = machine_speed * (changes or {}).get((alg, operation), 1.0) * float(np.exp(rng.normal(0, 0.01)))
            rows += [
                {
                    "alg": alg,
                    "payload_chars": 100,
                    "operation": operation,
                    "sample": sample,
                    "iterations": 10,
                    "elapsed_ns": round(ns * factor * 10 * (1 + 0.002 * ((sample % 5) - 2))),
                }
                for sample in range(9)
            ]
    return Run.from_rows(run_id, manifest(run_id), {"jwt.csv": rows})


def rounds(head_changes=None, count=4):
    """Rounds on a machine whose speed wanders by ±30 % between rounds (both sides of a round alike)."""
    speeds = [1.0, 1.3, 0.8, 1.15, 0.9][:count]
    return [
        (
            jwt_run(f"20260101T00{r}0Z-base-php8.2", speed, seed=2 * r),
            jwt_run(f"20260101T00{r}1Z-head-php8.2", speed, head_changes, seed=2 * r + 1),
        )
        for r, speed in enumerate(speeds)
    ]


def test_the_same_code_on_a_wandering_machine_changes_nothing():
    report = ab.analyse(rounds(), SCHEMAS, JWT)
    assert report.flagged == []
    (effects,) = report.experiments
    assert {c.label for c in effects.classes} == {
        "operation=sign · payload_chars=100",
        "operation=verify · payload_chars=100",
    }
    assert all(abs(c.ratio - 1) < 0.02 for c in effects.classes), "the machine's wandering cancels within a round"


def test_a_slower_case_is_flagged_beyond_its_class():
    report = ab.analyse(rounds({("RS256", "verify"): 1.25}), SCHEMAS, JWT)
    flagged = [(e.name, effect.label, effect.verdict) for e, effect in report.flagged]
    assert flagged == [("jwt", "RS256 · 100 · verify", Verdict.SLOWER)]
    (effect,) = [effect for _, effect in report.flagged]
    assert effect.ratio == pytest.approx(1.25, rel=0.03)
    assert effect.low > 1.05


def test_a_change_of_a_whole_class_is_its_shift():
    changes = {(alg, "sign"): 0.7 for alg in ALGS}
    report = ab.analyse(rounds(changes), SCHEMAS, JWT)
    (effects,) = report.experiments
    sign = next(c for c in effects.classes if c.label == "operation=sign · payload_chars=100")
    assert sign.verdict is Verdict.FASTER
    assert sign.ratio == pytest.approx(0.7, rel=0.03)
    assert [c for c in effects.cases if c.verdict.significant] == []


def test_fewer_than_two_rounds_or_no_shared_experiment_is_refused():
    with pytest.raises(ab.AbError, match="at least 2 rounds"):
        ab.analyse(rounds()[:1], SCHEMAS, JWT)
    aead = [e for e in registry.discover() if e.name == "aead"]
    with pytest.raises(ab.AbError, match="no experiment has results in every base and head run"):
        ab.analyse(rounds(), SCHEMAS, aead)


def test_the_markdown_report_leads_with_what_changed_and_the_json_keeps_everything():
    report = ab.analyse(rounds({("RS256", "verify"): 1.25}), SCHEMAS, JWT, "origin/main (abc1234)", "def5678")
    text = ab_export.markdown(report)
    assert text.startswith("## A/B: def5678 against origin/main (abc1234), 4 rounds on one machine")
    assert re.search(r"^\*\*1 change beyond the noise:\*\* .+ · RS256 · 100 · verify \+2[0-9]\.[0-9] %\.$", text, re.M)
    document = json.loads(ab_export.as_json(report))
    assert document["format_version"] == ab_export.FORMAT_VERSION
    assert len(document["rounds"]) == 4
    assert {case["verdict"] for case in document["experiments"][0]["cases"]} == {"~", "slower"}
