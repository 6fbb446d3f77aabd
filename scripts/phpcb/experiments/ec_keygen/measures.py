"""What decides seed 003's (part 1) and seed 004's strength claims, from the ec_keygen page's analysis."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from phpcb.claims.measures import GENERIC, across_runs, ranked_across_runs
from phpcb.claims.results import (
    Args,
    ArgumentError,
    FactResult,
    Measure,
    Ranked,
    RankResult,
    RatioResult,
    Ratios,
    Result,
    ShareResult,
    Unavailable,
)
from phpcb.data.sampling import Pairing
from phpcb.experiments.ec_keygen.analysis import PAPER_FAMILIES, EcAnalysis, SchemeResult, faster_of
from phpcb.experiments.experiment import Inputs
from phpcb.presentation.formatting import duration
from phpcb.statistics.stats import Ratio


def _paper_curves(analysis: EcAnalysis) -> list[SchemeResult]:
    return [r for r in analysis.curves if r.scheme.family in PAPER_FAMILIES]


def _per_bit(context: dict[str, Any], result: SchemeResult) -> Ranked:
    """A curve by the article's ratio (%), its interval on the page's basis (across runs where known)."""
    return ranked_across_runs(context, result.scheme.curve, result.ratio_percent, *result.ratio_ci)


def _keygen(context: dict[str, Any], result: SchemeResult) -> Ranked:
    s = result.keygen.summary
    return ranked_across_runs(context, result.scheme.curve, s.median_ns, s.ci_low_ns, s.ci_high_ns)


def curve_ranking(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The article's groups' curves by its ratio: key-generation time (ms) per key bit, in %."""
    curves = _paper_curves(context["analysis"])
    if not curves:
        return Unavailable("this run generated no keys on the article's curves")
    ranked = sorted(curves, key=lambda r: (r.ratio_percent, r.scheme.curve))
    items = tuple(_per_bit(context, r) for r in ranked)
    return RankResult(items, "curves by key-generation time per key bit", " %")


def family_ranking(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The article's six groups by their average ratio (%), each with a bootstrap CI, in the order the
    curves page states: groups of families no measurable difference separates (each family's average
    over the one before it, widened across runs where known; EcAnalysis.paper_family_groups)."""
    analysis: EcAnalysis = context["analysis"]
    rows = [row for row in analysis.families if row.family in PAPER_FAMILIES]
    if not rows:
        return Unavailable("this run generated no keys on the article's curves")
    items = tuple(Ranked(r.family, r.average.value, r.average.low, r.average.high) for r in rows)
    groups = tuple(tuple(group) for group in analysis.paper_family_groups)
    return RankResult(items, "groups by average time per key bit", " %", groups)


def curve_pairs(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Curve against curve at equal strength (args.pairs: [curve, other] each), by the article's measure
    of efficiency, key-generation time per key bit: how many times more efficient the first is. The
    time ratio is the one the page's tables print (paired by round where sampled in rotation), scaled
    by the two field sizes."""
    listed = args.values.get("pairs")
    if not isinstance(listed, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(n, str) for n in p) for p in listed
    ):
        raise ArgumentError(f"expected args.pairs to be a list of [curve, other] pairs, got {listed!r}")
    analysis: EcAnalysis = context["analysis"]
    pairing = Pairing.of(analysis.run, "ec_keygen", "ec_keygen.csv")
    parts, missing = [], []
    for first, other in listed:
        a, b = analysis.find(first), analysis.find(other)
        if a is None or b is None or a.scheme.security_bits != b.scheme.security_bits:
            missing.append(f"{first} against {other}: not both in this run, at one strength")
            continue
        time = across_runs(context, faster_of(a, b, pairing=pairing).ratio)  # b's time over a's
        bits = b.scheme.field_bits / a.scheme.field_bits  # per bit: (t_b / bits_b) / (t_a / bits_a)
        per_bit = Ratio(time.value / bits, time.low / bits, time.high / bits)
        where = f"time per key bit at {a.scheme.security_bits}-bit strength"
        samples = (a.keygen.summary.n, b.keygen.summary.n)
        parts.append(RatioResult(first, other, per_bit, where, samples))
    if not parts:
        return Unavailable("; ".join(missing))
    return Ratios(tuple(parts), tuple(missing))


