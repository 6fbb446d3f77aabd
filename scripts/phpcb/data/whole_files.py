"""Files written whole: whoever reads one (a later build, a watching generator, the next step of a job)
finds the old file or the new one, never a part of it."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def write_whole(path: Path, data: bytes) -> None:
    """`data` at `path`, written to a hidden file beside it and renamed over it. The hidden file's name is
    this writer's own, so two processes writing the same file each leave it whole; it is created as
    open() creates a file (the umask decides its mode), and removed when the write fails."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
