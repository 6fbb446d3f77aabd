"""Search finds "P-384" (issue 46.7): mkdocs.yml gives Material's search a separator without '-', so the
built index keeps "P-384", "RSA-2048" and "ML-DSA-65" one word each, and the pages start the theme's search
worker through assets/javascripts/search-worker.js, which has lunr split a query by the same separator
(the theme sets it for the index only: a query was split at '-' whatever mkdocs.yml said). The search
itself, typed into the built site: tests/test_browser_reader.py."""

import json
import re

import pytest


@pytest.fixture(scope="module")
def index(built_site):
    return json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))


def words(index, separator, location):
    """The words of the index's entries under `location` (a page, or a section with its '#'), as lunr
    makes them: the text split by the separator, lower-cased."""
    found = set()
    for doc in index["docs"]:
        if doc["location"] == location or (location.endswith("/") and doc["location"].startswith(location)):
            text = re.sub(r"<[^>]+>", " ", f"{doc['title']} {doc['text']}")
            found |= {word.lower() for word in separator.split(text) if word}
    return found


def test_the_separator_keeps_a_hyphen_inside_a_word_and_splits_at_punctuation(index):
    separator = re.compile(index["config"]["separator"])
    assert separator.search("-") is None, "lunr splits a query one character at a time: '-' is never a separator"
    assert [w for w in separator.split("P-384, (ML-DSA-65) and key-agreement: 3.5.") if w] == [
        "P-384",
        "ML-DSA-65",
        "and",
        "key-agreement",
        "3.5",
    ]


def test_the_index_holds_each_curve_and_algorithm_name_whole(index):
    separator = re.compile(index["config"]["separator"])
    assert {"p-256", "p-384", "p-521"} <= words(index, separator, "experiments/ec_keygen/")
    assert {"p-384", "p-521"} <= words(index, separator, "experiments/ec_keygen/#p-384-and-p-521-against-p-256"), (
        "the section that sets them against P-256"
    )
    assert {"ml-dsa-65", "p-384"} <= words(index, separator, "experiments/pq/")
    assert {"aes-256-gcm", "xchacha20-poly1305"} <= words(index, separator, "experiments/aead/")
    assert "384" not in words(index, separator, "experiments/ec_keygen/#p-384-and-p-521-against-p-256")


def test_every_page_starts_the_search_worker_through_the_sites_wrapper(built_site):
    wrapper = (built_site / "assets" / "javascripts" / "search-worker.js").read_text(encoding="utf-8")
    assert "lunr.QueryLexer.termSeparator = lunr.tokenizer.separator;" in wrapper
    for page in ("index.html", "experiments/ec_keygen/index.html", "404.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        assert "assets/javascripts/search-worker.js" in html, page
