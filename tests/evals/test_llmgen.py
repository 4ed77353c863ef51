"""The `--style llm` generator: every habit tag has the property it claims, cases are answerable,
deterministic per seed, and every expected file parses. Offline: standard library + corpus bases."""

from __future__ import annotations

import difflib

import sysconfig
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from evals import generate
from evals.cases import Case, load_cases, write_jsonl
from evals.llmgen import packages, splits
from evals.llmgen.build import generate_llm
from evals.llmgen.datafiles import parses
from evals.llmgen.outline import error_count
from evals.llmgen.sources import folder_sources, local_sources
from evals.llmgen.validate import CHECKED, habit_holds, main as validate_main, unanchored_segments

STDLIB = Path(sysconfig.get_paths()["stdlib"])
BASES = Path(__file__).resolve().parents[2] / "evals" / "corpus" / "bases"
PY = ["textwrap.py", "shlex.py", "fractions.py", "calendar.py", "heapq.py", "string.py", "argparse.py",
      "configparser.py", "gettext.py", "pipes.py"]
@pytest.fixture(scope="module")
def sources():
    found = folder_sources([STDLIB / name for name in PY if (STDLIB / name).exists()] + [BASES], None)
    assert len(found) >= 25
    return found


@pytest.fixture(scope="module")
def cases(sources):
    made = generate_llm(280, "dev", sources, seeds=[0, 1, 2], per_file=3)
    assert len(made) >= 240
    return made


def test_every_habit_occurs_and_has_its_property(cases):
    seen = Counter(tag for case in cases for tag in case.tags)
    for tag in CHECKED:
        assert seen[tag] >= 1, f"no case tagged {tag}"
    for case in cases:
        for tag in case.tags:
            if tag in CHECKED:
                assert habit_holds(case, tag), f"{case.id}: tagged {tag} without its property"


def test_a_property_check_can_fail(cases):
    """The checks above are not vacuous: a plain snippet does not pass them."""
    plain = next(c for c in cases if c.tags == ["llm", "modify_body"] or "near_whole_file" in c.tags)
    for tag in ("marker_col0", "out_of_order", "blank_doubled", "rename", "marker_before_close"):
        assert not habit_holds(plain, tag), tag


def test_every_segment_is_anchored_by_a_unique_original_line(cases):
    for case in cases:
        assert unanchored_segments(case) == [], case.id
    case = cases[0]
    broken = msgspec.structs.replace(case, update="# ...\nreturn value\n# ...\n")
    assert unanchored_segments(broken)


def test_validate_cli(cases, tmp_path, capsys):
    path = tmp_path / "cases.jsonl"
    write_jsonl(cases[:40], path)
    assert validate_main([str(path)]) == 0
    assert "0 problem(s)" in capsys.readouterr().out
    in_order = next(c for c in cases if "near_whole_file" in c.tags)
    write_jsonl([msgspec.structs.replace(in_order, tags=["llm", "out_of_order"])], path)
    assert validate_main([str(path)]) == 1


def test_expected_files_parse_and_differ(cases):
    for case in cases:
        assert case.expected != case.original, case.id
        if case.language in ("yaml", "json", "toml"):
            assert parses(case.expected, case.language), case.id
        else:
            assert error_count(case.expected, case.language) <= error_count(case.original, case.language)
            if error_count(case.original, case.language) == 0:
                assert error_count(case.expected, case.language) == 0, case.id
    assert len({case.language for case in cases}) >= 15


def test_same_seed_same_cases(sources):
    picked = sources[:12]
    first = generate_llm(30, "dev", picked, seeds=[5], per_file=3)
    again = generate_llm(30, "dev", picked, seeds=[5], per_file=3)
    other = generate_llm(30, "dev", picked, seeds=[6], per_file=3)
    assert [(c.id, c.update, c.expected) for c in first] == [(c.id, c.update, c.expected) for c in again]
    assert [c.update for c in first] != [c.update for c in other]