def brackets(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Table 11: in how many key-length brackets our best curve by the article's ratio is the article's;
    a bracket where the article's curve ties with ours (CIs overlap) is undecided."""
    analysis: EcAnalysis = context["analysis"]
    details, matched, uncertain, total = [], 0, 0, 0
    for row in analysis.brackets:
        if row.by_ratio is None or not row.paper_curves:
            continue
        total += 1
        ours = row.by_ratio
        theirs = [r for r in (analysis.find(name) for name in row.paper_curves) if r is not None]
        if ours.scheme.curve in row.paper_curves:
            matched += 1
            details.append(f"{row.bracket.label}: {ours.scheme.curve}")
            continue
        best = _per_bit(context, ours)
        tied = [r.scheme.curve for r in theirs if _per_bit(context, r).low <= best.high]
        uncertain += bool(tied)
        note = f", tied with {'/'.join(tied)}" if tied else f", not {'/'.join(row.paper_curves)}"
        details.append(f"{row.bracket.label}: {ours.scheme.curve}{note}")
    return ShareResult(
        matched, total, tuple(details), "brackets whose best curve by time per bit is the article's", uncertain
    )


def same_strength(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """Whether two schemes have the same security strength, as the run records it (NIST SP 800-57)."""
    analysis: EcAnalysis = context["analysis"]
    first, second = args.text("scheme"), args.text("other")
    found = [analysis.find(first), analysis.find(second)]
    if found[0] is None or found[1] is None:
        return Unavailable(f"{first} and {second} are not both in this run")
    a, b = (r.scheme for r in found if r is not None)
    label = args.text("label") if "label" in args.values else first
    text = (
        f"{label}: a {a.key_bits}-bit key, {a.security_bits}-bit strength; "
        f"{second}: a {b.key_bits}-bit key, {b.security_bits}-bit"
    )
    return FactResult(
        a.security_bits == b.security_bits, text, "NIST SP 800-57 table 2, as this run records each key's strength"
    )


def key_length_unit(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """The unit of the article's key lengths: a curve's field size as the run reads it from a key,
    against the number the article prints for that curve (args.printed)."""
    curve, printed = args.text("curve"), args.integer("printed")
    found = context["analysis"].find(curve)
    if found is None:
        return Unavailable(f"{curve} is not in this run")
    bits = found.scheme.field_bits
    unit = "bits" if bits == printed else ("bytes" if bits == printed * 8 else "neither bits nor bytes")
    text = f"{curve}: a {bits}-bit field ({bits // 8} bytes), read from a key; the article prints {printed}: {unit}"
    fact = args.fact() if "fact" in args.values else None
    if fact is not None:
        text += f"; {fact.statement}"
    return FactResult(unit, text, "this run's curve inventory", fact.references if fact else ())


def keygen_ratio(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """One scheme's key generation against another's (how many times faster `subject` is)."""
    analysis: EcAnalysis = context["analysis"]
    subject, baseline = analysis.find(args.text("subject")), analysis.find(args.text("baseline"))
    if subject is None or baseline is None:
        return Unavailable(f"{args.text('subject')} and {args.text('baseline')} are not both in this run")
    comparison = faster_of(subject, baseline)
    times = (duration(r.keygen.summary.median_ns) for r in (subject, baseline))
    where = "key generation, {} against {}".format(*times)
    samples = (subject.keygen.summary.n, baseline.keygen.summary.n)
    ratio = across_runs(context, comparison.ratio)
    return RatioResult(subject.scheme.curve, baseline.scheme.curve, ratio, where, samples)


def curves_available(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """How many of the article's curves (tables 3-8) this run's PHP lists and generated keys on."""
    analysis: EcAnalysis = context["analysis"]
    theirs = [str(row["curve"]) for row in inputs.reference.rows("keygen_ms")]
    # Table 6 spells c2tnb as "c2tmb"; the curve is the same.
    names = [name.replace("c2tmb", "c2tnb") for name in theirs]
    missing = [name for name in names if analysis.find(name) is None]
    details = (f"not timed here: {', '.join(missing)}",) if missing else ("all of them",)
    return ShareResult(len(names) - len(missing), len(names), details, "the article's curves PHP generates keys on")


def size_trend(context: dict[str, Any], inputs: Inputs, args: Args) -> Result:
    """ "The larger the key, the more time": every pair of the article's curves with different field
    sizes, held when the larger one's key-generation CI lies wholly above the smaller one's, against
    it when wholly below, undecided when they overlap (the CIs on the page's basis, across runs where
    the machine's spread is known)."""
    curves = _paper_curves(context["analysis"])
    pairs = [(a, b) if a.scheme.field_bits < b.scheme.field_bits else (b, a) for a, b in combinations(curves, 2)]
    pairs = [(small, large) for small, large in pairs if small.scheme.field_bits != large.scheme.field_bits]
    if not pairs:
        return Unavailable("this run has no two of the article's curves of different sizes")
    held = against = 0
    examples = []
    # Each curve's interval once, not once per pair it is in (some three thousand pairs of 80 curves).
    keygen = {id(curve): _keygen(context, curve) for curve in curves}
    for small, large in pairs:
        s, big = keygen[id(small)], keygen[id(large)]
        if big.low > s.high:
            held += 1
        elif big.high < s.low:
            against += 1
            if len(examples) < 3:
                examples.append(
                    f"{large.scheme.curve} ({duration(big.value)}) under {small.scheme.curve} ({duration(s.value)})"
                )
    details = (f"{against} pairs the other way round, e.g. {'; '.join(examples)}",) if against else ()
    undecided = len(pairs) - held - against
    return ShareResult(
        held, len(pairs), details, "pairs of the article's curves where the larger key takes longer", undecided
    )


MEASURES: dict[str, Measure] = {
    **GENERIC,
    "curve_ranking": curve_ranking,
    "family_ranking": family_ranking,
    "curve_pairs": curve_pairs,
    "brackets": brackets,
    "same_strength": same_strength,
    "key_length_unit": key_length_unit,
    "keygen_ratio": keygen_ratio,
    "curves_available": curves_available,
    "size_trend": size_trend,
}
