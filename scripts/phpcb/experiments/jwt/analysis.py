"""JWT token size and timing from one run: statistics, the sign/verify asymmetry, recommendations."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.policy import JwtPolicy, Verdict
from phpcb.data.sampling import UNPAIRED, Pairing
from phpcb.data.schema import declared_measure
from phpcb.experiments.jwt import layers as jws_layers
from phpcb.statistics.contest import Contest, contest
from phpcb.statistics.rounds import native_commands, native_tool
from phpcb.statistics.stats import Ratio, Summary, per_op_by_case, ratio_between, ratio_of_medians, summarize

CSV = "jwt.csv"  # the measurements table (data/schema/tables/jwt.json)
KEYGEN_CSV = "ec_keygen.csv"  # the curves page's key generation, quoted for the JWT keys

ALGORITHMS = (
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
    "PS256",
    "PS384",
    "PS512",
    "RS256",
    "RS384",
    "RS512",
    "HS256",
    "HS384",
    "HS512",
)
HEADLINE_PAYLOAD = 100
# The verification margin every run states whatever its pick (verify_margins), and in this orientation
# (margin_pair): the pool's verify pick over its runner-up on every machine measured so far.
MARGIN_PAIR = ("EdDSA", "ES256")


@dataclass(frozen=True)
class JwtCase:
    alg: str
    key_type: str
    key_bits: int
    operation: str
    payload_chars: int
    token_bytes: int
    summary: Summary
    per_op_ns: np.ndarray
    # Key generation is one quantity: where the run also timed it on the curves page (ec_keygen, per key
    # type), that measurement is the one this page quotes.
    measured_by: str = "jwt"


@dataclass(frozen=True)
class AlgorithmResult:
    alg: str
    key_type: str
    key_bits: int
    verdict: Verdict
    asymmetric: bool
    cases: dict[tuple[str, int], JwtCase]

    @property
    def key_label(self) -> str:
        """A short name for the key: P-256, RSA-2048, Ed25519, or a 256-bit secret."""
        curves = {"EC prime256v1": "P-256", "EC secp384r1": "P-384", "EC secp521r1": "P-521", "OKP Ed25519": "Ed25519"}
        if self.key_type in curves:
            return curves[self.key_type]
        return f"RSA-{self.key_bits}" if self.key_type == "RSA" else f"{self.key_bits}-bit secret"

    @property
    def key_scheme(self) -> str | None:
        return key_scheme(self.key_type, self.key_bits)

    def case(self, operation: str, payload: int) -> JwtCase | None:
        return self.cases.get((operation, payload))

    @property
    def keygen(self) -> JwtCase | None:
        return self.cases.get(("keygen", 0))

    def token_bytes(self, payload: int) -> int | None:
        case = self.case("sign", payload)
        return case.token_bytes if case else None

    def asymmetry(self, payload: int) -> Ratio | None:
        """Sign time over verify time: above 1, verifying is the cheap side."""
        sign, verify = self.case("sign", payload), self.case("verify", payload)
        return ratio_of_medians(sign.per_op_ns, verify.per_op_ns) if sign and verify else None


@dataclass(frozen=True)
class Choice:
    """The fastest recommended asymmetric algorithm for one operation, and its margin over the next."""

    purpose: str
    operation: str
    best: AlgorithmResult | None
    runner_up: AlgorithmResult | None
    ratio: Ratio | None
    contest: Contest | None = None  # every candidate against the best: the tie, if any
    # Asymmetric algorithms faster at this than the best whose verdict is below recommended (RS256
    # verifies faster than any curve): the page says why they are not the pick. Fastest first.
    passed_over: tuple[AlgorithmResult, ...] = ()


@dataclass(frozen=True)
class JwtAnalysis:
    run: Run
    algorithms: list[AlgorithmResult]
    payloads: list[int]
    choices: list[Choice]
    # The three layers (native, PHP's primitive, JWS) per algorithm and operation, and the native tool.
    layers: list[jws_layers.Layers] = field(default_factory=list)
    native_tool: str = ""
    native_commands: list[str] = field(default_factory=list)
    pairing: Pairing = UNPAIRED  # which cases were sampled in rotation (their ratios are paired)
    verify_margins: dict[tuple[str, str], Ratio] = field(default_factory=dict)  # verify_margins()

    def layer(self, alg: str, operation: str) -> jws_layers.Layers | None:
        return next((x for x in self.layers if (x.alg, x.operation) == (alg, operation)), None)

    def find(self, alg: str) -> AlgorithmResult | None:
        return next((a for a in self.algorithms if a.alg == alg), None)

    @property
    def largest_token(self) -> tuple[AlgorithmResult, int, int] | None:
        sizes = [(a, p, a.token_bytes(p) or 0) for a in self.algorithms for p in self.payloads]
        return max(sizes, key=lambda item: item[2], default=None)


def case_rows(rows: list[dict[str, Any]]) -> list[JwtCase]:
    def key(row: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(row[c] for c in ("alg", "key_type", "key_bits", "operation", "payload_chars", "token_bytes"))

    return [
        JwtCase(*identity, summary=summarize(values), per_op_ns=values)
        for identity, values in per_op_by_case(rows, key, declared_measure(CSV)).items()
    ]


def choose(
    algorithms: list[AlgorithmResult], purpose: str, operation: str, payload: int, pairing: Pairing = UNPAIRED
) -> Choice:
    candidates = [
        a for a in algorithms if a.verdict.recommendable and a.asymmetric and a.case(operation, payload) is not None
    ]
    ranked = sorted(candidates, key=lambda a: (a.case(operation, payload).summary.median_ns, a.alg))  # type: ignore[union-attr]

    if not ranked:
        return Choice(purpose, operation, None, None, None)
    best = ranked[0]
    runner = ranked[1] if len(ranked) > 1 else None
    best_case = best.case(operation, payload)
    runner_case = runner.case(operation, payload) if runner else None
    ratio = times_faster(best_case, runner_case, pairing) if best_case and runner_case else None
    cases = [(a.alg, a.case(operation, payload)) for a in ranked]
    measured = [(alg, case) for alg, case in cases if case is not None]
    found = contest(
        [(alg, case.per_op_ns) for alg, case in measured],
        [
            best_case is not None
            and case.measured_by == best_case.measured_by == "jwt"
            and pairing.together(case, best_case)
            for _, case in measured[1:]
        ],
    )
    passed_over = tuple(
        sorted(
            (
                a
                for a in algorithms
                if a.asymmetric
                and not a.verdict.recommendable
                and (case := a.case(operation, payload)) is not None
                and best_case is not None
                and case.summary.median_ns < best_case.summary.median_ns
            ),
            key=lambda a: (a.case(operation, payload).summary.median_ns, a.alg),  # type: ignore[union-attr]
        )
    )
    return Choice(purpose, operation, best, runner, ratio, found, passed_over)


def times_faster(faster: JwtCase, slower: JwtCase, pairing: Pairing) -> Ratio:
    """How many times faster `faster` is than `slower`: paired where the two were sampled in rotation."""
    paired = faster.measured_by == slower.measured_by == "jwt" and pairing.together(slower, faster)
    return ratio_between(slower.per_op_ns, faster.per_op_ns, paired)


def margin_pair(choice: Choice) -> tuple[str, str] | None:
    """The (first, second) whose ratio states the choice's margin over its runner-up across machines:
    MARGIN_PAIR where the two are its algorithms, in either order (one orientation on every machine, so a
    pick that flips within a tie keeps its headline), else the pick and its runner-up."""
    if choice.best is None or choice.runner_up is None:
        return None
    pair = (choice.best.alg, choice.runner_up.alg)
    return MARGIN_PAIR if set(pair) == set(MARGIN_PAIR) else pair


def verify_margins(
    algorithms: list[AlgorithmResult], verify: Choice, payload: int, pairing: Pairing
) -> dict[tuple[str, str], Ratio]:
    """Verification's margins at the headline payload, by (first, second): MARGIN_PAIR's, which every run
    measures whatever it picks, and the pick's over its runner-up where that is another pair (margin_pair)."""
    pairs = {MARGIN_PAIR}
    if (own := margin_pair(verify)) is not None:
        pairs.add(own)
    by_alg = {a.alg: a for a in algorithms}
    found = {}
    for first, second in sorted(pairs):
        cases = [by_alg[alg].case("verify", payload) if alg in by_alg else None for alg in (first, second)]
        if cases[0] is not None and cases[1] is not None:
            found[(first, second)] = times_faster(cases[0], cases[1], pairing)
    return found


