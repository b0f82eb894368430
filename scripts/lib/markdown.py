"""markdown.py - the Markdown tables and numbers of the report, the summary
and the comparison: one table layout, one number format.
"""


def table(header, rows):
    """A Markdown table of @header and @rows (cells formatted with str())."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def fmt(x):
    """Three significant digits below 10, one decimal above (ns, counts)."""
    return f"{x:.3g}" if abs(x) < 10 else f"{x:.1f}"
