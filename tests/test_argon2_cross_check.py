"""Argon2 hashes made by PHP's password_hash, by sodium and by the reference CLI verify in argon2-cffi."""

import json
import subprocess

import pytest
from argon2.exceptions import VerifyMismatchError
from argon2.low_level import Type, verify_secret

from .conftest import ROOT

CELL = str(ROOT / "runners" / "argon2-cell.php")
PASSWORD = b"correct horse battery staple"  # Argon2Hasher::PASSWORD
TYPES = {"argon2i": Type.I, "argon2id": Type.ID, "argon2d": Type.D}


@pytest.mark.parametrize(
    ("interface", "variant", "threads", "time_cost"),
    [
        ("password_hash", "argon2id", 2, 1),
        ("password_hash", "argon2i", 1, 2),
        ("sodium", "argon2id", 1, 2),
        ("sodium", "argon2i", 1, 3),
        ("cli", "argon2d", 2, 1),
        ("cli", "argon2id", 4, 1),
    ],
)
def test_php_made_hashes_verify_in_argon2_cffi(interface, variant, threads, time_cost):
    result = subprocess.run(
        ["php", CELL, interface, variant, "8192", str(threads), str(time_cost), "2", "0"],
        capture_output=True,
        text=True,
        check=True,
    )
    measured = json.loads(result.stdout)
    assert measured["status"] == "ok", measured["detail"]
    for encoded in measured["hashes"]:
        assert encoded.startswith(f"${variant}$v=19$m=8192,t={time_cost},p={threads}$")
        assert verify_secret(encoded.encode(), PASSWORD, TYPES[variant])
        with pytest.raises(VerifyMismatchError):
            verify_secret(encoded.encode(), PASSWORD + b"!", TYPES[variant])
