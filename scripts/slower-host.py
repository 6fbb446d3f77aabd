#!/usr/bin/env python3
"""Runs a command as if on a host whose every core is FACTOR times slower than this one's.

    scripts/slower-host.py --factor 2.7 [--period-ms 10] -- make test

The VM pool gives hosts 1.5-3x slower than others under one name (issue 48), and the README's time
goals hold only where they hold on the slowest. This rehearses them on a fast host: on each CPU
the command may use, a real-time (SCHED_FIFO) process is busy for (1 - 1/FACTOR) of every period
and sleeps the rest, so the command's processes, which the scheduler runs only in those gaps, get
1/FACTOR of every core, whether one of them runs or many. A CPU quota (cgroups) cannot do that: it
caps the whole group, so a lone process would run at the speed of several cores' share.

It emulates a host with a neighbour that takes most of each core, not a slower microarchitecture:
wall times of whole commands compare, a benchmark's per-sample spread does not (a sample that
spans a busy phase is 1/(1 - busy share) longer than one that does not). Needs root (CAP_SYS_NICE)
for SCHED_FIFO. Exits with the command's status.

When the command ends it prints the CPU time it used against what the slower host gave it: near 100 %,
the command kept every emulated core busy, and only less CPU makes it faster there; well below, it
waited (on sleeps, I/O or one long serial step), and more parallel work would use what it left.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass

# 10: busy 90 % of each period. The kernel stops real-time tasks after sched_rt_runtime_us of every
# sched_rt_period_us (95 % by default); a busy share past that would be cut short, and the host would
# be faster than asked.
MAX_FACTOR = 10.0


@dataclass(frozen=True)
class DutyCycle:
    """Of every period, how long a burner keeps its CPU busy; the rest is the command's."""

    period_s: float
    busy_s: float

    @classmethod
    def for_factor(cls, factor: float, period_ms: float) -> DutyCycle:
        if not 1.0 < factor <= MAX_FACTOR:
            raise ValueError(f"--factor must be above 1 and at most {MAX_FACTOR:g}, got {factor:g}")
        if not 1.0 <= period_ms <= 100.0:
            raise ValueError(f"--period-ms must be between 1 and 100, got {period_ms:g}")
        period_s = period_ms / 1000.0
        return cls(period_s=period_s, busy_s=period_s * (1.0 - 1.0 / factor))

    @property
    def free_share(self) -> float:
        """The share of each CPU's time the burners leave to the command."""
        return 1.0 - self.busy_s / self.period_s


def cpu_line(used_s: float, wall_s: float, cpus: int, cycle: DutyCycle) -> str:
    """What the command used of the CPU time the slower host had for it in `wall_s` on `cpus` CPUs."""
    available = wall_s * cpus * cycle.free_share
    share = used_s / available if available > 0 else 0.0
    return (
        f"slower-host: the command used {used_s:.1f} CPU-s of this host's in {wall_s:.1f} s, "
        f"{share:.0%} of the {available:.1f} its {cpus} slower CPU(s) had"
    )


# prctl(2): orphaned descendants of a subreaper are handed to it, not to init, so it can wait for them.
PR_SET_CHILD_SUBREAPER = 36


def adopt_orphans() -> None:
    """Become the subreaper of the command's processes: a browser, say, ends before the renderers it
    started are waited for, and their CPU time would be counted nowhere."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def reap_orphans() -> None:
    """Wait for the orphans that have ended (the burners run on, and are waited for later)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] != 0:
            pass


def children_cpu_s() -> float:
    """CPU time of the processes waited for so far: the command, what it waited for and the orphans of
    its tree (adopt_orphans), not the burners, which are waited for after it."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def burn(cpu: int, cycle: DutyCycle, parent: int) -> None:
    """Holds $cpu busy for cycle.busy_s of every period until $parent is gone (never returns)."""
    os.sched_setaffinity(0, {cpu})
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    start = time.perf_counter()
    period = 0
    while os.getppid() == parent:
        begins = start + period * cycle.period_s
        while time.perf_counter() < begins + cycle.busy_s:
            pass
        period += 1
        # Deadlines from the start, not from now: a late wake-up does not shift the cycles after it.
        time.sleep(max(0.0, start + period * cycle.period_s - time.perf_counter()))
    os._exit(0)


def start_burners(cpus: set[int], cycle: DutyCycle) -> list[int]:
    parent = os.getpid()
    pids = []
    for cpu in sorted(cpus):
        pid = os.fork()
        if pid == 0:
            try:
                burn(cpu, cycle, parent)
            finally:
                os._exit(1)
        pids.append(pid)
    return pids


def stop_burners(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def parse(argv: list[str]) -> tuple[DutyCycle, list[str]]:
    parser = argparse.ArgumentParser(
        prog="scripts/slower-host.py", description="Run a command as if every core were FACTOR times slower."
    )
    parser.add_argument("--factor", type=float, required=True, help="how many times slower each core is, e.g. 2.7")
    parser.add_argument("--period-ms", type=float, default=10.0, help="the busy/idle cycle (default 10 ms)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command: give it after --, e.g. scripts/slower-host.py --factor 2.7 -- make test")
    try:
        return DutyCycle.for_factor(args.factor, args.period_ms), command
    except ValueError as error:
        parser.error(str(error))


def main(argv: list[str]) -> int:
    cycle, command = parse(argv)
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    except PermissionError:
        print("error: slower-host needs root (real-time scheduling, CAP_SYS_NICE): run it with sudo", file=sys.stderr)
        return 2
    cpus = os.sched_getaffinity(0)
    print(
        f"slower-host: each of {len(cpus)} CPUs busy {cycle.busy_s * 1000:.1f} ms of every "
        f"{cycle.period_s * 1000:g} ms, so {' '.join(command)} runs "
        f"{1 / cycle.free_share:.2g}x slower",
        file=sys.stderr,
    )
    adopt_orphans()  # before the burners: if it fails, nothing is left running
    burners = start_burners(cpus, cycle)
    started = time.perf_counter()
    try:
        status = subprocess.call(command)
        reap_orphans()
        print(cpu_line(children_cpu_s(), time.perf_counter() - started, len(cpus), cycle), file=sys.stderr)
        return status
    except FileNotFoundError:
        print(f"error: no command {command[0]!r}", file=sys.stderr)
        return 127
    except KeyboardInterrupt:
        return 130
    finally:
        stop_burners(burners)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
