"""The project's PHP JWS code against PyJWT, both ways, with published (JWK) keys; tampered tokens fail in both."""

import json
import os
import subprocess

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from jwt.algorithms import ECAlgorithm, HMACAlgorithm, OKPAlgorithm, RSAAlgorithm

from .conftest import ROOT

JWS_TOOL = str(ROOT / "runners" / "jws.php")
CLAIMS = {"data": "1234567890", "iat": 1767225600, "exp": 4102444800}


def private_key(alg: str):
    if alg.startswith("ES"):
        curve = {"ES256": ec.SECP256R1(), "ES384": ec.SECP384R1(), "ES512": ec.SECP521R1()}[alg]
        return ec.generate_private_key(curve)
    if alg[:2] in ("RS", "PS"):
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    if alg == "EdDSA":
        return ed25519.Ed25519PrivateKey.generate()
    return os.urandom(int(alg[2:]) // 8)


def jwks(alg: str, key) -> tuple[dict, dict]:
    """The private and public JWK of a key, as PyJWT writes them."""
    if alg.startswith("HS"):
        jwk = HMACAlgorithm.to_jwk(key, as_dict=True)
        return jwk, jwk
    family = ECAlgorithm if alg.startswith("ES") else OKPAlgorithm if alg == "EdDSA" else RSAAlgorithm
    return family.to_jwk(key, as_dict=True), family.to_jwk(key.public_key(), as_dict=True)


def php(command: str, alg: str, document: dict) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["php", JWS_TOOL, command, alg], input=json.dumps(document), capture_output=True, text=True, check=False
    )


def tampered(token: str) -> str:
    header, payload, signature = token.split(".")
    claims = json.loads(jwt.utils.base64url_decode(payload))
    claims["data"] = "mallory"
    forged = jwt.utils.base64url_encode(json.dumps(claims).encode()).decode()
    return f"{header}.{forged}.{signature}"


ALGORITHMS = [
    "ES256",
    "ES384",
    "ES512",
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "EdDSA",
    "HS256",
    "HS384",
    "HS512",
]


@pytest.mark.parametrize("alg", ALGORITHMS)
def test_php_tokens_verify_in_pyjwt_and_tampered_ones_do_not(alg):
    key = private_key(alg)
    private_jwk, public_jwk = jwks(alg, key)
    signed = php("sign", alg, {"jwk": private_jwk, "payload": json.dumps(CLAIMS)})
    assert signed.returncode == 0, signed.stderr
    token = signed.stdout
    verifier = jwt.PyJWK(public_jwk, algorithm=alg)
    assert jwt.decode(token, verifier, algorithms=[alg]) == CLAIMS
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(tampered(token), verifier, algorithms=[alg])


@pytest.mark.parametrize("alg", ALGORITHMS)
def test_pyjwt_tokens_verify_in_php_and_tampered_ones_do_not(alg):
    key = private_key(alg)
    private_jwk, public_jwk = jwks(alg, key)
    token = jwt.encode(CLAIMS, jwt.PyJWK(private_jwk, algorithm=alg), algorithm=alg)
    verified = php("verify", alg, {"jwk": public_jwk, "token": token})
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout) == CLAIMS
    refused = php("verify", alg, {"jwk": public_jwk, "token": tampered(token)})
    assert refused.returncode == 1
    assert "expected a signature that verifies with the key" in refused.stderr


def test_php_refuses_a_pyjwt_token_whose_algorithm_is_not_the_keys():
    key = private_key("HS256")
    private_jwk, _ = jwks("HS256", key)
    token = jwt.encode(CLAIMS, key, algorithm="HS256")
    refused = php(
        "verify", "HS384", {"jwk": private_jwk | {"k": jwt.utils.base64url_encode(key * 2).decode()}, "token": token}
    )
    assert refused.returncode == 1
    assert 'expected "HS384", the algorithm bound to this key, got "HS256"' in refused.stderr


def test_the_published_evidence_of_a_run_verifies_in_pyjwt():
    """Every token a run writes verifies in PyJWT with the JWK the run publishes beside it."""
    from phpcb.data.loader import load_run
    from phpcb.data.schema import load_schemas

    from .conftest import FIXTURE_RUN

    run = load_run(FIXTURE_RUN, load_schemas(ROOT / "data" / "schema"))
    keys = {row["alg"]: json.loads(row["jwk"]) for row in run.tables["jwt_keys.csv"]}
    for row in run.tables["jwt_tokens.csv"]:
        key = jwt.PyJWK(keys[row["alg"]], algorithm=row["alg"])
        # The tokens live a week; the signature, not the expiry, is what this checks.
        claims = jwt.decode(row["token"], key, algorithms=[row["alg"]], options={"verify_exp": False})
        assert len(claims["data"]) == row["payload_chars"]
