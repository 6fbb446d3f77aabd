"""Layer 4, what every page shares: number formats and wording, Jinja rendering with escaping, figures,
headlines, advice statements, the answer and its claim line, environment rows, precision notes."""
