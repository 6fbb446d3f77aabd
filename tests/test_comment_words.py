"""The pull request's comment in the pages' words (publish/comment_words.py; issue 47.5): verdict statuses
and the other tokens statements hold read as words, an answer's page Markdown as the text a reader sees."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markupsafe import Markup

from phpcb.data.verdicts import STATUS_TEXT
from phpcb.experiments.symmetric.analysis import STATUS_WORDS
from phpcb.presentation.render import markdown_text
from phpcb.publish import comment_words
from phpcb.publish.merge_effect import CHANGED, Change, MergeEffect
from phpcb.publish.statements import collect

from .conftest import FIXTURE_RUN, ROOT, project_with

SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")


def test_every_inventory_status_has_its_words():
    """The statuses the schema allows and the runner gives (InventoryEntry.php) are the ones with words."""
    tables = json.loads((ROOT / "data" / "schema" / "tables" / "symmetric.json").read_text(encoding="utf-8"))
    fields = next(t["schema"]["fields"] for t in tables["resources"] if t["name"] == "cipher_inventory")
    allowed = next(f["constraints"]["enum"] for f in fields if f["name"] == "status")
    runner = (ROOT / "runners" / "src" / "Symmetric" / "InventoryEntry.php").read_text(encoding="utf-8")
    assert set(STATUS_WORDS) == set(allowed) == set(re.findall(r"public const \w+ = '(\w+)';", runner))
    words = comment_words.vocabulary()
    assert words["not_recommended"] == STATUS_TEXT["not_recommended"] == "not recommended"
    assert words["aead_needs_tag"] == STATUS_WORDS["aead_needs_tag"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("not_recommended", "not recommended"),
        ("not_evaluated", "not evaluated here"),
        ("ok", "round-trips"),
        (
            "2 of 3 listed have status aead_needs_tag: aes-128-gcm ok",
            "2 of 3 listed have status authenticated: openssl_encrypt needs its tag argument: aes-128-gcm ok",
        ),
        ("openssl_encrypt with a tag_length", "openssl_encrypt with a tag_length"),
        ("ES256, ES384 or EdDSA (no measurable difference)", "ES256, ES384 or EdDSA (no measurable difference)"),
    ],
)
def test_tokens_read_as_words_and_other_text_as_it_is(text: str, said: str):
    assert comment_words.in_words(text, comment_words.vocabulary()) == said


def test_an_answer_reads_as_the_text_its_page_shows():
    """An answer is page Markdown: emphasis, code, and data escaped for Markdown (`*` as a character
    reference). Its text is what a reader of the page sees, with the data's characters as they are."""
    answer = Markup("Use **AES-256-GCM** through <code>openssl_encrypt</code> with a ") + markdown_text("*tag* [x]")
    change = Change("experiments/aead.md", "aead.answer", "AEAD: the answer", None, str(answer), CHANGED)
    shown = comment_words.readable_change(change, comment_words.vocabulary())
    assert shown.new == "Use AES-256-GCM through openssl_encrypt with a *tag* [x]"
    verdict = Change(
        "experiments/ec_keygen.md",
        "ec_keygen.verdict.P-256",
        "Verdict on P-256",
        "recommended",
        "not_recommended",
        CHANGED,
    )
    assert comment_words.readable_change(verdict, comment_words.vocabulary()).new == "not recommended"
    kept = Change("experiments/jwt.md", "jwt.pick", "**bold** in a label", "a **b**", "c", CHANGED)
    assert comment_words.readable_change(kept, {}) == kept, "only page Markdown is rendered"


def test_no_statement_of_the_pages_prints_a_raw_token(tmp_path: Path):
    """Every statement the fixture's pages make, as the comment would print it were it to change: no
    snake_case token of the vocabulary is left, and no page Markdown."""
    root = project_with(tmp_path, FIXTURE_RUN)
    (root / "data" / "site.yaml").write_text("reference_machine: intel-xeon-unknown-2c-2e892e\npinned: {}\n")
    snapshot = collect(root)
    words = comment_words.vocabulary()
    tokens = {token for token in words if "_" in token}
    changes = tuple(Change(s.page, s.key, s.label, None, s.value, CHANGED, s.detail) for s in snapshot.statements)
    shown = comment_words.readable(MergeEffect((), changes, (), (), ()), words)
    assert any(c.key.endswith(".answer") for c in shown.changes)
    for change in shown.changes:
        for text in (change.label, change.new or "", change.detail):
            assert not set(SNAKE.findall(text)) & tokens, (change.key, text)
            if comment_words.is_page_markdown(change.key):
                for markup in ("**", "&#", "<code", "<span"):
                    assert markup not in text, (change.key, text)


def test_every_side_of_a_change_reads_in_words_the_projects_unless_others_are_given():
    """The label, both sides and the detail: a status that changed reads as the page prints it on each side."""
    change = Change(
        "experiments/symmetric.md",
        "symmetric.status.aes-128-gcm",
        "aes-128-gcm: aead_needs_tag",
        "not_recommended",
        "ok",
        CHANGED,
        "was not_evaluated",
    )
    (shown,) = comment_words.readable(MergeEffect((), (change,), (), (), ())).changes
    assert shown == Change(
        change.page,
        change.key,
        f"aes-128-gcm: {STATUS_WORDS['aead_needs_tag']}",
        "not recommended",
        "round-trips",
        CHANGED,
        "was not evaluated here",
    )
    (own,) = comment_words.readable(MergeEffect((), (change,), (), (), ()), {"ok": "fine"}).changes
    assert (own.label, own.base, own.new, own.detail) == (change.label, "not_recommended", "fine", "was not_evaluated")
