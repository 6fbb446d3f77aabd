"""phpcrypto-bench build: load and validate runs, compute statistics, render the report site."""
