"""Layer 4, the experiments: the Experiment base class, one subpackage per experiment (found by the
registry, which scans this package only), the claim measures they offer, and each run's shared contexts."""
