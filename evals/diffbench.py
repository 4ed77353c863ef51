"""Diff benchmark: fastapply's formats vs GNU patch and git apply on drifted agent edits.

    python -m evals.diffbench [--n N] [--seed S] [--out report.json] [--plot out.png]

The corpus is built at run time from Python sources installed on this machine (stdlib and
site-packages); nothing is stored. Each case is a realistic multi-hunk edit of one file, rendered as a
unified diff, SEARCH/REPLACE blocks and a V4A patch, then drifted:

  none             as generated
  wrong_numbers    hunk headers point 5-40 lines off (a stale diff)
  no_numbers       headers stripped to `@@ ... @@`
  reindent         every hunk line shifted by 4 spaces (context copied at the wrong depth)
  trailing_ws      the file has trailing whitespace the edit lost
  context_dropped  one interior context line missing from one hunk (never one next to an added line)
  crlf             the file has CRLF line endings, the edit LF

Each tool's output is compared with the intended file: correct (byte-identical), wrong (the tool
reported success but the file differs), refused (the tool reported failure).
"""

from __future__ import annotations

import argparse
import difflib
import os
import random
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
from collections import defaultdict
from pathlib import Path

import msgspec

DRIFTS = ["none", "wrong_numbers", "no_numbers", "reindent", "trailing_ws", "context_dropped", "crlf"]
UDIFF_ONLY = {"wrong_numbers", "no_numbers"}
TOOLS = ["gnu_patch", "git_apply", "git_apply_tolerant", "fastapply"]
FORMS = ["udiff", "search_replace", "v4a"]


class Hunk(msgspec.Struct):
    old_start: int  # 0-based index into the original
    new_start: int
    lines: list[tuple[str, str]]


class Case(msgspec.Struct):
    id: str
    path: str
    original: str
    intended: str
    hunks: list[Hunk]  # udiff hunks (3 lines of context)
    blocks: list[Hunk]  # hunks grown until unique, for SEARCH/REPLACE and V4A


# ---------------------------------------------------------------- corpus

def source_files(rng: random.Random, limit: int = 3000, site_packages: bool = False) -> list[tuple[str, Path]]:
    # The standard library alone by default: the same Python gives the same corpus on every machine,
    # whatever else is installed. Sorted before shuffling, since rglob's order is the filesystem's.
    roots = [Path(sysconfig.get_paths()["stdlib"])]
    if site_packages:
        roots += map(Path, site.getsitepackages())
    found: list[tuple[str, Path]] = []
    for root in roots:
        for p in sorted(root.rglob("*.py")):
            if "test" in p.parts or "site-packages" in p.relative_to(root).parts:
                continue
            found.append((p.relative_to(root).as_posix(), p))
    rng.shuffle(found)
    out = []
    for rel, p in found:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        n = text.count("\n")
        if 120 <= n <= 3000 and text.endswith("\n") and "\r" not in text and "\t" not in text:
            out.append((rel, p))
        if len(out) >= limit:
            break
    return out


def _edit_lines(lines: list[str], rng: random.Random) -> list[str] | None:
    """2-4 edits at well-separated non-blank lines: change, insert after, or delete."""
    candidates = [i for i, x in enumerate(lines) if x.strip() and not x.lstrip().startswith(("#", '"', "'"))]
    if len(candidates) < 20:
        return None
    picks: list[int] = []
    want = rng.randint(2, 4)
    for i in rng.sample(candidates, min(len(candidates), 40)):
        if all(abs(i - j) > 12 for j in picks):
            picks.append(i)
        if len(picks) == want:
            break
    if len(picks) < 2:
        return None
    out = list(lines)
    for i in sorted(picks, reverse=True):
        line = out[i]
        indent = line[: len(line) - len(line.lstrip())]
        kind = rng.choice(["change", "change", "insert", "delete"])
        if kind == "change":
            out[i] = line.rstrip() + f"  # edited {rng.randint(1, 999)}"
        elif kind == "insert":
            new = [f"{indent}_trace_{rng.randint(1, 999)} = {rng.randint(1, 99)}"]
            if rng.random() < 0.5:
                new.append(f"{indent}_trace_total = len(str(_trace_{rng.randint(1, 9)}))")
            out[i + 1:i + 1] = new
        else:
            del out[i]
    return out


