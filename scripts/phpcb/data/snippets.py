"""The PHP the site shows: files under runners/snippets/ that PHPUnit executes (runners/tests/Snippets/),
included into pages from the file, never retyped. A page may also quote a line of one of them, as long as
the quote is, whitespace aside, part of the file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

SNIPPETS = Path("runners") / "snippets"  # under the project root
TESTS = Path("runners") / "tests" / "Snippets"
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,80}\.php")
# A snippet of more lines than this goes into a collapsed block.
LONG_LINES = 12
_WHITESPACE = re.compile(r"\s+")
# A snippet that needs another beside it says so, and nothing else is included: require_once __DIR__ . '/x.php';
_REQUIRES = re.compile(r"^require_once __DIR__ \. '/([a-z0-9][a-z0-9-]*\.php)';$", re.MULTILINE)


def directory(root: Path) -> Path:
    return root / SNIPPETS


def normalised(text: str) -> str:
    """`text` with every run of whitespace made one space, and none at either end."""
    return _WHITESPACE.sub(" ", text).strip()


def phpunit_class(name: str) -> str:
    """The PHPUnit class that executes snippet `name` (aes-256-gcm.php: Aes256GcmTest), a rule
    runners/tests/Snippets/EverySnippetIsTestedTest.php holds the tests to."""
    return "".join(word[:1].upper() + word[1:] for word in name.removesuffix(".php").split("-")) + "Test"


@dataclass(frozen=True)
class Snippet:
    name: str  # e.g. record-in-one-call.php
    source: str

    @property
    def path(self) -> str:
        """Where it is in the repository, for the reader."""
        return f"{SNIPPETS.as_posix()}/{self.name}"

    @property
    def test(self) -> str:
        """The PHPUnit test that executes it."""
        return f"{TESTS.as_posix()}/{phpunit_class(self.name)}.php"

    @property
    def requires(self) -> tuple[str, ...]:
        """The snippets this one needs beside it (its require_once lines), by name."""
        return tuple(_REQUIRES.findall(self.source))

    @property
    def long(self) -> bool:
        return len(self.source.splitlines()) > LONG_LINES

    def contains(self, code: str) -> bool:
        """Whether `code` is, whitespace aside, part of this file."""
        return normalised(code) in normalised(self.source)


class SnippetError(ValueError):
    """A snippet that is not a file under runners/snippets/ (callers turn it into their own error)."""


def load(root: Path, name: str) -> Snippet:
    """Snippet `name` of the project at `root`."""
    if not NAME.fullmatch(name):
        raise SnippetError(f"expected a file name under {SNIPPETS.as_posix()}/ such as aes-256-gcm.php, got {name!r}")
    path = directory(root) / name
    if not path.is_file():
        raise SnippetError(f"expected the snippet {SNIPPETS.as_posix()}/{name}, found no such file")
    return Snippet(name, path.read_text(encoding="utf-8"))


def every(root: Path) -> list[Snippet]:
    """Every snippet of the project at `root`, by name."""
    return [load(root, path.name) for path in sorted(directory(root).glob("*.php"))]
