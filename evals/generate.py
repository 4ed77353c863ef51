"""Derive extra eval cases at run time from source files already installed on this machine.

    python -m evals.generate --out gen.jsonl --n 200 --seed 0
    python -m evals.accuracy --data gen.jsonl
    python -m evals.generate --style llm --split dev --n 2000 --out llm-dev.jsonl

Two styles. `--style today` (the default, unchanged) is described below. `--style llm` writes
snippets with the habits of frontier models, each case tagged with every habit it holds (see
evals/llmgen/), from the stdlib, site-packages and the packages `python -m evals.fetch` cached,
split into `--split dev` (default) and the held-out splits `--split heldout2` (the figure of record) and
`--split heldout` (the older one); evals/llmgen/splits.py says what is held out.

Sources: the Python standard library (sysconfig's stdlib path) and .js/.ts/.rs/.go files found in
site-packages folders on sys.path. Nothing is stored in the repository: cases are written to the
JSONL file you name. Each case applies realistic edits to one file (change a function body, change a
signature, add a method, insert a function between two, delete a function, add an import) and
builds the lazy snippet an agent would send: the edited regions with a few lines of context, the rest
elided with `# ... existing code ...` / `// ... existing code ...` markers, or, for an edit inside one
function, sometimes just the whole new function without markers. Deterministic for a given seed and
set of installed files.
"""

from __future__ import annotations

import argparse
import ast
import random
import re
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from .cases import Case, write_jsonl
from .llmgen.cli import add_llm_arguments
from .treesitter import syntax_errors

MIN_LINES, MAX_LINES = 100, 1500
BRACE_EXTS = {".js": "javascript", ".mjs": "javascript", ".jsx": "jsx", ".ts": "typescript",
              ".tsx": "tsx", ".rs": "rust", ".go": "go"}
PY_MARKERS = ["# ... existing code ...", "# ... rest of the code ...", "# ... unchanged ...", "# ..."]
C_MARKERS = ["// ... existing code ...", "// ... rest of the code ...", "// ... unchanged ...", "// ..."]
NEW_IMPORTS = ["functools", "itertools", "logging", "textwrap", "operator", "contextlib", "shutil"]
CONTROL = {"if", "for", "while", "switch", "catch", "match", "else", "do", "try", "return", "loop",
           "function", "constructor"}
# Definition headers that open a brace block on the same line: (indent, name, parameters).
_JS = [
    re.compile(r"^(\s*)(?:export\s+(?:default\s+)?)?(?:async\s+)?function\s*\*?\s*(\w+)\s*"
               r"\(([^()]*)\)[^{}=]*\{\s*$"),
    re.compile(r"^(\s+)(?:(?:static|async|public|private|protected|get|set)\s+)*(\w+)\s*"
               r"\(([^()]*)\)[^{}=;]*\{\s*$"),
]
_HEADERS = {
    "javascript": _JS,
    "jsx": _JS,
    "typescript": _JS,
    "tsx": _JS,
    "rust": [re.compile(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:unsafe\s+)?fn\s+(\w+)"
                        r"[^(]*\(([^()]*)\)[^{;]*\{\s*$")],
    "go": [re.compile(r"^()func\s+(?:\([^)]*\)\s*)?(\w+)\s*\(([^()]*)\)[^{]*\{\s*$")],
}


@dataclass
class Edit:
    """Replace original lines [start, end) with `new` (0-based). `unit` is the enclosing definition."""

    kind: str
    start: int
    end: int
    new: list[str]
    unit: tuple[int, int] | None = None


@dataclass
class Unit:
    """A function, method or class: lines [start, end), body from `body`, with its `indent`."""

    name: str
    start: int
    end: int
    body: int
    indent: str
    params: list[str]
    is_class: bool = False
    top_level: bool = True


