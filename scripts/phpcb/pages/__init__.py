"""Layer 6, the site's pages: every generated page and file (build.py), the Machines, claims and
Comparison pages."""
