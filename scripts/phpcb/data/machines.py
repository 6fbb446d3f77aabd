"""Machines: a machine is what sets the speed (issue 45), and this module is its one home.

A machine's identity is the CPU vendor, family/model/stepping (and the microarchitecture, where
data/schema/shared/machine-identity.json knows it), the core count, the instruction-set features crypto
code dispatches on (AES-NI, VAES, PCLMULQDQ, VPCLMULQDQ, AVX2, AVX-512F, SHA-NI) and whether it is
virtual. Its name is derived from that identity alone, as the runner derives it
(runners/src/Environment/MachineIdentity.php; tests/fixtures/machine-names.json pins both): never from
`/etc/machine-id` or the CPU model string, which one VM pool shares across CPU generations 1.5-3x apart.
The host (`machine.host_hash`) and the boot are levels inside a machine, not its name.

Every reader builds a `Machine` from a manifest (`Machine.of`) and reads the name, the identity or the
boot there. A run that recorded no family and model (schema 7 and older) has an identity only where
`infer` can match what it did record (CPU string, cores, features, MHz, virtual) to one recorded
identity; otherwise its identity is unknown, and its name says so.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

NAME_CHARS = 64
CPU_SLUG_CHARS = 32
HASH_CHARS = 6
LINE_CHARS = 16
LEGACY_HOST_HASH = "legacy"
# Words that name no particular CPU (MachineName::NOISE).
NOISE = ("(r)", "(tm)", "processor", "cpu", "with", "radeon", "graphics")
TABLE = Path(__file__).resolve().parents[3] / "data" / "schema" / "shared" / "machine-identity.json"
# Where a machine's identity comes from: the runner read it (recorded), the relabelling matched what an
# older run recorded to one recorded identity (inferred), or neither (unknown).
RECORDED, INFERRED, UNKNOWN = "recorded", "inferred", "unknown"
SOURCES = (RECORDED, INFERRED, UNKNOWN)
# The schema version from which the runner names a machine by its identity (run ids of runs upgraded from
# older versions keep the name their runner gave them: an id is not renamed).
NAMED_BY_IDENTITY_FROM = 9
# Two readings of the OS-reported clock that differ by less than this are one host's nominal clock.
MHZ_TOLERANCE = 0.5


@cache
def table() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(TABLE.read_text(encoding="utf-8"))
    return loaded


def cpu_slug(model: str) -> str:
    words = model.lower()
    for noise in NOISE:
        words = words.replace(noise, " ")
    slug = re.sub(r"[^a-z0-9]+", "-", words).strip("-")
    slug = slug[:CPU_SLUG_CHARS].rstrip("-")
    return slug or "cpu"


def vendor_of(vendor_id: str | None, cpu_model: str) -> str:
    """amd, intel, ...: from the CPU's vendor id, else the model string's first word (MachineIdentity::of)."""
    known: dict[str, str] = table()["vendors"]
    if vendor_id in known:
        return known[str(vendor_id)]
    return cpu_slug(cpu_model).split("-")[0]


def line_of(cpu_model: str, vendor: str) -> str:
    """The product line: the model string's first word after the vendor's (epyc, xeon, ryzen)."""
    for word in cpu_slug(cpu_model).split("-"):
        if word != vendor and re.fullmatch(r"[a-z][a-z0-9]*", word) and not word.endswith("ghz"):
            return word[:LINE_CHARS]
    return "cpu"


def microarchitecture_of(vendor: str, family: int | None, model: int | None) -> str | None:
    if family is None or model is None:
        return None
    for entry in table()["microarchitectures"]:
        in_family = entry["vendor"] == vendor and entry["family"] == family
        if in_family and any(low <= model <= high for low, high in entry["models"]):
            return str(entry["name"])
    return None


@dataclass(frozen=True)
class Identity:
    """What sets a machine's speed. `source` says where it comes from; `inferred_from` why, when inferred."""

    vendor: str
    line: str
    family: int | None
    model: int | None
    stepping: int | None
    microarchitecture: str | None
    cores: int
    features: tuple[str, ...]
    virtual: bool | None
    source: str = RECORDED
    inferred_from: str | None = None

    @property
    def known(self) -> bool:
        return self.family is not None and self.model is not None

    @property
    def architecture(self) -> str:
        """zen5, or f25m1 for a CPU the table does not know, or unknown."""
        if self.microarchitecture:
            return self.microarchitecture
        return f"f{self.family}m{self.model}" if self.known else "unknown"

    def canonical(self) -> str:
        """Every field, in one fixed order: what the name's hash covers (MachineIdentity::canonical)."""

        def show(value: int | bool | None) -> str:
            if value is None:
                return "?"
            if isinstance(value, bool):
                return "true" if value else "false"
            return str(value)

        return (
            f"vendor={self.vendor};family={show(self.family)};model={show(self.model)};"
            f"stepping={show(self.stepping)};cores={self.cores};features={','.join(self.features)};"
            f"virtual={show(self.virtual)}"
        )

    def name(self, unknown_detail: str = "") -> str:
        """amd-epyc-zen5-2c-1a2b3c. An unknown identity also hashes what the run did record
        (`unknown_detail`: its CPU string and clock), so two different unknowns never share a name."""
        text = self.canonical() + (f";recorded={unknown_detail}" if not self.known and unknown_detail else "")
        digest = hashlib.sha256(text.encode()).hexdigest()[:HASH_CHARS]
        return f"{self.vendor}-{self.line}-{self.architecture}-{self.cores}c-{digest}"[:NAME_CHARS]

    def to_manifest(self) -> dict[str, Any]:
        return {
            "vendor": self.vendor,
            "line": self.line,
            "family": self.family,
            "model": self.model,
            "stepping": self.stepping,
            "microarchitecture": self.microarchitecture,
            "cores": self.cores,
            "features": list(self.features),
        }

    @property
    def label(self) -> str:
        """What a page prints: AMD EPYC, Zen 5 (family 26 model 2 stepping 1), 2 cores, AVX-512F VAES ..."""
        where = (
            f"family {self.family} model {self.model}"
            + (f" stepping {self.stepping}" if self.stepping is not None else "")
            if self.known
            else "family and model not recorded"
        )
        features = " ".join(FEATURE_LABELS.get(f, f) for f in self.features) or "none of the watched features"
        virtual = {True: "virtual", False: "bare metal", None: "virtual or not: not recorded"}[self.virtual]
        return f"{self.architecture} ({where}), {self.cores} cores, {features}, {virtual}"


