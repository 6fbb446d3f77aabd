"""Experiment ec_keygen: key generation per curve, RSA and Curve25519 at equal security."""
