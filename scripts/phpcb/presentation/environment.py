"""The machine and PHP build a run measured, as label/value rows for pages."""

from __future__ import annotations

from typing import Any

from phpcb.data.machines import Machine
from phpcb.data.stacks import Stack, stack_of
from phpcb.presentation.formatting import memory


def _yes_no(value: object) -> str:
    return "yes" if value else "no"


def describe(manifest: dict[str, Any], measured_by: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """The run's machine and PHP; with an experiment's `measured_by`, the PHP and libraries of the
    process that measured it (e.g. the child PHP whose OPENSSL_CONF loads the legacy provider)."""
    php = (measured_by or manifest)["php"]
    libraries = (measured_by or manifest)["libraries"]
    cpu = manifest["cpu"]
    stack = stack_of(manifest)
    flags = ", ".join(f"{flag} {'✓' if present else '✗'}" for flag, present in cpu["flags"].items())
    return [
        ("Run", manifest["run_id"]),
        ("Profile", f"{manifest['profile']} (timer: {manifest['timer']})"),
        ("Measured", f"{manifest['started_utc']} → {manifest['finished_utc']}"),
        ("Machine", _machine(Machine.of(manifest))),
        ("CPU", f"{cpu['model']}, {cpu['cores']} cores"),
        ("CPU flags", flags),
        ("Memory", memory(manifest["memory_bytes"]) if manifest["memory_bytes"] else "unknown"),
        ("Stack", _stack(stack, manifest["stack"]["host_os"])),
        ("OS", f"{manifest['os']}, {manifest['kernel']}"),
        ("Boot", _boot(manifest.get("boot"))),
        ("PHP", f"{php['version']} ({php['sapi']}), opcache CLI {_yes_no(php['opcache_cli'])}, JIT {php['jit']}"),
        ("PHP memory_limit / GC", f"{php['memory_limit']} / GC {_yes_no(php['gc_enabled'])}"),
        ("OpenSSL (PHP)", _openssl(libraries)),
        ("OpenSSL (the openssl command)", stack.openssl_cli or "not recorded"),
        ("OpenSSL legacy provider", _yes_no(libraries["openssl_legacy_provider"])),
        ("libsodium", libraries["sodium"] or "not loaded"),
        ("libmcrypt", libraries["mcrypt"] or "not loaded"),
        ("Argon2 provider", libraries["argon2_provider"] or "none"),
        ("Git commit", manifest["git_commit"] or "unknown"),
    ]


def _machine(machine: Machine) -> str:
    source = {
        "recorded": "",
        "inferred": f"; identity inferred: {machine.identity.inferred_from}",
        "unknown": "",  # the label says "family and model not recorded"
    }[machine.identity.source]
    return f"{machine.name}: {machine.identity.label}{source}"


def _openssl(libraries: dict[str, Any]) -> str:
    """The library PHP loaded, and the header it was built with where they differ or the library is unknown."""
    header, library = libraries.get("openssl"), libraries.get("openssl_library")
    if header is None and library is None:
        return "not loaded"
    if library is None:
        return f"{header} (the header PHP was built with; the library it loaded was not recorded)"
    if header is not None and header != library:
        return f"{library} (built with {header}'s header)"
    return str(library)


def _stack(stack: Stack, host_os: str) -> str:
    where = "" if stack.os == host_os else f", on a {host_os} host"
    return f"{stack.name}: {stack.label}{where}"


def _boot(boot: dict[str, Any] | None) -> str:
    if not boot or not boot.get("id"):
        return "not recorded"
    uptime = boot.get("uptime_s")
    return f"{boot['id'][:8]}" + (f", up {uptime // 60:,} min when the run started" if uptime is not None else "")


def short(manifest: dict[str, Any]) -> str:
    """One line: 'amd-epyc-zen5-2c-5330ed, Debian 13 · PHP 8.4.27 · OpenSSL 3.5.9': the machine by its name,
    which its identity sets (a CPU string such as 'AMD EPYC' covers CPUs 1.5-3x apart), and the stack."""
    return f"{Machine.of(manifest).name}, {stack_of(manifest).short_label}"
