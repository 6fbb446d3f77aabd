"""The statistical thresholds reach the pages from the code that decides by them (render.Thresholds, the
templates' `thresholds`): no template writes one as a literal, and changing the owner's constant changes
the text."""

import ast
import re

import pytest

from phpcb.compare import ab_export, comparison, fidelity
from phpcb.compare.ab import AbReport
from phpcb.experiments.aead import per_call
from phpcb.pages import compare_page
from phpcb.presentation import render, wording
from phpcb.statistics import stats, thresholds

from .conftest import ROOT

TEMPLATES = ROOT / "templates"
# A threshold written out in a template's text: the confidence level (95 %), the noise floor of a
# claimed difference (2 %), a comparison's α (0.05) and change (5 %), and ±5 % (the fidelity goal).
LITERAL = re.compile(r"(?<![\d.,])(?:95|2|5) ?%|(?<![\d.])0\.05(?!\d)")
# Literals no Python code of the build owns a constant for, each with its reason (none now).
ALLOWED: set[tuple[str, str]] = set()


def text_of(source: str) -> str:
    """A template's text as written, without its `{{ … }}` and `{% … %}` (Jinja code is not prose)."""
    env = render.environment(TEMPLATES)
    return "".join(value for _, kind, value in env.lex(source) if kind == "data")


def literals(name: str, source: str) -> list[str]:
    found = []
    for line in text_of(source).splitlines():
        if LITERAL.search(line) and not any(name == file and part in line for file, part in ALLOWED):
            found.append(f"{name}: {line.strip()}")
    return found


def test_no_template_writes_a_threshold_as_a_literal():
    found = [hit for path in sorted(TEMPLATES.glob("*.j2")) for hit in literals(path.name, path.read_text("utf-8"))]
    assert not found, "write {{ thresholds.… }} (presentation/render.py Thresholds) instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    [
        "the median's 95% CI",
        "with its 95 % CI across the rounds",
        "lies more than 2 % away from 1",
        "adjusted p < 0.05 and a change beyond 5 %",
        "to check that the CI is within ±5 % and stable",
    ],
)
def test_the_scan_finds_each_literal(line: str):
    assert literals("x.md.j2", f"{{% if a %}}{{{{ b }}}}{{% endif %}}\n{line}\n") == [f"x.md.j2: {line}"]


@pytest.mark.parametrize(
    "line", ["{{ thresholds.confidence }}% CI", "{% if share >= 0.5 %}most{% endif %}", "12 % and 100 %", "0.2 %"]
)
def test_the_scan_leaves_other_numbers_alone(line: str):
    assert literals("x.md.j2", line) == []


def test_the_comparisons_read_the_one_owner():
    assert comparison.ALPHA is thresholds.ALPHA
    assert comparison.THRESHOLD is thresholds.DIFFERENCE, "a comparison's change: the one threshold of a difference"
    assert stats.NOISE_THRESHOLD is thresholds.DIFFERENCE, "a claimed difference: the same one"
    assert fidelity.HALF_WIDTH_GOAL is thresholds.HALF_WIDTH_GOAL
    assert per_call.OVERHEAD_GOAL is thresholds.OVERHEAD_GOAL


EVERY_THRESHOLD = (
    "{{ thresholds.confidence }}% CI; {{ thresholds.difference }} %; p < {{ thresholds.alpha }}; "
    "±{{ thresholds.fidelity_goal }} %; {{ thresholds.overhead_goal }} %; {{ ci_scope() }}"
)


def test_the_templates_write_what_the_owners_hold():
    shown = render.environment(TEMPLATES).from_string(EVERY_THRESHOLD)
    assert shown.render() == "95% CI; 2 %; p < 0.05; ±5 %; 5 %; 95% CI within this run"


def test_one_threshold_of_a_difference_under_every_name():
    """A page's claimed difference, a comparison's change and the older names the templates may still use are
    one number (issue 46.6: the prose said 2 %, 5 % and ×/÷ 1.1)."""
    shown = render.Thresholds.current()
    assert shown.difference == shown.noise == shown.change == "2"


@pytest.fixture
def changed_thresholds(monkeypatch):
    monkeypatch.setattr(stats, "CONFIDENCE", 0.9)
    monkeypatch.setattr(thresholds, "DIFFERENCE", 0.07)
    monkeypatch.setattr(thresholds, "ALPHA", 0.01)
    monkeypatch.setattr(thresholds, "HALF_WIDTH_GOAL", 0.04)
    monkeypatch.setattr(thresholds, "OVERHEAD_GOAL", 0.03)


@pytest.mark.usefixtures("changed_thresholds")
def test_changing_a_constant_changes_the_text():
    env = render.environment(TEMPLATES)
    shown = env.from_string(EVERY_THRESHOLD)
    assert shown.render() == "90% CI; 7 %; p < 0.01; ±4 %; 3 %; 90% CI within this run"
    page = compare_page.render_page([], env)
    assert "adjusted p below 0.01 and more than 7 %;" in page
    assert "0.05" not in page
    assert not stats.Ratio(1.05, 1.03, 1.07).significant, "the pages' verdicts read the owner too"


def test_a_ratio_is_a_difference_beyond_the_one_threshold():
    edge = 1 + thresholds.DIFFERENCE
    assert not stats.Ratio(1.03, edge, 1.04).significant
    assert stats.Ratio(1.03, edge + 1e-9, 1.04).significant
    assert not stats.Ratio(0.97, 0.96, 1 / edge).significant
    assert stats.Ratio(0.97, 0.96, 1 / edge - 1e-9).significant


@pytest.mark.usefixtures("changed_thresholds")
def test_the_ab_report_reads_the_constants_too():
    text = ab_export.markdown(AbReport("base", "head", [("b1", "h1")], []))
    assert "adjusted p < 0.01 and a change beyond 7 %." in text
    assert "**No class or case changed beyond 7 % and the noise of the rounds.**" in text


def _strings_outside_docstrings(tree: ast.AST) -> list[tuple[int, str]]:
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_build_code_writes_the_confidence_level_as_text():
    """The wording says "95% CI" through wording.CI (from stats.CONFIDENCE), never as a literal."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in sorted((ROOT / "scripts" / "phpcb").rglob("*.py"))
        for line, text in _strings_outside_docstrings(ast.parse(path.read_text(encoding="utf-8")))
        if re.search(r"\b95 ?% CI", text)
    ]
    assert not found
    assert wording.CI == f"{stats.CONFIDENCE * 100:g}% CI" == "95% CI"