def find_sources(limit_per_kind: int = 400) -> list[Path]:
    """Installed source files, sorted so that the choice depends only on what is installed."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    skip = ("test", "tests", "idlelib", "site-packages", "lib2to3", "turtledemo", "tkinter")
    found = sorted(p for p in stdlib.glob("**/*.py") if not set(p.relative_to(stdlib).parts) & set(skip))
    found = found[:limit_per_kind * 4]
    for entry in sorted({p for p in sys.path if p.endswith("site-packages")}):
        for ext in BRACE_EXTS:
            found += sorted(Path(entry).glob(f"**/*{ext}"))[:limit_per_kind]
    return found


def collect_sources(paths: list[Path]) -> list[Path]:
    """Source files named directly or found below the given folders, in a stable order."""
    exts = {".py", *BRACE_EXTS}
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.rglob("*") if p.suffix in exts and p.is_file())
        elif path.suffix in exts:
            found.append(path)
    return found


def python_units(tree: ast.Module, lines: list[str]) -> list[Unit]:
    units = []

    def visit(nodes: list[ast.stmt], top: bool) -> None:
        for node in nodes:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            start = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            body = node.body[0]
            if isinstance(body, ast.Expr) and isinstance(getattr(body, "value", None), ast.Constant) \
                    and len(node.body) > 1:
                body = node.body[1]  # skip the docstring
            first = min([body.lineno] + [d.lineno for d in getattr(body, "decorator_list", [])])
            if first <= node.lineno or body.end_lineno is None:
                continue  # one-line definitions
            line = lines[first - 1]
            indent = line[: len(line) - len(line.lstrip())]
            params = []
            if not isinstance(node, ast.ClassDef):
                params = [a.arg for a in node.args.args if a.arg not in ("self", "cls")]
            units.append(Unit(node.name, start, node.end_lineno or node.lineno, first - 1, indent,
                              params, isinstance(node, ast.ClassDef), top))
            if isinstance(node, ast.ClassDef):
                visit(node.body, False)

    visit(tree.body, True)
    return units


def brace_units(lines: list[str], lang: str) -> list[Unit]:
    """Functions and methods of a brace language, found by header line and matching closing brace."""
    units = []
    for i, line in enumerate(lines):
        match = next((m for pattern in _HEADERS[lang] if (m := pattern.match(line))), None)
        if match is None or match.group(2) in CONTROL:
            continue
        indent = match.group(1)
        end = next((j for j in range(i + 1, min(len(lines), i + 300))
                    if lines[j].startswith(indent + "}") and lines[j].strip() in ("}", "};", "},")), None)
        if end is None or end - i < 3:
            continue
        first = match.group(3).split(",")[0].strip()
        params = re.findall(r"^(\w+)", first) if first not in ("self", "&self", "&mut self") else []
        body_line = lines[i + 1]
        body_indent = body_line[: len(body_line) - len(body_line.lstrip())]
        units.append(Unit(match.group(2), i, end + 1, i + 1, body_indent or indent + "  ", params,
                          top_level=not indent))
    return units


def _python_edits(unit: Unit, units: list[Unit], lines: list[str], rng: random.Random) -> list[Edit]:
    """The candidate edits for one Python definition."""
    edits = []
    ind = unit.indent
    if not unit.is_class and unit.params:
        p = rng.choice(unit.params)
        guard = [f"{ind}if {p} is None:", f'{ind}    raise ValueError("{p} must not be None")']
        edits.append(Edit("modify_body", unit.body, unit.body, guard, (unit.start, unit.end)))
        header = unit.start
        while header < unit.body and not re.match(r"\s*(async\s+)?def\s", lines[header]):
            header += 1
        m = re.match(r"^(\s*(?:async\s+)?def\s+\w+\()([^()]*)(\)\s*(->.*)?:\s*)$", lines[header])
        if m and "*" not in m.group(2) and "=" not in m.group(2):
            sep = ", " if m.group(2).strip() else ""
            head = f"{m.group(1)}{m.group(2)}{sep}strict=False{m.group(3)}"
            body = [f"{ind}if strict and {p} is None:", f'{ind}    raise ValueError("{p} is required")']
            edits.append(Edit("signature", header, header + 1, [head], (unit.start, unit.end)))
            edits[-1].new += lines[header + 1: unit.body] + body
            edits[-1].end = unit.body
    if unit.is_class:
        methods = [u for u in units if not u.top_level and unit.start < u.start < unit.end
                   and u.indent.startswith(ind) and len(u.indent) == len(ind) + 4]
        names = {u.name for u in methods}
        name = next((n for n in ("describe", "summary", "as_text", "debug_repr") if n not in names), None)
        if methods and name:
            after = rng.choice(methods)
            mind = ind
            new = ["", f"{mind}def {name}(self):", f'{mind}    """A short description for logs."""',
                   f'{mind}    return f"<{{type(self).__name__}} {{id(self):#x}}>"']
            edits.append(Edit("add_method", after.end, after.end, new))
    if unit.top_level and not unit.is_class:
        new = ["", "", f"def _normalized_{unit.name}_key(value):",
               '    """Collapse whitespace and lower-case a key before lookups."""',
               '    return " ".join(str(value).split()).lower()']
        edits.append(Edit("insert_function", unit.end, unit.end, new))
        end = unit.end
        while end < len(lines) and not lines[end].strip():
            end += 1
        if end < len(lines) and unit.start > 0:
            edits.append(Edit("delete_function", _with_comments(lines, unit.start, ("#",)), end, []))
    return edits


def _with_comments(lines: list[str], start: int, prefixes: tuple[str, ...]) -> int:
    """Move a definition's start up over the comment lines (and attributes) directly above it."""
    while start > 0 and lines[start - 1].strip().startswith(prefixes):
        start -= 1
    return start


