"""requirements.txt pins what the build needs (`make report` installs it alone: issue 48), requirements-dev.txt
what only the checks need on top of it. A build module importing a package only the checks pin would work in
the developer's venv and break `make report` on a fresh machine: these tests catch that here."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import yaml
from packaging.requirements import Requirement

from .conftest import ROOT
from .test_workflows import prerequisites

BUILD = ROOT / "requirements.txt"
DEV = ROOT / "requirements-dev.txt"
SETUP = ROOT / "requirements-setup.txt"  # the venv's installer (scripts/venv-install.sh), pip installs it first
PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.+!-]+$")
# What `make report`, `make site`, `make compare`, `make publish` ... run in the venv: the package, the
# scripts beside it, and the hook of `mkdocs serve` from the root.
BUILD_SOURCES = (ROOT / "scripts" / "phpcb", *sorted((ROOT / "scripts").glob("*.py")), ROOT / "overrides" / "hooks")
FIRST_PARTY = {"phpcb"}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pin_lines(path: Path) -> list[str]:
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def pinned(path: Path) -> dict[str, str]:
    """Distribution (canonical name) -> version, of the file's own pins (not those it includes with -r)."""
    pins = (line.split("==") for line in pin_lines(path) if not line.startswith("-r "))
    return {canonical(name): version for name, version in pins}


def imported_top_names(source: str) -> set[str]:
    """The top-level names of the absolute imports in `source`, wherever they sit (a function's import runs
    on some path of the build too)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def third_party_imports(files: Iterable[Path]) -> dict[str, set[Path]]:
    """Top-level import name -> the files importing it, neither the standard library's nor first-party."""
    found: dict[str, set[Path]] = {}
    for path in files:
        for name in imported_top_names(path.read_text(encoding="utf-8")) - FIRST_PARTY - sys.stdlib_module_names:
            found.setdefault(name, set()).add(path)
    return found


@functools.cache
def providers() -> dict[str, list[str]]:
    """Scans every installed distribution's file list: once."""
    return importlib.metadata.packages_distributions()


def distributions_of(import_names: Iterable[str]) -> dict[str, set[str]]:
    """Import name -> the installed distributions (canonical names) providing it; empty when none does."""
    return {name: {canonical(dist) for dist in providers().get(name, [])} for name in import_names}


def not_provided_by(pins: dict[str, str], files: Iterable[Path]) -> dict[str, list[str]]:
    """Import name -> the files importing it, for each third-party import no distribution in `pins` provides."""
    imports = third_party_imports(files)
    return {
        name: sorted(str(path.relative_to(ROOT)) for path in imports[name])
        for name, dists in distributions_of(imports).items()
        if not dists & pins.keys()
    }


def build_files() -> list[Path]:
    return [path for source in BUILD_SOURCES for path in ([source] if source.is_file() else source.rglob("*.py"))]


def test_every_package_is_pinned_to_one_version_in_one_file():
    build, dev, setup = pinned(BUILD), pinned(DEV), pinned(SETUP)
    for path in (BUILD, DEV, SETUP):
        lines = [line for line in pin_lines(path) if not line.startswith("-r ")]
        assert [line for line in lines if not PIN.match(line)] == [], f"{path.name}: not pinned with =="
        assert len(pinned(path)) == len(lines), f"{path.name} pins a package twice"
    assert build.keys() & dev.keys() == set(), "pinned in both files"
    assert setup.keys() == {"uv"}
    assert setup.keys() & (build.keys() | dev.keys()) == set(), "the installer is pinned in its own file only"
    assert {"mkdocs", "mkdocs-material", "mike", "plotly", "numpy", "pyarrow"} <= build.keys()
    # scipy is the statistics' reference in the tests; the build has its own t and normal quantiles.
    assert {"pytest", "pytest-xdist", "playwright", "ruff", "mutmut", "zizmor", "zensical", "scipy"} <= dev.keys()


