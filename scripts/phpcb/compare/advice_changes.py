"""What a run would change in the site's advice if it were the reference: every experiment's statements
(Experiment.advice, from the build's shared contexts) for two runs, diffed."""

from __future__ import annotations

from phpcb.data.loader import Run
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts
from phpcb.presentation.advice import Advice, AdviceChange, diff


def of_run(run: Run, contexts: Contexts, experiments: list[str] | None = None) -> list[Advice]:
    """Everything the site would state from `run`, experiment by experiment (registry order)."""
    statements: list[Advice] = []
    for experiment in registry.discover():
        if experiments is not None and experiment.name not in experiments:
            continue
        if not run.has_results(experiment.name):
            continue
        context = contexts.context(experiment, run)
        statements += experiment.advice(context)
    return statements


def changes(base: Run, new: Run, contexts: Contexts, experiments: list[str] | None = None) -> list[AdviceChange]:
    """What the site would say differently if `new` were the reference instead of `base`, for the
    experiments both runs have (of `experiments`, when given)."""
    shared = [
        e.name
        for e in registry.discover()
        if base.has_results(e.name) and new.has_results(e.name) and (experiments is None or e.name in experiments)
    ]
    return diff(of_run(base, contexts, shared), of_run(new, contexts, shared))
