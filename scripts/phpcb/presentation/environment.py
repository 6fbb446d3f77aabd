"""The machine and PHP build a run measured, as label/value rows for pages."""

from __future__ import annotations

from typing import Any

from phpcb.presentation.formatting import memory


def _yes_no(value: object) -> str:
    return "yes" if value else "no"


def describe(manifest: dict[str, Any], measured_by: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """The run's machine and PHP; with an experiment's `measured_by`, the PHP and libraries of the
    process that measured it (e.g. the child PHP whose OPENSSL_CONF loads the legacy provider)."""
    php = (measured_by or manifest)["php"]
    libraries = (measured_by or manifest)["libraries"]
    cpu = manifest["cpu"]
    flags = ", ".join(f"{flag} {'✓' if present else '✗'}" for flag, present in cpu["flags"].items())
    return [
        ("Run", manifest["run_id"]),
        ("Profile", f"{manifest['profile']} (timer: {manifest['timer']})"),
        ("Measured", f"{manifest['started_utc']} → {manifest['finished_utc']}"),
        ("CPU", f"{cpu['model']}, {cpu['cores']} cores"),
        ("CPU flags", flags),
        ("Memory", memory(manifest["memory_bytes"]) if manifest["memory_bytes"] else "unknown"),
        ("OS", f"{manifest['os']}, {manifest['kernel']}"),
        ("PHP", f"{php['version']} ({php['sapi']}), opcache CLI {_yes_no(php['opcache_cli'])}, JIT {php['jit']}"),
        ("PHP memory_limit / GC", f"{php['memory_limit']} / GC {_yes_no(php['gc_enabled'])}"),
        ("OpenSSL (PHP)", libraries["openssl"] or "not loaded"),
        ("OpenSSL legacy provider", _yes_no(libraries["openssl_legacy_provider"])),
        ("libsodium", libraries["sodium"] or "not loaded"),
        ("libmcrypt", libraries["mcrypt"] or "not loaded"),
        ("Argon2 provider", libraries["argon2_provider"] or "none"),
        ("Git commit", manifest["git_commit"] or "unknown"),
    ]


def short(manifest: dict[str, Any]) -> str:
    """One line: 'Intel Xeon …, PHP 8.2.36, OpenSSL 3.0.x'."""
    return f"{manifest['cpu']['model']}, PHP {manifest['php']['version']}, {manifest['libraries']['openssl']}"
