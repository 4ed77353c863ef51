"""The tests on the original lines above a snippet's first line (fastapply.merge.heads)."""

from __future__ import annotations

from fastapply.merge.heads import deleted_head, import_head, note_head, obsolete_head, prologue_head


def test_an_encoding_declaration_and_python_2_futures_are_obsolete() -> None:
    assert obsolete_head(["# -*- coding: utf-8 -*-", "from __future__ import print_function", ""])
    assert not obsolete_head(["from __future__ import annotations", ""])
    assert not obsolete_head(["", "# -*- coding: utf-8 -*-"])  # (not the file's first line)


def test_a_lone_note_goes_but_not_a_notice() -> None:
    assert note_head(["// This file has been generated from mustache.mjs", ""])
    assert not note_head(["# Copyright 2024 The Authors", ""])
    assert not note_head(["#!/usr/bin/env python", ""])


def test_use_strict_goes_and_a_shebang_only_with_a_snippet_that_changes_nothing_else() -> None:
    assert prologue_head(["'use strict';", ""], unedited=False)
    assert prologue_head(['"use strict"'], unedited=False)
    assert prologue_head(["#!/usr/bin/env python"], unedited=True)
    assert not prologue_head(["#!/usr/bin/env python"], unedited=False)
    assert not prologue_head(["'use strict';", "const a = 1;"], unedited=True)


def test_a_deleted_head_holds_no_directive() -> None:
    assert deleted_head(["from typing import Any", ""])
    assert not deleted_head(["# SPDX-License-Identifier: MIT"])
    assert not deleted_head(["from __future__ import annotations"])


def test_imports_above_a_first_import_are_an_import_head() -> None:
    assert import_head(['import {path} from "d3-path";'], 'import constant from "./constant.js";')
    assert not import_head(['"use strict";'], 'import constant from "./constant.js";')
    assert not import_head(["import os"], "def main():")
