"""Check generated cases without the merge engine: each habit tag has its property, every snippet
segment has an anchor, every expected file parses.

    python -m evals.llmgen.validate cases.jsonl      # exit 1 and list the problems, if any

Used by tests/evals/test_llmgen.py and to check the held-out split without scoring it. Cost:
O(lines) per case plus one parse of the expected file.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections import Counter

from ..cases import Case, load_cases
from .datafiles import parses
from .langs import LANGS, comment_syntaxes
from .outline import error_count
from .snippet import COMMENT_MARKER

CLOSERS = {"}", "};", "end", "},"}
TRIVIAL_LINES = CLOSERS | {"break;", "break", "return;", "})", "});", "fi", "done", "esac"}
OPENERS = ("{", ":", "(", "[", " do", "then", "=>", "->")  # a line that opens an indented block
HEADERS = re.compile(r"^\s*((local\s+)?function\b|def\b|class\b|module\b|- |#\s*if|#\s*else)")
WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*[?!]?|\S")  # `aria-hidden` and `empty?` are one word


def _markers(snippet: str) -> list[int]:
    return [i for i, line in enumerate(snippet.split("\n")) if COMMENT_MARKER.match(line)]


def _changed_pairs(case: Case) -> list[tuple[list[str], list[str]]]:
    old, new = case.original.split("\n"), case.expected.split("\n")
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(old[a:b], new[c:d]) for tag, a, b, c, d in matcher.get_opcodes() if tag != "equal"]


def _one_token_apart(a: str, b: str) -> bool:
    x, y = WORD.findall(a), WORD.findall(b)
    return len(x) == len(y) and sum(p != q for p, q in zip(x, y)) == 1


def _blank_gaps(text: str, context: int) -> dict[tuple[str, ...], set[int]]:
    """(`context` lines, next non-blank line) -> the numbers of blank lines seen before the last one."""
    gaps: dict[tuple[str, ...], set[int]] = {}
    seen: list[str] = []
    blanks = 0
    for line in (line.strip() for line in text.split("\n")):
        if not line:
            blanks += 1
            continue
        if len(seen) >= context:
            gaps.setdefault((*seen[len(seen) - context:], line), set()).add(blanks)
        seen.append(line)
        blanks = 0
    return gaps


def _blank_change(snippet: str, expected: str, more: bool) -> bool:
    """Some snippet line has more (`more`) or fewer blank lines before it than in expected; the
    neighbouring line identifies the place, or the two lines before it when one is not enough."""
    for context in (1, 2):
        want = _blank_gaps(expected, context)
        for key, got in _blank_gaps(snippet, context).items():
            if key in want and len(want[key]) == 1:
                (count,) = want[key]
                if (max(got) > count) if more else (min(got) < count):
                    return True
    return False


def habit_holds(case: Case, tag: str) -> bool:  # noqa: C901 - one branch per habit, top to bottom
    """Whether `case` really shows the habit or edit kind `tag` (True for tags without a check)."""
    snippet, lines = case.update, case.update.split("\n")
    markers = _markers(snippet)
    hunks = _changed_pairs(case)
    # A moved block shows up as one deletion and one insertion: compare across hunks too.
    pairs = hunks + [([x for old, _ in hunks for x in old], [x for _, new in hunks for x in new])]
    if tag == "marker_col0":  # a column-0 marker next to indented code
        code = [i for i, line in enumerate(lines) if line.strip() and i not in markers]
        for i in markers:
            before = [k for k in code if k < i][-1:]
            after = [k for k in code if k > i][:1]
            opens = bool(before) and (lines[before[0]].rstrip().endswith(OPENERS)
                                      or bool(HEADERS.match(lines[before[0]])))
            if lines[i] == lines[i].lstrip() and (opens or any(lines[k] != lines[k].lstrip()
                                                               for k in before + after)):
                return True
        return False
    if tag == "marker_wrong_syntax":
        own = {opener for opener, _ in comment_syntaxes(case.language)}
        return any(not lines[i].strip().startswith(tuple(own)) for i in markers)
    if tag == "marker_before_close":
        return any(i + 1 < len(lines) and lines[i + 1].strip() in CLOSERS and
                   (i + 2 >= len(lines) or not lines[i + 2].strip() or i + 2 in markers) for i in markers)
    if tag == "trivial_context":  # a marker directly followed by a trivial line (`}`, `end`, `break;`)
        return any(i + 1 < len(lines) and lines[i + 1].strip() in TRIVIAL_LINES for i in markers)
    if tag == "out_of_order":
        counts = Counter(line.strip() for line in case.expected.split("\n"))
        where = {line.strip(): n for n, line in enumerate(case.expected.split("\n")) if counts[line.strip()] == 1}
        order = [where[line.strip()] for line in lines if line.strip() in where and len(line.strip()) > 3]
        return order != sorted(order)
    if tag == "head_no_marker":
        return bool(markers) and markers[0] > 0 and lines[0] == case.expected.split("\n")[0]
    if tag == "near_whole_file":
        return not markers and case.update == case.expected
    if tag == "no_markers":
        return not markers and case.update != case.expected and case.update.strip() in case.expected
    if tag in ("blank_doubled", "blank_missing"):
        return _blank_change(snippet, case.expected, more=tag == "blank_doubled")
    # Edited lines: old and new lines of the same hunk side by side, or any removed line against any
    # added one (a moved block elsewhere in the same case can shift the diff's alignment).
    edited = [(a, b) for old, new in hunks for a, b in zip(old, new)] + \
        [(a, b) for a in pairs[-1][0][:400] for b in pairs[-1][1][:400] if len(a) - 20 < len(b) < len(a) + 40]
    if tag == "one_word":
        return any(_one_token_apart(a, b) for a, b in edited)
    if tag == "edit_run":  # two or more consecutive lines, each one word apart (at any offset in a hunk)
        for old, new in pairs:
            for offset in range(-len(old) + 1, len(new)):
                run = 0
                for i, a in enumerate(old):
                    j = i + offset
                    run = run + 1 if 0 <= j < len(new) and _one_token_apart(a, new[j]) else 0
                    if run >= 2:
                        return True
        return False
    if tag == "rename":
        return any(_one_token_apart(a, b) and any(
            y.rstrip("?!").startswith(x.rstrip("?!")) and y != x for x, y in zip(WORD.findall(a), WORD.findall(b)))
            for a, b in edited)
    if tag == "annotation":
        subs = LANGS[case.language].annotations
        return any(re.sub(p, r, a, count=1) == b for a, b in edited for p, r in subs)
    if tag == "literal_constant":
        added = [line for _, new in pairs for line in new]
        names = {m.group(1) for line in added if (m := re.search(r"\b([A-Z][A-Z0-9_]{3,})\b", line))}
        return any(sum(name in line for line in added) >= 2 for name in names)
    if tag in ("move", "reorder"):
        # Lines unique in both files change their relative order, or at least 3 lines leave one
        # hunk and reappear in another (a diff may rotate the moved block).
        old_lines, new_lines = case.original.split("\n"), case.expected.split("\n")
        once = (Counter(x for x in old_lines if x.strip()) & Counter(x for x in new_lines if x.strip()))
        shared = {x for x, n in once.items() if n == 1 and old_lines.count(x) == 1 and new_lines.count(x) == 1}
        if [x for x in old_lines if x in shared] != [x for x in new_lines if x in shared]:
            return True
        for index, (old, _) in enumerate(hunks):
            for k, (_, new) in enumerate(hunks):
                common = Counter(x for x in old if x.strip()) & Counter(x for x in new if x.strip())
                if k != index and sum(common.values()) >= 3:
                    return True
        return False
    if tag == "extract_helper":
        added = "\n".join(line for _, new in pairs for line in new)
        name = re.search(r"(log\w*step)\(", added, re.I)
        return bool(name) and added.count(name.group(1)) >= 2
    if tag == "bare_comment":
        exp = case.expected.split("\n")
        return any(exp[i].strip() in {"#", "//", "--", "*", "///", "//!", "##"} and
                   exp[i + 1].strip().startswith(exp[i].strip() + " ") for i in range(len(exp) - 1)
                   if exp[i + 1] not in case.original.split("\n"))
    if tag == "delete_function":  # lines that leave and come back nowhere
        gone = Counter(x for old, _ in pairs for x in old if x.strip()) - \
            Counter(x for _, new in pairs for x in new if x.strip())
        return sum(gone.values()) >= 2
    if tag == "near_duplicate":
        counts = Counter(line.strip() for line in case.original.split("\n"))
        return any(counts[a.strip()] > 1 for old, _ in pairs for a in old) or \
            any(counts[line.strip()] > 1 for line in lines if line.strip() and not COMMENT_MARKER.match(line))
    if tag.startswith("data_"):
        return parses(case.expected, case.language) and case.language in ("yaml", "json", "toml")
    return True  # today's kinds (modify_body, insert_function, ...) and umbrella tags


CHECKED = ["marker_col0", "marker_wrong_syntax", "marker_before_close", "trivial_context", "out_of_order",
           "head_no_marker", "near_whole_file", "no_markers", "blank_doubled", "blank_missing",
           "one_word", "edit_run", "rename", "annotation", "literal_constant", "move", "reorder",
           "extract_helper", "bare_comment", "delete_function", "near_duplicate", "data_record",
           "data_value", "data_key"]


def unanchored_segments(case: Case) -> list[str]:
    """Snippet segments (between markers) with no line that occurs once in the original."""
    counts = Counter(line.strip() for line in case.original.split("\n"))
    problems: list[str] = []
    segment: list[str] = []
    for line in case.update.split("\n") + ["// ... end"]:
        if COMMENT_MARKER.match(line):
            code = [x for x in segment if x.strip()]
            if code and not all(x.strip() in CLOSERS for x in code) and \
                    not any(counts[x.strip()] == 1 and len(x.strip()) > 3 for x in code):
                problems.append(f"unanchored segment starting {code[0].strip()!r}")
            segment = []
        else:
            segment.append(line)
    return problems


def problems_of(case: Case) -> list[str]:
    out = [f"tagged {tag} without its property" for tag in case.tags
           if tag in CHECKED and not habit_holds(case, tag)]
    out += unanchored_segments(case)
    if case.expected == case.original:
        out.append("expected equals the original")
    if case.language in ("yaml", "json", "toml"):
        if not parses(case.expected, case.language):
            out.append("expected does not parse")
    elif (error_count(case.expected, case.language or "") or 0) > \
            (error_count(case.original, case.language or "") or 0):
        out.append("expected has syntax errors the original lacks")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.llmgen.validate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="JSONL file of generated cases")
    args = parser.parse_args(argv)
    cases = load_cases(args.data)
    bad = 0
    for case in cases:
        for problem in problems_of(case):
            bad += 1
            print(f"{case.id}: {problem}")
    languages = Counter(case.language for case in cases)
    tags = Counter(tag for case in cases for tag in case.tags)
    print(f"{len(cases)} cases, {len(languages)} languages, {bad} problem(s)")
    print("languages: " + ", ".join(f"{k}: {v}" for k, v in sorted(languages.items())))
    print("tags: " + ", ".join(f"{k}: {v}" for k, v in sorted(tags.items())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
