"""Layer 5, the claims, between presentation and the experiments: every conclusion of the source articles
(`ledger`, data/reference/claims.yaml), what a measure gives (`results`), the generic measures every
experiment offers (`measures`), the rules that turn a measurement into a verdict (`rules`: the decision
only), the words that say why (`wording`), the one vocabulary of verdicts, rules and tolerances the
pages print (`vocabulary`), and the judge that picks the run a claim is decided from (`judge`).

The experiments' own measures (scripts/phpcb/experiments/<name>/measures.py) build on this layer; the
claims page (pages/claims_page.py) wires the judge to the experiments and renders its verdicts."""
