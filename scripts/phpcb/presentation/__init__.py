"""Layer 3, what every page shares: number formats and wording, Jinja rendering with escaping, figures,
headlines, advice statements, claim rules and lines, environment rows, precision notes."""
