"""Build the dev corpus (evals/data) from hand-written case specs (evals/specs/*.cases).

Why a script: the expected merged file of a case must be trustworthy. Writing three files by hand
invites typos, so each case is defined as a base file, the snippet an agent would send, and a list of
exact (old -> new) replacements on the base. The script checks that every `old` occurs exactly once,
applies the replacements to get `expected`, checks that every code line of the snippet appears in
`expected` in the same order, that `expected` invents no line found in neither the base nor the
snippet and has no new syntax error (tree-sitter), and writes `original.EXT`, `update.EXT`, `expected.EXT`, `case.json`.

Spec file format (one file per language; lines starting with `@@@@` are directives, every other line
is verbatim content of the block opened by the last directive):

    @@@@ case add-price-route            case id (folder name under evals/data/<language>/)
    @@@@ base orders_service.py          base file in evals/specs/bases/ (its extension is the case's)
    @@@@ language python                 folder under evals/data/ (default: from the base's extension)
    @@@@ instruction Add an endpoint ... the instruction an agent would send
    @@@@ tags markers, new_function      the kinds of edit (see evals/data/README.md)
    @@@@ transform crlf                  crlf | tabs | bom | no-eol (several allowed; original and
                                         expected; `tabs` also re-indents the snippet)
    @@@@ whole-file                      the snippet is the whole new file: with no replacements,
                                         expected is the snippet; with replacements, the snippet is
                                         the base with them applied (and no snippet block is given)
    @@@@ unchecked                       skip the snippet/expected/syntax checks (say why in a comment)
    @@@@ snippet                         the lazy snippet follows
    @@@@ old                             text to find in the base (exactly once) follows
    @@@@ new                             its replacement follows (empty block: delete)

Blocks are taken verbatim: every line up to the next directive, each with its newline. Put no spacer
lines between blocks; outside blocks, lines starting with `%` are comments. Run `python -m evals.authoring` to (re)write evals/data, `--check` to verify
that evals/data matches the specs without writing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .treesitter import syntax_errors

HERE = Path(__file__).parent
SPECS_DIR = HERE / "specs"
BASES_DIR = SPECS_DIR / "bases"
DATA_DIR = HERE / "data"

_LANG_BY_EXT = {
    ".py": "python", ".js": "javascript", ".jsx": "jsx", ".ts": "typescript", ".tsx": "tsx",
    ".rs": "rust", ".go": "go", ".html": "html", ".java": "java", ".c": "c", ".cpp": "cpp",
    ".cs": "csharp", ".rb": "ruby", ".php": "php", ".kt": "kotlin", ".swift": "swift",
    ".scala": "scala", ".lua": "lua", ".css": "css", ".sh": "bash", ".yaml": "yaml", ".yml": "yaml",
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
    instruction: str = ""
    tags: list[str] = field(default_factory=list)
    transforms: list[str] = field(default_factory=list)
    whole_file: bool = False
    unchecked: bool = False
    snippet: str = ""
    replacements: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ext(self) -> str:
        return Path(self.base).suffix


@dataclass
class Built:
    spec: Spec
    original: str
    update: str
    expected: str

    def files(self) -> dict[str, str]:
        ext = self.spec.ext
        meta = {"instruction": self.spec.instruction, "tags": self.spec.tags,
                "filename": self.spec.base, "language": self.spec.language}
        return {f"original{ext}": self.original, f"update{ext}": self.update,
                f"expected{ext}": self.expected, "case.json": json.dumps(meta, indent=2) + "\n"}


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
        elif key == "base":
            spec.base = value
        elif key == "language":
            spec.language = value
        elif key == "instruction":
            spec.instruction = value
        elif key == "tags":
            spec.tags = [t.strip() for t in value.split(",") if t.strip()]
        elif key == "transform":
            spec.transforms += value.split()
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
    return specs


def build(spec: Spec, bases_dir: Path = BASES_DIR) -> Built:
    if not spec.base or not (bases_dir / spec.base).is_file():
        raise SpecError(f"{spec.id}: base file {spec.base!r} not found in {bases_dir}")
    if not spec.language:
        raise SpecError(f"{spec.id}: no language for extension {spec.ext!r}; add '@@@@ language'")
    if not spec.snippet.strip() and not (spec.whole_file and spec.replacements):
        raise SpecError(f"{spec.id}: empty snippet")
    if bad := set(spec.transforms) - TRANSFORMS:
        raise SpecError(f"{spec.id}: unknown transform(s) {sorted(bad)}")
    base = (bases_dir / spec.base).read_text(encoding="utf-8")
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
    if not spec.unchecked:
        check_snippet_in_expected(spec.id, snippet, expected)
        check_no_invented_lines(spec.id, base, snippet, expected)
        check_syntax(spec.id, spec.language, base, expected)
    update = snippet
    original = base
    for name in spec.transforms:
        original, expected = _transform(name, original), _transform(name, expected)
        if name == "tabs":
            update = _transform(name, update)
    return Built(spec, original, update, expected)


def apply_replacements(case_id: str, base: str, replacements: list[tuple[str, str]]) -> str:
    text = base
    for index, (old, new) in enumerate(replacements, 1):
        if not old:
            raise SpecError(f"{case_id}: replacement {index} has an empty 'old'")
        count = text.count(old)
        if count != 1:
            first = old.strip().splitlines()[0] if old.strip() else old
            raise SpecError(f"{case_id}: replacement {index} 'old' occurs {count} times "
                            f"(must be exactly once); it starts {first!r}")
        text = text.replace(old, new)
    return text


def check_snippet_in_expected(case_id: str, snippet: str, expected: str) -> None:
    """Every code line of the snippet must appear in expected, in order (stripped comparison)."""
    wanted = [line.strip() for line in snippet.splitlines()
              if line.strip() and not _MARKER.match(line) and not _DIRECTIVE.match(line)]
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


def load_all(specs_dir: Path = SPECS_DIR) -> list[Built]:
    built, seen = [], set()
    for path in sorted(specs_dir.glob("*.cases")):
        for spec in parse_specs(path):
            key = (spec.language, spec.id)
            if key in seen:
                raise SpecError(f"{spec.id}: duplicate case id in {spec.language}")
            seen.add(key)
            built.append(build(spec, specs_dir / "bases"))
    return built


def write_case(item: Built, data_dir: Path = DATA_DIR) -> None:
    folder = data_dir / item.spec.language / item.spec.id
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in item.files().items():
        with open(folder / name, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)


def differences(item: Built, data_dir: Path = DATA_DIR) -> list[str]:
    folder = data_dir / item.spec.language / item.spec.id
    problems = []
    for name, text in item.files().items():
        path = folder / name
        if not path.exists():
            problems.append(f"{path}: missing")
            continue
        with open(path, encoding="utf-8", newline="") as handle:
            if handle.read() != text:
                problems.append(f"{path}: differs from its spec")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.authoring", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="verify evals/data, write nothing")
    parser.add_argument("--specs", type=Path, default=SPECS_DIR, help="folder of *.cases files")
    parser.add_argument("--data", type=Path, default=DATA_DIR, help="corpus folder to write")
    args = parser.parse_args(argv)
    try:
        built = load_all(args.specs)
    except SpecError as exc:
        print(f"authoring: {exc}", file=sys.stderr)
        return 1
    if args.check:
        problems = [p for item in built for p in differences(item, args.data)]
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"{len(built)} cases checked, {len(problems)} problem(s)")
        return 1 if problems else 0
    for item in built:
        write_case(item, args.data)
    print(f"wrote {len(built)} cases to {args.data}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
