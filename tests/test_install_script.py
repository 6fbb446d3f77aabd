"""scripts/install-system-packages.sh with PHP from elsewhere (PHPCB_PHP_PROVIDED=1), bench-only installs
(PHPCB_INSTALL=bench), and its Debian default.

Every command the script runs is a stub on a PATH of its own: `php` reports a chosen version and
extensions, `dpkg-query` says which packages are installed, and they, `apt-get` and `id` log their calls.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import ROOT

SCRIPT = ROOT / "scripts" / "install-system-packages.sh"
DEFAULT_PACKAGES = [
    "php8.2-cli",
    "php8.2-mcrypt",
    "argon2",
    "phpunit",
    "chromium",
    "python3-venv",
    "git",
    "make",
    "openssl",
]
BENCH_PACKAGES = ["argon2", "git", "make", "openssl"]


@dataclass
class Result:
    returncode: int
    stderr: str
    calls: list[str]

    def queried(self) -> list[str]:
        """The packages dpkg-query was asked about, in order."""
        return [call.split()[-1] for call in self.calls if call.startswith("dpkg-query ")]

    def apt(self) -> list[str]:
        return [call for call in self.calls if call.startswith("apt-get ")]


class Machine:
    """A PATH of stubs standing in for this machine's commands."""

    def __init__(self, root: Path) -> None:
        self.bin = root / "bin"
        self.bin.mkdir()
        self.log = root / "calls.log"
        self.log.touch()
        grep = shutil.which("grep")
        assert grep is not None
        (self.bin / "grep").symlink_to(grep)
        self.uid(0)

    def stub(self, name: str, body: str) -> None:
        path = self.bin / name
        path.write_text(f'#!/bin/sh\necho "{name} $*" >> "{self.log}"\n{body}\n', encoding="utf-8")
        path.chmod(0o755)

    def php(self, version_id: int, version: str, extensions: Iterable[str]) -> None:
        self.stub("php", f"echo '{version_id} {version} core,standard,{','.join(extensions)}'")

    def dpkg(self, installed: Iterable[str]) -> None:
        """dpkg-query -W -f='${Status}' PACKAGE: installed when listed."""
        listed = " ".join(installed)
        self.stub(
            "dpkg-query",
            f'for last; do :; done\ncase " {listed} " in *" $last "*) printf "install ok installed" ;; esac',
        )
        self.stub("apt-get", "exit 0")

    def uid(self, uid: int) -> None:
        self.stub("id", f"echo {uid}")

    def sudo(self, *, allowed: bool) -> None:
        """sudo -n: runs its command when password-less sudo is allowed, else fails as sudo -n does."""
        env = shutil.which("env")
        assert env is not None
        if not (self.bin / "env").exists():
            (self.bin / "env").symlink_to(env)
        self.stub(
            "sudo",
            f'[ "$1" = -n ] || exit 2\nshift\n{"" if allowed else "exit 1"}\n[ "$1" = true ] && exit 0\nexec "$@"',
        )

    def commands(self, *names: str) -> None:
        for name in names:
            self.stub(name, "exit 0")

    def run(self, **variables: str) -> Result:
        bash = shutil.which("bash")
        assert bash is not None
        done = subprocess.run(
            [bash, str(SCRIPT)],
            env={"PATH": str(self.bin), **variables},
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
        calls = self.log.read_text(encoding="utf-8").splitlines()
        return Result(done.returncode, done.stderr, calls)


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


def test_php_8_0_from_elsewhere_is_refused_before_anything_is_installed(machine: Machine) -> None:
    machine.php(80030, "8.0.30", ["openssl", "sodium"])
    machine.dpkg(installed=[])
    result = machine.run(PHPCB_PHP_PROVIDED="1")
    assert result.returncode == 1
    assert "is PHP 8.0.30; the runner needs PHP 8.1 or newer (8.1 to 8.4 are supported)" in result.stderr
    assert result.queried() == []
    assert result.apt() == []


def test_php_8_3_from_elsewhere_passes_without_apt_get(machine: Machine) -> None:
    machine.php(80314, "8.3.14", ["openssl", "sodium"])
    machine.dpkg(installed=DEFAULT_PACKAGES)
    machine.commands("phpunit")
    result = machine.run(PHPCB_PHP_PROVIDED="1")
    assert result.returncode == 0, result.stderr
    assert result.queried() == ["argon2", "chromium", "python3-venv", "git", "make", "openssl"]
    assert result.apt() == []
    assert "PHP 8.3.14 has no ext-mcrypt" in result.stderr
    assert "records mcrypt as missing" in result.stderr


def test_mcrypt_is_optional_and_not_mentioned_when_loaded(machine: Machine) -> None:
    machine.php(80100, "8.1.31", ["openssl", "sodium", "mcrypt"])
    machine.dpkg(installed=BENCH_PACKAGES)
    result = machine.run(PHPCB_PHP_PROVIDED="1", PHPCB_INSTALL="bench")
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize(
    ("extensions", "named"),
    [(["sodium"], "lacks ext-openssl,"), (["openssl"], "lacks ext-sodium,"), ([], "lacks ext-openssl ext-sodium,")],
)
def test_a_provided_php_without_openssl_or_sodium_is_refused(
    machine: Machine, extensions: list[str], named: str
) -> None:
    machine.php(80400, "8.4.1", extensions)
    machine.dpkg(installed=DEFAULT_PACKAGES)
    result = machine.run(PHPCB_PHP_PROVIDED="1")
    assert result.returncode == 1
    assert named in result.stderr
    assert result.apt() == []


def test_no_php_on_path_is_named(machine: Machine) -> None:
    machine.dpkg(installed=DEFAULT_PACKAGES)
    result = machine.run(PHPCB_PHP_PROVIDED="1")
    assert result.returncode == 1
    assert "PHPCB_PHP_PROVIDED=1 but there is no php on PATH" in result.stderr


def test_phpunit_is_not_installed_but_its_absence_is_noted_for_make_test(machine: Machine) -> None:
    machine.php(80314, "8.3.14", ["openssl", "sodium", "mcrypt"])
    machine.dpkg(installed=DEFAULT_PACKAGES)
    result = machine.run(PHPCB_PHP_PROVIDED="1")
    assert result.returncode == 0
    assert "phpunit" not in result.queried()
    assert "no phpunit on PATH: make test needs PHPUnit 9" in result.stderr


def test_bench_mode_asks_only_for_what_make_bench_needs(machine: Machine) -> None:
    machine.php(80314, "8.3.14", ["openssl", "sodium"])
    machine.dpkg(installed=DEFAULT_PACKAGES)
    result = machine.run(PHPCB_PHP_PROVIDED="1", PHPCB_INSTALL="bench")
    assert result.returncode == 0, result.stderr
    assert result.queried() == BENCH_PACKAGES
    assert "phpunit" not in result.stderr, "make bench does not need PHPUnit"


def test_bench_mode_with_debian_php_keeps_the_php_packages(machine: Machine) -> None:
    machine.dpkg(installed=DEFAULT_PACKAGES)
    result = machine.run(PHPCB_INSTALL="bench")
    assert result.returncode == 0, result.stderr
    assert result.queried() == ["php8.2-cli", "php8.2-mcrypt", *BENCH_PACKAGES]


def test_a_missing_package_is_installed_with_apt_get_as_root(machine: Machine) -> None:
    machine.php(80314, "8.3.14", ["openssl", "sodium"])
    machine.dpkg(installed=["git", "make", "openssl"])
    result = machine.run(PHPCB_PHP_PROVIDED="1", PHPCB_INSTALL="bench")
    assert result.returncode == 0, result.stderr
    assert result.apt() == ["apt-get update -qq", "apt-get install -y -qq argon2"]


def test_a_missing_package_without_root_says_what_to_run(machine: Machine) -> None:
    machine.php(80314, "8.3.14", ["openssl", "sodium"])
    machine.dpkg(installed=["git", "make", "openssl"])
    machine.uid(1001)
    result = machine.run(PHPCB_PHP_PROVIDED="1", PHPCB_INSTALL="bench")
    assert result.returncode == 1
    assert "missing Debian packages: argon2; run as root: apt-get install -y argon2" in result.stderr
    assert result.apt() == []


def test_without_root_a_ci_runner_installs_through_password_less_sudo(machine: Machine) -> None:
    machine.php(80314, "8.3.14", ["openssl", "sodium"])
    machine.dpkg(installed=["git", "make", "openssl"])
    machine.uid(1001)
    machine.sudo(allowed=True)
    result = machine.run(PHPCB_PHP_PROVIDED="1", PHPCB_INSTALL="bench")
    assert result.returncode == 0, result.stderr
    assert result.apt() == ["apt-get update -qq", "apt-get install -y -qq argon2"]
    assert "sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq argon2" in result.calls


@pytest.mark.parametrize("provided", [True, False], ids=["sudo asks for a password", "Debian's PHP"])
def test_without_root_sudo_is_used_only_for_provided_php_and_without_a_password(
    machine: Machine, provided: bool
) -> None:
    machine.php(80314, "8.3.14", ["openssl", "sodium"])
    machine.dpkg(installed=["php8.2-cli", "php8.2-mcrypt", "git", "make", "openssl"])
    machine.uid(1001)
    machine.sudo(allowed=not provided)
    result = machine.run(PHPCB_INSTALL="bench", **({"PHPCB_PHP_PROVIDED": "1"} if provided else {}))
    assert result.returncode == 1
    assert "run as root: apt-get install -y argon2" in result.stderr
    assert result.apt() == []


def test_the_debian_default_is_unchanged(machine: Machine) -> None:
    machine.php(80200, "8.2.36", ["openssl", "sodium", "mcrypt"])
    machine.dpkg(installed=DEFAULT_PACKAGES)
    result = machine.run()
    assert (result.returncode, result.stderr) == (0, "")
    assert result.queried() == DEFAULT_PACKAGES
    assert not any(call.startswith("php ") for call in result.calls), "Debian's PHP is a package, not checked"


def test_the_debian_default_installs_what_is_missing(machine: Machine) -> None:
    machine.dpkg(installed=[package for package in DEFAULT_PACKAGES if package not in ("php8.2-mcrypt", "chromium")])
    result = machine.run()
    assert result.returncode == 0, result.stderr
    assert result.apt() == ["apt-get update -qq", "apt-get install -y -qq php8.2-mcrypt chromium"]


@pytest.mark.parametrize("openssl_installed", [True, False], ids=["openssl installed", "openssl missing"])
def test_php_to_be_installed_comes_with_debians_current_libssl(machine: Machine, openssl_installed: bool) -> None:
    """A fresh machine: no PHP to ask which library it loads, so the image's older libssl3 stayed for the first
    run, and the next install (which found PHP) upgraded it under the boot's later runs."""
    absent = {"php8.2-cli", "php8.2-mcrypt", *(() if openssl_installed else ("openssl",))}
    machine.dpkg(installed=[package for package in DEFAULT_PACKAGES if package not in absent])
    result = machine.run(PHPCB_INSTALL="report")
    assert result.returncode == 0, result.stderr
    wanted = "php8.2-cli php8.2-mcrypt" + ("" if openssl_installed else " openssl") + " libssl3"
    assert result.apt() == [
        "apt-get update -qq",
        f"apt-get install -y -qq {wanted}{' openssl' if openssl_installed else ''}",
    ]
    assert not any(call.startswith("php ") for call in result.calls), "no PHP yet to ask"


def test_without_dpkg_the_commands_are_looked_for_on_path(machine: Machine) -> None:
    machine.php(80314, "8.3.14", ["openssl", "sodium"])
    machine.commands("git", "make", "openssl")
    result = machine.run(PHPCB_PHP_PROVIDED="1", PHPCB_INSTALL="bench")
    assert result.returncode == 1
    assert "missing: argon2; not Debian or Ubuntu" in result.stderr
    machine.commands("argon2")
    assert machine.run(PHPCB_PHP_PROVIDED="1", PHPCB_INSTALL="bench").returncode == 0


def test_without_dpkg_debian_php_cannot_be_installed(machine: Machine) -> None:
    result = machine.run()
    assert result.returncode == 1
    assert "set PHPCB_PHP_PROVIDED=1" in result.stderr


@pytest.mark.parametrize(("variable", "value"), [("PHPCB_INSTALL", "tests"), ("PHPCB_PHP_PROVIDED", "yes")])
def test_an_unknown_value_is_refused(machine: Machine, variable: str, value: str) -> None:
    machine.dpkg(installed=DEFAULT_PACKAGES)
    result = machine.run(**{variable: value})
    assert result.returncode == 1
    assert f"{variable} must be" in result.stderr
    assert result.calls == []


def test_report_mode_asks_for_what_make_report_needs_and_nothing_only_make_test_needs(machine: Machine) -> None:
    machine.dpkg(installed=DEFAULT_PACKAGES)
    result = machine.run(PHPCB_INSTALL="report")
    assert result.returncode == 0, result.stderr
    assert result.queried() == ["php8.2-cli", "php8.2-mcrypt", "argon2", "python3-venv", "git", "make", "openssl"]
    assert not {"phpunit", "chromium"} & set(result.queried())


def php_info(library: str, header: str) -> str:
    return (
        f"printf '%s\\n' 'openssl' 'OpenSSL support => enabled' "
        f"'OpenSSL Library Version => OpenSSL {library} 27 Jan 2026' "
        f"'OpenSSL Header Version => OpenSSL {header} 25 Aug 2026'"
    )


@pytest.mark.parametrize(
    ("library", "older", "upgraded"),
    [("3.0.19", True, True), ("3.0.22", False, False)],
    ids=["an older library than PHP's header", "the header's own library"],
)
def test_debians_current_libssl_is_installed_when_php_loads_an_older_one(
    machine: Machine, library: str, older: bool, upgraded: bool
) -> None:
    """A boot's image carried OpenSSL 3.0.19 under Debian's PHP built against 3.0.22: that boot's runs measured
    another library. `dpkg --compare-versions LIBRARY lt HEADER` decides (stubbed: its answer is `older`)."""
    machine.dpkg(installed=DEFAULT_PACKAGES)
    machine.stub("php", php_info(library, "3.0.22"))
    machine.stub(
        "dpkg",
        f'[ "$1 $3" = "--compare-versions lt" ] && [ "$2 $4" = "{library} 3.0.22" ] '
        f"&& exit {0 if older else 1}\nexit 2",
    )
    result = machine.run()
    assert result.returncode == 0, result.stderr
    assert f"dpkg --compare-versions {library} lt 3.0.22" in result.calls
    if upgraded:
        assert result.apt() == ["apt-get update -qq", "apt-get install -y -qq libssl3 openssl"]
        assert f"PHP loads OpenSSL {library} but was built against 3.0.22" in result.stderr
    else:
        assert (result.apt(), result.stderr) == ([], "")
