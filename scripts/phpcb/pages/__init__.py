"""Layer 8, the site's pages: every generated page and file (build.py), the Machines, claims (the judge
wired to the experiments) and Comparison pages."""
