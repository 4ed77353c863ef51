"""How `evals.accuracy` shows a report: rich tables per language and per tag, and matplotlib plots."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from .accuracy import Report, Summary

COLORS = {"correct": "#2e9d57", "wrong_whitespace": "#f08c8c", "wrong_substantive": "#d62f2f",
          "refused": "#e0a526", "crashed": "#6b2fb3"}
LABELS = {"correct": "exact", "wrong_whitespace": "wrong (whitespace only)",
          "wrong_substantive": "wrong (substantive)", "refused": "refused", "crashed": "crashed"}


def summary_table(title: str, first: str, rows: dict[str, Summary], total: Summary | None) -> Table:
    table = Table(title=title)
    for name in (first, "cases", "exact %", "wrong", "ws only", "substantive", "distinct", "refused",
                 "crashed", "median ms", "p99 ms"):
        table.add_column(name, justify="left" if name == first else "right", no_wrap=True)

    def row(name: str, s: Summary, style: str | None = None) -> None:
        table.add_row(name, str(s.cases), f"{s.correct_pct:.1f}", str(s.wrong), str(s.wrong_whitespace),
                      str(s.wrong_substantive), str(s.wrong_distinct), str(s.refused), str(s.crashed),
                      f"{s.median_ms:.2f}", f"{s.p99_ms:.2f}", style=style)

    for name, summary in rows.items():
        row(name, summary)
    if total is not None:
        table.add_section()
        row("overall", total, style="bold")
    return table


def print_report(report: Report, console: Console, show_failures: bool = False,
                 by_tag: bool = False, list_cases: bool = True) -> None:
    """The tables, then one line per case that was not merged exactly, unless `list_cases` is off
    (a held-out split: its failing cases stay out of sight, so nobody tunes on them)."""
    console.print(summary_table(f"fastapply accuracy ({report.engine} engine)", "language",
                                report.languages, report.overall))
    if by_tag and report.tags:
        console.print(summary_table("by kind of edit and habit (case tags)", "tag", report.tags, None))
    if not list_cases:
        console.print("held-out split: the failing cases are not listed, so that nobody tunes on them "
                      "(they are in the JSON report; --show-failures lists them)")
    for result in report.results if list_cases else ():
        if result.outcome == "wrong":
            kind = "whitespace only" if result.whitespace_only else "substantive"
            console.print(f"[yellow]wrong[/]   {escape(result.id)} ({kind})")
            if show_failures and result.diff:
                console.print(result.diff, markup=False, highlight=False)
        elif result.outcome == "refused":
            first = (result.message or "").splitlines()[0] if result.message else ""
            console.print(f"[cyan]refused[/] {escape(result.id)} {escape(f'[{result.code}]')} "
                          f"{escape(first[:100])}", highlight=False)
        elif result.outcome == "crashed":
            console.print(f"[bold red]CRASHED[/] {result.id} ({result.code})")
            console.print(result.message or "", markup=False, highlight=False)
    if report.refusal_codes:
        codes = ", ".join(f"{code}: {n}" for code, n in report.refusal_codes.items())
        console.print(f"refusal codes: {codes}")
        overall = report.overall
        console.print(f"refusals naming a snippet line: {overall.refused_with_line} of {overall.refused}")


def _stacked(names: list[str], summaries: list[Summary], title: str, path: Path) -> None:
    """Horizontal stacked bars: exact / wrong (whitespace) / wrong (substantive) / refused / crashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 0.32 * len(names) + 1.4))
    left = [0.0] * len(names)
    for outcome, color in COLORS.items():
        shares = [100 * getattr(s, outcome) / s.cases if s.cases else 0 for s in summaries]
        ax.barh(names, shares, left=left, color=color, label=LABELS[outcome])
        left = [a + b for a, b in zip(left, shares)]
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of cases")
    ax.set_title(title)
    ax.legend(ncol=3, loc="lower center", bbox_to_anchor=(0.5, 1.04), frameon=False, fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_report(report: Report, path: Path) -> None:
    """Outcomes per language (and overall), as shares of the cases."""
    _stacked(list(report.languages) + ["overall"], list(report.languages.values()) + [report.overall],
             f"fastapply accuracy ({report.engine} engine, {report.overall.cases} cases)", path)


def plot_tags(report: Report, path: Path) -> None:
    """Outcomes per case tag (habit / kind of edit), as shares of the cases holding the tag."""
    names = sorted(report.tags, key=lambda t: report.tags[t].correct_pct)
    _stacked(names + ["overall"], [report.tags[t] for t in names] + [report.overall],
             f"fastapply accuracy by tag ({report.engine} engine, {report.overall.cases} cases)", path)