def _import_edit(tree: ast.Module, lines: list[str], rng: random.Random) -> Edit | None:
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
               and not (isinstance(n, ast.ImportFrom) and n.module == "__future__")]
    if not imports:
        return None
    present = {a.name.split(".")[0] for n in imports for a in n.names} | \
              {n.module.split(".")[0] for n in imports if isinstance(n, ast.ImportFrom) and n.module}
    choices = [m for m in NEW_IMPORTS if m not in present]
    if not choices:
        return None
    at = imports[0].lineno - 1
    return Edit("add_import", at, at, [f"import {rng.choice(choices)}"])


def _brace_edits(unit: Unit, lines: list[str], lang: str) -> list[Edit]:
    edits = []
    ind = unit.indent
    header = lines[unit.start]
    step = ind[len(header) - len(header.lstrip()):] or "  "
    if lang in ("javascript", "jsx", "typescript", "tsx") and unit.params:
        p = unit.params[0]
        guard = [f"{ind}if ({p} === undefined) {{", f"{ind}{step}throw new TypeError('{p} is required');",
                 f"{ind}}}"]
        edits.append(Edit("modify_body", unit.body, unit.body, guard, (unit.start, unit.end)))
    if unit.top_level:
        end = unit.end
        while end < len(lines) and not lines[end].strip():
            end += 1
        if end < len(lines) and unit.start > 0:
            edits.append(Edit("delete_function", _with_comments(lines, unit.start, ("//", "/*", "*", "#[")), end, []))
        js = ["", "function clampValue(value, low, high) {",
              "  return Math.min(Math.max(value, low), high);", "}"]
        ts = ["", "function clampValue(value: number, low: number, high: number): number {",
              "  return Math.min(Math.max(value, low), high);", "}"]
        template = {
            "javascript": js, "jsx": js, "typescript": ts, "tsx": ts,
            "rust": ["", "fn clamp_value(value: i64, low: i64, high: i64) -> i64 {",
                     "    value.max(low).min(high)", "}"],
            "go": ["", "func clampValue(value, low, high int) int {", "\treturn max(low, min(value, high))",
                   "}"],
        }[lang]
        edits.append(Edit("insert_function", unit.end, unit.end, template))
    return edits


def _context(lines: list[str], at: int, step: int, count: int) -> int:
    """Move from `at` by `step` over `count` meaningful lines (and the blank lines between)."""
    seen = 0
    while seen < count and 0 <= at + step < len(lines):
        at += step
        if len(lines[at].strip()) > 3:
            seen += 1
    return at


def _telling_context(lines: list[str], edit: Edit, lo: int, hi: int) -> tuple[int, int]:
    """Widen a deletion's context [lo, hi) while the lines before it are also the deleted lines'
    last ones (`print()` ends both functions), or the lines after it their first ones: read the
    usual way, such a snippet deletes nothing, and a careful author shows one more line there.
    O(deleted lines x lines added)."""
    gone = [line.strip() for line in lines[edit.start:edit.end] if line.strip()]

    def meaningful(a: int, b: int) -> list[str]:
        return [line.strip() for line in lines[a:b] if line.strip()]

    while lo > 0 and (before := meaningful(lo, edit.start)) and gone[-len(before):] == before:
        lo = _context(lines, lo, -1, 1)
    while hi < len(lines) and (after := meaningful(edit.end, hi)) and gone[:len(after)] == after:
        hi = _context(lines, hi - 1, 1, 1) + 1
    return lo, hi


def build_snippet(lines: list[str], edits: list[Edit], marker: str, rng: random.Random,
                  whole_unit: bool) -> tuple[str, str]:
    """(snippet, expected) for non-overlapping edits sorted by position."""
    expected: list[str] = []
    cursor = 0
    for edit in edits:
        expected += lines[cursor: edit.start] + edit.new
        cursor = edit.end
    expected += lines[cursor:]
    if whole_unit and len(edits) == 1 and edits[0].unit:
        start, end = edits[0].unit
        edit = edits[0]
        return "\n".join(lines[start: edit.start] + edit.new + lines[edit.end: end]) + "\n", \
            "\n".join(expected) + "\n"
    windows = []
    for edit in edits:
        lo = _context(lines, edit.start, -1, rng.randint(1, 3))
        hi = _context(lines, edit.end - 1, 1, rng.randint(1, 3)) + 1
        if not edit.new:
            lo, hi = _telling_context(lines, edit, max(0, lo), min(len(lines), hi))
        windows.append([max(0, lo), min(len(lines), hi), [edit]])
    merged = [windows[0]]
    for window in windows[1:]:
        if window[0] <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], window[1])
            merged[-1][2] += window[2]
        else:
            merged.append(window)
    out: list[str] = []
    for index, (lo, hi, group) in enumerate(merged):
        if lo > (merged[index - 1][1] if index else 0):
            out.append(_indented(marker, lines, lo, rng))
        cursor = lo
        for edit in group:
            out += lines[cursor: edit.start] + edit.new
            cursor = edit.end
        out += lines[cursor: hi]
    if merged[-1][1] < len(lines):
        out.append(_indented(marker, lines, merged[-1][1], rng))
    return "\n".join(out) + "\n", "\n".join(expected) + "\n"