FEATURE_LABELS = {
    "aes": "AES-NI",
    "vaes": "VAES",
    "pclmulqdq": "PCLMULQDQ",
    "vpclmulqdq": "VPCLMULQDQ",
    "avx2": "AVX2",
    "avx512f": "AVX-512F",
    "sha_ni": "SHA-NI",
}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def recorded_identity(manifest: Mapping[str, Any]) -> Identity:
    """The identity a manifest's CPU fields give, without looking at any other run: recorded where the run
    recorded family and model (schema 8 on), unknown where it did not."""
    cpu = manifest.get("cpu") or {}
    found = cpu.get("identity") or {}
    model_string = str(cpu.get("model", ""))
    vendor = vendor_of(found.get("vendor_id"), model_string)
    family, model = _int(found.get("family")), _int(found.get("model"))
    flags = cpu.get("flags") or {}
    virtual = (manifest.get("machine") or {}).get("virtual")
    return Identity(
        vendor=vendor,
        line=line_of(model_string, vendor),
        family=family,
        model=model,
        stepping=_int(found.get("stepping")),
        microarchitecture=microarchitecture_of(vendor, family, model),
        cores=int(cpu.get("cores", 1)),
        features=tuple(f for f in table()["features"] if flags.get(f) is True),
        virtual=virtual if isinstance(virtual, bool) else None,
        source=RECORDED if family is not None and model is not None else UNKNOWN,
    )


def unknown_detail(manifest: Mapping[str, Any]) -> str:
    """What an unknown identity's name also hashes: the CPU string and the clock the run recorded, in whole
    MHz (MachineIdentity::name: PHP and Python print a whole number alike, a float not always)."""
    cpu = manifest.get("cpu") or {}
    mhz = _mhz(manifest)
    return f"cpu={cpu.get('model', '')};mhz={'?' if mhz is None else math.floor(mhz + 0.5)}"


def derived_name(manifest: Mapping[str, Any], identity: Identity) -> str:
    return identity.name(unknown_detail(manifest))


def identity_in(manifest: Mapping[str, Any]) -> Identity:
    """The identity a (schema 9) manifest records in machine.identity, with its source."""
    machine = manifest.get("machine") or {}
    stored = machine.get("identity")
    if not isinstance(stored, dict):
        return recorded_identity(manifest)
    virtual = machine.get("virtual")
    return Identity(
        vendor=str(stored["vendor"]),
        line=str(stored["line"]),
        family=_int(stored.get("family")),
        model=_int(stored.get("model")),
        stepping=_int(stored.get("stepping")),
        microarchitecture=stored.get("microarchitecture"),
        cores=int(stored["cores"]),
        features=tuple(stored.get("features", ())),
        virtual=virtual if isinstance(virtual, bool) else None,
        source=str(machine.get("identity_source", RECORDED)),
        inferred_from=machine.get("inferred_from"),
    )


