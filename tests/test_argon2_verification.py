"""The argon2 page says what checked each interface's hashes (issue 48): the run's own verifiers where its
manifest lists them, else what password_verify, its only checker then, was to each interface."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.errors import DataError

from .conftest import FIXTURE_RUN, ROOT, write_manifest
from .test_argon2_answer import argon2_page

VERIFIERS = [
    "password_hash argon2id: sodium_crypto_pwhash_str_verify (libsodium), a second implementation",
    "sodium argon2id: password_verify (libargon2), a second implementation",
    "cli argon2d: not verified: nothing in PHP computes Argon2d (argon2-cffi checks it in the test suite)",
]


def run_with(parent: Path, verification: dict[str, object]) -> Path:
    """A copy of the fixture run whose argon2 verification has `verification` merged in (None: removed)."""
    run = parent / "runs" / FIXTURE_RUN.name
    shutil.copytree(FIXTURE_RUN, run)
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    entry = manifest["experiments"]["argon2"]["verification"]
    for key, value in verification.items():
        if value is None:
            entry.pop(key, None)
        else:
            entry[key] = value
    write_manifest(run, manifest)
    return run


def method(text: str) -> str:
    return text.split("## Method", 1)[1].split("## Charts", 1)[0]


def test_a_run_that_lists_its_verifiers_names_each_on_the_page(tmp_path: Path) -> None:
    text = argon2_page(tmp_path, run_with(tmp_path, {"verifiers": VERIFIERS}))
    listed = "Per interface:\n\n" + "".join(f"    - {line}\n" for line in VERIFIERS)
    assert listed in method(text), "each interface's checker, a list of its own, in the run's order"
    assert "another implementation of Argon2 than the one that made it" in method(text)
    assert "every hash verified as in the [method](#method)" in text
    assert "every hash verified by `password_verify`" not in text


def test_a_run_before_the_verifiers_says_password_verify_was_a_second_implementation_for_sodium_only(
    tmp_path: Path,
) -> None:
    text = argon2_page(tmp_path, run_with(tmp_path, {"verifiers": None, "provider": "standard"}))
    assert "libargon2, a second implementation for sodium's hashes only" in method(text)
    assert "the library that made them" in method(text)
    assert "second implementation where one exists" not in text
    assert "every hash verified by `password_verify`" in text


def test_a_libsodium_php_before_the_verifiers_had_a_second_implementation_for_the_cli_only(tmp_path: Path) -> None:
    text = argon2_page(tmp_path, run_with(tmp_path, {"verifiers": None, "provider": "sodium"}))
    assert "libsodium, a second implementation for the CLI's hashes only" in method(text)


def test_the_manifest_schema_holds_a_runs_verifiers_to_a_list_of_texts(tmp_path: Path) -> None:
    """manifest.schema.json documents verification.verifiers (issue 48): a list of texts, or absent (runs
    before it); anything else is refused when the run is read, naming the manifest."""
    schemas = load_schemas(ROOT / "data" / "schema")
    load_run(run_with(tmp_path / "listed", {"verifiers": VERIFIERS}), schemas)
    load_run(run_with(tmp_path / "absent", {"verifiers": None}), schemas)
    with pytest.raises(DataError, match=r"manifest\.json: at verifiers: 'password_verify' is not of type 'array'"):
        load_run(run_with(tmp_path / "text", {"verifiers": "password_verify"}), schemas)
