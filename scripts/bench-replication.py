"""`make bench-replication RUNS="data/runs/A data/runs/B ..."`: issue 26's goals, measured on repeated runs
of one machine and profile (make bench-repeat), with `phpcb compare --format json` as the judge.

The runs are split into held-out pairs: each pair is compared under a noise model estimated from the
other runs only (never from the pair itself), in a throwaway project:

- A/A: the pair's comparison flags at most 5 % of its tested cases (summary: faster + slower), and
  "what this run would change in the advice" holds nothing but ties (advice_changes with tie false);
- power: a copy of the pair's newer run with every RS256 verification 25 % slower (re-sealed as a
  deliberate edit) is flagged `slower` for at least 95 % of those cases;
- for information, the same A/A pair judged by its own spread alone (no model).

Prints one block per pair and exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from phpcb.commands import compare  # noqa: E402
from phpcb.compare import noise  # noqa: E402
from phpcb.data import noise_model  # noqa: E402
from phpcb.data.loader import load_run  # noqa: E402
from phpcb.data.machines import machine_name  # noqa: E402
from phpcb.data.rewrite import reseal_on_disk  # noqa: E402
from phpcb.data.schema import load_schemas  # noqa: E402
from phpcb.experiments import registry  # noqa: E402

FLAGGED_AT_MOST = 0.05
POWER_AT_LEAST = 0.95
PLANTED = 1.25
INPUTS = (("data", "schema"), ("data", "policy"), ("data", "reference"), ("templates",), ("runners", "snippets"))


def project(parent: Path, runs: list[Path]) -> Path:
    root = parent / "project"
    for parts in INPUTS:
        shutil.copytree(ROOT.joinpath(*parts), root.joinpath(*parts))
    (root / "data" / "runs").mkdir(parents=True)
    for run in runs:
        shutil.copytree(run, root / "data" / "runs" / run.name)
    return root


def with_model(root: Path, model_runs: list[Path]) -> None:
    schemas = load_schemas(root / "data" / "schema")
    loaded = [load_run(root / "data" / "runs" / run.name, schemas) for run in model_runs]
    machine, section = noise.estimate(loaded, registry.discover(), schemas)
    noise_model.save(root, machine, section)


def planted(root: Path, run: Path, factor: float) -> Path:
    """A copy of `run` with every RS256 verification `factor` times slower, re-sealed as a deliberate edit."""
    copy = root / "data" / "runs" / (run.name.replace("-php", "-planted-php", 1))
    shutil.copytree(root / "data" / "runs" / run.name, copy)
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    manifest["run_id"] = copy.name
    (copy / "manifest.json").write_text(json.dumps(manifest, indent=4) + "\n", encoding="utf-8")
    table = copy / "jwt.csv"
    with table.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
        header = list(rows[0])
    for row in rows:
        if row["alg"] == "RS256" and row["operation"] == "verify":
            row["elapsed_ns"] = str(round(int(row["elapsed_ns"]) * factor))
    with table.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, header, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    reseal_on_disk(copy, load_schemas(root / "data" / "schema"), f"bench-replication: RS256 verify x{factor}")
    return copy


def judged(root: Path, base: Path, new: Path) -> dict:
    text = compare.report(root, root / "data" / "runs" / base.name, new, "json")
    return json.loads(text)


def flagged_share(document: dict) -> tuple[int, int]:
    summary = document["summary"]
    return summary.get("faster", 0) + summary.get("slower", 0), document["method"]["tested_cases"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+", help="run directories of one machine and profile, oldest first")
    args = parser.parse_args()
    runs = [run.resolve() for run in args.runs]
    if len({run.name for run in runs}) != len(runs):
        print("error: a run is named twice")
        return 2
    if len(runs) < 4 or len(runs) % 2:
        print("error: give an even number of at least 4 runs (held-out pairs; the others make the model)")
        return 2
    schemas = load_schemas(ROOT / "data" / "schema")
    first = load_run(runs[0], schemas)
    print(f"{len(runs)} runs of {machine_name(first.manifest)}, profile {first.manifest['profile']}")
    missed = []
    for index in range(0, len(runs), 2):
        pair = runs[index : index + 2]
        others = [run for run in runs if run not in pair]
        with tempfile.TemporaryDirectory() as work:
            root = project(Path(work), runs)
            own = judged(root, pair[0], root / "data" / "runs" / pair[1].name)
            with_model(root, others)
            aa = judged(root, pair[0], root / "data" / "runs" / pair[1].name)
            changes = [c for c in aa["advice_changes"] if not c["tie"]]
            ties = [c for c in aa["advice_changes"] if c["tie"]]
            slowed = planted(root, pair[1], PLANTED)
            power = judged(root, pair[0], slowed)
        flagged, tested = flagged_share(aa)
        own_flagged, own_tested = flagged_share(own)
        rs256 = [
            c
            for e in power["experiments"]
            if e["name"] == "jwt"
            for c in e["cases"]
            if c["key"].get("alg") == "RS256" and c["key"].get("operation") == "verify" and c["p_value"] is not None
        ]
        caught = sum(1 for c in rs256 if c["verdict"] == "slower")
        print(f"\npair {pair[0].name} → {pair[1].name} (model from {len(others)} other runs)")
        print(f"  A/A, noise model: {flagged} of {tested} cases flagged ({flagged / max(tested, 1):.1%})")
        print(f"  A/A, the pair's own spread: {own_flagged} of {own_tested} ({own_flagged / max(own_tested, 1):.1%})")
        print(f"  advice: {len(changes)} changes, {len(ties)} within ties")
        for c in changes:
            print(f"    - {c['label']}: {c['base']} → {c['new']}")
        for c in ties:
            print(f"    ~ {c['label']}: {c['base']} → {c['new']}")
        print(f"  power: RS256 verify ×{PLANTED}: {caught} of {len(rs256)} flagged slower")
        if flagged > FLAGGED_AT_MOST * tested:
            missed.append(f"{pair[1].name}: A/A flagged {flagged / tested:.1%} > 5 %")
        if changes:
            missed.append(f"{pair[1].name}: {len(changes)} advice changes that are not ties")
        if not rs256 or caught < POWER_AT_LEAST * len(rs256):
            missed.append(f"{pair[1].name}: power {caught} of {len(rs256)} < 95 %")
    print("\n" + ("every goal met" if not missed else "missed: " + "; ".join(missed)))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