@dataclass(frozen=True)
class Machine:
    """One run's machine: its name and identity, and the levels inside it (host, boot)."""

    name: str
    identity: Identity
    host_hash: str
    boot: str

    @classmethod
    def of(cls, manifest: Mapping[str, Any]) -> Machine:
        machine = manifest.get("machine") or {}
        return cls(
            name=str(machine["name"]),
            identity=identity_in(manifest),
            host_hash=str(machine.get("host_hash", "")),
            boot=boot_of(manifest),
        )


def machine_name(manifest: Mapping[str, Any]) -> str:
    return Machine.of(manifest).name


def boot_of(manifest: Mapping[str, Any]) -> str:
    """The boot a run was measured on: the kernel's boot id (schema 8 on). Runs that did not record it
    count one boot per machine and UTC day: a VM boots afresh between working days, rarely within one."""
    boot = manifest.get("boot")
    if isinstance(boot, dict) and boot.get("id"):
        return str(boot["id"])
    return f"not recorded: {str(manifest.get('started_utc', ''))[:10]}"


def _fingerprint(manifest: Mapping[str, Any], identity: Identity) -> tuple[Any, ...]:
    """What an old run recorded that a recorded identity's runs must match for the run to take it (the
    clock apart: it is matched within MHZ_TOLERANCE)."""
    cpu = manifest.get("cpu") or {}
    return (identity.vendor, str(cpu.get("model", "")), identity.cores, identity.features, identity.virtual)


def _mhz(manifest: Mapping[str, Any]) -> float | None:
    mhz = (manifest.get("cpu") or {}).get("mhz")
    return float(mhz) if isinstance(mhz, int | float) and not isinstance(mhz, bool) else None


def _ambiguous(identity: Identity) -> bool:
    """Whether another microarchitecture of the table has the same vendor and features: then what a run
    recorded without family and model (features, clock) cannot tell which CPU it ran on (Zen 4 and Zen 5
    share all seven watched features; this pool's runs of 2026-11-25 ran 35 % slower than family 26's)."""
    alike = {
        str(entry["name"])
        for entry in table()["microarchitectures"]
        if entry["vendor"] == identity.vendor and tuple(entry.get("features", ())) == identity.features
    }
    return len(alike - {identity.microarchitecture}) > 0


def infer(manifests: Iterable[Mapping[str, Any]]) -> dict[str, Identity]:
    """For each run (by run_id) whose identity is unknown: the one recorded identity among `manifests`
    whose runs recorded the same vendor, CPU string, cores, features, virtual flag and clock (within
    MHZ_TOLERANCE), marked inferred with the reason, where no other microarchitecture has those features.
    A run that matches none, or several, or an ambiguous one, keeps its unknown identity (not in the result)."""
    listed = list(manifests)
    recorded = [
        (_fingerprint(m, identity), _mhz(m), identity)
        for m in listed
        if (identity := identity_in(m)).source == RECORDED
    ]
    inferred: dict[str, Identity] = {}
    for manifest in listed:
        identity = identity_in(manifest)
        mhz = _mhz(manifest)
        if identity.source != UNKNOWN or mhz is None:
            continue
        fingerprint = _fingerprint(manifest, identity)
        candidates = {
            found.canonical(): found
            for key, clock, found in recorded
            if key == fingerprint and clock is not None and abs(clock - mhz) < MHZ_TOLERANCE
        }
        if len(candidates) == 1 and not _ambiguous(next(iter(candidates.values()))):
            (match,) = candidates.values()
            reason = (
                f"family and model not recorded; its CPU string, {identity.cores} cores, features, virtual flag "
                f"and {mhz} MHz match only runs of {match.architecture} (family {match.family} model {match.model})"
            )
            fields = {**match.__dict__, "source": INFERRED, "inferred_from": reason}
            inferred[str(manifest["run_id"])] = Identity(**fields)
    return inferred


def machine_fields(manifest: Mapping[str, Any], identity: Identity) -> dict[str, Any]:
    """The manifest's `machine` for this identity (schema 9): name, host, identity and its source."""
    machine = dict(manifest.get("machine") or {})
    fields: dict[str, Any] = {
        "name": derived_name(manifest, identity),
        "host_hash": machine.get("host_hash", LEGACY_HOST_HASH),
        "identity": identity.to_manifest(),
        "identity_source": identity.source,
    }
    if identity.inferred_from:
        fields["inferred_from"] = identity.inferred_from
    if "virtual" in machine:
        fields["virtual"] = machine["virtual"]
    return fields
