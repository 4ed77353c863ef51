"""Loading eval cases. Every harness in evals/ reads the same interchange format.

Sources accepted by `load_cases(path)`:
- the dev corpus (evals/corpus, the default): base files stored once under `bases/<language>/` and
  cases as small specs under `specs/<language>.cases` (format: evals/authoring.py);
- a JSONL file: one case a line with `original`, `update`, `expected` and optional `id`, `filename`,
  `language`, `instruction`, `tags`;
- a folder of case folders (the corpus layout before evals/corpus): one sub-folder a case holding `original.EXT`, `update.EXT`,
  `expected.EXT` and an optional `case.json` ({"instruction", "language", "tags"});
- a fixture folder in the format of ../shared/data/continue-lazy: `NAME.EXT.diff` files with the
  original, the snippet and the expected result as a +/- diff, separated by lines holding only `---`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import msgspec

from fastapply.languages import detect_language

DATA_DIR = Path(__file__).parent / "corpus"


class Case(msgspec.Struct, kw_only=True):
    id: str
    original: str
    update: str
    expected: str
    filename: str | None = None
    language: str | None = None
    instruction: str | None = None
    tags: list[str] = msgspec.field(default_factory=list)

    def lang(self) -> str:
        return self.language or detect_language(self.filename, self.original) or "unknown"


def load_cases(path: str | Path = DATA_DIR) -> list[Case]:
    path = Path(path)
    if path.is_file():
        return list(_load_jsonl(path))
    if not path.is_dir():
        raise FileNotFoundError(f"no eval data at {path}")
    if (path / "specs").is_dir() and (path / "bases").is_dir():
        from .authoring import load_all, to_case

        return [to_case(item) for item in load_all(path)]
    if any(path.glob("*.diff")):
        return [_load_fixture(p) for p in sorted(path.glob("*.diff"))]
    return [_load_case_dir(p) for p in sorted(path.rglob("original.*")) if p.is_file()]


def write_jsonl(cases: list[Case], path: str | Path) -> None:
    with open(path, "wb") as handle:
        for case in cases:
            handle.write(msgspec.json.encode(case) + b"\n")


def _load_jsonl(path: Path) -> Iterator[Case]:
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            row.setdefault("id", f"{path.stem}:{number}")
            yield msgspec.convert(row, Case)


def _load_case_dir(original: Path) -> Case:
    folder = original.parent
    ext = original.suffix
    meta = {}
    if (folder / "case.json").exists():
        meta = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    return Case(
        id=f"{folder.parent.name}/{folder.name}",
        original=_read(original),
        update=_read(folder / f"update{ext}"),
        expected=_read(folder / f"expected{ext}"),
        filename=meta.get("filename", f"{folder.name}{ext}"),
        language=meta.get("language"),
        instruction=meta.get("instruction"),
        tags=list(meta.get("tags", [])),
    )


def _read(path: Path) -> str:
    # newline="" keeps CRLF files as they are on disk.
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


def _load_fixture(path: Path) -> Case:
    sections = _split_sections(_read(path))
    if len(sections) != 3:
        raise ValueError(f"{path}: expected 3 sections separated by '---', found {len(sections)}")
    original, update, expected_diff = (_strip_section(s) for s in sections)
    # Most fixtures write "+ " before an added line, a few only "+": pick, per file, the reading that
    # leaves the added lines' indentation on the file's (even) grid.
    added = [line for line in expected_diff.split("\n")
             if line.startswith("+") and line[1:].strip() and not line[1:].strip().startswith("*")]
    wide = sum(_indent(line[2:]) % 2 == 0 for line in added if line.startswith("+ "))
    narrow = sum(_indent(line[1:]) % 2 == 0 for line in added)
    cut = 1 if narrow > wide else 2
    expected = []
    for line in expected_diff.split("\n"):
        if line.startswith("- ") or line == "-":
            continue
        if line.startswith("+"):
            line = line[cut:] if line.startswith("+ ") else line[1:]
        expected.append(line)
    return Case(id=path.stem, original=original, update=update, expected="\n".join(expected),
                filename=path.name[: -len(".diff")])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _split_sections(text: str) -> list[str]:
    sections, current = [], []
    for line in text.split("\n"):
        if line.rstrip() == "---":
            sections.append("\n".join(current))
            current = []
        else:
            current.append(line)
    sections.append("\n".join(current))
    return sections


def _strip_section(text: str) -> str:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def same_code(a: str, b: str) -> bool:
    """Equality after stripping trailing whitespace per line and at the end (the harness's 'correct')."""
    norm = lambda s: "\n".join(line.rstrip() for line in s.replace("\r\n", "\n").split("\n")).strip("\n")  # noqa: E731
    return norm(a) == norm(b)


def same_modulo_whitespace(a: str, b: str) -> bool:
    """Equal after ignoring indentation, trailing spaces and blank lines ("wrong, whitespace only")."""
    norm = lambda s: [line.strip() for line in s.replace("\r\n", "\n").split("\n") if line.strip()]  # noqa: E731
    return norm(a) == norm(b)
