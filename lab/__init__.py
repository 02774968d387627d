"""The lab: what makes and judges the card reader (synthetic scenes, training, export, the simulated
table, evaluation and benches). It imports the runtime (`table`, `vision`, `display`) and is never imported
by it; the command line finds its subcommands through entry points."""
