"""scripts/venv-install.sh: a requirements file installed by uv (pinned in requirements-setup.txt, pip
installs it into the venv once), and by pip where uv cannot be installed or cannot install the file.

The venv is a stub: its `python` logs each call and stands in for `python -m pip`, its `uv` logs each call;
either fails where a test says so."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .conftest import ROOT

SCRIPT = ROOT / "scripts" / "venv-install.sh"
SETUP = ROOT / "requirements-setup.txt"

# `python -m pip install ... -r FILE`: installing requirements-setup.txt puts a `uv` beside it, unless told
# to fail; any other file is logged. UV_* variables the script exported are logged too.
PYTHON_STUB = """#!/bin/sh
echo "python $* UV_INDEX_URL=${UV_INDEX_URL:-} UV_FIND_LINKS=${UV_FIND_LINKS:-}" >> "$STUB_LOG"
case "$*" in
  *requirements-setup.txt*)
    [ -z "$STUB_UV_UNAVAILABLE" ] || exit 1
    printf '#!/bin/sh\\necho "uv $*" >> "$STUB_LOG"\\n[ -z "$STUB_UV_FAILS" ] || exit 1\\n' > "$(dirname "$0")/uv"
    chmod +x "$(dirname "$0")/uv" ;;
  *) [ -z "$STUB_PIP_FAILS" ] || exit 1 ;;
esac
"""


@dataclass
class Installed:
    returncode: int
    stderr: str
    calls: list[str]

    def uv(self) -> list[str]:
        return [call for call in self.calls if call.startswith("uv ")]

    def pip_installs(self) -> list[str]:
        """The requirements files `python -m pip install -r` installed, in order."""
        return [call.split(" -r ")[1].split()[0] for call in self.calls if " -m pip install " in call]


def stub_venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(PYTHON_STUB, encoding="utf-8")
    python.chmod(0o755)
    return venv


def install(tmp_path: Path, venv: Path, requirements: str = "requirements.txt", **env: str) -> Installed:
    log = tmp_path / "calls.log"
    log.touch()
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("PIP_", "UV_", "STUB_"))}
    result = subprocess.run(
        [str(SCRIPT), str(venv), requirements],
        cwd=ROOT,
        env={**clean, "STUB_LOG": str(log), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    return Installed(result.returncode, result.stderr, log.read_text(encoding="utf-8").splitlines())


def test_pip_brings_uv_to_its_pin_each_time_and_uv_installs_the_file_compiled(tmp_path):
    venv = stub_venv(tmp_path)
    first = install(tmp_path, venv)
    assert first.returncode == 0, first.stderr
    assert first.pip_installs() == [str(SETUP)]
    assert first.uv() == [f"uv pip install --quiet --compile-bytecode --python {venv}/bin/python -r requirements.txt"]
    (tmp_path / "again").mkdir()
    again = install(tmp_path / "again", venv, "requirements-dev.txt")
    assert again.returncode == 0, again.stderr
    assert again.pip_installs() == [str(SETUP)], "a changed pin replaces the uv of before"
    assert again.uv()[-1].endswith("-r requirements-dev.txt")
    assert again.stderr == ""


def test_a_uv_that_cannot_be_brought_to_its_pin_installs_and_says_so(tmp_path):
    venv = stub_venv(tmp_path)
    install(tmp_path, venv)
    (tmp_path / "again").mkdir()
    again = install(tmp_path / "again", venv, STUB_UV_UNAVAILABLE="1")
    assert again.returncode == 0, again.stderr
    assert len(again.uv()) == 1
    assert again.pip_installs() == [str(SETUP)]
    assert "uv could not be brought to its pin" in again.stderr


def test_pip_installs_the_file_where_uv_cannot_be_installed(tmp_path):
    result = install(tmp_path, stub_venv(tmp_path), STUB_UV_UNAVAILABLE="1")
    assert result.returncode == 0, result.stderr
    assert result.pip_installs() == [str(SETUP), "requirements.txt"]
    assert result.uv() == []
    assert "uv could not be installed" in result.stderr


def test_pip_installs_the_file_where_uv_cannot(tmp_path):
    result = install(tmp_path, stub_venv(tmp_path), STUB_UV_FAILS="1")
    assert result.returncode == 0, result.stderr
    assert len(result.uv()) == 1
    assert result.pip_installs() == [str(SETUP), "requirements.txt"]
    assert "uv could not install requirements.txt (above): pip installs it" in result.stderr


def test_a_file_neither_can_install_fails(tmp_path):
    result = install(tmp_path, stub_venv(tmp_path), STUB_UV_FAILS="1", STUB_PIP_FAILS="1")
    assert result.returncode != 0
    assert result.pip_installs()[-1] == "requirements.txt"


def test_an_index_or_wheel_directory_set_for_pip_is_given_to_uv(tmp_path):
    venv = stub_venv(tmp_path)
    result = install(
        tmp_path, venv, PIP_INDEX_URL="https://mirror.example/simple", PIP_FIND_LINKS="/opt/wheels  /srv/more"
    )
    assert result.returncode == 0, result.stderr
    (setup_call,) = [call for call in result.calls if call.startswith("python ")]
    # pip separates its wheel directories by spaces, uv by commas.
    assert setup_call.endswith("UV_INDEX_URL=https://mirror.example/simple UV_FIND_LINKS=/opt/wheels,/srv/more")


def test_a_missing_venv_or_file_is_named(tmp_path):
    no_venv = install(tmp_path, tmp_path / "nowhere")
    assert no_venv.returncode == 1
    assert f"{tmp_path}/nowhere/bin/python is not a Python" in no_venv.stderr
    no_file = install(tmp_path, stub_venv(tmp_path), "requirements-nope.txt")
    assert no_file.returncode == 1
    assert "no requirements file requirements-nope.txt" in no_file.stderr
    assert no_file.calls == []
    usage = subprocess.run([str(SCRIPT)], capture_output=True, text=True, check=False)
    assert usage.returncode == 2
    assert usage.stderr.startswith("usage: ")