def _hunks(a: list[str], b: list[str], n: int) -> list[Hunk]:
    out = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(n):
        lines: list[tuple[str, str]] = []
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                lines += [(" ", x) for x in a[i1:i2]]
            else:
                lines += [("-", x) for x in a[i1:i2]] + [("+", x) for x in b[j1:j2]]
        out.append(Hunk(old_start=group[0][1], new_start=group[0][3], lines=lines))
    return out


def _count(hay: list[str], needle: list[str], lo: int = 0) -> int:
    n = len(needle)
    return sum(1 for i in range(lo, len(hay) - n + 1) if hay[i:i + n] == needle)


def _grow(a: list[str], hunks: list[Hunk]) -> list[Hunk]:
    """Add context until each hunk's old side is unique after the previous one (what a careful agent does)."""
    out = []
    lo = 0
    for h in hunks:
        lines = list(h.lines)
        start = h.old_start
        end = start + sum(1 for t, _ in lines if t != "+")
        while _count(a, [x for t, x in lines if t != "+"], lo) > 1 or _count(a, [x for t, x in lines if t != "+"]) > 1:
            grew = False
            if start > lo:
                start -= 1
                lines.insert(0, (" ", a[start]))
                grew = True
            if end < len(a):
                lines.append((" ", a[end]))
                end += 1
                grew = True
            if not grew:
                break
        out.append(Hunk(old_start=start, new_start=h.new_start, lines=lines))
        lo = end
    return out


def build_cases(n: int, seed: int, site_packages: bool = False) -> list[Case]:
    rng = random.Random(seed)
    files = source_files(rng, limit=n * 2, site_packages=site_packages)
    cases = []
    for rel, p in files:
        a = p.read_text(encoding="utf-8").split("\n")[:-1]
        b = _edit_lines(a, rng)
        if b is None:
            continue
        hunks = _hunks(a, b, 3)
        cases.append(Case(id=f"{len(cases):04d}", path=f"src/{rel}", original="\n".join(a) + "\n",
                          intended="\n".join(b) + "\n", hunks=hunks, blocks=_grow(a, hunks)))
        if len(cases) >= n:
            break
    return cases


# ---------------------------------------------------------------- drift and rendering

def drift_case(case: Case, drift: str, rng: random.Random) -> tuple[str, str, list[Hunk], list[Hunk], int] | None:
    """(original, intended, udiff hunks, blocks, header offset) for one drift kind, or None if n/a."""
    original, intended = case.original, case.intended
    hunks = [Hunk(h.old_start, h.new_start, list(h.lines)) for h in case.hunks]
    blocks = [Hunk(h.old_start, h.new_start, list(h.lines)) for h in case.blocks]
    offset = 0
    if drift == "wrong_numbers":
        offset = rng.choice([-1, 1]) * rng.randint(5, 40)
    elif drift == "reindent":
        for h in hunks + blocks:
            h.lines = [(t, "    " + x if x.strip() else x) for t, x in h.lines]
    elif drift == "trailing_ws":
        a, b = original.split("\n"), intended.split("\n")
        mark = {x for x in a if x.strip() and rng.random() < 0.5}
        original = "\n".join(x + "  " if x in mark else x for x in a)
        intended = "\n".join(x + "  " if x in mark else x for x in b)
    elif drift == "context_dropped":
        for group in (hunks, blocks):
            # Never the line right next to an inserted line: without it the insertion point moves, so
            # the drifted edit is a different valid edit that no tool can tell apart from the intended one.
            options = [(hi, li) for hi, h in enumerate(group) for li in range(1, len(h.lines) - 1)
                       if h.lines[li][0] == " " and h.lines[li][1].strip()
                       and h.lines[li - 1][0] != "+" and h.lines[li + 1][0] != "+"]
            if not options:
                return None
            hi, li = rng.choice(options)
            del group[hi].lines[li]
    elif drift == "crlf":
        original, intended = original.replace("\n", "\r\n"), intended.replace("\n", "\r\n")
    return original, intended, hunks, blocks, offset


