"""Experiment argon2: Argon2 cost over memory × threads × time cost."""
