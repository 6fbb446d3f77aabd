"""The pull request's comment in the words the pages use: what the statements of publish/statements.py
hold as tokens or as page Markdown, made readable before the comment escapes and prints it.

- A verdict's status (`not_recommended`) reads as every page prints it (data/verdicts.py STATUS_TEXT,
  the `verdict` filter's words); a token an experiment's statements hold (a cipher's inventory status,
  `aead_needs_tag`) in the words that experiment declares (Experiment.words). A statement whose whole
  value is a token is replaced whole; in longer text (a claim's measurement) only snake_case tokens are,
  so that words such as "ok" inside a sentence stay as they are.
- An answer and a note are page Markdown (escaped data, `**bold**`, `code`, links): they are rendered
  as the page renders them and read as the text a reader sees, which the comment then escapes like any
  other text. Escaping Markdown a second time printed `\\*\\*ES256\\*\\*` in the comment.

The statements themselves are left as they are: two snapshots are compared token for token, and only
what the comment prints changes.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from html.parser import HTMLParser

import markdown

from phpcb.data.verdicts import STATUS_TEXT
from phpcb.experiments import registry
from phpcb.publish.merge_effect import Change, MergeEffect

# A token in running text: lower-case words joined by underscores (`aead_needs_tag`), never one word.
_TOKEN = re.compile(r"(?<![\w-])[a-z0-9]+(?:_[a-z0-9]+)+(?![\w-])")
# The statements that hold page Markdown (publish/statements.py keys them so): each page's answer, whose
# key ends in `.answer`, and the notes experiments add to each other's pages, keyed `<experiment>.note.…`.
ANSWER_SUFFIX = ".answer"
NOTE_PART = ".note."


def vocabulary() -> dict[str, str]:
    """Every token a statement may hold, in words: verdict statuses, then each experiment's own."""
    words = dict(STATUS_TEXT)
    for experiment in registry.discover():
        words.update(experiment.words)
    return words


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def plain_text(page_markdown: str) -> str:
    """Page Markdown as the text a reader sees: rendered, then its tags dropped and its character
    references read; white space collapsed to single spaces."""
    reader = _Text()
    reader.feed(markdown.markdown(page_markdown))
    reader.close()
    return " ".join("".join(reader.parts).split())


def in_words(text: str, words: Mapping[str, str]) -> str:
    """`text` with its tokens in words: the whole of it when it is one, else each snake_case token."""
    if text in words:
        return words[text]
    return _TOKEN.sub(lambda match: words.get(match.group(0), match.group(0)), text)


def is_page_markdown(key: str) -> bool:
    return key.endswith(ANSWER_SUFFIX) or NOTE_PART in key


def readable_change(change: Change, words: Mapping[str, str]) -> Change:
    def said(text: str | None) -> str | None:
        if text is None:
            return None
        return in_words(plain_text(text) if is_page_markdown(change.key) else text, words)

    return dataclasses.replace(
        change,
        label=in_words(change.label, words),
        base=said(change.base),
        new=said(change.new),
        detail=said(change.detail) or "",
    )


def readable(found: MergeEffect, words: Mapping[str, str] | None = None) -> MergeEffect:
    """The effect with every change's words readable (the comparison itself is untouched)."""
    vocabulary_ = vocabulary() if words is None else words
    return dataclasses.replace(found, changes=tuple(readable_change(c, vocabulary_) for c in found.changes))