def _indented(marker: str, lines: list[str], at: int, rng: random.Random) -> str:
    """Models indent a marker like the code it stands for about half of the time."""
    line = lines[min(at, len(lines) - 1)]
    return (line[: len(line) - len(line.lstrip())] if rng.random() < 0.5 else "") + marker


def cases_for_file(path: Path, rng: random.Random, count: int,
                   min_lines: int = MIN_LINES, max_lines: int = MAX_LINES) -> list[Case]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    # Python edits indent with spaces; brace-language edits copy the file's own indentation.
    tabs_unsupported = path.suffix == ".py" and "\t" in text
    if not min_lines <= len(lines) <= max_lines or "\r" in text or tabs_unsupported:
        return []
    if path.suffix == ".py":
        lang, markers = "python", PY_MARKERS
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return []
        units = python_units(tree, lines)
        pool = [e for u in units for e in _python_edits(u, units, lines, rng)]
        if (imp := _import_edit(tree, lines, rng)) is not None:
            pool.append(imp)
    else:
        lang, markers = BRACE_EXTS[path.suffix], C_MARKERS
        pool = [e for u in brace_units(lines, lang) for e in _brace_edits(u, lines, lang)]
    out = []
    for number in range(min(count, len(pool))):
        picked = [rng.choice(pool)]
        if rng.random() < 0.3:  # a second, separate edit: a multi-segment snippet
            other = rng.choice(pool)
            if other.end + 2 < picked[0].start or picked[0].end + 2 < other.start:
                picked = sorted([picked[0], other], key=lambda e: e.start)
        marker = markers[0] if rng.random() < 0.6 else rng.choice(markers)
        # Without markers, the new function must name its old version unambiguously.
        whole = len(picked) == 1 and picked[0].unit is not None and rng.random() < 0.3 \
            and lines.count(lines[picked[0].unit[0]]) == 1
        snippet, expected = build_snippet(lines, picked, marker, rng, whole)
        if len(syntax_errors(expected, lang)) > len(syntax_errors(text, lang)):
            continue  # an edit this generator cannot make cleanly here (a safety net, rarely hit)
        kinds = [e.kind for e in picked] + (["no_markers"] if whole else ["markers"])
        out.append(Case(id=f"gen:{path.name}:{number}:{'+'.join(e.kind for e in picked)}",
                        original=text, update=snippet, expected=expected, filename=path.name,
                        language=lang, tags=["generated", *kinds]))
    return out


def generate(n: int = 200, seed: int = 0, per_file: int = 2, sources: list[Path] | None = None,
             min_lines: int = MIN_LINES, max_lines: int = MAX_LINES) -> list[Case]:
    rng = random.Random(seed)
    files = list(sources if sources is not None else find_sources())
    rng.shuffle(files)
    # The few non-Python files go first so that every run holds some of them.
    files.sort(key=lambda p: p.suffix == ".py")
    cases: list[Case] = []
    for path in files:
        if len(cases) >= n:
            break
        cases += cases_for_file(path, rng, min(per_file, n - len(cases)), min_lines, max_lines)
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.generate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="JSONL file to write")
    add_llm_arguments(parser)
    parser.add_argument("--n", type=int, default=200, help="number of cases")
    parser.add_argument("--seed", type=int, default=0, help="--style today: the seed (llm: --seeds)")
    parser.add_argument("--per-file", type=int, default=2, help="at most this many cases per file")
    parser.add_argument("--source", action="append", type=Path, metavar="PATH",
                        help="derive cases from these files or folders instead of the installed "
                             "sources (repeatable)")
    parser.add_argument("--min-lines", type=int, default=MIN_LINES, help="skip shorter files")
    parser.add_argument("--max-lines", type=int, default=MAX_LINES,
                        help="skip longer files (raise it, e.g. to 10000, to stress large files)")
    args = parser.parse_args(argv)
    if args.style in ("llm", "real"):
        from .llmgen.cli import run_llm

        return run_llm(args)
    sources = collect_sources(args.source) if args.source else None
    cases = generate(args.n, args.seed, args.per_file, sources, min_lines=args.min_lines,
                     max_lines=args.max_lines)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl(cases, args.out)
    langs: dict[str, int] = {}
    for case in cases:
        langs[case.language or "?"] = langs.get(case.language or "?", 0) + 1
    counts = ", ".join(f"{lang}: {n}" for lang, n in sorted(langs.items()))
    print(f"wrote {len(cases)} cases to {args.out} ({counts})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
