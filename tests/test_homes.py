"""An experiment lives in its own homes (docs/contributing.md, "Adding an experiment"): nothing outside
them names it. Were an experiment to need a line in shared code (a table name in compare/, an import
in a command), the next one would need an edit outside its homes too; this test fails first.

Homes of experiment `name` (`Name` its PHP namespace): runners/src/Name/, runners/tests/Name/,
data/schema/tables/name.json, data/policy/name.yaml, data/reference/name.yaml,
scripts/phpcb/experiments/name/, templates/name.md.j2, tests/test_name*.py, tests/snapshots/name/, its
fixture run, vectors/. One experiment's home may name another experiment (the JWT page quotes the
curves page's key generation): that is a dependency between two experiments, not shared code.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from phpcb.data.schema import load_schemas
from phpcb.experiments import registry

from .conftest import ROOT

EXPERIMENTS = registry.discover()
SCHEMAS = load_schemas(ROOT / "data" / "schema")
# Shared code: what every experiment's pages and runs go through (tests of shared code may take a real
# experiment as their example; they are not in it).
SHARED = ("scripts/phpcb/", "templates/", "runners/")
TESTS = ("runners/tests/",)
CODE = (".py", ".j2", ".php")
# Shared files that name an experiment, each with why; anything else that does fails the test.
NAMED_ON_PURPOSE = {
    ("runners/fidelity.php", "aead"): "`make bench-fidelity`: the aead experiment's PHP-against-openssl rounds, alone",
    ("scripts/phpcb/compare/fidelity.py", "aead"): "its report (`make bench-fidelity`)",
    ("scripts/phpcb/commands/precision.py", "aead"): "`phpcb precision` also prints the aead harness's overhead",
    ("runners/argon2-cell.php", "argon2"): "the process one Argon2 cell is measured in (its own PHP, its own limits)",
    ("scripts/phpcb/data/upgrade.py", "aead"): "an upgrade rewrites the tables an old schema version wrote",
    ("scripts/phpcb/data/upgrade.py", "symmetric"): "likewise",
}
# Words that are also an experiment's name: Plotly's error bars have a `symmetric` property.
NOT_A_NAME = re.compile(r'"symmetric": (?:True|False)')


def namespace(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def homes(name: str) -> tuple[str, ...]:
    return (
        f"runners/src/{namespace(name)}/",
        f"runners/tests/{namespace(name)}/",
        f"data/schema/tables/{name}.json",
        f"data/policy/{name}.yaml",
        f"data/reference/{name}.yaml",
        f"scripts/phpcb/experiments/{name}/",
        f"templates/{name}.md.j2",
        f"tests/test_{name}",
        f"tests/snapshots/{name}/",
    )


def naming(name: str) -> re.Pattern[str]:
    """Its name or one of its tables' as a string, its Python package, its PHP namespace."""
    tables = [table.name for table in SCHEMAS.of_experiment(name)]
    quoted = "|".join(re.escape(word) for word in [name, *tables])
    return re.compile(rf"""["']({quoted})["']|phpcb\.experiments\.{name}\b|PhpCryptoBench\\{namespace(name)}\\""")


def shared_files() -> list[str]:
    every_home = tuple(home for experiment in EXPERIMENTS for home in homes(experiment.name))
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [
        path
        for path in tracked.splitlines()
        if path.startswith(SHARED)
        and path.endswith(CODE)
        and not path.startswith((*every_home, *TESTS))
        and (ROOT / path).is_file()
    ]


FILES = shared_files()


@pytest.mark.parametrize("name", [experiment.name for experiment in EXPERIMENTS])
def test_no_shared_file_names_an_experiment(name: str):
    pattern = naming(name)
    found = [
        f"{path}:{number}: {line.strip()}"
        for path in FILES
        if (path, name) not in NAMED_ON_PURPOSE
        for number, line in enumerate((ROOT / path).read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(NOT_A_NAME.sub("", line))
    ]
    assert not found, f"shared code names the {name} experiment (move it into its homes): {found}"


def test_every_exception_still_names_its_experiment():
    """An exception that no longer holds is removed, so that the list stays the whole truth."""
    stale = [
        (path, name)
        for path, name in NAMED_ON_PURPOSE
        if not naming(name).search((ROOT / path).read_text(encoding="utf-8"))
    ]
    assert not stale


def test_the_scan_finds_a_table_name_in_shared_code():
    assert naming("symmetric").search('    ("symmetric", "cipher_inventory.csv", "cipher"),')
    assert naming("pq").search("from phpcb.experiments.pq import analysis")
    assert naming("jwt").search("use PhpCryptoBench\\Jwt\\JwtCase;")
    assert not naming("argon2").search("'argon2_provider' => null,"), "a library's name is not the experiment's"


def test_the_homes_are_those_the_contributing_guide_lists():
    guide = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    listed = guide.split("Its homes, exactly", 1)[1].split("\n\n", 2)[1]
    for home in homes("name"):
        shown = home.replace("Name", "<Name>").replace("name", "<name>").rstrip("/")
        assert shown in listed, f"{shown} is a home the guide does not list"
