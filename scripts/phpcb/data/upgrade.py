"""Upgraders: each turns a run written under schema version N into version N + 1.

The loader applies them in memory to every older run it reads; `python -m phpcb upgrade RUN...`
rewrites runs on disk. An upgrader changes the manifest and the CSVs it names, and declares the
header those CSVs had under version N, so that an old file is checked against its own header
before anything is changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from phpcb.data import machines


@dataclass(frozen=True)
class Upgrader:
    source_version: int
    description: str

    def manifest(self, manifest: dict[str, Any]) -> dict[str, Any]:
        return {**manifest, "schema_version": self.source_version + 1}

    def changes(self, file_name: str) -> bool:
        return False

    def old_header(self, file_name: str, header: tuple[str, ...]) -> tuple[str, ...]:
        """The header `file_name` had under the source version, given its header after the upgrade."""
        return header

    def table(self, file_name: str, table: pa.Table) -> pa.Table:
        return table


@dataclass(frozen=True)
class DropInventorySecurity(Upgrader):
    """Version 1 → 2: cipher_inventory.csv loses `security`, the runner's copy of the policy verdict.

    The build applies data/policy/symmetric.yaml itself and never read the column; two places
    deciding one verdict could disagree.
    """

    FILE = "cipher_inventory.csv"
    COLUMN = "security"

    def changes(self, file_name: str) -> bool:
        return file_name == self.FILE

    def old_header(self, file_name: str, header: tuple[str, ...]) -> tuple[str, ...]:
        return (*header, self.COLUMN) if file_name == self.FILE else header

    def table(self, file_name: str, table: pa.Table) -> pa.Table:
        return table.drop_columns([self.COLUMN]) if file_name == self.FILE else table


@dataclass(frozen=True)
class NameTheMachine(Upgrader):
    """Version 2 → 3: the manifest gains `machine`, the name runs are grouped by.

    Version 2 recorded the hostname only in the run id (every VM here says `vm`), so an upgraded
    run is named by its CPU model and that hostname, with host_hash "legacy": two such runs share a
    name only when their CPU model and hostname both agree.
    """

    def manifest(self, manifest: dict[str, Any]) -> dict[str, Any]:
        host = legacy_host(str(manifest.get("run_id", "")))
        slug = machines.cpu_slug(str(manifest.get("cpu", {}).get("model", "")))
        machine = {"name": f"{slug}-{host}"[: machines.NAME_CHARS].rstrip("-"), "host_hash": machines.LEGACY_HOST_HASH}
        upgraded: dict[str, Any] = {}
        for key, value in manifest.items():
            if key == "cpu":  # the schema's field order: machine, then cpu
                upgraded["machine"] = machine
            upgraded[key] = value
        upgraded.setdefault("machine", machine)
        return {**upgraded, "schema_version": self.source_version + 1}


LEGACY_PROVIDER_GAP = "legacy provider is not loaded"


@dataclass(frozen=True)
class RecordWhatMeasured(Upgrader):
    """Version 3 → 4: every experiment gains `measured_by`, the PHP and libraries of the process
    that measured, probed inside it (a child PHP could load another php.ini than the runner).

    Version 3 recorded only the runner's, so an upgraded entry copies the run's `php` and
    `libraries` with process "upgraded". One field is taken from the entry itself: an experiment
    that declared OPENSSL_CONF ran with OpenSSL's legacy provider unless its reason says it was
    not loaded. The build then checks the copy against the rows (a run with mcrypt rows while
    mcrypt is recorded absent is refused), as it does for new runs.
    """

    def manifest(self, manifest: dict[str, Any]) -> dict[str, Any]:
        experiments = manifest.get("experiments")
        if not isinstance(experiments, dict):
            return {**manifest, "schema_version": self.source_version + 1}
        upgraded = {name: self._entry(manifest, entry) for name, entry in experiments.items()}
        return {**manifest, "experiments": upgraded, "schema_version": self.source_version + 1}

    @staticmethod
    def _entry(manifest: dict[str, Any], entry: Any) -> Any:
        if not isinstance(entry, dict) or "measured_by" in entry:
            return entry
        php, libraries = manifest.get("php"), manifest.get("libraries")
        if not isinstance(php, dict) or not isinstance(libraries, dict):
            return entry  # left for the schema to report
        libraries = dict(libraries)
        settings = entry.get("settings")
        environment = settings.get("environment") if isinstance(settings, dict) else None
        if isinstance(environment, dict) and "OPENSSL_CONF" in environment:
            libraries["openssl_legacy_provider"] = LEGACY_PROVIDER_GAP not in str(entry.get("reason") or "")
        return {**entry, "measured_by": {"process": "upgraded", "php": dict(php), "libraries": libraries}}


@dataclass(frozen=True)
class RecordPrecision(Upgrader):
    """Version 4 → 5: the manifest gains `system` (the machine's load as the run started and
    finished) and each experiment `sampling` (its precision target, how many cases reached it, which
    were sampled in rotation) and `system` (the load around it).

    Version 4 recorded none of it: each is null, "not recorded". So an upgraded run claims no
    precision target, its pages compute ratios from unpaired samples, and no steal is shown.
    """

    def manifest(self, manifest: dict[str, Any]) -> dict[str, Any]:
        upgraded: dict[str, Any] = {}
        for key, value in manifest.items():
            if key == "experiments" and isinstance(value, dict):
                value = {name: self._entry(entry) for name, entry in value.items()}
            upgraded[key] = value
            if key == "kernel":  # where the runner writes it
                upgraded["system"] = None
        upgraded.setdefault("system", None)
        return {**upgraded, "schema_version": self.source_version + 1}

    @staticmethod
    def _entry(entry: Any) -> Any:
        if not isinstance(entry, dict):
            return entry  # left for the schema to report
        upgraded: dict[str, Any] = {}
        for key, value in entry.items():
            upgraded[key] = value
            if key == "verification":  # where the runner writes them
                upgraded.update(sampling=None, system=None)
        upgraded.setdefault("sampling", None)
        upgraded.setdefault("system", None)
        return upgraded


@dataclass(frozen=True)
class RecordEnvironmentAndSeal(Upgrader):
    """Version 5 → 6: a finished run records its seal (each file's rows and SHA-256), whether the machine
    is virtual, the CPU clock the OS reports and the kernel's build. Version 5 recorded none of it: the
    fields stay absent, and an upgraded run is unsealed until it is rewritten on disk (`make
    upgrade-runs`), which seals it."""


@dataclass(frozen=True)
class RecordMinorFaults(Upgrader):
    """Version 6 → 7: aead.csv and symmetric.csv gain `minor_faults`, the page faults each sample's timed
    operations took. Version 6 did not count them: the column is empty (missing), never a made-up 0."""

    FILES = ("aead.csv", "symmetric.csv")
    COLUMN = "minor_faults"

    def changes(self, file_name: str) -> bool:
        return file_name in self.FILES

    def old_header(self, file_name: str, header: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(column for column in header if column != self.COLUMN) if file_name in self.FILES else header

    def table(self, file_name: str, table: pa.Table) -> pa.Table:
        if file_name not in self.FILES:
            return table
        return table.append_column(self.COLUMN, pa.array([""] * table.num_rows, pa.string()))


@dataclass(frozen=True)
class RecordStackAndBoot(Upgrader):
    """Version 7 → 8: the manifest gains `stack` (the software under the runner: its name, the OS release,
    PHP, the OpenSSL library PHP loaded and the `openssl` command's) and `boot` (the machine's boot id).

    Version 7 ran every run on the host's own PHP and recorded only OPENSSL_VERSION_TEXT, the header PHP
    was compiled against, which may differ from the library it loaded: an upgraded run is of stack
    `host`, its OS and PHP copied, both OpenSSL libraries null (not recorded, never the header's number
    passed off as the library's), and its boot null.
    """

    def manifest(self, manifest: dict[str, Any]) -> dict[str, Any]:
        php = manifest.get("php")
        version = php.get("version") if isinstance(php, dict) else None
        os_release = manifest.get("os")
        stack = {
            "name": "host",
            "os": os_release,
            "host_os": os_release,
            "php": version,
            "openssl": None,
            "openssl_cli": None,
        }
        upgraded: dict[str, Any] = {}
        for key, value in manifest.items():
            upgraded[key] = value
            if key == "libraries":  # where the runner writes them
                upgraded["stack"] = stack
            if key == "kernel_build":
                upgraded["boot"] = None
        upgraded.setdefault("stack", stack)
        upgraded.setdefault("boot", None)
        return {**upgraded, "schema_version": self.source_version + 1}


@dataclass(frozen=True)
class NameTheMachineByIdentity(Upgrader):
    """Version 8 → 9: a machine is what sets the speed (issue 45). `machine` gains the identity the run
    recorded (CPU vendor, family/model/stepping, microarchitecture, cores, dispatch features; virtual stays
    where it was) and its source, and is named from it (machines.py), no longer from the CPU model string
    and /etc/machine-id, which one VM pool shares across CPU generations. A run that recorded no family
    and model gets an unknown identity here; the relabelling of committed runs (`python -m phpcb upgrade`
    of several runs) infers one where what it recorded matches one recorded identity. The run id, named
    after the old name, changes only when the run is upgraded on disk (its directory is renamed)."""

    def manifest(self, manifest: dict[str, Any]) -> dict[str, Any]:
        upgraded = dict(manifest)
        upgraded["machine"] = machines.machine_fields(manifest, machines.recorded_identity(manifest))
        return {**upgraded, "schema_version": self.source_version + 1}


def legacy_host(run_id: str) -> str:
    """The hostname slug a version-2 run id carries: YYYYMMDDTHHMMZ-<host>-phpX.Y."""
    parts = run_id.split("-")
    return "-".join(parts[1:-1]) or "host"


UPGRADERS: dict[int, Upgrader] = {
    1: DropInventorySecurity(
        1, "cipher_inventory.csv: drop the runner's `security` column (the build applies the policy)"
    ),
    2: NameTheMachine(2, "manifest.json: add `machine` (CPU slug + hostname, host_hash legacy)"),
    3: RecordWhatMeasured(
        3, "manifest.json: add each experiment's `measured_by` (copied from the run's php and libraries)"
    ),
    4: RecordPrecision(4, "manifest.json: add `system` and each experiment's `sampling` and `system`, as not recorded"),
    5: RecordEnvironmentAndSeal(5, "manifest.json: version 6 (seal, machine.virtual, cpu.mhz, kernel_build: absent)"),
    6: RecordMinorFaults(6, "aead.csv, symmetric.csv: add `minor_faults`, empty (not counted before version 7)"),
    7: RecordStackAndBoot(7, "manifest.json: add `stack` (host; OpenSSL libraries not recorded) and `boot` (null)"),
    8: NameTheMachineByIdentity(
        8, "manifest.json: machine named by its CPU identity (machine.identity, identity_source), not machine-id"
    ),
}


def chain(version: int, current: int) -> list[Upgrader] | None:
    """The upgraders from `version` to `current`, in order; None when one is missing."""
    steps = [UPGRADERS.get(v) for v in range(version, current)]
    return None if any(step is None for step in steps) else [step for step in steps if step is not None]


def old_header(steps: list[Upgrader], file_name: str, header: tuple[str, ...]) -> tuple[str, ...]:
    for step in reversed(steps):
        header = step.old_header(file_name, header)
    return header
