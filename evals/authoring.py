"""The hand-written dev corpus (evals/corpus): base files stored once, cases as small specs.

Layout:

    evals/corpus/bases/<language>/<file>     each base file once (LF, no BOM)
    evals/corpus/specs/<language>.cases      the cases: base, snippet and exact old -> new edits

Why specs: the expected merged file of a case must be trustworthy. Writing three files by hand
invites typos, so each case is a base file, the snippet an agent would send, and a list of exact
(old -> new) replacements on the base; `expected` is the base with them applied. The corpus grows
by adding a few lines per case, not a copy of the base (the old one-folder-per-case layout stored
every base 5 to 17 times). `evals.cases.load_cases("evals/corpus")` builds the cases in memory
(string operations only, no checks); `python -m evals.authoring --check` runs the checks below on
every case; `--export FILE.jsonl` writes them in the JSONL interchange format.

Spec format (lines starting with `@@@@` are directives, every other line is verbatim content of
the block opened by the last directive; outside blocks, lines starting with `%` are comments):

    @@@@ case add-price-route            case id (unique per language; the case id is <language>/<id>)
    @@@@ base orders_service.py          file in bases/<language>/ (its extension is the case's)
    @@@@ language python                 default: from the base's extension
    @@@@ filename OrderService.java      the file name the agent sees (default: the base's name)
    @@@@ instruction Add an endpoint ... the instruction an agent would send
    @@@@ tags markers, new_function      the kinds of edit (see evals/corpus/README.md)
    @@@@ transform crlf                  crlf | tabs | bom | no-eol, applied in order to original and
                                         expected (`tabs` also re-indents the snippet)
    @@@@ drop // remove legacyTotal      a snippet line that is an instruction, not code (repeatable)
    @@@@ whole-file                      the snippet is the whole new file: with no replacements,
                                         expected is the snippet; with replacements, the snippet is
                                         the base with them applied (and no snippet block is given)
    @@@@ unchecked                       skip the snippet/expected/syntax checks (say why in a comment)
    @@@@ snippet                         the lazy snippet follows
    @@@@ old                             whole lines of the base, found exactly once, follow
    @@@@ new                             their replacement follows (empty block: delete)

Checks (`--check`, and tests/evals/test_corpus.py): every `old` occurs exactly once on whole lines;
every code line of the snippet appears in `expected` in order; `expected` holds no line found in
neither the base nor the snippet; `expected` differs from the base and has no syntax error
(tree-sitter) that the base lacks. (tests/evals/test_corpus.py also wants bases of 100-1,500 lines.)
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

CORPUS_DIR = Path(__file__).parent / "corpus"

_LANG_BY_EXT = {
    ".py": "python", ".js": "javascript", ".jsx": "jsx", ".ts": "typescript", ".tsx": "tsx",
    ".rs": "rust", ".go": "go", ".html": "html", ".java": "java", ".c": "c", ".cpp": "cpp",
    ".hpp": "cpp", ".cs": "csharp", ".rb": "ruby", ".php": "php", ".kt": "kotlin", ".swift": "swift",
    ".scala": "scala", ".lua": "lua", ".css": "css", ".sh": "bash", ".yaml": "yaml", ".yml": "yaml",
    ".json": "json",
}
# A snippet line that stands for elided code (any comment syntax, any wording after the dots) or a
# deletion directive such as `// remove foo`: these must not appear in the expected file.
_MARKER = re.compile(r"^\s*(//|#|--|/\*|<!--|\{/\*|;)?\s*(\.\.\.|…|\[\.\.\.\])")
_DIRECTIVE = re.compile(r"^\s*(//|#|--|/\*|<!--|\{/\*)\s*(remove|delete|removed|deleted)\b", re.I)
TRANSFORMS = {"crlf", "tabs", "bom", "no-eol"}


class SpecError(ValueError):
    """A case spec is inconsistent; the message names the case and the problem."""


@dataclass
class Spec:
    id: str
    source: str
    base: str = ""
    language: str = ""
    filename: str = ""
    instruction: str = ""
    tags: list[str] = field(default_factory=list)
    transforms: list[str] = field(default_factory=list)
    drop: list[str] = field(default_factory=list)
    whole_file: bool = False
    unchecked: bool = False
    snippet: str = ""
    replacements: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ext(self) -> str:
        return Path(self.base).suffix

    @property
    def case_id(self) -> str:
        return f"{self.language}/{self.id}"


@dataclass
class Built:
    spec: Spec
    base: str
    original: str
    update: str
    expected: str  # after transforms
    plain_expected: str  # before transforms (what the checks look at)
    plain_update: str


def parse_specs(path: Path) -> list[Spec]:
    specs: list[Spec] = []
    block: list[str] | None = None
    pending_old: str | None = None

    def close_block() -> None:
        nonlocal block, pending_old
        if block is None:
            return
        kind, text = block[0], "".join(block[1:])
        spec = specs[-1]
        if kind == "snippet":
            spec.snippet = text
        elif kind == "old":
            pending_old = text
        elif kind == "new":
            if pending_old is None:
                raise SpecError(f"{spec.id}: '@@@@ new' without a preceding '@@@@ old'")
            spec.replacements.append((pending_old, text))
            pending_old = None
        block = None

    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(keepends=True), 1):
        if not line.startswith("@@@@"):
            if block is not None:
                block.append(line)
            elif line.strip() and not line.startswith("%"):
                raise SpecError(f"{path.name}:{number}: text outside a block: {line.rstrip()!r}")
            continue
        close_block()
        key, _, value = line[4:].strip().partition(" ")
        value = value.strip()
        if key == "case":
            if pending_old is not None:
                raise SpecError(f"{specs[-1].id}: '@@@@ old' without '@@@@ new'")
            specs.append(Spec(id=value, source=path.name))
            continue
        if not specs:
            raise SpecError(f"{path.name}:{number}: directive before the first '@@@@ case'")
        spec = specs[-1]
        if key in ("snippet", "old", "new"):
            block = [key]
        elif key in ("base", "language", "instruction", "filename"):
            setattr(spec, key, value)
        elif key == "tags":
            spec.tags = [t.strip() for t in value.split(",") if t.strip()]
        elif key == "transform":
            spec.transforms += value.split()
        elif key == "drop":
            spec.drop.append(value)
        elif key == "whole-file":
            spec.whole_file = True
        elif key == "unchecked":
            spec.unchecked = True
        else:
            raise SpecError(f"{path.name}:{number}: unknown directive {key!r}")
    close_block()
    if pending_old is not None:
        raise SpecError(f"{specs[-1].id}: '@@@@ old' without '@@@@ new'")
    for spec in specs:
        spec.language = spec.language or _LANG_BY_EXT.get(spec.ext, "")
        spec.filename = spec.filename or spec.base
    return specs


def build(spec: Spec, bases_dir: Path = CORPUS_DIR / "bases", checked: bool = True) -> Built:
    """The case's files, from its base and replacements; `checked` also runs `check` on it."""
    if not spec.language:
        raise SpecError(f"{spec.id}: no language for extension {spec.ext!r}; add '@@@@ language'")
    path = bases_dir / spec.language / spec.base
    if not path.is_file():
        path = bases_dir / spec.base
    if not spec.base or not path.is_file():
        raise SpecError(f"{spec.id}: base file {spec.base!r} not found in {bases_dir / spec.language}")
    if not spec.snippet.strip() and not (spec.whole_file and spec.replacements):
        raise SpecError(f"{spec.id}: empty snippet")
    if bad := set(spec.transforms) - TRANSFORMS:
        raise SpecError(f"{spec.id}: unknown transform(s) {sorted(bad)}")
    with open(path, encoding="utf-8", newline="") as handle:
        base = handle.read()
    if "\r" in base or base.startswith("\ufeff"):
        raise SpecError(f"{path}: write bases with LF and no BOM; use transforms instead")
    snippet = spec.snippet
    if spec.whole_file and not spec.replacements:
        expected = spec.snippet
    elif spec.whole_file:
        # A rewrite of the whole file: the snippet is the edited file itself, top to bottom.
        if spec.snippet:
            raise SpecError(f"{spec.id}: a whole-file case with replacements derives its snippet")
        expected = apply_replacements(spec.id, base, spec.replacements)
        snippet = expected
    else:
        if not spec.replacements:
            raise SpecError(f"{spec.id}: no replacements (use '@@@@ whole-file' for a new file)")
        expected = apply_replacements(spec.id, base, spec.replacements)
    original, final, update = base, expected, snippet
    for name in spec.transforms:
        original, final = _transform(name, original), _transform(name, final)
        if name == "tabs":
            update = _transform(name, update)
    built = Built(spec, base, original, update, final, expected, snippet)
    if checked:
        check(built)
    return built


