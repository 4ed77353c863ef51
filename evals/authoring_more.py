"""Builds the second half of the dev corpus (Java, C, C++, C#, Ruby, PHP, Kotlin, Swift, Scala, Lua,
CSS, Bash, YAML, JSON) from hand-written definitions, so that every `expected` file is mechanical.

Sources live in `evals/sources_more/<language>/`: one or more base files (`base.EXT`, a realistic file
written for this corpus) and one `<case-id>.case` file per case. A `.case` file is a small header
followed by sections introduced by lines starting with `@@@`:

    instruction: Add a refund method
    tags: body_marker, multi_segment
    options: crlf, bom, no_final_newline, whole_file   (optional)
    base: base2.java                                   (optional; default: base.EXT, else the only base*.*;
                                                        the case files take the base's extension)
    filename: Other.java                               (optional; default from LANGUAGES)
    drop: // remove legacyTotal                        (optional, repeatable: snippet lines that are
                                                        instructions and must not reach `expected`)
    @@@ snippet
    ...the lazy edit exactly as a model would write it...
    @@@ old
    ...whole lines of the base, which must occur exactly once...
    @@@ new
    ...what they become (empty section: deletion)...

`expected` = base with every (old -> new) pair applied in order, each `old` matching exactly once (on
whole lines) in the text at that point. Options: `crlf` gives original and expected CRLF endings (the
snippet stays LF, as models write it), `bom` prefixes both with a UTF-8 BOM, `no_final_newline` drops
both final newlines, `whole_file` makes the snippet the whole expected file (no snippet section).

Consistency checks (beyond exact matching): every non-marker snippet line appears in `expected`, and
every line of `expected` that the original lacks appears in the snippet (whitespace-insensitive), so
an expected file can neither ignore the snippet nor invent code.

    python -m evals.authoring_more           # write evals/data/<language>/<case-id>/
    python -m evals.authoring_more --check   # verify the stored files are reproduced byte for byte
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).parent
SOURCES = ROOT / "sources_more"
DATA = ROOT / "data"

# language folder -> (extension, default filename, language name passed in case.json)
LANGUAGES: dict[str, tuple[str, str, str]] = {
    "java": ("java", "OrderService.java", "java"),
    "c": ("c", "ringbuf.c", "c"),
    "cpp": ("hpp", "lru_cache.hpp", "cpp"),
    "csharp": ("cs", "OrdersController.cs", "csharp"),
    "ruby": ("rb", "subscription.rb", "ruby"),
    "php": ("php", "InvoiceRepository.php", "php"),
    "kotlin": ("kt", "NoteRepository.kt", "kotlin"),
    "swift": ("swift", "WeatherViewModel.swift", "swift"),
    "scala": ("scala", "LedgerService.scala", "scala"),
    "lua": ("lua", "inventory.lua", "lua"),
    "css": ("css", "dashboard.css", "css"),
    "bash": ("sh", "deploy.sh", "bash"),
    "yaml": ("yml", "ci.yml", "yaml"),
    "json": ("json", "package.json", "json"),
}

_MARKER = re.compile(r"^\s*(//|#|--|/\*|\{/\*|<!--|;)\s*(\.\.\.|…)")
_OPTIONS = {"crlf", "bom", "no_final_newline", "whole_file"}


class AuthoringError(Exception):
    pass


@dataclass
class Spec:
    language: str
    case_id: str
    instruction: str
    tags: list[str]
    base: Path
    filename: str
    options: set[str] = field(default_factory=set)
    drop: list[str] = field(default_factory=list)
    snippet: str = ""
    pairs: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Built:
    folder: Path
    files: dict[str, bytes]


def is_marker(line: str) -> bool:
    return bool(_MARKER.match(line))


def parse_spec(path: Path) -> Spec:
    language = path.parent.name
    ext, default_name, _ = LANGUAGES[language]
    header: dict[str, str] = {}
    drop: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for raw in path.read_text(encoding="utf-8").split("\n"):
        if raw.startswith("@@@"):
            sections.append((raw[3:].strip(), []))
        elif sections:
            sections[-1][1].append(raw)
        elif raw.strip():
            key, _, value = raw.partition(":")
            if key.strip() == "drop":
                drop.append(value.strip())
            else:
                header[key.strip()] = value.strip()
    if sections and sections[-1][1] and sections[-1][1][-1] == "":
        sections[-1][1].pop()  # the .case file's own final newline
    bases = sorted(path.parent.glob("base*.*"))
    default = path.parent / f"base.{ext}"
    if "base" in header:
        base: Path | None = path.parent / header["base"]
    elif default.is_file():
        base = default
    else:
        base = bases[0] if len(bases) == 1 else None
    if base is None or not base.is_file():
        raise AuthoringError(f"{path}: no unique base file; name one with 'base:'")
    options = {o.strip() for o in header.get("options", "").split(",") if o.strip()}
    if options - _OPTIONS:
        raise AuthoringError(f"{path}: unknown options {sorted(options - _OPTIONS)}")
    spec = Spec(language=language, case_id=path.stem, instruction=header.get("instruction", ""),
                tags=[t.strip() for t in header.get("tags", "").split(",") if t.strip()],
                base=base, filename=header.get("filename", default_name), options=options, drop=drop)
    if not spec.instruction or not spec.tags:
        raise AuthoringError(f"{path}: 'instruction' and 'tags' are required")
    _fill_sections(spec, sections, path)
    return spec


def _fill_sections(spec: Spec, sections: list[tuple[str, list[str]]], path: Path) -> None:
    pending_old: str | None = None
    for name, lines in sections:
        if name == "snippet":
            while lines and not lines[-1].strip():
                lines.pop()
            spec.snippet = "\n".join(lines) + "\n"
        elif name == "old":
            if pending_old is not None:
                raise AuthoringError(f"{path}: 'old' without its 'new'")
            pending_old = "\n".join(lines) + "\n"
        elif name == "new":
            if pending_old is None:
                raise AuthoringError(f"{path}: 'new' without an 'old'")
            spec.pairs.append((pending_old, "\n".join(lines) + "\n" if lines else ""))
            pending_old = None
        else:
            raise AuthoringError(f"{path}: unknown section {name!r}")
    if pending_old is not None:
        raise AuthoringError(f"{path}: last 'old' has no 'new'")
    if not spec.pairs:
        raise AuthoringError(f"{path}: no replacements")
    if not spec.snippet.strip() and "whole_file" not in spec.options:
        raise AuthoringError(f"{path}: no snippet")


def apply_pairs(base: str, pairs: list[tuple[str, str]], where: str) -> str:
    text = base
    for number, (old, new) in enumerate(pairs, 1):
        count = ("\n" + text).count("\n" + old)
        if count != 1:
            first = old.split("\n", 1)[0]
            raise AuthoringError(f"{where}: replacement {number} ({first!r}...) matches {count} times")
        start = ("\n" + text).index("\n" + old)
        text = text[:start] + new + text[start + len(old):]
    return text


def _norm_lines(text: str) -> set[str]:
    return {line.strip() for line in text.split("\n") if line.strip()}


def check_consistency(spec: Spec, original: str, expected: str, snippet: str) -> None:
    where = f"{spec.language}/{spec.case_id}"
    expected_lines = _norm_lines(expected)
    dropped = {d.strip() for d in spec.drop}
    for line in snippet.split("\n"):
        text = line.strip()
        if text and not is_marker(line) and text not in expected_lines and text not in dropped:
            raise AuthoringError(f"{where}: snippet line {text!r} is not in expected")
    snippet_lines = _norm_lines(snippet)
    for text in sorted(_norm_lines(expected) - _norm_lines(original)):
        if text not in snippet_lines:
            raise AuthoringError(f"{where}: expected line {text!r} is neither original nor snippet")
    if expected == original:
        raise AuthoringError(f"{where}: expected equals original")
    lines = original.count("\n") + 1
    if not 100 <= lines <= 1500:
        raise AuthoringError(f"{where}: original has {lines} lines, want 100..1500")


def build(spec: Spec) -> Built:
    _, _, language = LANGUAGES[spec.language]
    ext = spec.base.suffix[1:]
    base = spec.base.read_text(encoding="utf-8")
    if "\r" in base or base.startswith("\ufeff"):
        raise AuthoringError(f"{spec.base}: write bases with LF and no BOM; use options instead")
    expected = apply_pairs(base, spec.pairs, f"{spec.language}/{spec.case_id}")
    snippet = expected if "whole_file" in spec.options else spec.snippet
    check_consistency(spec, base, expected, snippet)
    original = base
    if "no_final_newline" in spec.options:
        original, expected = original.rstrip("\n"), expected.rstrip("\n")
    if "crlf" in spec.options:
        original, expected = original.replace("\n", "\r\n"), expected.replace("\n", "\r\n")
    if "bom" in spec.options:
        original, expected = "\ufeff" + original, "\ufeff" + expected
    meta = {"instruction": spec.instruction, "tags": spec.tags, "filename": spec.filename,
            "language": language}
    files = {
        f"original.{ext}": original.encode("utf-8"),
        f"update.{ext}": snippet.encode("utf-8"),
        f"expected.{ext}": expected.encode("utf-8"),
        "case.json": (json.dumps(meta, indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
    }
    return Built(folder=DATA / spec.language / spec.case_id, files=files)


def all_specs() -> list[Spec]:
    return [parse_spec(p) for lang in LANGUAGES for p in sorted((SOURCES / lang).glob("*.case"))]


def build_all() -> list[Built]:
    return [build(spec) for spec in all_specs()]


def write(built: list[Built]) -> None:
    for item in built:
        item.folder.mkdir(parents=True, exist_ok=True)
        for name, data in item.files.items():
            (item.folder / name).write_bytes(data)


def differences(built: list[Built]) -> list[str]:
    """Stored files that regeneration would change, plus stored case folders with no definition."""
    problems = []
    known = {item.folder for item in built}
    for item in built:
        for name, data in item.files.items():
            path = item.folder / name
            if not path.is_file() or path.read_bytes() != data:
                problems.append(f"{path.relative_to(ROOT)} differs from its definition")
    for lang in LANGUAGES:
        for folder in sorted((DATA / lang).glob("*/")) if (DATA / lang).is_dir() else []:
            if folder not in known:
                problems.append(f"{folder.relative_to(ROOT)} has no definition in sources_more/")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.authoring_more", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="verify instead of writing")
    args = parser.parse_args(argv)
    try:
        built = build_all()
    except AuthoringError as exc:
        print(f"authoring error: {exc}", file=sys.stderr)
        return 1
    if args.check:
        problems = differences(built)
        for problem in problems:
            print(problem, file=sys.stderr)
        print(f"{len(built)} cases, {len(problems)} problems")
        return 1 if problems else 0
    write(built)
    print(f"wrote {len(built)} cases under {DATA.relative_to(ROOT.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
