"""The casino floor: every table's journal shipped to one PostgreSQL, verified on arrival."""