def test_splits_are_disjoint():
    assert not set(splits.DEV_SEED_RANGE) & set(splits.HELDOUT_SEEDS)
    with pytest.raises(ValueError, match="not a dev seed"):
        splits.check_seed("dev", 7001)
    with pytest.raises(ValueError, match="not a heldout seed"):
        splits.check_seed("heldout", 3)
    with pytest.raises(ValueError, match="not a heldout2 seed"):
        splits.check_seed("heldout2", 7001)
    assert splits.seeds_for("heldout2") == list(range(7011, 7021))
    dev = {(p.registry, p.name) for p in packages.PACKAGES if p.split == "dev"}
    held = {(p.registry, p.name) for p in packages.PACKAGES if p.split == "heldout"}
    assert dev and held and not dev & held
    pairs = {(p.split, p.name) for p in packages.RELEASE_PAIRS}
    assert not {n for s, n in pairs if s == "dev"} & {n for s, n in pairs if s == "heldout"}
    paths = [f"lib/module{n}.py" for n in range(200)]
    held_paths = [p for p in paths if splits.is_heldout_path(p)]
    assert 20 < len(held_paths) < 80


def test_heldout2_uses_nothing_any_other_split_or_batch_used():
    """heldout2 was drawn from packages nobody had tuned on: no dev or heldout entry and no check
    or tune batch names one of its packages (a later batch must not either)."""
    other = {p.name for p in packages.PACKAGES if p.split != "heldout2"}
    other |= {p.name for p in packages.RELEASE_PAIRS if p.split != "heldout2"}
    for batch in sorted((Path(packages.__file__).parent / "batches").glob("*.toml")):
        extra, pairs = packages.load_batch(batch)
        other |= {p.name for p in extra} | {p.name for p in pairs}
    held2 = {p.name for p in packages.PACKAGES if p.split == "heldout2"}
    held2 |= {p.name for p in packages.RELEASE_PAIRS if p.split == "heldout2"}
    assert len(held2) >= 25 and not held2 & other


def test_local_sources_split_the_stdlib(monkeypatch, tmp_path):
    monkeypatch.setattr("evals.llmgen.sources.sys.path", [])  # the standard library only
    dev = {s.ident for s in local_sources("dev", per_language=400)}
    held = {s.ident for s in local_sources("heldout", per_language=400)}
    assert dev and held and not dev & held


def test_generate_cli_writes_llm_cases(tmp_path):
    out = tmp_path / "llm.jsonl"
    assert generate.main(["--style", "llm", "--out", str(out), "--n", "12", "--seeds", "3", "--per-file", "6",
                          "--source", str(BASES / "go"), "--source", str(STDLIB / "heapq.py")]) == 0
    loaded = load_cases(out)
    assert 6 <= len(loaded) <= 12 and all("llm" in c.tags for c in loaded)
    assert generate.main(["--style", "llm", "--split", "heldout", "--seeds", "3", "--out",
                          str(out), "--source", str(BASES / "go")]) == 2


def test_a_replaced_block_ending_like_its_context_is_not_generated():
    """A function replaced by another, after context (`conn.close()`) that also ends the replaced
    function: the snippet reads as well as the new function inserted after the old one, nothing
    replaced, so no reader could merge it (evals/llmgen/snippet.py `_invisible_deletion`)."""
    from evals.llmgen.edits import Edit
    from evals.llmgen.snippet import Window, _invisible_deletion

    lines = ["def stop(conn):", "    conn.close()", "", "def serve(conn):", "    conn.send(1)",
             "    conn.close()", "", "def after():", "    pass"]
    replaced = Edit(2, 6, ["", "def fallback(conn):", "    return conn"])
    assert _invisible_deletion(lines, Window(1, 8, [replaced]))  # context `conn.close()` only
    assert not _invisible_deletion(lines, Window(0, 8, [replaced]))  # with `def stop`, it is visible


