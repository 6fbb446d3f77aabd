"""Which run each experiment page shows, and why: data/site.yaml declares the reference machine (a name, or
`most-boots`: the known identity seen on the most boots) and the reference stack (the software under the
runner: data/stacks.py), and the rule picks, per experiment,

1. the run pinned for it in data/site.yaml, if any;
2. else the newest full-profile run of the reference machine, on the reference stack before any other;
3. else the newest full-profile run of any machine, the reference stack first (a quick run never hides
   a full one);
4. else the newest quick run of the reference machine, then of any machine, the reference stack first.

A `View` may name a run to show instead (`make report`'s run: the command layer reads it from
PHPCB_SHOW_RUN) and runs the Comparison page sets beside the baseline the rule picks (PHPCB_COMPARE).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from phpcb.data.datafile import YamlFile
from phpcb.data.loader import Run
from phpcb.data.machines import UNKNOWN, Machine, machine_name
from phpcb.data.sampling import native_left_out
from phpcb.data.stacks import on_stack, stack_of
from phpcb.errors import DataError

SHOW_RUN_VARIABLE = "PHPCB_SHOW_RUN"
COMPARE_VARIABLE = "PHPCB_COMPARE"  # run ids, comma-separated: the Comparison page sets each beside its baseline
FULL = "full"


ENTRIES = ("reference_machine", "reference_stack", "pinned")
# data/site.yaml's reference_machine may name a machine, or say this: the machine whose identity is known
# (recorded or inferred, never unknown) with runs from the most boots (then the most runs, then the newest).
MOST_BOOTS = "most-boots"


def machine_with_most_boots(runs: list[Run]) -> str | None:
    """The reference machine by MOST_BOOTS: the data grows by boots and machines, and the machine seen on
    the most boots is the one whose spread across boots is best known."""
    boots: dict[str, set[str]] = {}
    count: dict[str, int] = {}
    newest: dict[str, str] = {}
    for run in runs:
        machine = Machine.of(run.manifest)
        if machine.identity.source == UNKNOWN:
            continue
        boots.setdefault(machine.name, set()).add(machine.boot)
        count[machine.name] = count.get(machine.name, 0) + 1
        newest[machine.name] = max(newest.get(machine.name, ""), str(run.manifest["started_utc"]))
    if not boots:
        return None
    return max(boots, key=lambda name: (len(boots[name]), count[name], newest[name], name))


@dataclass(frozen=True)
class SiteConfig:
    """data/site.yaml: the reference machine and stack, and the runs pinned per experiment."""

    path: Path
    reference_machine: str | None
    pinned: dict[str, str]
    reference_stack: str | None = None  # a stack's name (manifest stack.name), e.g. debian13

    @classmethod
    def load(cls, path: Path) -> SiteConfig:
        if not path.is_file():
            return cls(path, None, {})
        data = YamlFile.load(path)
        unknown = sorted(set(data.data) - set(ENTRIES))
        if unknown:
            raise DataError(path, f"unknown entries {unknown}; expected {', '.join(ENTRIES)}")
        machine = data.data.get("reference_machine")
        if machine is not None and not isinstance(machine, str):
            raise DataError(path, f"reference_machine: expected a machine name, got {machine!r}")
        stack = data.data.get("reference_stack")
        if stack is not None and not isinstance(stack, str):
            raise DataError(path, f"reference_stack: expected a stack name (e.g. debian13, or host), got {stack!r}")
        pinned = data.data.get("pinned") or {}
        if not isinstance(pinned, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in pinned.items()
        ):
            raise DataError(path, f"pinned: expected a mapping of experiment name to run id, got {pinned!r}")
        return cls(path, machine, dict(pinned), stack)

    def check(self, runs: list[Run]) -> None:
        """A reference machine or stack, or a pinned run, that no run under data/runs/ matches is a typo,
        not a rule. The MOST_BOOTS rule is resolved here, against the runs (every build checks first)."""
        if self.reference_machine == MOST_BOOTS:
            object.__setattr__(self, "reference_machine", machine_with_most_boots(runs))
        machines = sorted({machine_name(run.manifest) for run in runs})
        if self.reference_machine is not None and self.reference_machine not in machines:
            raise DataError(
                self.path,
                f"reference_machine {self.reference_machine!r} has no run under data/runs/; machines: {machines}",
            )
        stacks = sorted({stack_of(run.manifest).name for run in runs})
        if self.reference_stack is not None and self.reference_stack not in stacks:
            raise DataError(
                self.path,
                f"reference_stack {self.reference_stack!r} has no run under data/runs/; stacks: {stacks}",
            )
        ids = {run.run_id for run in runs}
        for experiment, run_id in self.pinned.items():
            if run_id not in ids:
                raise DataError(self.path, f"pinned.{experiment}: no run {run_id!r} under data/runs/")


@dataclass(frozen=True)
class Selection:
    """The run a page shows and the sentence that says why."""

    run: Run
    reason: str
    focus: bool = False  # the run make report just measured, not the published reference


def _newest(runs: list[Run]) -> Run | None:
    return max(runs, key=lambda run: (run.manifest["started_utc"], run.run_id), default=None)


def reference(runs: list[Run], experiment: str, config: SiteConfig) -> Selection | None:
    """The published run for `experiment`, by the module's rule; None when no run has it."""
    having = [run for run in runs if run.has_results(experiment)]
    if not having:
        return None
    pinned = config.pinned.get(experiment)
    if pinned is not None:
        run = next((run for run in having if run.run_id == pinned), None)
        if run is None:
            raise DataError(config.path, f"pinned.{experiment}: run {pinned!r} has no {experiment} results")
        return Selection(run, "pinned for this experiment in data/site.yaml")
    # A run that left the native tools out (make report's) has no native figures: any other run of this
    # experiment comes first, whatever its machine or profile.
    complete = [run for run in having if not native_left_out(run.experiment(experiment))]
    passed_over = (
        "; runs that left the native tools out (`make report`'s) are passed over"
        if complete and complete != having
        else ""
    )
    having = complete or having
    machine = config.reference_machine
    if machine == MOST_BOOTS:
        machine = machine_with_most_boots(runs)
    on_reference = [run for run in having if machine_name(run.manifest) == machine]
    full = [run for run in having if run.manifest["profile"] == FULL]
    steps: list[tuple[list[Run], str]] = [
        (
            [r for r in on_reference if r.manifest["profile"] == FULL],
            "the newest full-profile run of the reference machine",
        ),
        (full, "the newest full-profile run of any machine (the reference machine has none of this experiment)"),
        (on_reference, "the newest run of the reference machine; no machine has a full-profile run of this experiment"),
        (
            having,
            "the newest run of any machine; no run of this experiment is full-profile or from the reference machine",
        ),
    ]
    stack = config.reference_stack
    for candidates, reason in steps:
        on_reference_stack = [run for run in candidates if on_stack(run, stack)]
        run = _newest(on_reference_stack)
        if run is not None:
            return Selection(
                run, reason + (f", on the reference stack ({stack})" if stack is not None else "") + passed_over
            )
        run = _newest(candidates)
        if run is not None:
            return Selection(run, f"{reason}; none on the reference stack ({stack}) has this experiment{passed_over}")
    return None


