"""The run files a build publishes gzip-compressed (downloads.compress): a large file is compressed once and
read from the user's cache by later builds, byte for byte what compressing it gives; an entry that is not
that file's compression is compressed again."""

import gzip
import tempfile
import zlib
from pathlib import Path

import pytest

from phpcb.presentation import downloads

LARGE = b"".join(b"aes-256-gcm,encrypt,%d,0,16,1,%d\n" % (i % 5, 1000 + i * 7 % 991) for i in range(4_000))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(downloads, "_cache_directory", lambda: tmp_path)
    return tmp_path


def counted_compressions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = gzip.compress

    def counting(data: bytes, *args: object, **kwargs: object) -> bytes:
        calls.append(len(data))
        return real(data, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(gzip, "compress", counting)
    return calls


def test_a_large_file_is_compressed_once_and_read_from_the_cache_after(cache, monkeypatch):
    assert len(LARGE) >= downloads.CACHED_FROM
    calls = counted_compressions(monkeypatch)
    first = downloads.compress(LARGE)
    second = downloads.compress(LARGE)
    assert calls == [len(LARGE)], "the second build reads the first one's bytes"
    assert second == first == gzip.compress(LARGE, compresslevel=downloads.GZIP_LEVEL, mtime=0)
    assert [p.suffix for p in cache.iterdir()] == [".gz"], "one entry, no temporary file left"


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param(lambda good: good[: len(good) // 2], id="cut short"),
        pytest.param(lambda good: gzip.compress(LARGE + b"x", compresslevel=9, mtime=0), id="another file's"),
        pytest.param(lambda good: gzip.compress(LARGE, compresslevel=1, mtime=0), id="another level"),
        pytest.param(lambda good: b"", id="empty"),
    ],
)
def test_an_entry_that_is_not_the_files_compression_is_compressed_again(cache, entry):
    good = downloads.compress(LARGE)
    (path,) = cache.iterdir()
    path.write_bytes(entry(good))
    assert downloads.compress(LARGE) == good
    assert path.read_bytes() == good, "the entry is replaced"


def test_without_a_cache_every_build_compresses(monkeypatch):
    monkeypatch.setattr(downloads, "_cache_directory", lambda: None)
    calls = counted_compressions(monkeypatch)
    assert gzip.decompress(downloads.compress(LARGE)) == LARGE
    assert gzip.decompress(downloads.compress(LARGE)) == LARGE
    assert len(calls) == 2


def test_a_small_file_is_not_kept(cache):
    small = LARGE[: downloads.CACHED_FROM - 1]
    assert zlib.decompress(downloads.compress(small), wbits=31) == small
    assert list(cache.iterdir()) == []


def test_the_cache_is_the_users_own(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    directory = downloads._cache_directory()
    assert directory is not None
    assert directory.is_relative_to(tmp_path)
    assert directory.stat().st_mode & 0o077 == 0
    assert directory.parent.stat().st_mode & 0o077 == 0