def headline_payload(payloads: list[int]) -> int:
    """The payload the page's answer speaks of: the seed's 100 characters when measured."""
    return HEADLINE_PAYLOAD if HEADLINE_PAYLOAD in payloads else (payloads[0] if payloads else 0)


def key_scheme(key_type: str, key_bits: int) -> str | None:
    """The key's name in the shared key table (data/policy/keys.yaml); None for an HMAC secret."""
    if key_type.startswith(("EC ", "OKP ")):
        return key_type.split(" ", 1)[1]
    return f"RSA-{key_bits}" if key_type == "RSA" else None


def keygen_from_the_curves_page(run: Run, cases: list[JwtCase]) -> list[JwtCase]:
    """Each algorithm's key generation from the run's ec_keygen table (its key type's `keygen` case)
    where the run has one, in place of the JWT table's own timing of the same call."""
    rows = [row for row in run.tables.get(KEYGEN_CSV, []) if row["operation"] == "keygen"]
    if not rows:
        return cases
    by_scheme = per_op_by_case(rows, lambda row: str(row["curve"]), declared_measure(KEYGEN_CSV))
    quoted = []
    for case in cases:
        scheme = key_scheme(case.key_type, case.key_bits) if case.operation == "keygen" else None
        values = by_scheme.get(scheme) if scheme is not None else None
        if values is None:
            quoted.append(case)
            continue
        quoted.append(replace(case, summary=summarize(values), per_op_ns=values, measured_by="ec_keygen"))
    return [*quoted, *keygen_left_to_the_curves_page(cases, by_scheme)]


