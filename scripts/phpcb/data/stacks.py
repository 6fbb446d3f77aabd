"""Stacks: the software under the runner (OS release, PHP, the OpenSSL library PHP loaded), as a run's
manifest records it (schema 8, `stack`), and the sets of runs that compare two stacks on one machine
in alternating rounds (`make bench-stacks`: data/stacks/<set-id>.json).

A stack's *release* is what readers ask about: "PHP 8.4 + OpenSSL 3.5". Runs written before schema 8
recorded only the OpenSSL header PHP was compiled against: their release says so, never passing the
header's number off as the library's.

What each stack other than the host's contains is declared once, in its file scripts/stacks/<name>.env
(which scripts/stack.sh sources to build it): `definitions` reads those files, and a run named after a
stack is held to its PHP, OpenSSL and OS release (data/run_checks.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from phpcb.data.datafile import read_json
from phpcb.data.loader import Run
from phpcb.data.machines import machine_name
from phpcb.data.whole_files import write_whole
from phpcb.errors import DataError

HOST = "host"
FORMAT_VERSION = 1
SETS_DIRECTORY = ("data", "stacks")
SET_ID = re.compile(r"[0-9]{8}T[0-9]{4}Z-[a-z0-9-]{1,64}")
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+[a-z]?))?")
# The stacks' declarations: scripts/stacks/<name>.env beside this package (the code's own checkout, so the
# trusted comment job holds a pull request's runs to the default branch's declarations).
DEFINITIONS = Path(__file__).resolve().parents[2] / "stacks"
DEFINITION_SUFFIX = ".env"
_ASSIGNMENT = re.compile(r"([A-Z_][A-Z0-9_]*)=(.*)")
_REFERENCE = re.compile(r"\$\{([A-Z_][A-Z0-9_]*)\}")
_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.,:/+@%=-]*")
_MAJOR_MINOR = re.compile(r"\d+\.\d+")


def _minor(version: str | None) -> str | None:
    found = _VERSION.search(version or "")
    return f"{found.group(1)}.{found.group(2)}" if found else None


def _number(version: str | None) -> str | None:
    found = _VERSION.search(version or "")
    return found.group(0) if found else None


def short_os(pretty_name: str) -> str:
    """'Debian GNU/Linux 13 (trixie)' → 'Debian 13'; a name without a version is kept as it is."""
    found = re.match(r"\s*([A-Za-z]+)\b.*?(\d+(?:\.\d+)?)", pretty_name)
    return f"{found.group(1)} {found.group(2)}" if found else pretty_name


@dataclass(frozen=True)
class Stack:
    """One run's stack."""

    name: str  # "host" (the host's own PHP) or the root filesystem it ran in, e.g. "debian13"
    os: str  # the OS release of the root PHP ran in
    php: str  # PHP's version, e.g. "8.4.27"
    openssl: str | None  # the OpenSSL library PHP loaded, e.g. "3.5.9"; None: not recorded
    openssl_header: str | None  # the OpenSSL header PHP was compiled against
    openssl_cli: str | None  # the library of the `openssl` command that measured the native limit

    @property
    def release(self) -> str:
        """What readers compare: 'PHP 8.4 + OpenSSL 3.5' (the header's series when the library was not recorded)."""
        openssl = _minor(self.openssl or self.openssl_header) or "unknown"
        return f"PHP {_minor(self.php) or self.php} + OpenSSL {openssl}"

    @property
    def label(self) -> str:
        """'Debian 13, PHP 8.4.27, OpenSSL 3.5.9' (the library PHP loaded)."""
        return f"{short_os(self.os)}, PHP {self.php}, {self.openssl_words}"

    @property
    def short_label(self) -> str:
        """'Debian 13 · PHP 8.4.27 · OpenSSL 3.5.9'; '(header)' where the library was not recorded."""
        openssl = f"OpenSSL {self.openssl}" if self.openssl else f"OpenSSL {self.openssl_header or 'unknown'} (header)"
        return f"{short_os(self.os)} · PHP {self.php} · {openssl}"

    @property
    def openssl_words(self) -> str:
        if self.openssl is None:
            header = self.openssl_header or "unknown"
            return f"OpenSSL {header} (the header PHP was built with; the library it loaded was not recorded)"
        if self.openssl_header is not None and self.openssl_header != self.openssl:
            return f"OpenSSL {self.openssl} (PHP was built with {self.openssl_header}'s header)"
        return f"OpenSSL {self.openssl}"

    @property
    def native_mismatch(self) -> str | None:
        """Why the native limit is not PHP's own library, or None when it is (or cannot be told)."""
        if self.openssl is None or self.openssl_cli is None or self.openssl == self.openssl_cli:
            return None
        return (
            f"the `openssl` command that measured the native limit runs on OpenSSL {self.openssl_cli}, "
            f"PHP on OpenSSL {self.openssl}: the two are not the same library"
        )


