"""Layer 6, the experiments: the Experiment base class, one subpackage per experiment (found by the
registry, which scans this package only; each offers the claim measures of its measures.py, built on
the claims layer), and each run's shared contexts."""