def apply_replacements(case_id: str, base: str, replacements: list[tuple[str, str]]) -> str:
    """Replace each `old` (whole lines, exactly one occurrence at that point) by its `new`."""
    text = base
    for index, (old, new) in enumerate(replacements, 1):
        if not old:
            raise SpecError(f"{case_id}: replacement {index} has an empty 'old'")
        starts = _line_starts(text, old)
        count = len(starts)
        if count != 1:
            first = old.strip().splitlines()[0] if old.strip() else old
            raise SpecError(f"{case_id}: replacement {index} 'old' occurs {count} times "
                            f"(must be exactly once, on whole lines); it starts {first!r}")
        text = text[:starts[0]] + new + text[starts[0] + len(old):]
    return text


def _line_starts(text: str, old: str) -> list[int]:
    """Offsets where `old` occurs starting at a line start (occurrences may overlap)."""
    found, at = [], text.find(old)
    while at != -1:
        if at == 0 or text[at - 1] == "\n":
            found.append(at)
        at = text.find(old, at + 1)
    return found


def check(item: Built) -> None:
    """Raise SpecError when the case is inconsistent (see the module docstring)."""
    spec = item.spec
    if item.plain_expected == item.base:
        raise SpecError(f"{spec.case_id}: expected equals the base")
    if spec.unchecked:
        return
    check_snippet_in_expected(spec.case_id, item.plain_update, item.plain_expected, spec.drop)
    check_no_invented_lines(spec.case_id, item.base, item.plain_update, item.plain_expected)
    check_syntax(spec.case_id, spec.language, item.base, item.plain_expected)


