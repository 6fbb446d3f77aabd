"""PHP against its native counterpart, as the pages say it (templates/_vs_native.md.j2, the JWT page's
layers, the pitfalls' native row): a share of native speed only where it is one, what PHP adds only where
it adds, and beside any figure that could look broken, what the two sides measured.

A share of native speed is PHP's speed over the native tool's, the same code doing the same work: PHP then
cannot be the faster, and the share is at most 100 %. Where the two sides are not that, the page says what
they are:

- **another implementation** (OTHER_CODE): PHP's Ed25519 and X25519 are libsodium's
  (runners/src/EcKeygen/SodiumCurve25519.php, runners/src/Jwt/PrimitiveCase.php) where `openssl speed`
  times OpenSSL's own; `sodium_crypto_pwhash` is libsodium's Argon2 where the CLI is the reference
  libargon2 (and so is `password_hash` with the `sodium` provider); a native limit measured by another
  OpenSSL release than the one PHP loaded (data/stacks.py, Stack.native_mismatch). The two are compared as
  implementations ("PHP's side runs at 1.71× its speed"), never as a share, and nothing is "added by PHP";
- **other work** (OTHER_WORK): the same code timed doing different work per operation, or by another
  statistic: the argon2 CLI's time includes starting its process and reading the password from a pipe;
  ML-DSA signing retries a random number of times, so its time is skewed and PHP's median of samples of a
  few signatures lies below their mean, which is what `openssl speed` counts (from the runner's 16 a sample
  on, the median of their means lies within about 1.5 % of it; the page says which); a pitfall's fast way
  makes one call for a whole record where each of `openssl speed`'s operations sets up one field. The figure
  is stated with that reason beside it, and withheld where PHP comes out the faster;
- **the same code doing the same work** (SAME): a share within the one threshold of a difference
  (thresholds.DIFFERENCE) of 100 % is "no measurable difference from native", its interval beside it (an
  interval may reach past 100 % by the noise of the rounds: that is what "no measurable difference" says);
  a share measurably above 100 % is withheld and says so: PHP cannot outrun the code it calls doing the
  same work, so that figure shows the two timings disagreeing, not how fast PHP is.

What PHP adds per operation is stated only where PHP is measurably slower than the same code (doing the
same work, or work the page names); elsewhere the cell says why there is no such figure. An outer layer
over the code it calls (the JWS code over PHP's primitive) adds what it adds: an interval of that reaching
below zero is "none measurable", with its upper end.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import jinja2
import numpy as np

from phpcb.presentation import formatting, wording
from phpcb.statistics.rounds import VsNative
from phpcb.statistics.stats import Estimate, Ratio

SAME = "same code, same work"
OTHER_CODE = "another implementation"
OTHER_WORK = "other work"

# The native primitives whose PHP side runs libsodium, and the PHP function that does.
LIBSODIUM = {
    "ed25519": ("Ed25519", "`sodium_crypto_sign_detached` and `sodium_crypto_sign_verify_detached`"),
    "ecdhx25519": ("X25519", "`sodium_crypto_scalarmult`"),
}
ARGON2_CLI = "argon2-cli"  # the native key of the reference argon2 CLI (experiments/argon2/native.py)
RANDOMISED_SIGNATURES = ("ML-DSA-",)  # native primitives whose signing retries a random number of times
SIGN = "sign"
SKEWED = "a median against a mean of a skewed time"
# The signatures a sample of ML-DSA signing takes from the runner's Sampler::RANDOM_TIME_OPERATIONS on: the
# median of their means lies within about 1.5 % of the mean (docs/methodology.md, "Each case").
MEAN_LIKE_BATCH = 16


@dataclass(frozen=True)
class Sides:
    """What the two sides of a comparison with native run: `kind` (SAME, OTHER_CODE, OTHER_WORK), the
    reason in a table cell's words (`short`), and whole, for under the table (`why`)."""

    kind: str = SAME
    short: str = ""
    why: str = ""
    # Other work whose ratio still says how the two compare (a pitfall's fast way is faster per field than
    # `openssl speed`'s per-field loop); False where the ratio says nothing of speed (a median against a mean).
    telling: bool = True

    @property
    def same(self) -> bool:
        return self.kind == SAME


SAME_SIDES = Sides()


def _other_release(mismatch: str) -> Sides:
    return Sides(
        OTHER_CODE,
        "another OpenSSL release than PHP's",
        f"the native limit was measured by another OpenSSL than PHP's: {mismatch}",
    )


