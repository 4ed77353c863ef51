"""YAML, JSON and TOML record edits: change a value, add a key next to its siblings, add a record.

Data files break line-anchored merges in their own way: many lines look alike (`name: x`,
`"version": "1.0"`), so a new record must be placed by the record it follows, not by a coincidental
unique line. The edits here are line based and checked with the format's own parser (PyYAML when
installed, json, tomllib). Cost: O(lines) per case plus one parse.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections import Counter

from ..cases import Case
from .edits import Edit
from .snippet import render

KEY = {
    "yaml": re.compile(r"^(\s*)(- )?([A-Za-z_][\w.-]*):( .+)?$"),
    "json": re.compile(r'^(\s*)()"([^"]+)":\s*(.+?)(,?)$'),
    "toml": re.compile(r"^()()([A-Za-z_][\w.-]*)\s*=\s*(.+)$"),
}
VALUES = ['"2.4.1"', "true", "false", "30", '"production"', '"utf-8"', "8080"]


def parses(text: str, language: str) -> bool:
    try:
        if language == "json":
            json.loads(text)
        elif language == "toml":
            tomllib.loads(text)
        else:
            import yaml

            yaml.safe_load(text)
    except Exception:  # noqa: BLE001 - any parser error means "does not parse"
        return False
    return True


def _value_edit(lines: list[str], language: str, rng: random.Random) -> tuple[list[Edit], str] | None:
    rows = []
    for r, line in enumerate(lines):
        m = KEY[language].match(line)
        if m and m.group(4) and not m.group(4).strip().startswith(("{", "[", "|", ">", "&", "*")):
            rows.append(r)
    if not rows:
        return None
    row = rng.choice(rows)
    m = KEY[language].match(lines[row])
    assert m is not None
    old = m.group(4).strip().rstrip(",")
    value = rng.choice([v for v in VALUES if v != old])
    if language == "yaml":
        value = value.strip('"') if rng.random() < 0.5 else value
    comma = "," if language == "json" and lines[row].rstrip().endswith(",") else ""
    sep = " = " if language == "toml" else ": "
    key = f'"{m.group(3)}"' if language == "json" else m.group(3)
    new = f"{m.group(1)}{m.group(2) or ''}{key}{sep}{value}{comma}"
    return [Edit(row, row + 1, [new])], "data_value"


def _key_edit(lines: list[str], language: str, rng: random.Random) -> tuple[list[Edit], str] | None:
    """A new key right after an existing scalar key of the same mapping."""
    rows = [r for r, line in enumerate(lines) if (m := KEY[language].match(line)) and m.group(4)
            and not m.group(2) and not m.group(4).strip().startswith(("{", "[", "|", ">"))]
    if not rows:
        return None
    row = rng.choice(rows)
    m = KEY[language].match(lines[row])
    assert m is not None
    indent = m.group(1)
    name = rng.choice(["timeout", "retries", "enabled", "region", "log_level"])
    existing = {KEY[language].match(x).group(3) for x in lines if KEY[language].match(x)}  # type: ignore[union-attr]
    if name in existing:
        return None
    value = rng.choice(VALUES)
    if language == "json":
        if not lines[row].rstrip().endswith(","):
            return [Edit(row, row + 1, [lines[row] + ",", f'{indent}"{name}": {value}'])], "data_key"
        return [Edit(row + 1, row + 1, [f'{indent}"{name}": {value},'])], "data_key"
    sep = " = " if language == "toml" else ": "
    return [Edit(row + 1, row + 1, [f"{indent}{name}{sep}{value}"])], "data_key"


def _record_edit(lines: list[str], language: str, rng: random.Random) -> tuple[list[Edit], str] | None:
    """YAML: a copy of a list record (`- name: ...` with its indented keys), one value changed."""
    if language != "yaml":
        return None
    starts = [r for r, line in enumerate(lines) if re.match(r"^\s*- [\w.-]+: \S", line)]
    if not starts:
        return None
    start = rng.choice(starts)
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and lines[end].strip() and len(lines[end]) - len(lines[end].lstrip()) > indent \
            and not lines[end].lstrip().startswith("- "):
        end += 1
    record = lines[start:end]
    first = re.match(r"^(\s*- [\w.-]+: )(.+)$", record[0])
    if first is None or end - start > 12:
        return None
    record = [first.group(1) + first.group(2).strip('"') + "-" + rng.choice(["extra", "next", "v2"])] + record[1:]
    return [Edit(end, end, record)], "data_record"


def data_cases(text: str, language: str, source_id: str, filename: str, rng: random.Random,
               count: int) -> list[Case]:
    lines = text[:-1].split("\n")
    if not 15 <= len(lines) <= 3000 or not parses(text, language):
        return []
    counts = Counter(line.strip() for line in lines)
    out: list[Case] = []
    for attempt in range(count * 4):
        if len(out) >= count:
            break
        maker = rng.choice([_value_edit, _key_edit, _record_edit])
        made = maker(lines, language, rng)
        if made is None:
            continue
        edits, kind = made
        rendered = render(lines, edits, language, [], rng)
        if rendered is None or not parses(rendered.expected, language):
            continue
        tags = {"llm", "data_record", kind, *rendered.tags}
        if any(counts[lines[r].strip()] > 1 and lines[r].strip()
               for e in edits for r in range(max(0, e.start - 1), e.end + 1) if r < len(lines)):
            tags.add("near_duplicate")
        out.append(Case(id=f"llm:{source_id}:{attempt}:{kind}", original=text, update=rendered.snippet,
                        expected=rendered.expected, filename=filename, language=language,
                        tags=sorted(tags)))
    return out
