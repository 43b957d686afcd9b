"""One unit per study: its analysis, table, figure and commands (docs/architecture.md)."""
