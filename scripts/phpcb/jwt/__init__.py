"""Experiment jwt: token size, sign/verify and key generation per JWS algorithm."""
