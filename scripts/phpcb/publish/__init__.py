"""Layer 9, publishing: the gh-pages branch (mike, previews), pull-request previews and their comment,
collecting runs from artifacts."""