def stack_of(manifest: dict[str, Any]) -> Stack:
    """A manifest's stack (schema 8; older runs are upgraded to stack `host` on load)."""
    stack = manifest["stack"]
    return Stack(
        name=str(stack["name"]),
        os=str(stack["os"]),
        php=str(stack["php"]),
        openssl=stack["openssl"],
        openssl_header=_number(manifest["libraries"].get("openssl")),
        openssl_cli=stack["openssl_cli"],
    )


@dataclass(frozen=True)
class Definition:
    """What a stack's declaration (scripts/stacks/<name>.env) says it contains."""

    name: str
    path: Path
    description: str  # STACK_DESCRIPTION, e.g. "Debian 13 (trixie): PHP 8.4 + OpenSSL 3.5"
    php: str  # STACK_PHP: PHP's major.minor
    openssl: str  # STACK_OPENSSL: the major.minor of the OpenSSL library PHP loads
    suite: str  # STACK_SUITE: the release's code name, which its OS name carries ("trixie")

    def disagreements(self, stack: Stack) -> list[str]:
        """What a run's stack records that this declaration does not contain: [] when it agrees."""
        found = []
        if _minor(stack.php) != self.php:
            found.append(f"PHP {stack.php}")
        if stack.openssl is None:
            found.append("no OpenSSL library (stack.openssl is null)")
        elif _minor(stack.openssl) != self.openssl:
            found.append(f"OpenSSL {stack.openssl}")
        if self.suite.lower() not in stack.os.lower():
            found.append(f"OS {stack.os!r}")
        return found


