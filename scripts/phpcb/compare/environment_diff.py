"""What differs between the environments of two runs, shown before any timing: a faster number means
little when the CPU, the PHP build or a library changed under it.

A different machine (its identity: machines.py, never the CPU model string, which one VM pool shares
across CPU generations) or PHP version makes the comparison one "across machines": it is still shown, but
it measures the machines, not a change, so no case is judged and it is never read as a regression test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from phpcb.data.machines import Machine

ABSENT = "—"
# The rows that decide whether two runs measured the same machine and PHP (and are always shown).
MACHINE = "Machine"
IDENTITY = "Machine identity"
CPU_MODEL = "CPU model"
PHP_VERSION = "PHP version"
ACROSS_MACHINES_ROWS = (MACHINE, PHP_VERSION)
# Rows that, when they differ, change what the numbers measure without being a finding: another
# profile samples and sizes differently, another runner measures with other code.
# The crypto libraries PHP loaded are measured as much as the machine: one boot's image carried OpenSSL
# 3.0.19 under a PHP built against 3.0.22, and on 3.0.22 the same boot ran the AEAD classes 4-17 % faster.
PROFILE = "Profile"
RUNNER = "Runner (git commit)"
SCHEMA = "Schema version"
OPENSSL_LIBRARY = "OpenSSL (the library PHP loaded)"
SODIUM = "libsodium"
MCRYPT = "libmcrypt"
CONFOUNDER_ROWS = (PROFILE, RUNNER, SCHEMA, OPENSSL_LIBRARY, SODIUM, MCRYPT)
ALWAYS_SHOWN = (MACHINE, CPU_MODEL, "CPU cores", PHP_VERSION, PROFILE, RUNNER, SCHEMA)

_LIBRARIES = (
    ("openssl", "OpenSSL (the header PHP was built with)"),
    ("openssl_library", OPENSSL_LIBRARY),
    ("sodium", SODIUM),
    ("mcrypt", MCRYPT),
    ("argon2_provider", "Argon2 provider"),
    ("openssl_legacy_provider", "OpenSSL legacy provider"),
)


@dataclass(frozen=True)
class EnvironmentRow:
    label: str
    base: str
    new: str

    @property
    def differs(self) -> bool:
        return self.base != self.new

    @property
    def always_shown(self) -> bool:
        return self.label in ALWAYS_SHOWN


@dataclass(frozen=True)
class EnvironmentDiff:
    rows: tuple[EnvironmentRow, ...]

    @property
    def shown(self) -> list[EnvironmentRow]:
        """The rows a report shows: those that differ, and the CPU and PHP rows always."""
        return [row for row in self.rows if row.differs or row.always_shown]

    @property
    def differing(self) -> list[EnvironmentRow]:
        return [row for row in self.rows if row.differs]

    @property
    def across_machines_because(self) -> list[str]:
        """The rows that make this a comparison across machines (empty: same machine and PHP version)."""
        return [row.label for row in self.rows if row.label in ACROSS_MACHINES_ROWS and row.differs]

    @property
    def across_machines(self) -> bool:
        return bool(self.across_machines_because)

    @property
    def confounders(self) -> list[EnvironmentRow]:
        """What differs that changes what is measured (profile, runner code, data format, the crypto
        libraries PHP loaded): named beside every difference, never read as one."""
        return [row for row in self.rows if row.label in CONFOUNDER_ROWS and row.differs]


def _text(value: object) -> str:
    if value is None:
        return ABSENT
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _section(manifest: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = manifest.get(name)
    return value if isinstance(value, Mapping) else {}


def describe(manifest: Mapping[str, Any], source_version: int | None = None) -> dict[str, str]:
    """The environment of one run as label → text, in the order a report shows it. Tolerates what an
    older manifest lacks (e.g. `machine.name`, new in schema version 3): it shows as "—".
    `source_version` is the schema version the run was written under (before any upgrade)."""
    php = _section(manifest, "php")
    cpu = _section(manifest, "cpu")
    libraries = _section(manifest, "libraries")
    machine = _section(manifest, "machine")
    stack = _section(manifest, "stack")
    identity = _section(cpu, "identity")
    commit = manifest.get("git_commit")
    known = machine.get("name") is not None and manifest.get("cpu") is not None
    rows: dict[str, str] = {
        MACHINE: _text(machine.get("name")),
        IDENTITY: Machine.of(manifest).identity.label if known else ABSENT,
        "Virtual machine": _virtual(machine.get("virtual")),
        "Boot": _boot(manifest.get("boot")),
        "Stack": _text(stack.get("name")),
        "CPU family/model/stepping, microcode": _identity(identity),
        RUNNER: commit[:12] if isinstance(commit, str) else "not recorded",
        SCHEMA: _text(source_version if source_version is not None else manifest.get("schema_version")),
        CPU_MODEL: _text(cpu.get("model")),
        "CPU cores": _text(cpu.get("cores")),
        "CPU MHz (as the OS reports it)": _text(cpu.get("mhz")),
        PHP_VERSION: _text(php.get("version")),
        "PHP SAPI": _text(php.get("sapi")),
        "opcache (CLI)": _text(php.get("opcache_cli")),
        "JIT": _text(php.get("jit")),
    }
    for key, label in _LIBRARIES:
        rows[label] = _text(libraries.get(key)) if key in libraries else ABSENT
    extensions = _section(php, "extensions")
    for name in sorted(extensions, key=str.lower):
        value = extensions[name]
        rows[f"PHP extension {name}"] = "loaded" if value is None else str(value)
    rows[PROFILE] = _text(manifest.get("profile"))
    rows["Timer"] = _text(manifest.get("timer"))
    rows["OS"] = _text(manifest.get("os"))
    rows["Kernel"] = _text(manifest.get("kernel"))
    rows["Kernel build"] = _text(manifest.get("kernel_build"))
    return rows


def _boot(boot: object) -> str:
    """The boot's id, short: two runs of one boot share it (none before schema 8)."""
    if not isinstance(boot, Mapping) or not boot.get("id"):
        return "not recorded"
    return str(boot["id"])[:8]


