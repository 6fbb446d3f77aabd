"""Layer 10, the command line: `python -m phpcb VERB`, one module per verb.

VERBS maps each verb to its module and one line of help. `main.py` imports only the module of the
verb asked for: the gh-pages and GitHub API verbs run in workflows that install nothing but Python
(no numpy, no Jinja2), so they must not pull in the build. Each verb module has `arguments(parser)`
and `run(args) -> int`; `args.root` is the repository root.
"""

from __future__ import annotations

VERBS: dict[str, tuple[str, str]] = {
    "check": ("check", "validate every run under data/runs/ and render the pages in memory"),
    "pages": ("pages", "generate every page, chart data file, download and the nav into the build directory"),
    "serve": ("serve", "serve the site for an author, generating the pages again on every change"),
    "fidelity": ("fidelity", "PHP's AES-GCM/CCM speed over openssl speed's, from runners/fidelity.php directories"),
    "precision": ("precision", "how precise and how quiet one run directory's measurement was"),
    "upgrade": ("upgrade", "rewrite run directories written under an older schema version (re-seals them)"),
    "seal": ("seal", "re-seal a run whose files were changed on purpose, recording when and why"),
    "synthesize": ("synthesize", "make COUNT valid synthetic runs from the committed ones (for benchmarks)"),
    "compare": ("compare", "one run against another, case by case with significance (Markdown or JSON)"),
    "noise": ("noise", "estimate the spread between repeated runs of one machine and write data/noise/"),
    "coverage": ("coverage", "whether the intervals across runs hold on a boot the noise model has not seen"),
    "ab": ("ab", "a code change measured A/B in one job: base and head runs compared round by round"),
    "stacks": ("stacks", "two stacks measured in ABBA rounds (make bench-stacks): record the set, report the ratios"),
    "preview-comment": ("preview_comment", "the pull-request comment: each named run beside its baseline"),
    "artifact-comment": ("artifact_comment", "the pull-request comment from its head commit's files, by this code"),
    "statements": ("statements", "every statement the published pages would make, as JSON (--pages: their Markdown)"),
    "preview": ("preview", "build a pull request's preview site and comment (make preview)"),
    "collect-runs": ("collect_runs", "copy the runs of downloaded benchmark artifacts into data/runs/"),
    "publish": ("publish", "mike deploy VERSION with the alias latest on gh-pages (make publish)"),
    "deploy-preview": ("deploy_preview", "put a preview artifact's site under pr-preview/pr-N/ on gh-pages"),
    "cleanup-preview": ("cleanup_preview", "remove pr-preview/pr-N/ from gh-pages"),
    "pr-comment": ("pr_comment", "create or update a pull request's preview comment"),
    "check-head": ("check_head", "fail unless a pull request's head commit is SHA"),
}