def _value(text: str, assigned: dict[str, str], where: str, path: Path) -> str:
    """One assignment's value as bash gives it, for the forms a stack file may use: a bare word, or a
    double-quoted string in which ${NAME} names a variable assigned above."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        inner = text[1:-1]
        if any(c in inner for c in '"\\`') or "$" in _REFERENCE.sub("", inner):
            raise DataError(path, f"{where}: a stack file's quoted value holds text and ${{NAME}} only, got {text}")
    elif _PLAIN_VALUE.fullmatch(text):
        return text
    else:
        raise DataError(path, f'{where}: expected NAME=value or NAME="value", got the value {text}')

    def expand(match: re.Match[str]) -> str:
        if match.group(1) not in assigned:
            raise DataError(path, f"{where}: ${{{match.group(1)}}} is not assigned above it")
        return assigned[match.group(1)]

    return _REFERENCE.sub(expand, inner)


def read_definition(path: Path) -> Definition:
    """A stack file: plain assignments, comments and blank lines; STACK_DESCRIPTION, STACK_PHP,
    STACK_OPENSSL and STACK_SUITE required, the versions as major.minor."""
    assigned: dict[str, str] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(path, f"not a readable stack file: {error}") from None
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        found = _ASSIGNMENT.fullmatch(stripped)
        if found is None:
            raise DataError(path, f"line {number}: expected NAME=value, got {stripped!r}")
        assigned[found.group(1)] = _value(found.group(2), assigned, f"line {number}", path)
    required = ("STACK_DESCRIPTION", "STACK_PHP", "STACK_OPENSSL", "STACK_SUITE")
    missing = [name for name in required if not assigned.get(name)]
    if missing:
        raise DataError(path, f"a stack file sets {', '.join(required)}: this one lacks {', '.join(missing)}")
    for name in ("STACK_PHP", "STACK_OPENSSL"):
        if not _MAJOR_MINOR.fullmatch(assigned[name]):
            raise DataError(path, f"{name}: expected a major.minor version such as 8.4, got {assigned[name]!r}")
    return Definition(
        path.name.removesuffix(DEFINITION_SUFFIX),
        path,
        assigned["STACK_DESCRIPTION"],
        assigned["STACK_PHP"],
        assigned["STACK_OPENSSL"],
        assigned["STACK_SUITE"],
    )


def definitions(directory: Path = DEFINITIONS) -> dict[str, Definition]:
    """Every stack declared under `directory` (scripts/stacks/), by name."""
    found = (read_definition(path) for path in sorted(directory.glob(f"*{DEFINITION_SUFFIX}")))
    return {definition.name: definition for definition in found}


def on_stack(run: Run, name: str | None) -> bool:
    """Whether a run ran in the stack named (None: any stack)."""
    return name is None or stack_of(run.manifest).name == name


@dataclass(frozen=True)
class StackSet:
    """The runs of one `make bench-stacks` job: two stacks of one machine in alternating rounds."""

    set_id: str
    path: Path
    machine: str
    profile: str
    stacks: tuple[str, str]  # the older stack first: ratios are the second's over the first's
    rounds: tuple[tuple[str, str], ...]  # each round's run ids, in the order of `stacks`

    def pairs(self, runs: dict[str, Run]) -> list[tuple[Run, Run]]:
        return [(runs[a], runs[b]) for a, b in self.rounds]


def sets_directory(root: Path) -> Path:
    return root.joinpath(*SETS_DIRECTORY)


def to_json(found: StackSet) -> str:
    document = {
        "format_version": FORMAT_VERSION,
        "machine": found.machine,
        "profile": found.profile,
        "stacks": list(found.stacks),
        "rounds": [list(pair) for pair in found.rounds],
    }
    return json.dumps(document, indent=1) + "\n"


def _strings(value: Any, count: int, path: Path, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != count or not all(isinstance(v, str) and v for v in value):
        raise DataError(path, f"{where}: expected a list of {count} names, got {value!r}")
    return tuple(value)


def parse(document: Any, path: Path) -> StackSet:
    if not isinstance(document, dict):
        raise DataError(path, f"expected a JSON object, got {type(document).__name__}")
    if document.get("format_version") != FORMAT_VERSION:
        raise DataError(path, f"format_version: expected {FORMAT_VERSION}, got {document.get('format_version')!r}")
    unknown = sorted(set(document) - {"format_version", "machine", "profile", "stacks", "rounds"})
    if unknown:
        raise DataError(path, f"unknown entries {unknown}")
    if not SET_ID.fullmatch(path.stem):
        raise DataError(path, "expected a file named <YYYYMMDDTHHMMZ>-<machine>.json")
    machine, profile = document.get("machine"), document.get("profile")
    if not isinstance(machine, str) or not path.stem.endswith("-" + machine):
        raise DataError(path, f"machine: expected the machine the file is named after, got {machine!r}")
    if profile not in ("quick", "full"):
        raise DataError(path, f"profile: expected quick or full, got {profile!r}")
    stacks = _strings(document.get("stacks"), 2, path, "stacks")
    if stacks[0] == stacks[1]:
        raise DataError(path, f"stacks: expected two different stacks, got {list(stacks)!r}")
    rounds = document.get("rounds")
    if not isinstance(rounds, list) or len(rounds) < 2:
        raise DataError(path, f"rounds: expected at least 2 rounds, got {rounds!r}")
    pairs = tuple(_strings(pair, 2, path, f"rounds[{i}]") for i, pair in enumerate(rounds))
    ids = [run_id for pair in pairs for run_id in pair]
    if len(set(ids)) != len(ids):
        raise DataError(path, "rounds: a run is named twice")
    return StackSet(path.stem, path, machine, str(profile), (stacks[0], stacks[1]), pairs)  # type: ignore[arg-type]


def check(found: StackSet, runs: dict[str, Run]) -> None:
    """Every run of the set exists, and is of its machine, profile and stack: a set says what it holds."""
    for i, pair in enumerate(found.rounds):
        for stack, run_id in zip(found.stacks, pair, strict=True):
            run = runs.get(run_id)
            where = f"rounds[{i}]: {run_id}"
            if run is None:
                raise DataError(found.path, f"{where}: no such run under data/runs/")
            if machine_name(run.manifest) != found.machine:
                raise DataError(
                    found.path, f"{where}: of machine {machine_name(run.manifest)!r}, not {found.machine!r}"
                )
            if run.manifest["profile"] != found.profile:
                raise DataError(found.path, f"{where}: a {run.manifest['profile']} run, not {found.profile}")
            if stack_of(run.manifest).name != stack:
                raise DataError(found.path, f"{where}: ran in stack {stack_of(run.manifest).name!r}, not {stack!r}")


def load_sets(root: Path, runs: list[Run]) -> list[StackSet]:
    """Every set under data/stacks/, oldest first, checked against the runs."""
    directory = sets_directory(root)
    if not directory.is_dir():
        return []
    by_id = {run.run_id: run for run in runs}
    found = []
    for path in sorted(directory.glob("*.json")):
        stack_set = parse(read_json(path), path)
        check(stack_set, by_id)
        found.append(stack_set)
    return found


def save(root: Path, found: StackSet) -> Path:
    """Writes the set whole (whole_files)."""
    path = sets_directory(root) / f"{found.set_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, to_json(found).encode("utf-8"))
    return path
