"""Where a page finds a run's published files, and the link to each one.

A run is published as `runs/<run-id>/`: its manifest.json and datapackage.json as they are, and each
CSV gzip-compressed as `<name>.csv.gz` (an eighth of the size; the Data Package says so). That
directory is in one of two places, a build setting (`RunFiles`):

- in the site (`make site`, `make serve`, `make report`): the build's own `runs/`. Pages link to it
  with Markdown links, which the generator checks and rewrites for its URL style.
- beside the site (`make publish`, previews): the `runs/` at the root of gh-pages, one copy of each
  run shared by every version and preview, since runs are sealed and never change. The site lives
  in `<version>/` or `pr-preview/pr-N/`, so that `runs/` is `base` above the site's root ("../",
  "../../"). A Markdown link there would leave the generator's docs and fail `--strict`, so these
  are HTML links, which the generator leaves as they are: written relative to the page's address
  (directory URLs: `experiments/aead.md` is served at `experiments/aead/`).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import posixpath
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from phpcb.data.whole_files import write_whole
from phpcb.presentation.render import markdown_text

RUNS = "runs"
GZIP_SUFFIX = ".gz"
COMPRESSED = (".csv",)  # what is published gzip-compressed; JSON stays readable in a browser
GZIP_LEVEL = 9  # written once per run, read many times: the smallest file (5.1 MB for 43 MB of CSV, not 5.4)
BASE = re.compile(r"(?:\.\./)+")


def published_name(name: str) -> str:
    """A run file's name on the site: `aead.csv.gz` for `aead.csv`, JSON as it is."""
    return name + GZIP_SUFFIX if name.endswith(COMPRESSED) else name


# Level 9 costs about a CPU-second for 30 MB of CSV, and a run's files are sealed: each is compressed once
# and its bytes kept in the user's cache (_cache_directory), by its checksum, for every later build
# (`make report`'s, then `make test`'s; each `make site`): the repository's build, 9.4 -> 7.0 CPU-seconds.
# Under 16 KiB a file compresses in well under a millisecond, as fast as the cache reads it.
CACHED_FROM = 1 << 14
_HEADER = gzip.compress(b"", compresslevel=GZIP_LEVEL, mtime=0)[:10]


def compress(data: bytes) -> bytes:
    """No timestamp in the header: the same file gives the same bytes in every build (from the cache
    too, CACHED_FROM)."""
    kept = _cache_directory() if len(data) >= CACHED_FROM else None
    if kept is None:
        return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
    entry = kept / f"{hashlib.sha256(data).hexdigest()}{GZIP_SUFFIX}"
    with contextlib.suppress(OSError):
        cached = entry.read_bytes()
        if _is_compressed(cached, data):
            return cached
    compressed = gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
    with contextlib.suppress(OSError):  # a full or read-only disk costs the next build a compression
        write_whole(entry, compressed)
    return compressed


def _is_compressed(candidate: bytes, data: bytes) -> bool:
    """Whether `candidate` is what compress writes for `data`: this module's header, and the trailer's
    CRC-32 and length of `data` (a cache entry another version wrote, or one cut short, is not)."""
    if len(candidate) < len(_HEADER) + 8 or candidate[: len(_HEADER)] != _HEADER:
        return False
    return struct.unpack("<II", candidate[-8:]) == (zlib.crc32(data), len(data) & 0xFFFFFFFF)


def _cache_directory() -> Path | None:
    """Compressed run files, in the per-user temporary directory Jinja keeps compiled templates in (one
    only the user may write: render._disk_cache); None where it cannot be made (each build compresses)."""
    try:
        directory = Path(jinja2.FileSystemBytecodeCache().directory) / "phpcrypto-bench-gzip"
        directory.mkdir(mode=0o700, exist_ok=True)
    except (OSError, RuntimeError):
        return None
    return directory


@dataclass(frozen=True)
class Compressed:
    """A run file published gzip-compressed: compressed only when written (an unchanged file is
    compared by its decompressed bytes and left alone)."""

    source: Path

    def data(self) -> bytes:
        return compress(self.source.read_bytes())

    def matches(self, target: Path) -> bool:
        try:
            return gzip.decompress(target.read_bytes()) == self.source.read_bytes()
        except (OSError, EOFError, zlib.error):
            return False  # not what this build writes: written again


def served_directory(page: str) -> str:
    """The directory a page's address names (directory URLs): `experiments/aead.md` is served at
    `experiments/aead/`, `index.md` at the root, `experiments/index.md` at `experiments/`."""
    stem = page.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return posixpath.dirname(stem)
    return stem


@dataclass(frozen=True)
class RunFiles:
    """Where the runs' files are published. `base` None: in the site. Otherwise the shared `runs/`
    sits `base` above the site's root and holds the runs `shared` names (None: every run); the others
    are published in the site (a preview's own runs)."""

    base: str | None = None
    shared: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if self.base is not None and not BASE.fullmatch(self.base):
            raise ValueError(
                f"the shared runs' place must be ../ repeated (relative to the site's root), got {self.base!r}"
            )

    def beside(self, run_id: str) -> bool:
        """Whether the run's files are the shared copy beside the site (not published in it)."""
        return self.base is not None and (self.shared is None or run_id in self.shared)

    @staticmethod
    def path(run_id: str, name: str) -> str:
        """The file's path under the directory that holds `runs/`: `runs/<run-id>/aead.csv.gz`."""
        return f"{RUNS}/{run_id}/{published_name(name)}"

    def href(self, page: str, run_id: str, name: str) -> str:
        """The link from `page` (a Markdown path of the site) to the run's file."""
        path = quote(self.path(run_id, name))
        if not self.beside(run_id):
            return posixpath.relpath(path, posixpath.dirname(page) or ".")
        directory = served_directory(page)
        depth = len(directory.split("/")) if directory else 0
        return "../" * depth + (self.base or "") + path

    def link(self, page: str, run_id: str, name: str, text: str | None = None) -> Markup:
        """The link to the run's file as `page` prints it; its text is the name it downloads as."""
        shown = markdown_text(published_name(name) if text is None else text)
        href = self.href(page, run_id, name)
        if self.beside(run_id):
            return Markup('<a href="{}">{}</a>').format(href, shown)
        return Markup("[{}]({})").format(shown, href)
