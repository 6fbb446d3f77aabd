"""`mkdocs build --strict` of the real site, and of a project whose data is malformed."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from .conftest import MALFORMED, ROOT

MKDOCS = str(Path(os.environ.get("VIRTUAL_ENV", ROOT / ".venv")) / "bin" / "mkdocs")


def mkdocs_build(out: Path, phpcb_root: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    if phpcb_root is not None:
        env["PHPCB_ROOT"] = str(phpcb_root)
    return subprocess.run(
        [MKDOCS, "build", "--strict", "-d", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    result = mkdocs_build(out)
    assert result.returncode == 0, result.stderr
    return out


def test_strict_build_writes_every_page(built_site):
    pages = (
        "index.html",
        "experiments/aead/index.html",
        "experiments/symmetric/index.html",
        "experiments/ec_keygen/index.html",
        "experiments/jwt/index.html",
        "experiments/argon2/index.html",
        "runs/index.html",
    )
    for page in (*pages, "methodology/index.html"):
        assert (built_site / page).is_file(), page


def test_plotly_is_served_from_the_site_and_nothing_from_a_cdn(built_site):
    plotly_js = built_site / "assets" / "javascripts" / "plotly.min.js"
    assert plotly_js.stat().st_size > 1_000_000
    for html in built_site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        external = re.findall(r'<(?:script|link)[^>]+(?:src|href)="(https?://[^"]+)"', text)
        assert external == [], f"{html}: {external}"


@pytest.mark.parametrize(
    ("experiment", "charts"), [("aead", 3), ("symmetric", 3), ("ec_keygen", 4), ("jwt", 3), ("argon2", 3)]
)
def test_each_experiment_page_has_its_charts_and_links_its_csv(built_site, experiment, charts):
    text = (built_site / "experiments" / experiment / "index.html").read_text(encoding="utf-8")
    assert text.count('class="pcb-chart"') == charts
    links = re.findall(r'href="(\.\./\.\./runs/[^"]+\.(?:csv|json))"', text)
    assert len(links) >= 2
    for link in links:
        assert (built_site / "experiments" / experiment / link).resolve().is_file(), link


def test_malformed_data_stops_the_build_with_the_file_row_and_column(tmp_path, make_project):
    root = make_project(MALFORMED / "below-minimum" / "20260101T0100Z-malformed-php8.2")
    result = mkdocs_build(tmp_path / "site", phpcb_root=root)
    assert result.returncode != 0
    assert "aead.csv, row 6, column 'iterations': 0 is less than the minimum of 1" in result.stderr
    assert not (tmp_path / "site" / "experiments").exists()
