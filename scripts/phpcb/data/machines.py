"""Machine names: runs are grouped by the machine that measured them (manifest `machine.name`).

The runner names a machine by a slug of its CPU model plus a short hash of the host's identity
(runners/src/Environment/MachineName.php); `cpu_slug` here is the same function, for runs written
before the manifest carried the name. A test checks that both give the same slugs.
"""

from __future__ import annotations

import re
from typing import Any

NAME_CHARS = 64
CPU_SLUG_CHARS = 32
LEGACY_HOST_HASH = "legacy"
# Words that name no particular CPU (MachineName::NOISE).
NOISE = ("(r)", "(tm)", "processor", "cpu", "with", "radeon", "graphics")


def cpu_slug(model: str) -> str:
    words = model.lower()
    for noise in NOISE:
        words = words.replace(noise, " ")
    slug = re.sub(r"[^a-z0-9]+", "-", words).strip("-")
    slug = slug[:CPU_SLUG_CHARS].rstrip("-")
    return slug or "cpu"


def machine_name(manifest: dict[str, Any]) -> str:
    return str(manifest["machine"]["name"])


def boot_of(manifest: dict[str, Any]) -> str:
    """The boot a run was measured on: the kernel's boot id (schema 8 on). Runs that did not record it
    count one boot per machine and UTC day: a VM boots afresh between working days, rarely within one."""
    boot = manifest.get("boot")
    if isinstance(boot, dict) and boot.get("id"):
        return str(boot["id"])
    return f"not recorded: {str(manifest.get('started_utc', ''))[:10]}"
