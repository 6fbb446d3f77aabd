"""Which run a page shows: data/site.yaml's reference machine, full before quick, newest first."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from phpcb.commands.view import from_environment
from phpcb.data import sampling, selection
from phpcb.data.selection import COMPARE_VARIABLE, SHOW_RUN_VARIABLE, SiteConfig, View, baseline_for, reference, shown
from phpcb.errors import DataError

from .conftest import ROOT, committed_runs, named_run

CONFIG = Path("data/site.yaml")


run = named_run


REF_QUICK_NEW = run("r-quick-new", "ref", "quick", "2026-11-22T10:00:00Z")
REF_FULL_OLD = run("r-full-old", "ref", "full", "2026-11-01T10:00:00Z")
OTHER_FULL_NEWER = run("o-full", "other", "full", "2026-11-20T10:00:00Z")
OTHER_QUICK_NEWEST = run("o-quick", "other", "quick", "2026-11-23T10:00:00Z")
ALL = [REF_FULL_OLD, OTHER_FULL_NEWER, REF_QUICK_NEW, OTHER_QUICK_NEWEST]


def config(machine: str | None = "ref", pinned: dict[str, str] | None = None) -> SiteConfig:
    return SiteConfig(CONFIG, machine, pinned or {})


def test_the_reference_machines_full_run_wins_over_its_newer_quick_run():
    chosen = reference(ALL, "aead", config())
    assert chosen is not None
    assert chosen.run is REF_FULL_OLD
    assert chosen.reason == "the newest full-profile run of the reference machine"


def test_a_quick_run_never_hides_a_full_run_of_another_machine():
    chosen = reference([OTHER_FULL_NEWER, REF_QUICK_NEW], "aead", config())
    assert chosen is not None
    assert chosen.run is OTHER_FULL_NEWER
    assert "any machine" in chosen.reason


def test_without_any_full_run_the_reference_machines_newest_quick_run():
    chosen = reference([OTHER_QUICK_NEWEST, REF_QUICK_NEW], "aead", config())
    assert chosen is not None
    assert chosen.run is REF_QUICK_NEW


def test_without_a_reference_machine_the_newest_full_run():
    chosen = reference(ALL, "aead", config(None))
    assert chosen is not None
    assert chosen.run is OTHER_FULL_NEWER


def test_a_pinned_run_wins_and_says_so():
    chosen = reference(ALL, "aead", config(pinned={"aead": "o-quick"}))
    assert chosen is not None
    assert chosen.run is OTHER_QUICK_NEWEST
    assert "pinned" in chosen.reason


def test_no_run_with_the_experiment_gives_none():
    assert reference(ALL, "jwt", config()) is None


def test_a_run_that_failed_the_experiment_is_not_chosen():
    failed = run("failed", "ref", "full", "2026-11-30T10:00:00Z")
    failed.manifest["experiments"]["aead"]["status"] = "failed"
    chosen = reference([*ALL, failed], "aead", config())
    assert chosen is not None
    assert chosen.run is REF_FULL_OLD


def test_the_focus_run_is_shown_when_it_has_the_experiment():
    chosen = shown(ALL, "aead", config(), "o-quick")
    assert chosen is not None
    assert chosen.run is OTHER_QUICK_NEWEST
    assert chosen.focus
    fallback = shown(ALL, "jwt", config(), "o-quick")
    assert fallback is None


def test_a_new_run_is_compared_with_its_own_machine_first():
    new = run("o-new", "other", "full", "2026-11-24T10:00:00Z")
    chosen = baseline_for(new, [*ALL, new], "aead", config())
    assert chosen is not None
    assert chosen.run is OTHER_FULL_NEWER
    assert chosen.reason == "the reference run of the same machine"


def test_a_new_machine_is_compared_with_the_published_reference():
    new = run("n-new", "newcomer", "quick", "2026-11-24T10:00:00Z")
    chosen = baseline_for(new, [*ALL, new], "aead", config())
    assert chosen is not None
    assert chosen.run is REF_FULL_OLD
    assert "another machine" in chosen.reason


def test_site_yaml_is_checked(tmp_path):
    path = tmp_path / "site.yaml"
    path.write_text("reference_machine: nobody\n")
    with pytest.raises(
        DataError, match="reference_machine 'nobody' has no run under data/runs/; machines: \\['other', 'ref'\\]"
    ):
        SiteConfig.load(path).check(ALL)
    path.write_text("reference_machne: ref\n")
    with pytest.raises(DataError, match="unknown entries \\['reference_machne'\\]"):
        SiteConfig.load(path)
    path.write_text("pinned: {aead: missing-run}\n")
    with pytest.raises(DataError, match=r"pinned\.aead: no run 'missing-run'"):
        SiteConfig.load(path).check(ALL)
    assert SiteConfig.load(tmp_path / "absent.yaml").reference_machine is None


def test_the_committed_site_yaml_names_a_machine_with_runs():

    from .conftest import ROOT, committed_runs

    SiteConfig.load(ROOT / "data" / "site.yaml").check(list(committed_runs()))


def test_the_command_layer_reads_the_view_from_the_environment():
    environment = {SHOW_RUN_VARIABLE: " r-full-old ", COMPARE_VARIABLE: " a, ,b "}
    assert from_environment(environment) == View("r-full-old", ("a", "b"))
    assert from_environment({SHOW_RUN_VARIABLE: "", COMPARE_VARIABLE: ""}) == View()
    assert from_environment({}) == View()


# The environment the layers below the commands may read, and why: settings of the frame, not the view.
OTHER_SETTINGS = {
    "scripts/phpcb/pages/site_files.py": "the repository's address, in GitHub Actions",
    "scripts/phpcb/presentation/generated_only.py": "the guard that stops a generator serving the bare frame",
}


def test_the_build_reads_no_environment():
    """What the pages show reaches build() as an argument; only the command layer reads the environment."""
    from .conftest import ROOT

    readers = [
        path.relative_to(ROOT).as_posix()
        for layer in ("data", "statistics", "presentation", "claims", "experiments", "compare", "pages")
        for path in sorted((ROOT / "scripts" / "phpcb" / layer).rglob("*.py"))
        if re.search(r"os\.environ|getenv", path.read_text(encoding="utf-8"))
    ]
    assert sorted(readers) == sorted(OTHER_SETTINGS), readers


# Stacks: the reference machine's runs on Debian 13's stack (PHP 8.4 + OpenSSL 3.5) and on the host's.
HOST_FULL_NEW = run("h-full-new", "ref", "full", "2026-11-26T10:00:00Z", stack="host")
STACK_FULL_OLD = run("s-full-old", "ref", "full", "2026-11-25T10:00:00Z", stack="debian13")
STACK_QUICK_NEWEST = run("s-quick", "ref", "quick", "2026-11-27T10:00:00Z", stack="debian13")
STACKED = [HOST_FULL_NEW, STACK_FULL_OLD, STACK_QUICK_NEWEST, OTHER_FULL_NEWER]


def stack_config(stack: str | None) -> SiteConfig:
    return SiteConfig(CONFIG, "ref", {}, stack)


def test_the_reference_stack_wins_over_a_newer_run_of_another_stack():
    chosen = reference(STACKED, "aead", stack_config("debian13"))
    assert chosen is not None
    assert chosen.run is STACK_FULL_OLD
    assert chosen.reason == "the newest full-profile run of the reference machine, on the reference stack (debian13)"


def test_a_quick_run_on_the_reference_stack_never_hides_a_full_run_of_another_stack():
    chosen = reference([HOST_FULL_NEW, STACK_QUICK_NEWEST], "aead", stack_config("debian13"))
    assert chosen is not None
    assert chosen.run is HOST_FULL_NEW
    assert chosen.reason == (
        "the newest full-profile run of the reference machine; "
        "none on the reference stack (debian13) has this experiment"
    )


def test_without_a_reference_stack_the_newest_run_wins_whatever_its_stack():
    chosen = reference(STACKED, "aead", stack_config(None))
    assert chosen is not None
    assert chosen.run is HOST_FULL_NEW
    assert chosen.reason == "the newest full-profile run of the reference machine"


def test_a_new_run_is_compared_with_a_run_of_its_own_stack_first():
    new = run("s-new", "ref", "full", "2026-11-28T10:00:00Z", stack="debian13")
    chosen = baseline_for(new, [*STACKED, new], "aead", stack_config("debian13"))
    assert chosen is not None
    assert chosen.run is STACK_FULL_OLD


def test_a_reference_stack_without_runs_is_a_typo(tmp_path):
    path = tmp_path / "site.yaml"
    path.write_text("reference_machine: ref\nreference_stack: debain13\n")
    with pytest.raises(
        DataError, match="reference_stack 'debain13' has no run under data/runs/; stacks: \\['debian13', 'host'\\]"
    ):
        SiteConfig.load(path).check(STACKED)
    path.write_text("reference_stack: [debian13]\n")
    with pytest.raises(DataError, match="reference_stack: expected a stack name"):
        SiteConfig.load(path)


def test_a_run_is_compared_with_its_own_stack_before_a_full_run_of_another():
    """`make report` on the host's PHP, with the site's full run on Debian 13's stack: a quick run of the
    host's stack is the baseline, not the full run of another PHP and OpenSSL (never read as a regression)."""
    newer_stack_full = run("m-d13-full", "m", "full", "2026-11-24T09:00:00Z", stack="debian13")
    host_quick = run("m-host-quick", "m", "quick", "2026-11-24T08:00:00Z")
    new = run("m-host-new", "m", "quick", "2026-11-24T10:00:00Z")
    chosen = baseline_for(new, [newer_stack_full, host_quick, new], "aead", config())
    assert chosen is not None
    assert chosen.run is host_quick
    assert chosen.reason == "the reference run of the same machine"
    alone = baseline_for(new, [newer_stack_full, new], "aead", config())
    assert alone is not None
    assert alone.run is newer_stack_full
    assert alone.reason.startswith("the reference run of the same machine, on another stack")


