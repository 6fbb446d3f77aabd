"""What a run directory may hold, checked before any of it is read: regular files only.

A run directory comes from anyone (a pull request, a downloaded artifact), and the build reads,
copies and publishes what is in it. A symbolic link would have it read or publish another file of
the machine (`notes.txt -> /etc/passwd`), a device or a pipe would block or fill the disk when read,
a subdirectory or a hidden file is nothing the runner writes into a finished run. So each entry is
looked at with lstat (never followed), and anything but a regular, visible file is refused with one
line naming it. Standard library only: the workflow steps that check artifacts install nothing.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from phpcb.errors import DataError

MANIFEST = "manifest.json"


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_directory(directory: Path) -> list[str]:
    """The names of the run directory's files, sorted, once each is known to be a regular, visible
    file; else DataError naming the first entry that is not (nothing is followed or opened)."""
    try:
        mode = os.lstat(directory).st_mode
    except OSError as error:
        raise DataError(directory, f"cannot read the run directory: {error.strerror}") from None
    if not stat.S_ISDIR(mode):
        raise DataError(directory, f"{_kind(mode)}, not a run directory: a run is a directory of regular files")
    names = []
    with os.scandir(directory) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            path = directory / entry.name
            mode = entry.stat(follow_symlinks=False).st_mode
            if not stat.S_ISREG(mode):
                raise DataError(
                    path, f"{_kind(mode)} in a run directory: a run holds regular files only, none is followed or read"
                )
            if entry.name.startswith("."):
                raise DataError(path, "a hidden file in a run directory: a finished run holds none (remove it)")
            names.append(entry.name)
    return names


def unlisted(names: list[str], listed: list[str]) -> list[str]:
    """The files of a run directory that its manifest does not list (nor is the manifest)."""
    known = {MANIFEST, *listed}
    return [name for name in names if name not in known]
