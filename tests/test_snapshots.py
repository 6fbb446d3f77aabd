"""The generated AEAD page and its figure JSON, pinned. Rewrite with UPDATE_SNAPSHOTS=1 and review the diff."""

import json
import os
from pathlib import Path

from phpcb import site
from phpcb.aead import analysis, figures
from phpcb.argon2 import analysis as argon2_analysis
from phpcb.argon2 import figures as argon2_figures
from phpcb.ec_keygen import analysis as ec_analysis
from phpcb.ec_keygen import figures as ec_figures
from phpcb.jwt import analysis as jwt_analysis
from phpcb.jwt import figures as jwt_figures
from phpcb.loader import load_run
from phpcb.policy import load_aead_policy, load_jwt_policy, load_key_scheme_policy, load_symmetric_policy
from phpcb.reference import load_reference
from phpcb.schema import load_schemas
from phpcb.symmetric import analysis as symmetric_analysis
from phpcb.symmetric import figures as symmetric_figures

from .conftest import FIXTURE_RUN, ROOT, SNAPSHOTS


def assert_snapshot(name: str, actual: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: run with UPDATE_SNAPSHOTS=1 and review it"
    assert actual == path.read_text(encoding="utf-8"), (
        f"{name} changed: rerun with UPDATE_SNAPSHOTS=1 and review the diff"
    )


def test_aead_page_snapshot(make_project):
    generated = site.build(make_project(FIXTURE_RUN))
    assert_snapshot("aead.md", generated.pages["experiments/aead.md"])


def test_symmetric_page_snapshot(make_project):
    generated = site.build(make_project(FIXTURE_RUN))
    assert_snapshot("symmetric.md", generated.pages["experiments/symmetric.md"])


def test_symmetric_figures_snapshot():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    result = symmetric_analysis.analyse(run, load_symmetric_policy(ROOT / "data" / "policy" / "symmetric.yaml"))
    text = json.dumps(symmetric_figures.all_figures(result), indent=1, sort_keys=True) + "\n"
    assert_snapshot("symmetric-figures.json", text)


def test_aead_figures_snapshot():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    result = analysis.analyse(run, load_aead_policy(ROOT / "data" / "policy" / "aead.yaml"))
    text = json.dumps(figures.all_figures(result), indent=1, sort_keys=True) + "\n"
    assert_snapshot("aead-figures.json", text)


def test_ec_keygen_page_snapshot(make_project):
    generated = site.build(make_project(FIXTURE_RUN))
    assert_snapshot("ec_keygen.md", generated.pages["experiments/ec_keygen.md"])


def test_ec_keygen_figures_snapshot():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    result = ec_analysis.analyse(
        run,
        load_key_scheme_policy(ROOT / "data" / "policy" / "ec_keygen.yaml"),
        load_reference(ROOT / "data" / "reference" / "ec_keygen.yaml"),
    )
    text = json.dumps(ec_figures.all_figures(result), indent=1, sort_keys=True) + "\n"
    assert_snapshot("ec_keygen-figures.json", text)


def test_jwt_page_snapshot(make_project):
    generated = site.build(make_project(FIXTURE_RUN))
    assert_snapshot("jwt.md", generated.pages["experiments/jwt.md"])


def test_jwt_figures_snapshot():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    result = jwt_analysis.analyse(run, load_jwt_policy(ROOT / "data" / "policy" / "jwt.yaml"))
    limits = load_reference(ROOT / "data" / "reference" / "jwt.yaml")["limits"]
    text = json.dumps(jwt_figures.all_figures(result, limits), indent=1, sort_keys=True) + "\n"
    assert_snapshot("jwt-figures.json", text)


def test_argon2_page_snapshot(make_project):
    generated = site.build(make_project(FIXTURE_RUN))
    assert_snapshot("argon2.md", generated.pages["experiments/argon2.md"])


def test_argon2_figures_snapshot():
    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    text = json.dumps(argon2_figures.all_figures(argon2_analysis.analyse(run)), indent=1, sort_keys=True) + "\n"
    assert_snapshot("argon2-figures.json", text)


def test_generated_site_lists_pages_and_publishes_every_run_file(make_project):
    root: Path = make_project(FIXTURE_RUN)
    generated = site.build(root)
    assert set(generated.pages) == {
        "index.md",
        "experiments/aead.md",
        "experiments/symmetric.md",
        "experiments/ec_keygen.md",
        "experiments/jwt.md",
        "experiments/argon2.md",
        "runs.md",
    }
    run_id = FIXTURE_RUN.name
    published = (
        "manifest.json",
        "aead.csv",
        "native.csv",
        "symmetric.csv",
        "cipher_inventory.csv",
        "ec_keygen.csv",
        "ec_curves.csv",
        "jwt.csv",
        "jwt_tokens.csv",
        "jwt_keys.csv",
        "argon2.csv",
    )
    assert set(generated.files) == {f"runs/{run_id}/{name}" for name in published}
    assert f"[aead.csv](../runs/{run_id}/aead.csv)" in generated.pages["experiments/aead.md"]
    assert run_id in generated.pages["runs.md"]
