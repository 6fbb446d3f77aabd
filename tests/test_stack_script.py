"""scripts/stack.sh: a stack's build and its errors, each one line naming what is missing (the build itself,
about 20 s from Debian's mirror, runs in `make test`'s own test-stack step, and its PHPUnit run is the test
that the stack works)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from .conftest import ROOT

SCRIPT = ROOT / "scripts" / "stack.sh"


def copy_of_the_script(tmp_path: Path) -> Path:
    """The script and its stack declarations in a checkout of their own, with no stack built."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(SCRIPT, tmp_path / "scripts" / "stack.sh")
    shutil.copytree(ROOT / "scripts" / "stacks", tmp_path / "scripts" / "stacks")
    return tmp_path / "scripts" / "stack.sh"


def run(script: Path, *arguments: str, user: str | None = None, **environment: str) -> subprocess.CompletedProcess[str]:
    command = [str(script), *arguments]
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    env = {**os.environ, **environment}
    return subprocess.run(command, capture_output=True, text=True, env=env, check=False, timeout=120)


def test_an_unknown_stack_names_the_file_it_looked_for_and_the_known_ones(tmp_path):
    result = run(copy_of_the_script(tmp_path), "build", "debian99")
    assert result.returncode == 1
    assert result.stderr == (
        "error: no stack 'debian99': expected scripts/stacks/debian99.env (known: debian13 ; "
        "'host' is this machine's own PHP)\n"
    )


def test_a_name_that_cannot_be_a_file_is_refused(tmp_path):
    result = run(copy_of_the_script(tmp_path), "build", "../etc")
    assert result.returncode == 1
    assert "a stack name is lower-case letters and digits joined by - or ., got '../etc'" in result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to another user")
def test_without_root_the_build_says_so_before_anything_is_written():
    # Another user cannot enter pytest's own temporary directories: a directory of its own, readable.
    checkout = Path(tempfile.mkdtemp(prefix="phpcb-stack-"))
    try:
        checkout.chmod(0o755)
        script = copy_of_the_script(checkout)
        result = run(script, "build", "debian13", user="65534")
        assert result.returncode == 1
        assert result.stderr == (
            "error: make stack needs root: mmdebstrap builds the root filesystem as root "
            "(run: sudo make stack STACK=debian13)\n"
        )
        assert not (checkout / ".stacks").exists()
    finally:
        shutil.rmtree(checkout)


@pytest.mark.skipif(os.geteuid() != 0, reason="builds only as root")
def test_an_unreachable_mirror_is_named_and_nothing_is_kept(tmp_path):
    script = copy_of_the_script(tmp_path)
    scratch_before = set(Path("/tmp").glob("phpcb-mirror.*"))
    result = run(script, "build", "debian13", STACK_MIRROR="http://127.0.0.1:9/debian")
    assert result.returncode == 1
    prefix = "error: cannot reach the Debian mirror http://127.0.0.1:9/debian (dists/trixie/Release: "
    suffix = "): set STACK_MIRROR to one this machine reaches\n"
    assert result.stderr.startswith(prefix)
    assert result.stderr.endswith(suffix)
    assert result.stderr.removeprefix(prefix).removesuffix(suffix).strip(), "the reason the mirror was not reached"
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / ".stacks" / "debian13").exists()
    assert set(Path("/tmp").glob("phpcb-mirror.*")) == scratch_before, "no scratch file left behind"


def test_running_in_a_stack_that_is_not_built_says_how_to_build_it(tmp_path):
    result = run(copy_of_the_script(tmp_path), "run", "debian13", "php", "-v")
    assert result.returncode == 1
    assert result.stderr == "error: stack debian13 is not built: make stack STACK=debian13\n"


def test_a_path_printed_inside_a_stack_is_the_checkouts_on_the_host(tmp_path):
    script = copy_of_the_script(tmp_path)
    inside = run(script, "path", "/phpcb/data/runs/20261126T1700Z-amd-epyc-fb7fc6-php8.4-debian13")
    assert inside.stdout == f"{tmp_path}/data/runs/20261126T1700Z-amd-epyc-fb7fc6-php8.4-debian13\n"
    host = run(script, "path", "/work/data/runs/x")
    assert host.stdout == "/work/data/runs/x\n", "a host path is left alone"


def test_make_stack_without_a_stack_names_the_variable():
    result = subprocess.run(["make", "-C", str(ROOT), "stack"], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "error: STACK is required: a stack of scripts/stacks/, e.g. make stack STACK=debian13" in result.stderr
