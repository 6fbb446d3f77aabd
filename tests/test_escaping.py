"""Text from data reaches the page escaped: a hostile manifest cannot inject HTML."""

import json

from phpcb.pages import build as site

from .conftest import FIXTURE_RUN, reseal, write_manifest

HOSTILE = '<img src=x onerror="alert(1)"> | x'


def hostile_project(make_project):
    root = make_project(FIXTURE_RUN)
    manifest_path = root / "data" / "runs" / FIXTURE_RUN.name / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["cpu"]["model"] = HOSTILE
    manifest["os"] = "<script>alert(2)</script>"
    manifest["experiments"]["aead"]["verification"]["vectors"][0]["skip_reasons"] = {"<b>bold</b>": 1}
    write_manifest(manifest_path.parent, manifest)
    reseal(manifest_path.parent)
    return root


def test_hostile_manifest_text_is_escaped_in_every_page(make_project):
    generated = site.build(hostile_project(make_project))
    for name, text in generated.pages.items():
        assert "<img" not in text, name
        assert "<script" not in text, name
        assert "<b>bold" not in text, name
    aead = generated.pages["experiments/aead.md"]
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt; &#124; x" in aead
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in aead


def test_a_run_without_aead_results_gives_a_page_that_says_so(make_project):
    root = make_project(FIXTURE_RUN)
    manifest_path = root / "data" / "runs" / FIXTURE_RUN.name / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["experiments"]["aead"] = {
        "status": "unavailable",
        "reason": "openssl extension not loaded",
        "duration_s": 0.0,
        "files": [],
        "verification": None,
        "measured_by": None,
    }
    write_manifest(manifest_path.parent, manifest)
    reseal(manifest_path.parent)
    generated = site.build(root)
    assert (
        "No run under `data/runs/` has results for the `aead` experiment yet" in generated.pages["experiments/aead.md"]
    )
    assert "openssl extension not loaded" in generated.pages["runs.md"]


def test_hostile_curve_detail_text_is_escaped_on_the_curve_page(make_project):
    root = make_project(FIXTURE_RUN)
    curves = root / "data" / "runs" / FIXTURE_RUN.name / "ec_curves.csv"
    text = curves.read_text()
    curves.write_text(text.replace("missing OID", "<script>alert(3)</script> | 'quoted'", 1))
    reseal(curves.parent)
    page = site.build(root).pages["experiments/ec_keygen.md"]
    assert "<script" not in page
    assert "&lt;script&gt;alert(3)&lt;/script&gt; &#124; &#39;quoted&#39;" in page


def test_a_run_without_ec_keygen_results_gives_a_page_that_says_so(make_project):
    root = make_project(FIXTURE_RUN)
    manifest_path = root / "data" / "runs" / FIXTURE_RUN.name / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    del manifest["experiments"]["ec_keygen"]
    write_manifest(manifest_path.parent, manifest)
    reseal(manifest_path.parent)
    for name in ("ec_keygen.csv", "ec_curves.csv"):
        (root / "data" / "runs" / FIXTURE_RUN.name / name).unlink()
    generated = site.build(root)
    assert "has results for the `ec_keygen` experiment yet" in generated.pages["experiments/ec_keygen.md"]
    assert "Elliptic curves" not in generated.pages["index.md"].split("## Experiments")[0]


def test_underscores_at_a_words_edge_do_not_become_emphasis():
    import html

    import markdown

    from phpcb.presentation import render

    text = "'config' => __DIR__ . '/a.cnf'; _x_ and openssl_pkey_new"
    escaped = str(render.markdown_text(text))
    assert "openssl_pkey_new" in escaped, "an underscore inside a word is left as it is"
    shown = markdown.markdown(escaped)
    assert "<strong>" not in shown
    assert "<em>" not in shown
    assert html.unescape(shown) == f"<p>{text}</p>"


def test_a_code_span_in_text_the_project_wrote_shows_as_code_and_the_rest_stays_escaped():
    import markdown

    from phpcb.presentation import render

    shown = markdown.markdown(str(render.code_spans("the run `make report` measured <b>; `a*b*`")))
    assert shown == "<p>the run <code>make report</code> measured &lt;b&gt;; <code>a&#42;b&#42;</code></p>"
    unpaired = markdown.markdown(str(render.code_spans("a ` alone")))
    assert unpaired == "<p>a &#96; alone</p>", "a backtick without its pair is a character, not code"


def test_the_run_make_report_measured_is_named_as_code_on_every_page_that_names_it(make_project):
    import markdown

    from phpcb.data.selection import View

    generated = site.build(make_project(FIXTURE_RUN), view=View(show=FIXTURE_RUN.name))
    naming = {name: text for name, text in generated.pages.items() if "just measured on this machine" in text}
    assert {"runs.md", *(f"experiments/{e}.md" for e in ("aead", "symmetric", "jwt", "argon2"))} <= set(naming)
    for name, text in naming.items():
        html = markdown.markdown(text, extensions=["admonition", "tables"])
        assert "the run <code>make report</code> just measured on this machine" in html, name
        assert "&#96;" not in html, name