def keygen_left_to_the_curves_page(cases: list[JwtCase], by_scheme: Mapping[str, np.ndarray]) -> list[JwtCase]:
    """The keygen case of each algorithm the JWT table has none for, from ec_keygen's samples of its key
    type: a JWT experiment run after ec_keygen does not time again what ec_keygen timed."""
    timed = {case.alg for case in cases if case.operation == "keygen"}
    keys = {case.alg: (case.key_type, case.key_bits) for case in cases if case.alg not in timed}
    left = []
    for alg, (key_type, key_bits) in keys.items():
        scheme = key_scheme(key_type, key_bits)
        values = by_scheme.get(scheme) if scheme is not None else None
        if values is not None:
            left.append(JwtCase(alg, key_type, key_bits, "keygen", 0, 0, summarize(values), values, "ec_keygen"))
    return left


def analyse(run: Run, policy: JwtPolicy) -> JwtAnalysis:
    cases = keygen_from_the_curves_page(run, case_rows(run.tables.get(CSV, [])))
    pairing = Pairing.of(run, "jwt", CSV)
    algorithms = []
    for alg in ALGORITHMS:
        mine = [c for c in cases if c.alg == alg]
        if not mine:
            continue
        algorithms.append(
            AlgorithmResult(
                alg=alg,
                key_type=mine[0].key_type,
                key_bits=mine[0].key_bits,
                verdict=policy.with_key(alg, key_scheme(mine[0].key_type, mine[0].key_bits)),
                asymmetric=policy.asymmetric(alg),
                cases={(c.operation, c.payload_chars): c for c in mine},
            )
        )
    payloads = sorted({c.payload_chars for c in cases if c.operation != "keygen"})
    headline = headline_payload(payloads)
    choices = [
        choose(algorithms, "many verifiers (an API gateway checking every request)", "verify", headline, pairing),
        choose(algorithms, "many signers (a login service issuing tokens)", "sign", headline, pairing),
        choose(algorithms, "frequent key rotation", "keygen", 0, pairing),
    ]
    native_rows = run.tables.get(jws_layers.NATIVE_CSV, [])
    return JwtAnalysis(
        run,
        algorithms,
        payloads,
        choices,
        pairing=pairing,
        verify_margins=verify_margins(algorithms, choices[0], headline, pairing),
        layers=jws_layers.analyse(run, ALGORITHMS),
        native_tool=native_tool(native_rows),
        native_commands=native_commands(native_rows),
    )
