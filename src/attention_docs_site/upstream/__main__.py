"""``python -m attention_docs_site.upstream``: the declared reaches, as a table."""

from __future__ import annotations

from attention_docs_site.upstream.registry import reaches


def main() -> None:
    """Print each reach: package, written for, installed, need."""
    rows = [("reach", "package", "written for", "installed", "need")]
    rows += [
        (r.name, r.package, r.written_for, r.installed(), r.need) for r in reaches()
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        print(
            "  ".join(
                cell.ljust(width) for cell, width in zip(row, widths, strict=True)
            )
        )


main()