def render_udiff(path: str, hunks: list[Hunk], *, offset: int = 0, numbers: bool = True) -> str:
    out = [f"diff --git a/{path} b/{path}", f"--- a/{path}", f"+++ b/{path}"]
    for h in hunks:
        old = sum(1 for t, _ in h.lines if t != "+")
        new = sum(1 for t, _ in h.lines if t != "-")
        if numbers:
            os_, ns = max(1, h.old_start + 1 + offset), max(1, h.new_start + 1 + offset)
            out.append(f"@@ -{os_ if old else os_ - 1},{old} +{ns if new else ns - 1},{new} @@")
        else:
            out.append("@@ ... @@")
        out += [t + x for t, x in h.lines]
    return "\n".join(out) + "\n"


def render_search_replace(path: str, blocks: list[Hunk]) -> str:
    out = ["I will make these changes:", ""]
    for h in blocks:
        out += [path, "```python", "<<<<<<< SEARCH", *[x for t, x in h.lines if t != "+"], "=======",
                *[x for t, x in h.lines if t != "-"], ">>>>>>> REPLACE", "```", ""]
    return "\n".join(out)


def render_v4a(path: str, blocks: list[Hunk]) -> str:
    out = ["*** Begin Patch", f"*** Update File: {path}"]
    for h in blocks:
        out.append("@@")
        out += [t + x for t, x in h.lines]
    out.append("*** End Patch")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- tools

def _run(cmd: list[str], cwd: Path) -> bool:
    env = dict(os.environ, GIT_CEILING_DIRECTORIES=str(cwd.parent), LC_ALL="C")
    try:
        return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=30).returncode == 0
    except (subprocess.TimeoutExpired, OSError):
        return False


def run_external(tool: str, path: str, original: str, patch: str, work: Path) -> str | None:
    """The file after the tool ran, or None when the tool refused."""
    shutil.rmtree(work, ignore_errors=True)
    target = work / path
    target.parent.mkdir(parents=True)
    target.write_bytes(original.encode("utf-8"))
    (work.parent / "edit.diff").write_bytes(patch.encode("utf-8"))
    diff = str(work.parent / "edit.diff")
    if tool == "gnu_patch":
        ok = _run(["patch", "-p1", "--fuzz=2", "--batch", "--forward", "--no-backup-if-mismatch",
                   "--reject-file=-", "-i", diff], work)
    elif tool == "git_apply":
        ok = _run(["git", "apply", diff], work)
    else:
        ok = _run(["git", "apply", "--recount", "--ignore-whitespace", diff], work)
    return target.read_bytes().decode("utf-8", "replace") if ok else None


def run_ours(path: str, original: str, patch: str) -> tuple[str | None, str]:
    from fastapply.errors import ApplyError
    from fastapply.formats.batch import apply_batch

    try:
        result = apply_batch(patch, {path: original})
    except ApplyError as exc:
        return None, f"{exc.code}: {exc.message}"
    if not result.ok:
        err = result.files[0].error
        return None, f"{err.code}: {err.message}" if err else "failed"
    return result.contents.get(path, original), ""


# ---------------------------------------------------------------- main

def run_bench(n: int, seed: int, *, show: bool = True, site_packages: bool = False) -> dict:
    from rich.progress import Progress

    cases = build_cases(n, seed, site_packages)
    rng = random.Random(seed + 1)
    counts: dict[tuple[str, str, str], dict[str, int]] = defaultdict(lambda: {"correct": 0, "wrong": 0, "refused": 0})
    failures: list[dict] = []
    tmp = Path(tempfile.mkdtemp(prefix="diffbench-"))
    try:
        with Progress(transient=True, disable=not show) as bar:
            task = bar.add_task("diffbench", total=len(cases) * len(DRIFTS))
            for case in cases:
                for drift in DRIFTS:
                    bar.advance(task)
                    made = drift_case(case, drift, rng)
                    if made is None:
                        continue
                    original, intended, hunks, blocks, offset = made
                    forms = {"udiff": render_udiff(case.path, hunks, offset=offset, numbers=drift != "no_numbers")}
                    if drift not in UDIFF_ONLY:
                        forms["search_replace"] = render_search_replace(case.path, blocks)
                        forms["v4a"] = render_v4a(case.path, blocks)
                    for form, patch in forms.items():
                        tools = TOOLS if form == "udiff" else ["fastapply"]
                        for tool in tools:
                            if tool == "fastapply":
                                got, why = run_ours(case.path, original, patch)
                            else:
                                got, why = run_external(tool, case.path, original, patch, tmp / "w"), ""
                            verdict = "refused" if got is None else ("correct" if got == intended else "wrong")
                            counts[(form, tool, drift)][verdict] += 1
                            if tool == "fastapply" and verdict != "correct":
                                failure = {"case": case.id, "path": case.path, "form": form,
                                           "drift": drift, "verdict": verdict, "reason": why}
                                if verdict == "wrong":
                                    failure["patch"] = patch[:3000]
                                    failure["got_vs_intended"] = "".join(list(difflib.unified_diff(
                                        intended.splitlines(True), got.splitlines(True), "intended", "got"))[:60])
                                failures.append(failure)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rows = [{"form": f, "tool": t, "drift": d, **c, "total": sum(c.values())} for (f, t, d), c in sorted(counts.items())]
    return {"n": len(cases), "seed": seed, "rows": rows, "failures": failures}


