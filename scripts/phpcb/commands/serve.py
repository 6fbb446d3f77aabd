"""`python -m phpcb serve [--generator mkdocs|zensical] [--address 127.0.0.1:8000]`: the site for an
author. The pages are generated into the build directory, the generator serves it, and a change to
the data, templates, code, hand-written pages or configuration generates them again (in a fresh
process, so that changed code is what runs). A build error is shown on every generated page until
the file it names is fixed."""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from phpcb.pages import site_files

GENERATORS = ("mkdocs", "zensical")
POLL_SECONDS = 1.0


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--generator", choices=GENERATORS, default="mkdocs")
    parser.add_argument("--address", default="127.0.0.1:8000", help="IP:PORT to serve on")
    parser.add_argument("--out", type=Path, default=None, help="the build directory (default: ROOT/build)")


def snapshot(paths: list[Path]) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for top in paths:
        for path in [top, *top.rglob("*")] if top.is_dir() else [top]:
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                found[str(path)] = (stat.st_mtime_ns, stat.st_size)
    return found


def regenerate(root: Path, out: Path) -> None:
    """`python -m phpcb pages` in a fresh process; on a build error, the error pages."""
    scripts = str(site_files.REPOSITORY / "scripts")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [scripts, os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "phpcb", "--root", str(root), "pages", "--out", str(out)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode == 0:
        print(result.stdout.strip(), flush=True)
        return
    message = result.stderr.strip().removeprefix("error: ") or f"exit code {result.returncode}"
    print(f"ERROR    -  {message}", file=sys.stderr, flush=True)
    site_files.generate_error(root, out, message)


def run(args: argparse.Namespace) -> int:
    out = (args.out or args.root / "build").resolve()
    regenerate(args.root, out)
    # The generator builds its temporary site in a directory of ours, removed however the generator stops:
    # killed, or stopped in the middle of a build, it would leave its own behind.
    temporary = tempfile.mkdtemp(prefix="phpcb-serve-")
    # Stopped by a signal, the generator's server stops with it (the finally in watch).
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server = subprocess.Popen(
            [generator_path(args.generator), "serve", "-f", str(out / site_files.CONFIG), "-a", args.address],
            env={**os.environ, "TMPDIR": temporary},
        )
        watch(args.root, out, server)
    finally:
        signal.signal(signal.SIGTERM, previous)
        shutil.rmtree(temporary, ignore_errors=True)
    return server.returncode or 0


def generator_path(name: str) -> str:
    """The generator installed beside this Python: the project's virtual environment's."""
    return str(Path(sys.executable).with_name(name))


def watch(root: Path, out: Path, server: subprocess.Popen[bytes]) -> None:
    """Generates the pages again on every change of what they are made from, until the server stops."""
    watched = site_files.watched(root)
    seen = snapshot(watched)
    try:
        while server.poll() is None:
            time.sleep(POLL_SECONDS)
            now = snapshot(watched)
            if now != seen:
                seen = now
                regenerate(root, out)
    except KeyboardInterrupt:
        pass
    finally:
        stop(server)


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stops a generator's server as Ctrl-C does: `mkdocs serve` removes the temporary site it builds
    into (/tmp/mkdocs_*, about 10 MB) only on SIGINT; SIGTERM would leave one behind on every stop."""
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
