"""One line that quotes the ledger's verdict on an article's claim, for a page that mentions the claim
(the home page's findings): the number and the verdict are the ledger's, never the page's own."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from phpcb.presentation.render import markdown_text


def then_and_now(context: dict[str, Any], claim_id: str, link: str = "claims.md") -> Markup:
    """' The 2016 article's "3x": **reproduced**, 2.23× … (checked).', or nothing when the ledger
    has no such claim (its page's context carries the checked claims under "claims")."""
    checked = context.get("claims", {}).get(claim_id)
    if checked is None:
        return Markup("")
    return Markup(' The {} article\'s "{}": **{}**, judged at {} ([checked]({}#{})).').format(
        markdown_text(checked.claim.year),
        markdown_text(checked.figure),
        checked.verdict,
        markdown_text(checked.measured),
        link,
        checked.claim.id,
    )