def known(run, boot: str, source: str = "recorded"):
    """The run as the runner records a known identity (the selection reads only its source) on `boot`."""
    identity = {"vendor": "amd", "line": "epyc", "family": 26, "model": 2, "stepping": 1}
    identity |= {"microarchitecture": "zen5", "cores": 2, "features": ["aes"]}
    run.manifest["machine"] |= {"identity": identity, "identity_source": source}
    run.manifest["boot"] = {"id": boot, "uptime_s": 1}
    return run


def test_the_reference_machine_by_most_boots_is_the_known_identity_seen_on_the_most_boots():
    """Issue 45.7: the data grows by boots and machines; the reference machine is the known identity with the
    most boots (an unknown identity never, however many runs it has)."""
    runs = [
        known(named_run("20260101T0000Z-a-php8.2", "a", "quick", "2026-01-01T00:00:00Z"), "boot-1"),
        known(named_run("20260101T0100Z-a-php8.2", "a", "quick", "2026-01-01T01:00:00Z"), "boot-1"),
        known(named_run("20260102T0000Z-b-php8.2", "b", "quick", "2026-01-02T00:00:00Z"), "boot-2"),
        known(named_run("20260103T0000Z-b-php8.2", "b", "quick", "2026-01-03T00:00:00Z"), "boot-3"),
        known(named_run("20260104T0000Z-c-php8.2", "c", "quick", "2026-01-04T00:00:00Z"), "boot-4", "unknown"),
        known(named_run("20260105T0000Z-c-php8.2", "c", "quick", "2026-01-05T00:00:00Z"), "boot-5", "unknown"),
        known(named_run("20260106T0000Z-c-php8.2", "c", "quick", "2026-01-06T00:00:00Z"), "boot-6", "unknown"),
    ]
    assert selection.machine_with_most_boots(runs) == "b"
    assert selection.machine_with_most_boots(runs[:2]) == "a"
    assert selection.machine_with_most_boots(runs[4:]) is None
    config = selection.SiteConfig(Path("site.yaml"), selection.MOST_BOOTS, {})
    config.check(runs)
    assert config.reference_machine == "b"
    picked = selection.reference(runs, "aead", selection.SiteConfig(Path("site.yaml"), selection.MOST_BOOTS, {}))
    assert picked is not None
    assert picked.run.run_id == "20260103T0000Z-b-php8.2"


