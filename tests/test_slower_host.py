"""scripts/slower-host.py: a command run as on a host whose every core is FACTOR times slower, by a
real-time process per CPU that holds it busy (1 - 1/FACTOR) of every period. What must hold: the duty
cycle is the factor's, bad arguments are refused in one line, the command keeps normal scheduling and
its exit status, and no busy process outlives the run, not even when the script is killed."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import ROOT

SCRIPT = ROOT / "scripts" / "slower-host.py"
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="real-time scheduling needs root")


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("slower_host", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up by name while the class is made
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def run(*args: str, one_cpu: bool = False) -> subprocess.CompletedProcess[str]:
    """The script; with `one_cpu`, started on one CPU of ours (taskset), so that it starts one burner."""
    pinned = ["taskset", "-c", str(min(os.sched_getaffinity(0)))] if one_cpu else []
    return subprocess.run([*pinned, sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def processes_running(marker: str, script: Path | None = SCRIPT) -> list[int]:
    """Pids whose command line holds $marker and names $script (the burners are forks of the script;
    None: any)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [word.decode(errors="replace") for word in cmdline]
        if marker in words and (script is None or str(script) in words):
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize(("factor", "period_ms", "busy_ms"), [(2.0, 10.0, 5.0), (2.5, 10.0, 6.0), (4.0, 20.0, 15.0)])
def test_each_cpu_is_busy_the_share_that_leaves_the_command_one_factorth(
    factor: float, period_ms: float, busy_ms: float
) -> None:
    cycle = load_script().DutyCycle.for_factor(factor, period_ms)
    assert cycle.period_s == pytest.approx(period_ms / 1000)
    assert cycle.busy_s == pytest.approx(busy_ms / 1000)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--factor", "1", "--", "true"], "--factor must be above 1 and at most 10, got 1"),
        (["--factor", "12", "--", "true"], "--factor must be above 1 and at most 10, got 12"),
        (["--factor", "2", "--period-ms", "0.5", "--", "true"], "--period-ms must be between 1 and 100, got 0.5"),
        (["--factor", "2"], "no command: give it after --"),
    ],
)
def test_a_bad_argument_is_refused_in_one_line_before_anything_runs(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


@needs_root
def test_the_command_runs_with_normal_scheduling_and_its_exit_status_is_the_scripts() -> None:
    result = run(
        "--factor", "2", "--", sys.executable, "-c", "import os, sys; print(os.sched_getscheduler(0)); sys.exit(3)"
    )
    assert result.returncode == 3
    assert result.stdout.strip() == str(os.SCHED_OTHER)
    assert "runs 2x slower" in result.stderr


def test_the_cpu_line_sets_what_the_command_used_against_what_the_slower_cpus_left_it() -> None:
    script = load_script()
    cycle = script.DutyCycle.for_factor(2.0, 10.0)  # half of each CPU left to the command
    line = script.cpu_line(used_s=50.0, wall_s=100.0, cpus=2, cycle=cycle)
    expected = "the command used 50.0 CPU-s of this host's in 100.0 s, 50% of the 100.0 its 2 slower CPU(s) had"
    assert line == f"slower-host: {expected}"
    assert "100% of the 100.0" in script.cpu_line(used_s=100.0, wall_s=100.0, cpus=2, cycle=cycle)


CPU_LINE = re.compile(r"the command used ([0-9.]+) CPU-s of this host's in ([0-9.]+) s, ([0-9]+)% of the ([0-9.]+) its")


def computing(cpu_s: float) -> str:
    """Python code that keeps its CPU busy until it has used `cpu_s` of CPU time, however slow the host."""
    return f"import time\nend = time.process_time() + {cpu_s}\nwhile time.process_time() < end: pass"


@needs_root
def test_the_command_s_own_cpu_time_is_reported_not_the_burners() -> None:
    """A command that computes for a fifth of a second used that much, whatever the burner did beside it;
    one that sleeps used next to nothing. On one CPU: the burners' CPU time is what costs here, and the
    command, which runs only in its one burner's gaps, leaves that burner, busy half of every period, at
    least as much CPU time as it uses itself. Margins: the command's own count is its 0.2 CPU-s and a
    Python's start (0.01 s here; up to 0.15 s passes: a host 2.3x slower, or a busy one, stretches the wall
    time, not the CPU time); with the burner's counted it would be at least twice that, 0.4, the bound; the
    0.3 s sleep would leave the burner 0.15 CPU-s, against a bound of 0.1."""
    busy = run("--factor", "2", "--", sys.executable, "-c", computing(0.2), one_cpu=True)
    assert busy.returncode == 0, busy.stderr
    found = CPU_LINE.search(busy.stderr)
    assert found is not None, busy.stderr
    used, wall, share, available = (float(value) for value in found.groups())
    assert 0.2 <= used < 0.4
    assert available == pytest.approx(wall / 2, abs=0.1), "half of its one CPU"
    assert share <= 100
    idle = CPU_LINE.search(run("--factor", "2", "--", "sleep", "0.3", one_cpu=True).stderr)
    assert idle is not None
    assert float(idle.group(1)) < 0.1


@needs_root
def test_an_orphan_of_the_command_is_counted_too(tmp_path: Path) -> None:
    """A process the command started but never waited for (a browser's renderer once the browser is gone)
    ran on the slower host as well: its CPU time is the command's. The command ends once the orphan has
    ended, however slow the host (a fixed sleep was too short under `make rehearse`'s own emulation): a
    zombie then, which only the script, its subreaper, may reap, and does not until the command is over
    (without the subreaper, init reaps it and its pid is gone). On one CPU, beside one burner (their CPU
    time is what costs here). Margin: the orphan's 0.2 CPU-s against the few hundredths the command's shell
    and its polls use."""
    pid_file = shlex.quote(str(tmp_path / "orphan.pid"))
    orphaning = (
        f"(exec {shlex.quote(sys.executable)} -c {shlex.quote(computing(0.2))} & echo $! > {pid_file}); "
        f"pid=$(cat {pid_file}); "
        "while [ -e /proc/$pid ] && ! grep -qs '^State:.*Z' /proc/$pid/status; do sleep 0.1; done"
    )
    done = run("--factor", "2", "--", "sh", "-c", orphaning, one_cpu=True)
    assert done.returncode == 0, done.stderr
    found = CPU_LINE.search(done.stderr)
    assert found is not None, done.stderr
    assert float(found.group(1)) >= 0.2


@needs_root
def test_no_busy_process_outlives_the_run_even_when_the_script_is_killed() -> None:
    marker = f"marker-{os.getpid()}"
    done = run("--factor", "2", "--", "echo", marker)
    assert done.returncode == 0
    assert done.stdout.strip() == marker
    assert processes_running(marker) == []

    killed = subprocess.Popen([sys.executable, str(SCRIPT), "--factor", "2", "--", "sh", "-c", "sleep 30", marker])
    try:
        burners = wait_for_burners(marker, killed.pid, len(os.sched_getaffinity(0)))
        assert len(burners) == len(os.sched_getaffinity(0))
        assert all(os.sched_getscheduler(pid) == os.SCHED_FIFO for pid in burners)
    finally:
        killed.send_signal(signal.SIGKILL)
        killed.wait()
    deadline = time.monotonic() + 10
    while processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_running(marker) == []
    for orphan in processes_running(marker, script=None):
        os.kill(orphan, signal.SIGKILL)


def wait_for_burners(marker: str, script_pid: int, cpus: int) -> list[int]:
    """The script's busy processes, one per CPU, once each has made itself real-time (a loaded machine
    may take a while to run them that far)."""
    deadline = time.monotonic() + 10
    while True:
        burners = [pid for pid in processes_running(marker) if pid != script_pid]
        ready = len(burners) == cpus and all(real_time(pid) for pid in burners)
        if ready or time.monotonic() > deadline:
            return burners
        time.sleep(0.05)


def real_time(pid: int) -> bool:
    try:
        return os.sched_getscheduler(pid) == os.SCHED_FIFO
    except ProcessLookupError:
        return False


def test_the_rehearsal_refuses_a_factor_that_is_no_number_before_it_clones() -> None:
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "rehearse.sh"), "2.7x"], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2
    assert result.stderr == "error: FACTOR is a number of times slower, e.g. 2.7, got '2.7x'\n"