def sides(
    primitive: str,
    operation: str,
    what: str = "",
    argon2_provider: str | None = None,
    mismatch: str | None = None,
) -> Sides:
    """What PHP's side of `what` runs against the native tool's `primitive` (its `operation`): the run's
    Argon2 provider (`standard`: libargon2, `sodium`: libsodium) and the stack's native mismatch decide
    some of it."""
    if primitive in LIBSODIUM:
        name, function = LIBSODIUM[primitive]
        return Sides(
            OTHER_CODE,
            f"libsodium's {name} in PHP, OpenSSL's natively",
            f"PHP calls libsodium's {name} ({function}), `openssl speed` times OpenSSL's own: two implementations, "
            "so either can be the faster",
        )
    if primitive == ARGON2_CLI:
        interface = what.split(" ")[0]
        if interface == "sodium" or (interface == "password_hash" and argon2_provider == "sodium"):
            function = "`sodium_crypto_pwhash`" if interface == "sodium" else "`password_hash` (provider `sodium`)"
            return Sides(
                OTHER_CODE,
                "libsodium's Argon2 in PHP, the reference libargon2 in the CLI",
                f"{function} runs libsodium's own Argon2, the CLI the reference libargon2: two implementations, "
                "so either can be the faster (the CLI's time also includes starting its process)",
            )
        return Sides(
            OTHER_WORK,
            "the CLI's time includes starting its process",
            "`password_hash` runs libargon2 in PHP's own process; the CLI runs the same library, and its time "
            "also includes starting a process and reading the password from a pipe, so PHP can come out the "
            "faster by that much",
        )
    if mismatch:
        return _other_release(mismatch)
    if operation == SIGN and primitive.startswith(RANDOMISED_SIGNATURES):
        return Sides(
            OTHER_WORK,
            SKEWED,
            telling=False,
            why=_skewed_why(()),
        )
    return SAME_SIDES


def sides_of(comparison: VsNative, run: Any = None, mismatch: str | None = None) -> Sides:
    """`sides` of a comparison of a run's page (the run's manifest names its Argon2 provider)."""
    manifest = getattr(run, "manifest", None) or {}
    provider = (manifest.get("libraries") or {}).get("argon2_provider")
    found = sides(comparison.native.primitive, comparison.native.operation, comparison.what, provider, mismatch)
    if found.short == SKEWED:
        php, native = float(np.mean(comparison.php.per_op_ns)), float(np.mean(comparison.native_side.per_op_ns))
        return dataclasses.replace(
            found,
            why=f"{_skewed_why(comparison.php.operations)}: PHP's mean per signature here is "
            f"{formatting.duration(php)}, `openssl speed`'s {formatting.duration(native)}",
        )
    return found


def _skewed_why(batches: tuple[int, ...]) -> str:
    """Why PHP's ML-DSA signing and `openssl speed`'s are not one statistic, for samples of `batches`
    signatures (the run's; () where not known)."""
    skewed = "ML-DSA signing retries a random number of times (rejection sampling), so its time per signature is skewed"
    if batches and batches[0] >= MEAN_LIKE_BATCH:
        return (
            f"{skewed}: PHP's figure is the median of means of {formatting.count(batches[0])} signatures, within about "
            "1.5 % of their mean; `openssl speed`'s is a count over a second, a mean"
        )
    if batches == (1,):
        samples = "single signatures"
    else:
        size = f"{batches[0]}" if len(batches) == 1 else f"{batches[0]} to {batches[-1]}" if batches else "a few"
        samples = f"batches of {size} signatures"
    return (
        f"{skewed}: PHP's figure is the median of {samples}, `openssl speed`'s a count over a second, a mean, and "
        "the median of such a time lies below its mean"
    )


@jinja2.pass_context
def native_sides(context: Mapping[str, Any], comparison: VsNative) -> Sides:
    """The templates' `native_sides(comparison)`: `sides_of` with the page's run and native mismatch."""
    return sides_of(comparison, context.get("run"), context.get("native_mismatch"))


@jinja2.pass_context
def layer_sides(context: Mapping[str, Any], primitive: str, operation: str, what: str = "") -> Sides:
    """The templates' `layer_sides(primitive, operation)`: `sides` of a native primitive a page names."""
    run = context.get("run")
    provider = ((getattr(run, "manifest", None) or {}).get("libraries") or {}).get("argon2_provider")
    return sides(primitive, operation, what, provider, context.get("native_mismatch"))


