"""The YAML duplicate-key check (fastapply/merge/datakeys.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fastapply import ApplyError, apply
from fastapply.merge.datakeys import check_duplicate_keys, duplicate_rows

WORKFLOW = """\
name: CI

jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: cargo check

  done:
    name: all finished
    needs: [check]

    steps:
      - name: Mark the job as successful
        run: exit 0
"""


def test_duplicate_rows_reads_mappings_list_items_and_block_scalars() -> None:
    lines = """\
a:
  b: 1
  c: |
    b: 2
    d: 3
  d: 4
  e:
    - name: x
      run: y
    - name: z
      run: w
      name: q
  b: 5
""".split("\n")
    # `name` twice in the second list item, `b` twice under `a`; not the block scalar's text,
    # not `name` across two items, not `d` (once as a key, once inside the scalar)
    assert duplicate_rows(lines) == [(9, 11), (1, 12)]
    assert duplicate_rows(WORKFLOW.split("\n")) == []


def test_an_edited_list_record_under_a_repeated_steps_key_is_that_record_edited() -> None:
    # itertools' ci.yml: the step's name edited, shown under the job's common `steps:` line,
    # with the step's unchanged `run:` line. Read as a new record it needed a second `steps:`,
    # which check_duplicate_keys refused; the `steps:` copy nearest the `run:` line (copies.py)
    # now reads it as the edit it is
    snippet = """\
    # ... rest of the code ...
    steps:
      - name: 30
        run: exit 0
"""
    merged = apply(WORKFLOW, snippet, filename="ci.yml").merged_code
    assert merged == WORKFLOW.replace("- name: Mark the job as successful", "- name: 30")


def test_a_merge_giving_a_mapping_a_key_twice_is_refused_naming_the_snippet_line() -> None:
    orig = WORKFLOW.split("\n")
    merged = orig[:13] + ["    steps:"] + orig[13:]  # (a second `steps:` under `done:`, from snippet item 1)
    origin = [(-1, row) for row in range(13)] + [(1, -1)] + [(-1, row) for row in range(13, len(orig))]
    items = [SimpleNamespace(number=1, text="    # ..."), SimpleNamespace(number=2, text="    steps:")]
    with pytest.raises(ApplyError) as error:
        check_duplicate_keys("yaml", SimpleNamespace(orig=orig, items=items),
                             SimpleNamespace(lines=merged, origin=origin))
    assert error.value.code == "ambiguous_anchor"
    assert "'steps' a second time" in error.value.message and error.value.line == 2
    check_duplicate_keys("yaml", SimpleNamespace(orig=orig, items=items), SimpleNamespace(lines=orig, origin=origin))


def test_a_new_step_shown_after_the_last_one_merges() -> None:
    snippet = """\
    # ... rest of the code ...
      - name: Mark the job as successful
        run: exit 0
      - name: Report
        run: echo done
"""
    merged = apply(WORKFLOW, snippet, filename="ci.yml").merged_code
    assert merged == WORKFLOW + "      - name: Report\n        run: echo done\n"


MATRIX = """\
jobs:
  linux:
    strategy:
      matrix:
        include:
          - toolchain: stable
            env:
              FUZZ: 1
          - toolchain: beta
            env:
              FUZZ: 1
    steps:
      - uses: actions/checkout@v4
"""


def test_an_edited_list_item_that_reads_as_well_as_a_new_one_after_it_is_refused() -> None:
    # smallvec's CI matrix: the snippet shows `env:`/`FUZZ: 1` (beta's own fields, and stable's),
    # then `- toolchain: beta-v2` with the same fields: beta renamed, or a new item after beta
    snippet = """\
            # ... existing code ...
            env:
              FUZZ: 1
          - toolchain: beta-v2
            env:
              FUZZ: 1
    steps:
      - uses: actions/checkout@v4
"""
    with pytest.raises(ApplyError) as error:
        apply(MATRIX, snippet, filename="ci.yml")
    assert error.value.code == "ambiguous_anchor" and error.value.line == 4


def test_an_edited_list_item_under_other_context_is_an_edit() -> None:
    snippet = """\
        include:
          - toolchain: stable
            env:
              FUZZ: 1
          - toolchain: beta-v2
            env:
              FUZZ: 1
    # ... existing code ...
"""
    assert apply(MATRIX, snippet, filename="ci.yml").merged_code == MATRIX.replace("beta", "beta-v2")