def test_the_committed_site_follows_the_machine_with_most_boots():
    config = selection.SiteConfig.load(ROOT / "data" / "site.yaml")
    assert config.reference_machine == selection.MOST_BOOTS
    config.check(committed_runs())
    assert config.reference_machine == "amd-epyc-zen5-2c-5330ed"


def left_native_out(run_id: str, machine: str, profile: str, started: str) -> Any:
    made = run(run_id, machine, profile, started)
    made.manifest["experiments"]["aead"].update(status="partial", reason=sampling.NATIVE_LEFT_OUT)
    return made


def test_a_run_that_left_the_native_tools_out_is_passed_over_and_the_reason_says_so():
    report = left_native_out("report", "ref", "full", "2026-11-30T10:00:00Z")
    chosen = reference([*ALL, report], "aead", config())
    assert chosen is not None
    assert chosen.run is REF_FULL_OLD
    assert chosen.reason == (
        "the newest full-profile run of the reference machine"
        "; runs that left the native tools out (`make report`'s) are passed over"
    )


def test_a_run_that_left_the_native_tools_out_is_taken_where_no_other_has_the_experiment():
    report = left_native_out("report", "other", "quick", "2026-11-30T10:00:00Z")
    chosen = reference([report], "aead", config())
    assert chosen is not None
    assert chosen.run is report
    assert "passed over" not in chosen.reason
