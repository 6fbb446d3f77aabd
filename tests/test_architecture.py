"""The build package's layers (docs/architecture.md): each imports only from its own layer and the
ones below, never in a cycle, and never from inside a function to dodge one."""

from __future__ import annotations

import ast
import functools
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGE = ROOT / "scripts" / "phpcb"
# Bottom to top; a module of the package's top level (errors, __init__, __main__) is named here.
LAYERS = (
    "errors",
    "data",
    "statistics",
    "presentation",
    "claims",
    "experiments",
    "compare",
    "pages",
    "publish",
    "commands",
)
TOP_LEVEL = {"phpcb": "errors", "phpcb.errors": "errors", "phpcb.__main__": "commands"}
# The verbs a workflow runs with nothing installed but Python (docs/contributing.md).
STANDARD_LIBRARY_ONLY = ("deploy_preview", "cleanup_preview", "pr_comment", "check_head")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(name: str) -> str:
    return TOP_LEVEL.get(name) or name.split(".")[1]


def resolve(imported: str, names: list[str], known: dict[str, Path]) -> Iterator[str]:
    """The package's modules an import statement loads: `from phpcb.x import y` is the module
    phpcb.x.y when there is one, else an attribute of phpcb.x."""
    if imported != "phpcb" and not imported.startswith("phpcb."):
        return
    for name in names or [""]:
        candidate = f"{imported}.{name}" if name else imported
        yield candidate if candidate in known else imported


def imports(tree: ast.AST, known: dict[str, Path]) -> Iterator[tuple[str, ast.stmt]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                for target in resolve(alias.name, [], known):
                    yield target, node
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"line {node.lineno}: a relative import; the package imports absolutely"
            for target in resolve(node.module or "", [alias.name for alias in node.names], known):
                yield target, node


def function_level(tree: ast.AST) -> Iterator[ast.stmt]:
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    yield node


# Listing the files is cheap and names the parametrized tests; parsing them is not, and is done when a
# test first needs a module's tree, so that each pytest-xdist worker parses only for the tests it runs.
KNOWN = modules()


@functools.cache
def tree_of(name: str) -> ast.Module:
    path = KNOWN[name]
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def trees() -> dict[str, ast.Module]:
    return {name: tree_of(name) for name in KNOWN}


def import_graph() -> dict[str, set[str]]:
    return {name: {target for target, _ in imports(tree, KNOWN) if target != name} for name, tree in trees().items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the groups of modules that import each other, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_every_module_belongs_to_a_layer():
    strays = sorted(name for name in KNOWN if layer_of(name) not in LAYERS)
    assert not strays, f"modules outside the layers {LAYERS}: {strays}"


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_a_module_imports_only_its_own_layer_and_those_below(name: str):
    mine = LAYERS.index(layer_of(name))
    upward = sorted(
        f"{target} (line {node.lineno})"
        for target, node in imports(tree_of(name), KNOWN)
        if LAYERS.index(layer_of(target)) > mine
    )
    assert not upward, f"{name} ({layer_of(name)}) imports from a higher layer: {upward}"


def test_no_import_cycle():
    cycles = [sorted(group) for group in strongly_connected(import_graph()) if len(group) > 1]
    assert not cycles, f"modules importing each other: {cycles}"


def test_no_import_inside_a_function():
    found = [f"{name}:{node.lineno}" for name, tree in trees().items() for node in function_level(tree)]
    assert not found, f"imports inside functions (move them to the top; a cycle is fixed by layering): {found}"


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert [sorted(group) for group in strongly_connected(graph) if len(group) > 1] == [["a", "b", "c"]]


def test_the_registry_scans_only_the_experiments_package():
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from phpcb.experiments import registry; registry.discover(); "
            "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('phpcb.')}))",
        ],
        env={"PYTHONPATH": str(PACKAGE.parent), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = set(ast.literal_eval(found.stdout))
    assert loaded <= {"errors", "data", "statistics", "presentation", "claims", "experiments"}, loaded


@pytest.mark.parametrize("verb", STANDARD_LIBRARY_ONLY)
def test_the_verbs_of_the_trusted_workflows_load_the_standard_library_only(verb: str):
    """The deploy and comment workflows install nothing: their verbs must not load the build."""
    found = subprocess.run(
        [
            sys.executable,
            "-S",  # no site module: what is loaded is what the verb imports
            "-c",
            f"import sys; import phpcb.commands.{verb}; print(sorted({{m.split('.')[0] for m in sys.modules}}))",
        ],
        env={"PYTHONPATH": str(PACKAGE.parent), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = set(ast.literal_eval(found.stdout))
    third_party = sorted(loaded - set(sys.stdlib_module_names) - {"phpcb", "__main__"})
    assert not third_party, f"{verb} loads {third_party}"


def test_the_docs_and_the_packages_number_the_layers_as_this_list():
    """One list of layers: docs/architecture.md's numbered list and each package's docstring follow LAYERS."""
    section = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split("## Layers")[1].split("\n## ")[0]
    listed = re.findall(r"^(\d+)\. \*\*`([a-z_]+)(?:/|\.py)`\*\*", section, re.MULTILINE)
    assert [name for _, name in listed] == list(LAYERS)
    assert [int(number) for number, _ in listed] == list(range(1, len(LAYERS) + 1))
    for number, name in enumerate(LAYERS, 1):
        if name == "errors":  # a module, not a package: it has no "Layer" docstring of its own
            continue
        docstring = ast.get_docstring(tree_of(f"phpcb.{name}")) or ""
        assert docstring.startswith(f"Layer {number},") or docstring.startswith(f"Layer {number} "), (name, docstring)