def pitfall_sides(way: str, unit: str, mismatch: str | None = None) -> Sides:
    """A pitfall's way against `openssl speed` doing one `unit` per operation: the slow way makes one call
    per unit, as each native operation covers one; the fast way one call for many (the record)."""
    if mismatch:
        return _other_release(mismatch)
    if way == "slow":
        return SAME_SIDES
    return Sides(
        OTHER_WORK,
        f"one call for the whole record, where `openssl speed` sets up each {unit}",
        f"the fast way makes one call for all of a record's {unit}s (one set-up, one nonce and one tag), where "
        f"each of `openssl speed`'s operations sets up one {unit} (its nonce and its tag): per {unit}, PHP's fast "
        "way does less work than the native loop, so it can come out the faster",
    )


@jinja2.pass_context
def pitfall_native_sides(context: Mapping[str, Any], way: str, unit: str) -> Sides:
    """The templates' `pitfall_sides(way, unit)`: `pitfall_sides` with the page's native mismatch."""
    return pitfall_sides(way, unit, context.get("native_mismatch"))


def _relative(ratio: Ratio) -> str:
    """One implementation's speed against another's: 'is 1.71× as fast (95% CI 1.69–1.74×)', or, below 1,
    'runs at 86 % (95% CI 85–87 %) of its speed'."""
    if ratio.value >= 1 and math.isfinite(ratio.high):
        return f"is {wording.estimate(ratio.value, ratio.low, ratio.high)} as fast"
    return f"runs at {wording.share(ratio)} of its speed"


def native_share(ratio: Ratio | None, found: Sides = SAME_SIDES) -> str:
    """PHP's speed as a share of native's (native time over PHP's), as the two sides allow one."""
    if ratio is None:
        return "–"
    if found.kind == OTHER_CODE:
        return f"not a share ({found.short}): PHP's side {_relative(ratio)}"
    if not math.isfinite(ratio.high):
        return wording.share(ratio)
    because = f" ({found.short})" if found.kind == OTHER_WORK else ""
    if ratio.significant and ratio.value < 1:
        return wording.share(ratio) + because
    if not ratio.significant:
        if ratio.value <= 1:
            return f"{wording.share(ratio)}: no measurable difference from native{because}"
        return f"no measurable difference from native ({wording.share_interval(ratio)}){because}"
    if found.kind == OTHER_WORK:
        if found.telling:
            return f"not a share ({found.short}): PHP's side {_relative(ratio)}"
        return f"withheld ({found.short})"
    measured = wording.estimate(ratio.value, ratio.low, ratio.high)
    return (
        f"withheld: PHP measured {measured} the speed of the code it calls doing the same work, which it "
        "cannot be; the two timings disagree, and this run does not show why"
    )


def adds(comparison: VsNative, found: Sides = SAME_SIDES) -> bool:
    """Whether a page states what PHP adds per operation: PHP measurably slower than the same code."""
    ratio = comparison.fraction
    return found.kind != OTHER_CODE and ratio.significant and ratio.value < 1 and comparison.extra_ns > 0


def php_adds(comparison: VsNative, found: Sides = SAME_SIDES) -> str:
    """What PHP adds per operation over native, at the medians, or why the page states no such figure."""
    if found.kind == OTHER_CODE:
        return "not PHP's cost: another implementation"
    if adds(comparison, found):
        return formatting.signed_duration(comparison.extra_ns)
    if not comparison.fraction.significant:
        return "none measurable"
    return "withheld"


def fixed_cost(share: float, extra_ns: float) -> str:
    """How much of what PHP adds one call's fixed cost explains: '92.9 % of what PHP adds', or, where the
    fixed cost is as large (within the noise: a share past 100 % of an estimate), 'as much as PHP adds'."""
    if share >= 1:
        return f"as much as all PHP adds ({formatting.signed_duration(extra_ns)})"
    return f"{formatting.percent(share)} of what PHP adds"


def layer_overhead(ratio: Ratio) -> str:
    """What an outer layer adds over the code it calls, as a share of that code's time: wording.overhead, or,
    where the interval reaches below zero (a layer cannot take less than the code it calls), none measurable
    with the interval's upper end."""
    if math.isfinite(ratio.high) and ratio.low <= 1:
        return f"none measurable ({wording.CI} up to {wording.overhead_bound(ratio.high)})"
    return wording.overhead(ratio)


def layer_added(estimate: Estimate) -> str:
    """What an outer layer adds per operation: '+1.94 µs (95% CI +1.62 µs to +2.23 µs)', or 'none measurable
    (95% CI up to +2.47 µs)' where the interval reaches below zero."""
    if math.isfinite(estimate.high) and estimate.low <= 0:
        return f"none measurable ({wording.CI} up to {formatting.signed_duration(estimate.high)})"
    low, high = formatting.signed_duration(estimate.low), formatting.signed_duration(estimate.high)
    return f"{formatting.signed_duration(estimate.value)} ({wording.CI} {low} to {high})"
