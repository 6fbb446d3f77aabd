"""Layer 2 (docs/architecture.md numbers errors.py as 1), the data contract and its files: schemas, runs
(loaded, upgraded, sealed), policy and reference data, the site's configuration, noise models. Imports
nothing of phpcb but errors."""