def check_snippet_in_expected(case_id: str, snippet: str, expected: str, drop: list[str] = ()) -> None:  # type: ignore[assignment]
    """Every code line of the snippet must appear in expected, in order (stripped comparison)."""
    dropped = {line.strip() for line in drop}
    wanted = [line.strip() for line in snippet.splitlines()
              if line.strip() and not _MARKER.match(line) and not _DIRECTIVE.match(line)
              and line.strip() not in dropped]
    lines = [line.strip() for line in expected.splitlines()]
    position = 0
    for line in wanted:
        try:
            position = lines.index(line, position) + 1
        except ValueError:
            raise SpecError(f"{case_id}: snippet line {line!r} is not in expected (after the "
                            f"previous snippet line); fix the replacements") from None


def check_no_invented_lines(case_id: str, base: str, snippet: str, expected: str) -> None:
    """Every line of expected that the base lacks must come from the snippet (stripped comparison)."""
    known = {line.strip() for line in base.splitlines()} | {line.strip() for line in snippet.splitlines()}
    for line in expected.splitlines():
        if line.strip() not in known:
            raise SpecError(f"{case_id}: expected line {line.strip()!r} is neither in the base nor in "
                            f"the snippet; fix the replacements")


def check_syntax(case_id: str, language: str, base: str, expected: str) -> None:
    """Expected must not have syntax errors that the base lacks (tree-sitter, where we have a grammar)."""
    from .treesitter import syntax_errors

    before, after = syntax_errors(base, language), syntax_errors(expected, language)
    if len(after) > len(before):
        raise SpecError(f"{case_id}: expected has syntax errors near line(s) {after[:5]} that the base "
                        f"does not have; fix the replacements")


def _transform(name: str, text: str) -> str:
    if name == "crlf":
        return text.replace("\n", "\r\n")
    if name == "bom":
        return "\ufeff" + text
    if name == "no-eol":
        return text.removesuffix("\n").removesuffix("\r")
    if name == "tabs":
        out = []
        for line in text.splitlines(keepends=True):
            stripped = line.lstrip(" ")
            width = len(line) - len(stripped)
            out.append("\t" * (width // 4) + " " * (width % 4) + stripped)
        return "".join(out)
    raise SpecError(f"unknown transform {name!r}")


def load_all(corpus: Path = CORPUS_DIR) -> list[Built]:
    """Every case of the corpus, built (not checked). Cost: O(total size of specs and bases)."""
    built, seen = [], set()
    for path in sorted((corpus / "specs").glob("*.cases")):
        for spec in parse_specs(path):
            if spec.case_id in seen:
                raise SpecError(f"{spec.case_id}: duplicate case id")
            seen.add(spec.case_id)
            built.append(build(spec, corpus / "bases", checked=False))
    return built


def to_case(item: Built):  # -> evals.cases.Case (imported late: cases imports this module)
    from .cases import Case

    spec = item.spec
    return Case(id=spec.case_id, original=item.original, update=item.update, expected=item.expected,
                filename=spec.filename, language=spec.language, instruction=spec.instruction or None,
                tags=list(spec.tags))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.authoring", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="run the consistency checks on every case")
    parser.add_argument("--corpus", type=Path, default=CORPUS_DIR, help="corpus folder (bases/, specs/)")
    parser.add_argument("--export", type=Path, metavar="JSONL", help="write the cases as JSONL")
    args = parser.parse_args(argv)
    try:
        built = load_all(args.corpus)
        if args.check:
            for item in built:
                check(item)
    except SpecError as exc:
        print(f"authoring: {exc}", file=sys.stderr)
        return 1
    if args.export:
        from .cases import write_jsonl

        write_jsonl([to_case(item) for item in built], args.export)
        print(f"wrote {len(built)} cases to {args.export}")
    print(f"{len(built)} cases{' checked' if args.check else ''} in {args.corpus}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