def test_the_rehearsal_refuses_an_apt_allowance_that_is_no_whole_number_before_it_clones() -> None:
    result = subprocess.run(
        ["bash", str(ROOT / "scripts" / "rehearse.sh")],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "APT_SECONDS": "1:10"},
    )
    assert result.returncode == 2
    assert result.stderr == "error: APT_SECONDS is a whole number of seconds, e.g. 70, got '1:10'\n"


def rehearsal_alone(tmp_path: Path) -> Path:
    """scripts/rehearse.sh in a repository of its own, which it clones as it clones this checkout: a clone of
    the whole checkout (160 MB of working tree) was nearly all of these rehearsals' CPU, and plays no part in
    what they report."""
    repository = tmp_path / "repository"
    (repository / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "rehearse.sh", repository / "scripts")
    identity = ("-c", "user.name=t", "-c", "user.email=t@example.org")
    for command in (("init", "-q"), ("add", "-A"), (*identity, "commit", "-q", "-m", "rehearse.sh")):
        subprocess.run(["git", *command], cwd=repository, check=True, capture_output=True)
    return repository / "scripts" / "rehearse.sh"


def rehearse_with_instant_make(script: Path, tmp_path: Path, apt_seconds: str) -> subprocess.CompletedProcess[str]:
    """The rehearsal with a `make` that passes at once: what it reports comes from its own arithmetic."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "make").write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    (bin_dir / "make").chmod(0o755)
    env = {**os.environ, "APT_SECONDS": apt_seconds, "PATH": f"{bin_dir}:{os.environ['PATH']}", "TMPDIR": str(tmp_path)}
    return subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=60, env=env)


def test_the_report_is_held_against_its_goal_with_the_apt_time_the_rehearsal_does_not_rerun(tmp_path: Path) -> None:
    """A fresh machine installs the Debian packages inside `make report`'s 6 minutes; this one has them."""
    script = rehearsal_alone(tmp_path)
    within = rehearse_with_instant_make(script, tmp_path / "within", "70")
    assert within.returncode == 0, within.stdout + within.stderr
    assert re.search(r"^report\s+0:0\d \+ 1:10 apt \(not re-run\) = 1:1\d  passed$", within.stdout, re.MULTILINE)
    assert re.search(r"^test\s+0:0\d  passed$", within.stdout, re.MULTILINE), "apt is the report's only"

    past = rehearse_with_instant_make(script, tmp_path / "past", "400")
    assert past.returncode == 1
    assert re.search(
        r"^report\s+0:0\d \+ 6:40 apt \(not re-run\) = 6:4\d  passed, past its goal of 6:00$", past.stdout, re.MULTILINE
    )