def _identity(identity: Mapping[str, Any]) -> str:
    if not identity:
        return "not recorded"
    parts = (identity.get("family"), identity.get("model"), identity.get("stepping"))
    return f"{'/'.join(_text(p) for p in parts)}, {_text(identity.get('microcode'))}"


def _virtual(flag: object) -> str:
    if flag is None:
        return ABSENT
    return "yes: its host, and so its CPU and speed, may change between runs" if flag else "no"


def diff(
    base: Mapping[str, Any], new: Mapping[str, Any], versions: tuple[int | None, int | None] = (None, None)
) -> EnvironmentDiff:
    """Every environment row of either run, side by side (an extension only one run loaded shows "not
    loaded" on the other side); `versions`: the schema versions the runs were written under."""
    old, fresh = describe(base, versions[0]), describe(new, versions[1])
    labels = list(old) + [label for label in fresh if label not in old]
    missing = {label: ("not loaded" if label.startswith("PHP extension ") else ABSENT) for label in labels}
    rows = tuple(
        EnvironmentRow(label, old.get(label, missing[label]), fresh.get(label, missing[label])) for label in labels
    )
    return EnvironmentDiff(_reorder(rows))


def _reorder(rows: tuple[EnvironmentRow, ...]) -> tuple[EnvironmentRow, ...]:
    """Extensions together (a new one would otherwise come after the kernel)."""
    extensions = [row for row in rows if row.label.startswith("PHP extension ")]
    others = [row for row in rows if not row.label.startswith("PHP extension ")]
    at = next(i for i, row in enumerate(others) if row.label == PROFILE)
    return (*others[:at], *sorted(extensions, key=lambda r: r.label.lower()), *others[at:])