def rate(rows: list[dict], **where: object) -> tuple[int, int, int]:
    sel = [r for r in rows if all(r[k] == v if not isinstance(v, (set, list)) else r[k] in v for k, v in where.items())]
    return sum(r["correct"] for r in sel), sum(r["wrong"] for r in sel), sum(r["total"] for r in sel)


def print_table(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    rows = report["rows"]
    table = Table(title=f"diffbench: {report['n']} edits, seed {report['seed']} (correct / wrong / refused)")
    table.add_column("form / tool")
    for d in DRIFTS:
        table.add_column(d, justify="right")
    table.add_column("drifted", justify="right")
    for form in FORMS:
        for tool in (TOOLS if form == "udiff" else ["fastapply"]):
            cells = []
            for d in DRIFTS:
                r = next((r for r in rows if (r["form"], r["tool"], r["drift"]) == (form, tool, d)), None)
                cells.append("-" if r is None else
                             f"{100 * r['correct'] / r['total']:.0f}% {r['correct']}/{r['wrong']}/{r['refused']}")
            c, w, t = rate(rows, form=form, tool=tool, drift=[d for d in DRIFTS if d != "none"])
            cells.append(f"{100 * c / max(t, 1):.1f}% (w {w})")
            table.add_row(f"{form} / {tool}", *cells)
    Console().print(table)


def plot(report: dict, out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = report["rows"]
    fig, ax = plt.subplots(figsize=(12, 5))
    width = 0.8 / len(TOOLS)
    for k, tool in enumerate(TOOLS):
        vals = []
        for d in DRIFTS:
            c, _, t = rate(rows, form="udiff", tool=tool, drift=d)
            vals.append(100 * c / t if t else 0)
        ax.bar([i + k * width for i in range(len(DRIFTS))], vals, width, label=tool)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(DRIFTS))], DRIFTS)
    ax.set_ylabel("% applied correctly (unified diffs)")
    ax.set_ylim(0, 105)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=len(TOOLS), frameon=False)
    ax.set_title(f"diffbench: {report['n']} edits, seed {report['seed']}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.diffbench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=200, help="number of edits (files) to generate (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--site-packages", action="store_true",
                        help="also draw files from site-packages (the corpus then depends on what is installed)")
    parser.add_argument("--out", metavar="JSON", help="write the report (counts and our failures) here")
    parser.add_argument("--plot", metavar="PNG", help="write a bar chart of the unified-diff results here")
    args = parser.parse_args(argv)
    for exe in ("patch", "git"):
        if shutil.which(exe) is None:
            print(f"diffbench: {exe} is not installed", file=sys.stderr)
            return 2
    report = run_bench(args.n, args.seed, site_packages=args.site_packages)
    print_table(report)
    rows = report["rows"]
    drifted = [d for d in DRIFTS if d != "none"]
    c, w, t = rate(rows, tool="fastapply", drift=drifted)
    print(f"fastapply drifted, all forms: {c}/{t} correct ({100 * c / max(t, 1):.1f}%), {w} wrong")
    if args.out:
        Path(args.out).write_bytes(msgspec.json.format(msgspec.json.encode(report)))
    if args.plot:
        plot(report, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