def shown(runs: list[Run], experiment: str, config: SiteConfig, focus: str | None) -> Selection | None:
    """What the page shows: the focus run (make report's) when it has the experiment, else the reference."""
    if focus is not None:
        run = next((run for run in runs if run.run_id == focus and run.has_results(experiment)), None)
        if run is not None:
            return Selection(run, "the run `make report` just measured on this machine", focus=True)
    return reference(runs, experiment, config)


def baseline_for(new: Run, runs: list[Run], experiment: str, config: SiteConfig) -> Selection | None:
    """What `new` is compared with: the reference run of its own machine and stack, else of its own machine,
    else the published reference.

    Runs of the same machine are compared by the same rule as the site (full before quick, newest),
    leaving `new` itself out; a run of another stack (another PHP and OpenSSL) is a baseline only when
    the machine has none of the run's own, since across stacks nothing reads as a regression.
    """
    others = [run for run in runs if run.run_id != new.run_id]
    same_machine = [run for run in others if machine_name(run.manifest) == machine_name(new.manifest)]
    own_stack = stack_of(new.manifest).name
    rule = SiteConfig(config.path, machine_name(new.manifest), {}, own_stack)
    same_stack = [run for run in same_machine if on_stack(run, own_stack)]
    own = reference(same_stack, experiment, rule)
    if own is not None:
        return Selection(own.run, "the reference run of the same machine")
    own = reference(same_machine, experiment, rule)
    if own is not None:
        because = "the reference run of the same machine, on another stack (none of its own stack has this experiment)"
        return Selection(own.run, because)
    published = reference(others, experiment, config)
    if published is None:
        return None
    return Selection(published.run, f"another machine's run, the one the published pages show: {published.reason}")


@dataclass(frozen=True)
class View:
    """What the pages show beyond data/site.yaml's rule: the run every page shows instead of the rule's
    pick (the one `make report` just measured), and the runs the Comparison page sets beside their
    baselines (none: there is no such page). The command layer says which; the build only reads this."""

    show: str | None = None
    compare: tuple[str, ...] = ()

    @classmethod
    def of(cls, show: str | None, compare: str | None) -> View:
        """From the two settings' text (PHPCB_SHOW_RUN, PHPCB_COMPARE's comma-separated ids), blanks ignored."""
        ids = tuple(part.strip() for part in (compare or "").split(",") if part.strip())
        return cls((show or "").strip() or None, ids)


PICKS = View()  # data/site.yaml's picks alone: the published site


@dataclass(frozen=True)
class Choice:
    """How the pages pick their runs: data/site.yaml, and the run `make report` measured (if any)."""

    config: SiteConfig
    focus: str | None
    # Whether the Comparison page sets the focus run beside its baseline (it is among View.compare): only
    # then do the pages link to it (PHPCB_SHOW_RUN alone builds no Comparison page).
    compared: bool = False