def test_the_dev_requirements_install_the_build_first():
    assert pin_lines(DEV)[0] == "-r requirements.txt"
    assert [line for line in pin_lines(DEV) if line.startswith("-")] == ["-r requirements.txt"]
    assert [line for line in pin_lines(BUILD) if line.startswith("-")] == []


def test_the_venv_holds_exactly_the_pinned_versions():
    """The tests run in the venv the two files install: a pin that drifted from it was never tested."""
    for name, version in (pinned(BUILD) | pinned(DEV) | pinned(SETUP)).items():
        assert importlib.metadata.version(name) == version, name


def test_the_build_imports_only_what_requirements_txt_pins():
    files = build_files()
    assert ROOT / "scripts" / "phpcb" / "statistics" / "stats.py" in files
    assert not_provided_by(pinned(BUILD), files) == {}, "move these packages to requirements.txt"


def test_an_import_of_a_package_only_the_checks_pin_is_caught(tmp_path):
    module = tmp_path / "page.py"
    module.write_text(
        "import numpy\nimport os.path\nfrom . import sibling\nfrom phpcb import errors\n"
        "def sign():\n    import jwt\n    from hypothesis import strategies\n",
        encoding="utf-8",
    )
    assert third_party_imports([module]) == {"numpy": {module}, "jwt": {module}, "hypothesis": {module}}
    imports = distributions_of(["numpy", "jwt", "hypothesis", "no_such_module_anywhere"])
    assert imports == {
        "numpy": {"numpy"},
        "jwt": {"pyjwt"},
        "hypothesis": {"hypothesis"},
        "no_such_module_anywhere": set(),
    }
    build = pinned(BUILD)
    assert {name for name, dists in imports.items() if not dists & build.keys()} == {
        "jwt",
        "hypothesis",
        "no_such_module_anywhere",
    }


def test_the_build_pins_include_their_own_dependencies():
    """requirements.txt installed alone (make report) must not miss what a build package itself requires."""
    build = pinned(BUILD)
    missing = {
        f"{name} requires {requirement.name}"
        for name in build
        for requirement in map(Requirement, importlib.metadata.requires(name) or [])
        if (requirement.marker is None or requirement.marker.evaluate({"extra": ""}))
        and canonical(requirement.name) not in build
    }
    assert missing == set()


def test_the_site_config_needs_only_build_packages():
    """The theme, plugins and Markdown extensions mkdocs.yml names come from requirements.txt's packages
    (the build writes build/mkdocs.yml from it: scripts/phpcb/pages/site_files.py)."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    extensions = [next(iter(e)) if isinstance(e, dict) else e for e in config["markdown_extensions"]]
    # A name without a dot is one of Python-Markdown's own (markdown.extensions.<name>).
    modules = {name.split(".")[0] if "." in name else "markdown" for name in extensions} - FIRST_PARTY
    distributions = set().union(*distributions_of(modules).values())
    plugins = [next(iter(p)) if isinstance(p, dict) else p for p in config.get("plugins", [])]
    for group, names in (("mkdocs.themes", [config["theme"]["name"]]), ("mkdocs.plugins", plugins)):
        for name in names:
            (entry,) = importlib.metadata.entry_points(group=group, name=name)
            assert entry.dist is not None
            distributions.add(canonical(entry.dist.name))
    assert {"markdown", "pymdown-extensions", "mkdocs-material", "mkdocs"} <= distributions
    assert distributions - pinned(BUILD).keys() == set()


def test_make_report_installs_the_build_and_make_test_the_checks_too():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    rule = makefile.split("$(VENV)/.installed: requirements.txt requirements-setup.txt scripts/venv-install.sh\n", 1)
    assert "scripts/venv-install.sh $(VENV) requirements.txt\n" in rule[1].split("\n\n")[0]
    dev_rule = makefile.split("$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt\n", 1)[1]
    assert "scripts/venv-install.sh $(VENV) requirements-dev.txt\n" in dev_rule.split("\n\n")[0]
    assert "venv-dev" not in prerequisites("report")
    for target in ("test", "test-fast", "test-python", "lint", "mutation", "zizmor"):
        assert "venv-dev" in prerequisites(target), target
