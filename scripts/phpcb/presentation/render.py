"""Jinja2 rendering of Markdown pages. Every value from data is escaped twice over: for HTML (Jinja's
autoescaping) and for Markdown (`finalize`), so text such as `[x](javascript:…)`, `*a*{ onclick=… }`
or a line break followed by `# heading` reaches the reader as the characters it holds."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
from markupsafe import Markup, escape

from phpcb.data import snippets
from phpcb.data.verdicts import Verdict
from phpcb.presentation import formatting, native, wording
from phpcb.presentation import precision as precision_notes
from phpcb.statistics import stats, thresholds

# Characters that give text a meaning in Markdown (as configured in mkdocs.yml: emphasis, code,
# links and images, attribute lists, table cells, escapes) or start a new block (a line break).
# As numeric character references they are plain text to Markdown and the same characters in HTML.
MARKDOWN_SPECIAL = {char: f"&#{ord(char)};" for char in "\\`*[]{}|\n\r"}
_MARKDOWN_SPECIAL = str.maketrans(MARKDOWN_SPECIAL)
# An underscore opens or closes emphasis only at a word's edge (`__DIR__` showed as a bold DIR); inside
# a word (`openssl_pkey_new`) Markdown leaves it alone, and so does this.
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")


def markdown_text(value: object) -> Markup:
    """Text from data, escaped for HTML and for Markdown: it shows as the characters it holds."""
    return _markdown_text(str(value))


# Keyed by the text, a str, which is immutable: the same text always escapes alike, and Markup is a str too.
# A build escapes some ten thousand values, most of them names and labels it has escaped before.
@functools.lru_cache(maxsize=8192)
def _markdown_text(text: str) -> Markup:
    escaped = str(escape(text)).translate(_MARKDOWN_SPECIAL)
    return Markup(_EDGE_UNDERSCORE.sub("&#95;", escaped))


def table_cell(value: object) -> Markup:
    """Escaped for HTML, and '|' too, which would end a Markdown table cell: for text that is
    already Markdown (the comparison exporters')."""
    return Markup(str(escape(str(value))).replace("|", "&#124;"))


def code(value: object) -> Markup:
    """Text from data as inline code: `<code>` rather than backticks, in which the escapes would show."""
    return Markup("<code>{}</code>").format(markdown_text(value))


def code_spans(value: object) -> Markup:
    """Text the project wrote with `backtick` spans (a selection's reason): escaped like text from data,
    each paired span shown as code. A backtick without its pair stays a character."""
    parts = str(value).split("`")
    if len(parts) % 2 == 0:
        return markdown_text(value)
    return Markup("").join(code(part) if i % 2 else markdown_text(part) for i, part in enumerate(parts))


def verdict(value: Verdict) -> Markup:
    """A primitive's verdict as the site prints it everywhere: the label in words (its status, the use it
    is for where it depends on one, a deprecated identifier), marked with the primitive's canonical name
    and its use so that a test can read every (primitive, use) → label of the built site."""
    use = Markup(' data-use="{}"').format(value.use) if value.use else Markup("")
    return Markup('<span class="pcb-verdict" data-primitive="{}"{} data-status="{}">{}</span>').format(
        markdown_text(value.primitive), use, value.status, markdown_text(value.text)
    )


def fenced(source: str, language: str = "php") -> str:
    """`source` as a fenced code block whose fence is longer than any run of backticks in it, so no line
    of it can close the block: Markdown shows everything inside as the characters it holds."""
    longest = max((len(run) for run in re.findall(r"`+", source)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{source.rstrip()}\n{fence}"


def snippet_block(snippet: snippets.Snippet, title: str | None = None) -> Markup:
    """A snippet file as the page shows it: its path, the test that executes it, and the file itself in a
    fenced block, collapsed (`??? example`) when it is long. The file is shown whole and verbatim: the
    fence keeps Markdown out of it, and Markdown escapes it for HTML."""
    if title is not None and not re.fullmatch(r"[^\"\n`<>&]+", title):
        raise ValueError(f"expected a plain one-line title, got {title!r}")
    caption = f"{title}: {snippet.path}" if title else snippet.path
    tested = f"PHPUnit executes this file on every test run (`{snippet.test}`)"
    block = fenced(snippet.source)
    if not snippet.long:
        return Markup(f"{caption}, as it is ({tested}):\n\n{block}\n")
    indented = "\n".join(f"    {line}" if line.strip() else "" for line in block.splitlines())
    return Markup(f'??? example "{caption}"\n    {tested}: what it shows is what the tests run.\n\n{indented}\n')


def snippet_function(root: Path) -> Callable[..., Markup]:
    """The templates' `snippet(name, title=None)`: runners/snippets/<name> of the project at `root`, then
    each snippet it needs beside it (its require_once lines), so that what a page shows is complete."""

    def snippet(name: str, title: str | None = None) -> Markup:
        shown = snippets.load(root, name)
        blocks = [snippet_block(shown, title)]
        for needed in shown.requires:
            blocks.append(snippet_block(snippets.load(root, needed), f"Needed beside {name}"))
        return Markup("\n").join(blocks)

    return snippet


def _percent_number(fraction: float) -> str:
    """A share as the number of percent, without the sign: 0.95 is "95", 0.025 is "2.5"."""
    return f"{fraction * 100:g}"


@dataclass(frozen=True)
class Thresholds:
    """The statistical thresholds as the templates write them, read from the code that decides by them
    (the global `thresholds`): numbers of percent without the sign, so that each template keeps its own
    spacing (`{{ thresholds.confidence }}% CI`, `{{ thresholds.difference }} %`), and α as a number."""

    confidence: str  # stats.CONFIDENCE: "95"
    difference: str  # thresholds.DIFFERENCE, the one threshold of a difference on every page: "2"
    alpha: str  # thresholds.ALPHA, a comparison's adjusted p: "0.05"
    fidelity_goal: str  # thresholds.HALF_WIDTH_GOAL, `make bench-fidelity`'s CI half-width: "5"
    overhead_goal: str  # thresholds.OVERHEAD_GOAL, what the harness may add: "5"

    @property
    def noise(self) -> str:
        """The smallest difference a page claims: the one threshold of a difference (its older name)."""
        return self.difference

    @property
    def change(self) -> str:
        """A comparison's change beyond the shift: the one threshold of a difference (its older name)."""
        return self.difference

    @classmethod
    def current(cls) -> Thresholds:
        return cls(
            confidence=_percent_number(stats.CONFIDENCE),
            difference=_percent_number(thresholds.DIFFERENCE),
            alpha=f"{thresholds.ALPHA:g}",
            fidelity_goal=_percent_number(thresholds.HALF_WIDTH_GOAL),
            overhead_goal=_percent_number(thresholds.OVERHEAD_GOAL),
        )


# A page's context may hold `between_runs` (noise.RunSpread): its absolute times then print with an
# interval that covers the spread between runs of the machine, not only the run's own samples.
BETWEEN_RUNS = "between_runs"


@dataclass(frozen=True)
class _Interval:
    n: int
    median_ns: float
    ci_low_ns: float
    ci_high_ns: float


def _spread_of(context: Any) -> Any:
    return context.get(BETWEEN_RUNS)


def widened_time(context: Any, summary: Any) -> Any:
    """`summary` as the page prints it: its CI widened by the machine's spread between runs, where known."""
    spread = _spread_of(context)
    if spread is None or not spread.known or not math.isfinite(summary.ci_low_ns):
        return summary
    low, high = spread.widen(summary.median_ns, summary.ci_low_ns, summary.ci_high_ns)
    return _Interval(summary.n, summary.median_ns, low, high)


def _widened_rate(context: Any, mb_per_s: float, interval: tuple[float, float]) -> tuple[float, float]:
    spread = _spread_of(context)
    if spread is None or not spread.known or not all(math.isfinite(x) for x in interval):
        return interval
    return spread.widen(mb_per_s, *interval)


@jinja2.pass_context
def ci_scope(context: Any) -> str:
    """Which spread the page's time intervals carry, for a table's caption: the machine's between runs
    where it is known (widened_time), else the run's own samples."""
    spread = _spread_of(context)
    scope = "across runs of this machine" if spread is not None and spread.known else "within this run"
    return f"{_percent_number(stats.CONFIDENCE)}% CI {scope}"


# A page's context may hold `precision` (precision.Precision, its experiment's): a case's number whose
# own CI is wider than the target its experiment was sampled to then says so beside it.
PRECISION = "precision"


def _short_of_target(context: Any, summary: Any) -> str:
    """', not within ±3 % in its time' after a case's time whose CI over this run's samples (never the
    widened one) did not reach its experiment's target; ''."""
    found = context.get(PRECISION)
    return precision_notes.short_of_target(found, summary.median_ns, summary.ci_low_ns, summary.ci_high_ns)


@jinja2.pass_context
def time_spread(context: Any, summary: Any) -> str:
    return formatting.time_spread(widened_time(context, summary)) + _short_of_target(context, summary)


# A page's context may hold `quoted_between_runs`: per experiment whose measurement of the run it quotes
# (Experiment.quotes), that experiment's `between_runs` and `precision`, so that a quoted number prints as its
# own page prints it. (Not `quoted`: the pitfalls page's context has that name for its quoted entries.)
QUOTED = "quoted_between_runs"


@jinja2.pass_context
def quoted_time_spread(context: Any, summary: Any, source: str) -> str:
    """time_spread of a case measured by experiment `source`: with that experiment's spread between runs
    and its precision note where the page quotes it (the JWT page's keygen, from ec_keygen), else the page's."""
    own = (context.get(QUOTED) or {}).get(source)
    if own is None:
        return time_spread(context, summary)
    return formatting.time_spread(widened_time(own, summary)) + _short_of_target(own, summary)


@jinja2.pass_context
def time_ci(context: Any, summary: Any) -> str:
    return formatting.time_ci(widened_time(context, summary)) + _short_of_target(context, summary)


@jinja2.pass_context
def time_interval(context: Any, summary: Any) -> str:
    """The interval alone, as time_ci prints it."""
    shown = widened_time(context, summary)
    return formatting.duration_interval(shown.ci_low_ns, shown.ci_high_ns, shown.median_ns)


@jinja2.pass_context
def rate_spread(context: Any, mb_per_s: float, interval: tuple[float, float]) -> str:
    short = precision_notes.short_of_target_rate(context.get(PRECISION), mb_per_s, interval)
    return formatting.rate_spread(mb_per_s, _widened_rate(context, mb_per_s, interval)) + short


@jinja2.pass_context
def rate_ci(context: Any, mb_per_s: float, interval: tuple[float, float]) -> str:
    short = precision_notes.short_of_target_rate(context.get(PRECISION), mb_per_s, interval)
    return formatting.rate_ci(mb_per_s, _widened_rate(context, mb_per_s, interval)) + short


def finalize(value: Any) -> Any:
    """Every `{{ value }}`: text that is not already Markup is escaped for Markdown too."""
    if isinstance(value, Markup) or value is None or isinstance(value, int | float):
        return value
    return markdown_text(value)


def markdown_ready(env: jinja2.Environment) -> jinja2.Environment:
    """`env` for a page whose context is already Markdown-escaped (the Comparison page): HTML
    escaping only, so its Markdown keeps its meaning."""
    ready = env.overlay(finalize=None, cache_size=0)
    ready.filters = {**env.filters, "cell": table_cell}
    return ready


class _CompiledTemplates(jinja2.BytecodeCache):
    """Compiled templates kept for the life of the process, by template name and the environment's
    settings (_compiled_with), checked against the source (Jinja recompiles when it differs): every
    build in one process (tests, `mkdocs serve`) compiles each template once, whichever directory
    holds a copy of it. Each is also kept on disk (`disk`), so that the next process reads it instead
    of compiling the templates again (a quarter of a CPU-second a build: `make report`, then the
    builds `make test` runs in processes of their own). The disk cache is Jinja's own, in a directory
    of the user's that only the user may write; a file another version of the project wrote carries
    another checksum and is compiled again."""

    def __init__(self, disk: jinja2.BytecodeCache | None) -> None:
        self._code: dict[str, bytes] = {}
        self._disk = disk

    def get_bucket(
        self, environment: jinja2.Environment, name: str, filename: str | None, source: str
    ) -> jinja2.bccache.Bucket:
        # The code Jinja compiles depends on the environment's settings as well as the source (the
        # Comparison page's environment has no `finalize`): one key per template and settings, and a
        # name has slashes, so the key is a digest that names the file on disk.
        key = hashlib.sha256(f"{name}\0{_compiled_with(environment)}".encode()).hexdigest()
        bucket = jinja2.bccache.Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])
        elif self._disk is not None:
            self._disk.load_bytecode(bucket)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()
        if self._disk is not None:
            with contextlib.suppress(OSError):  # a full or read-only disk costs the next process a compile
                self._disk.dump_bytecode(bucket)


def _compiled_with(env: jinja2.Environment) -> str:
    """The settings of `env` that change the code Jinja compiles from a template."""
    finalize = getattr(env.finalize, "__qualname__", repr(env.finalize))
    autoescape = getattr(env.autoescape, "__qualname__", repr(env.autoescape))
    return repr(
        (
            finalize,
            autoescape,
            env.trim_blocks,
            env.lstrip_blocks,
            env.keep_trailing_newline,
            env.newline_sequence,
            env.optimized,
            env.is_async,
            sorted(env.extensions),
            env.block_start_string,
            env.block_end_string,
            env.variable_start_string,
            env.variable_end_string,
            env.comment_start_string,
            env.comment_end_string,
            env.line_statement_prefix,
            env.line_comment_prefix,
        )
    )


def _disk_cache() -> jinja2.BytecodeCache | None:
    """Jinja's cache in its own per-user temporary directory; none where that cannot be made (the
    templates are then compiled in each process, as before)."""
    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None


_COMPILED = _CompiledTemplates(_disk_cache())


def environment(template_dir: Path) -> jinja2.Environment:
    """The page templates of the project whose templates/ is `template_dir` (its runners/snippets/ beside)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(template_dir),
        bytecode_cache=_COMPILED,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=finalize,
    )
    env.filters.update(
        size=formatting.size,
        spread=formatting.spread,
        time_spread=time_spread,
        quoted_time_spread=quoted_time_spread,
        time_ci=time_ci,
        time_interval=time_interval,
        duration_interval=formatting.duration_interval,
        rate=formatting.rate,
        duration=formatting.duration,
        signed_duration=formatting.signed_duration,
        percent=formatting.percent,
        plus_minus=formatting.plus_minus,
        short_of_target=precision_notes.short_of_target_text,
        count=formatting.count,
        times=wording.times,
        cell=markdown_text,
        code=code,
        code_spans=code_spans,
        verdict=verdict,
    )
    env.globals.update(
        rate_spread=rate_spread,
        rate_ci=rate_ci,
        ci_scope=ci_scope,
        value_ci=formatting.value_ci,
        speedup=wording.speedup,
        interval=wording.interval,
        margin=wording.margin,
        estimate=wording.estimate,
        share=wording.share,
        native_share=native.native_share,
        native_sides=native.native_sides,
        layer_sides=native.layer_sides,
        pitfall_sides=native.pitfall_native_sides,
        php_adds=native.php_adds,
        native_adds=native.adds,
        fixed_cost=native.fixed_cost,
        layer_overhead=native.layer_overhead,
        layer_added=native.layer_added,
        overhead=wording.overhead,
        snippet=snippet_function(template_dir.parent),
        thresholds=Thresholds.current(),
    )
    return env


def render(env: jinja2.Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)