def test_context_that_also_occurs_among_the_replaced_lines_is_not_generated():
    """Four lines replaced by two whose last (`event = None`) is also one of the four, with only
    that line kept before the marker: the marker may stand for the `elif` or not (eleventh round,
    asciimatics' temppopup.py, where difflib kept the second copy)."""
    from evals.llmgen.edits import Edit
    from evals.llmgen.snippet import Window, _invisible_deletion

    lines = ["def on(event):", "    if event.y < 0:", "        event = None", "    elif event.x < 0:",
             "        event = None", "    return event", "", "def off():", "    pass"]
    replaced = Edit(1, 4, ["    if outside(event):"])
    assert _invisible_deletion(lines, Window(0, 5, [replaced]))  # `event = None`, then a marker
    assert not _invisible_deletion(lines, Window(0, 6, [replaced]))  # `return event` pins the end


def test_release_diffs_insert_whole_definitions():
    """difflib puts a new function after the first repeated line (`return True`), so that the old
    function's `return False` ends the new one; the edit is slid to the whole function, the only
    form a model writes (evolution._slide). The diff still turns the old file into the new one."""
    from evals.llmgen.evolution import hunks
    from evals.llmgen.snippet import apply_edits

    def check(name: str, test: str, first: list[str]) -> list[str]:
        return [f"def {name}(x):", *first, "    for m in mods:", f"        if {test}:",
                "            return True", "    return False", "", ""]

    rest = [line for i in range(6) for line in (f"def z{i}():", f"    return {i}")]
    old = check("a", "x is m.A", []) + rest
    new = check("a", "x is m.A", []) + check("b", "o is m.B", ["    o = origin(x)"]) + rest
    unslid = [new[j1:j2] for tag, _, _, j1, j2 in
              difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if tag != "equal"]
    assert unslid[0][0] == "            return True"  # (difflib's place)
    edits = hunks(old, new)
    assert apply_edits(old, edits) == new
    assert len(edits) == 1 and edits[0].start == edits[0].end
    inserted = [line for line in edits[0].new if line.strip()]
    assert inserted[0] == "def b(x):" and inserted[-1] == "    return False"

    calls = ["def add(parser):", "    parser.add(", '        "--level",', "    )", "    parser.add(",
             '        "--workers",', "    )", "    return parser"]
    added = calls[:4] + ["    parser.add(", '        "--format",', "    )"] + calls[4:]
    edits = hunks(calls, added)  # difflib: `)` + `parser.add(` + `"--format",` after `"--level",`
    assert apply_edits(calls, edits) == added
    assert [e.new for e in edits] == [["    parser.add(", '        "--format",', "    )"]]

    # difflib: `@abstractmethod` .. `pass`, blank, `@property` under the old `@property`; a model
    # writes the new method with both its decorators (metricflow's protocols)
    def method(name: str) -> list[str]:
        return ["    @property", "    @abstractmethod", f"    def {name}(self) -> int:", "        pass", ""]

    old = ["class P(Protocol):", *method("kind"), *method("params")]
    new = ["class P(Protocol):", *method("kind"), *method("datatype"), *method("params")]
    edits = hunks(old, new)
    assert apply_edits(old, edits) == new
    assert [e.new for e in edits] == [method("datatype")]


def test_generate_style_real_writes_every_release_pairs_edits(tmp_path, monkeypatch) -> None:
    # a tiny cached release pair: one file changed between two releases
    old = "\n".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(15))
    new = old.replace("return x + 7", "return x + 70")
    for half, text in (("old", old), ("new", new)):
        folder = tmp_path / "evolution" / "dev" / "pypi-tiny-pair" / half / "tiny"
        folder.mkdir(parents=True)
        (folder / "core.py").write_text(text)
    monkeypatch.setenv("FASTAPPLY_EVALS_CACHE", str(tmp_path))
    out = tmp_path / "real.jsonl"
    assert generate.main(["--style", "real", "--split", "dev", "--seeds", "500-503", "--n", "3",
                          "--out", str(out)]) == 0
    cases = [msgspec.json.decode(line, type=Case) for line in out.read_bytes().splitlines()]
    assert len(cases) == 3 and all(case.expected == new for case in cases)
    assert {case.id.split(":")[1] for case in cases} == {"500", "501", "502"}
    assert generate.main(["--style", "real", "--split", "dev", "--seeds", "7001", "--out", str(out)]) == 2
