"""Issue 8, twenty-second round: real release edits of the twenty-first round's kept-aside batch
check-19 (now tune-62) and of tune-59 .. tune-61, read case by case."""

from __future__ import annotations

from fastapply import ApplyError, apply


def _entry(name: str, module: str) -> list[str]:
    return [f'    "Account{name}Params": (', f'        "stripe.params._account_{module}_params",', "        False,",
            "    ),"]


def _import_map(create: list[str], update: list[str]) -> str:
    lines = ["_import_map = {", '    "accounts": ("stripe.params.accounts", True),']
    for name in create:
        lines += _entry(name, "create")
    for name in update:
        lines += _entry(name, "update")
    return "\n".join([*lines, "}", ""])


_CREATE = ["Create", "CreateCustomer", "CreateMerchant", "CreateRecipient", "CreateRecipientBank", "CreateRecipientCards"]
_UPDATE = [name.replace("Create", "Update") for name in _CREATE]


def test_an_entry_under_a_new_key_is_no_edit_of_the_entry_above() -> None:
    # stripe's import map: a new `"AccountUpdateRecipientFpsParams": (` entry written between two
    # shown ones, each entry's lines like its neighbours'; read as an edit of the entry above, the
    # merge renamed `"AccountUpdateRecipientParams"` away
    original = _import_map(_CREATE, _UPDATE)
    expected = _import_map(_CREATE[:4] + ["CreateRecipientFps"] + _CREATE[4:],
                           _UPDATE[:4] + ["UpdateRecipientFps"] + _UPDATE[4:])
    snippet = "\n".join([
        "_import_map = {", '    "accounts": ("stripe.params.accounts", True),', "# ... existing code ...",
        *_entry("UpdateRecipient", "update"), *_entry("UpdateRecipientFps", "update"),
        *_entry("UpdateRecipientBank", "update")[:2], "# ... existing code ...",
        "        False,", "    ),", *_entry("CreateRecipientFps", "create"), *_entry("CreateRecipientBank", "create")[:2],
        "# ... existing code ..."])
    assert apply(original, snippet, filename="__init__.py").merged_code == expected


def test_a_column_0_marker_inside_an_entry_may_reach_past_its_end() -> None:
    # stripe's checkout map: `"...Issuer": (`, a marker at column 0, `False,`, `),`, a new entry,
    # then an entry far below; closing the first entry at that `),` dropped every entry between
    original = _import_map(_CREATE, _UPDATE)
    expected = _import_map(_CREATE, _UPDATE[:4] + ["UpdateRecipientFps"] + _UPDATE[4:])
    snippet = "\n".join([
        "# ... existing code ...", *_entry("CreateRecipient", "create")[:1], "# ... existing code ...",
        "        False,", "    ),", *_entry("UpdateRecipientFps", "update"), *_entry("UpdateRecipientBank", "update")[:2],
        "# ... existing code ..."])
    try:
        merged = apply(original, snippet, filename="__init__.py").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor"  # (the context fits two places: a refusal is right)
    else:
        assert merged == expected


CSS_FUNCTIONS_PY = """def check_counter(token):
    arguments = function.split_comma()
    if name == 'counter':
        ident = arguments.pop(0)
        if ident.type != 'ident':
            return
        if ident.lower_value not in ('first', 'start', 'last', 'first-except'):
            return
        ident = ident.lower_value
    return ident


def check_math(token):
    return True
"""


def test_a_literal_pulled_out_into_a_variable_edits_the_line_that_held_it() -> None:
    # weasyprint: `values = (...)` above `if ident.lower_value not in values:` in the place of the
    # condition that held the tuple; read as new lines after the old check, both checks stayed
    snippet = """# ... existing code ...
            return
        values = ('first', 'start', 'last', 'first-except', 'all-once')
        if ident.lower_value not in values:
            return
        ident = ident.lower_value
# ... existing code ...
"""
    expected = CSS_FUNCTIONS_PY.replace(
        "        if ident.lower_value not in ('first', 'start', 'last', 'first-except'):\n",
        "        values = ('first', 'start', 'last', 'first-except', 'all-once')\n"
        "        if ident.lower_value not in values:\n")
    assert apply(CSS_FUNCTIONS_PY, snippet, filename="functions.py").merged_code == expected


def _component(name: str) -> str:
    return f'''class AccountSessionCreateParamsComponents{name}(TypedDict):
    enabled: bool
    """
    Whether the embedded component is enabled.
    """
    features: NotRequired[
        "AccountSessionCreateParamsComponents{name}Features"
    ]


class AccountSessionCreateParamsComponents{name}Features(TypedDict):
    pass


'''


def _session_params(names: list[str]) -> str:
    fields = "".join(f'    {name.lower()}: NotRequired[\n        "AccountSessionCreateParamsComponents{name}"\n    ]\n'
                     for name in names)
    return ("class AccountSessionCreateParamsComponents(TypedDict):\n" + fields + "\n\n"
            + "".join(_component(name) for name in names)).rstrip("\n") + "\n"


def test_a_new_class_is_no_rename_of_one_the_snippet_still_names() -> None:
    # stripe: a new component class written like the one above it, whose name the snippet still
    # shows in a field's annotation: read as that class renamed, the merge lost it and the class
    # between
    original = _session_params(["Payments", "Payouts", "PayoutsList", "TaxSettings"])
    expected = _session_params(["Payments", "Payouts", "PayoutsList", "ReportingChart", "TaxSettings"])
    snippet = '''class AccountSessionCreateParamsComponents(TypedDict):
    # ... existing code ...
    payoutslist: NotRequired[
        "AccountSessionCreateParamsComponentsPayoutsList"
    ]
    reportingchart: NotRequired[
        "AccountSessionCreateParamsComponentsReportingChart"
    ]
    taxsettings: NotRequired[
# ... existing code ...


class AccountSessionCreateParamsComponentsPayments(TypedDict):
    # ... existing code ...
    pass


''' + _component("ReportingChart") + '''class AccountSessionCreateParamsComponentsTaxSettings(TypedDict):
# ... existing code ...
'''
    try:
        merged = apply(original, snippet, filename="params.py").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor"
    else:
        assert merged == expected


SPLIT_BN_PY = """import torch


class SplitBatchNorm2d(torch.nn.BatchNorm2d):
    def forward(self, input):
        if self.training:
            return torch.cat(x, dim=0)
        else:
            return super().forward(input)


def convert_splitbn_model(module, num_splits=2):
    return module
"""


def test_a_comment_that_names_a_function_the_snippet_writes_is_no_deletion_note() -> None:
    # timm: `# drop / act are present when converted ... (see convert_splitbn_model)`, a new comment
    # in a snippet of the whole file, read as a note deleting that function: the comment was lost
    snippet = """import torch


class SplitBatchNorm2d(torch.nn.BatchNorm2d):
    def forward(self, input):
        if self.training:
            x = torch.cat(x, dim=0)
        else:
            x = super().forward(input)
        # drop / act are present when converted from a timm BatchNormAct2d (see convert_splitbn_model)
        if hasattr(self, 'drop'):
            x = self.drop(x)
        return x


def convert_splitbn_model(module, num_splits=2):
    return module
"""
    assert apply(SPLIT_BN_PY, snippet, filename="split_batchnorm.py").merged_code == snippet


def test_a_deletion_note_still_deletes_a_function_the_snippet_does_not_write() -> None:
    snippet = """# ... existing code ...
            return super().forward(input)


# remove convert_splitbn_model
"""
    merged = apply(SPLIT_BN_PY, snippet, filename="split_batchnorm.py").merged_code
    assert "convert_splitbn_model" not in merged and "def forward(self, input):" in merged


HEADERS_JS = """/**
 * Headers.js
 */

import {types} from 'util';
import http from 'http';
import { isIterable } from './utils/is.js'

const validators = /** @type {{validateHeaderName?:(name:string) => any}} */
(http)

const validateHeaderName = typeof validators.validateHeaderName === 'function' ?
	validators.validateHeaderName :
	name => {
		check(name);
	};

export default class Headers {}
"""


def test_a_new_doc_comment_stays_glued_to_the_definition_it_documents() -> None:
    # remix's web-fetch: `/** @param {string} name */` written over the rewritten
    # `const validateHeaderName = name => {`, a blank line of the snippet's own above it; the file's
    # blank line above the old definition went between the comment and its definition
    snippet = """// ... existing code ...
import http from 'http';
import { isIterable } from './utils/is.js'

const validators = (http)

/**
 * @param {string} name
 */
const validateHeaderName = name => {
	check(name);
};

export default class Headers {}
"""
    expected = HEADERS_JS.split("import http")[0] + snippet.split("\n", 1)[1]
    assert apply(HEADERS_JS, snippet, filename="headers.js").merged_code == expected


SCHEDULER_TESTS_SWIFT = """struct SchedulerReentrancyTests {
  @Test
  func `dropping a promise on the JavaScript thread releases it`() async throws {
    let testRuntime = await ReleasableTestRuntime(dispatch: scheduleOnTestRuntime)
    #expect(try await isReleased(in: testRuntime, count: registeredBefore))
    await testRuntime.tearDown()
  }

  @Test
  func `dropping a promise after resolving it still settles it`() async throws {
    let testRuntime = await TestRuntimeScheduler().makeRuntime()
    let chained = try await testRuntime.scheduler.runIsolated {
      return UncheckedSendable(value: chained)
    }
    #expect(result.value == 42)
  }

  @Test
  func `promises dropped together share release tasks`() async throws {
    let testRuntime = await ReleasableTestRuntime(dispatch: scheduleOnTestRuntimeCounting)
    let registeredBefore = try await testRuntime.scheduler.runIsolated {
      let runtime = try #require(testRuntime.runtime)
      return runtime.longLivedObjects.count
    }
    #expect(try await isReleased(in: testRuntime, registeredBefore: registeredBefore, count: registeredBefore))
    await testRuntime.tearDown()
  }

  @Test
  func `promises resolved and then dropped all settle`() async throws {
    let testRuntime = await TestRuntimeScheduler().makeRuntime()
    let all = try await testRuntime.scheduler.runIsolated {
      return UncheckedSendable(value: all)
    }
  }
}
"""


SWIFT_NEW_TEST = """  @Test
  func `dropping a promise on the main thread releases it`() async throws {
    let testRuntime = await ReleasableTestRuntime(dispatch: scheduleOnTestRuntimeUnlessHostLocked)
    let blockedBefore = testHostSchedulerLock.blockedDispatchCount
    let registeredBefore = try await testRuntime.scheduler.runIsolated {
      let runtime = try #require(testRuntime.runtime)
      return runtime.longLivedObjects.count
    }
    #expect(testHostSchedulerLock.blockedDispatchCount == blockedBefore)
    #expect(try await isReleased(in: testRuntime, registeredBefore: registeredBefore, count: registeredBefore))
    await testRuntime.tearDown()
  }

"""
SWIFT_SNIPPET = """  /* ... existing code ... */
    #expect(try await isReleased(in: testRuntime, count: registeredBefore))
    await testRuntime.tearDown()
  }

""" + SWIFT_NEW_TEST + """  @Test
  func `dropping a promise after resolving it still settles it`() async throws {
    let testRuntime = await TestRuntimeScheduler().makeRuntime()
  /* ... existing code ... */
"""


def test_functions_named_in_backticks_are_definitions() -> None:
    # expo's Swift tests (`func \`dropping a promise ...\`()`): a new test that repeats lines of
    # another one was no new definition to the engine, and those lines' copies anchored it there,
    # deleting the two tests between
    at = SCHEDULER_TESTS_SWIFT.index("  @Test\n  func `dropping a promise after")
    expected = SCHEDULER_TESTS_SWIFT[:at] + SWIFT_NEW_TEST + SCHEDULER_TESTS_SWIFT[at:]
    assert apply(SCHEDULER_TESTS_SWIFT, SWIFT_SNIPPET, filename="Tests.swift").merged_code == expected


THUMBPRINT_PY = """import typing as t
import json
import hashlib
from collections import OrderedDict
from ..util import to_bytes, urlsafe_b64encode


def calculate_thumbprint(value: dict[str, t.Any]) -> str:
    data = OrderedDict(sorted(value.items()))
    return urlsafe_b64encode(hashlib.sha256(to_bytes(json.dumps(data))).digest()).decode("utf-8")
"""


def test_a_head_import_the_snippet_lists_again_below_goes_with_the_ones_it_dropped() -> None:
    # joserfc: the snippet of the whole file starts `import hashlib`, `import json`: the file's
    # `import typing as t` (its last use gone) and `import json` above the first pair stayed, and
    # `import json` stood twice
    snippet = """import hashlib
import json
from collections import OrderedDict
from typing import Any

from ..util import to_bytes, urlsafe_b64encode


def calculate_thumbprint(value: dict[str, Any]) -> str:
    data = OrderedDict(sorted(value.items()))
    return urlsafe_b64encode(hashlib.sha256(to_bytes(json.dumps(data))).digest()).decode("utf-8")
"""
    assert apply(THUMBPRINT_PY, snippet, filename="thumbprint.py").merged_code == snippet


FS_PROBE_PY = '''async def exists_many(paths):
  """Returns whether each path exists.

  Returns:
    Booleans positionally aligned with `paths`.
  """

  async def _safe_exists(target_path):
    try:
      return await async_path.exists(target_path)
    except Exception:
      return False

  return tuple(await asyncio.gather(*(_safe_exists(p) for p in paths)))
'''


def test_a_statement_glued_to_a_docstring_after_a_deleted_local_function_stays_glued() -> None:
    # orbax: the local `_safe_exists` went and the `return` now follows the docstring directly; the
    # blank lines that set the local function off were the file's, not the return's
    snippet = '''async def exists_many(paths):
  """Returns whether each path exists.

  Returns:
    Booleans positionally aligned with `paths`.
  """
  return tuple(await asyncio.gather(*(async_path.exists(p) for p in paths)))
'''
    assert apply(FS_PROBE_PY, snippet, filename="fs_probe.py").merged_code == snippet


WRITER_TS = """export class Writer {
  public addInt32(num: number): Writer {
    this.ensure(4)
    this.buffer[this.offset++] = (num >>> 24) & 0xff
    return this
  }

  public addInt16(num: number): Writer {
    this.ensure(2)
    this.buffer[this.offset++] = (num >>> 8) & 0xff
    this.buffer[this.offset++] = (num >>> 0) & 0xff
    return this
  }

  public addString(string: string = ''): Writer {
    const len = Buffer.byteLength(string)
    this.ensure(len)
    this.buffer.write(string, this.offset)
    this.offset += len
    return this
  }

  public add(otherBuffer: Buffer): Writer {
    this.ensure(otherBuffer.length)
    otherBuffer.copy(this.buffer, this.offset)
    this.offset += otherBuffer.length
    return this
  }

  private join(code?: number): Buffer {
    return this.buffer.slice(0, this.offset)
  }
}
"""


def test_a_marker_inside_a_method_may_stand_for_the_methods_after_it() -> None:
    # pg-protocol: `public addInt32(...) {`, a marker, `return this`, `}`, a new method, then
    # `private join(`: closing addInt32 at its own `}` would drop the methods between (refused before); the
    # marker stands for the rest of addInt32 and the methods up to the lines right above join
    new_method = """  /**
   * Appends an uninitialized block of {@link size} bytes to the buffer and returns its offset.
   */
  public reserveUnsafe(size: number): number {
    const offset = this.offset
    this.offset += size
    return offset
  }

"""
    snippet = """export class Writer {
  public addInt32(num: number): Writer {
    // ...
    return this
  }

""" + new_method + """  private join(code?: number): Buffer {
    // ...
"""
    at = WRITER_TS.index("  private join(")
    expected = WRITER_TS[:at] + new_method + WRITER_TS[at:]
    assert apply(WRITER_TS, snippet, filename="buffer-writer.ts").merged_code == expected


BSA_HELPERS_PY = '''def store_8x(tmem_addr, vals):
    llvm.inline_asm(
        None,
        [Int32(tmem_addr).ir_value()] + [Int32(vals[i]).ir_value() for i in range(8)],
        "tcgen05.st.sync.aligned.32x32b.x8.b32",
        has_side_effects=True,
        is_align_stack=False,
    )


def combine_4x(tmem_o0_addr, tmem_o1_addr, smem_addr, scale0, scale1):
    regs0 = ", ".join(f"a{i}" for i in range(32))
    regs1 = ", ".join(f"b{i}" for i in range(32))
    llvm.inline_asm(
        None,
        [Int32(tmem_o0_addr).ir_value(), Int32(tmem_o1_addr).ir_value(), Int32(smem_addr).ir_value()],
        "tcgen05.ld.sync.aligned.32x32b.x32.b32 combine",
        has_side_effects=True,
        is_align_stack=False,
    )


def zero_4x(smem_addr):
    llvm.inline_asm(None, [Int32(smem_addr).ir_value()], "st.shared.v4.b32 zero")
'''

BSA_NEW_FUNCTION = '''def combine_chunks(tmem_o0_addr, tmem_o1_addr, smem_addr, scale0, scale1, n_chunks):
    """Like combine_4x but for n_chunks 32-column chunks."""
    regs0 = ", ".join(f"a{i}" for i in range(32))
    regs1 = ", ".join(f"b{i}" for i in range(32))
    llvm.inline_asm(
        None,
        [Int32(tmem_o0_addr).ir_value(), Int32(tmem_o1_addr).ir_value(), Int32(smem_addr).ir_value()],
        "tcgen05.ld.sync.aligned.32x32b.x32.b32 combine chunks",
        has_side_effects=True,
        is_align_stack=False,
    )


'''


def test_a_new_function_after_the_end_of_the_one_it_resembles_is_no_rename() -> None:
    # cudnn-frontend: the snippet shows the end of `tmem_combine_store_exchange_4x32dp32b32x` and
    # then a new function written like it; read as that function renamed, with the shown lines the
    # end of the function above it, the merge lost the old function (78 lines)
    snippet = """# ... existing code ...
        has_side_effects=True,
        is_align_stack=False,
    )


""" + BSA_NEW_FUNCTION + """def zero_4x(smem_addr):
# ... existing code ...
"""
    at = BSA_HELPERS_PY.index("def zero_4x(")
    expected = BSA_HELPERS_PY[:at] + BSA_NEW_FUNCTION + BSA_HELPERS_PY[at:]
    assert apply(BSA_HELPERS_PY, snippet, filename="bsa_fwd_helpers.py").merged_code == expected


FILE_JS = """import Blob from './index.js'

const _File = class File extends Blob {
  get name () {
    return this.#name
  }
}

/** @type {typeof globalThis.File} */
export const File = _File
export default File
"""


def test_a_snippet_of_the_whole_file_without_its_last_line_deletes_that_line() -> None:
    # fetch-blob (and aliyun's vendored certifi, without its `if __name__ == '__main__':` block): a
    # snippet with no marker, from the file's first line to its end but for a line or two, is the
    # whole file; the lines it leaves out at the end went
    snippet = FILE_JS.replace("import Blob from", "import { Blob } from").replace("export default File\n", "")
    assert apply(FILE_JS, snippet, filename="file.js").merged_code == snippet


WEBPACK_CONFIG_PY = '''# -*- coding: utf-8 -*-
#
# This file is part of Flask-WebpackExt
# Copyright (C) 2017, 2018 CERN.
#
# Flask-WebpackExt is free software; you can redistribute it and/or modify
# it under the terms of the Revised BSD License; see LICENSE file for
# more details.

"""Webpack integration for Flask."""

WEBPACKEXT_PROJECT = None
WEBPACKEXT_MANIFEST_PATH = None
'''


def test_a_new_licence_notice_above_the_first_pair_replaces_the_old_one() -> None:
    # flask-webpackext: the licence block became three `# SPDX-...` lines; the snippet starts with
    # them and no marker, over the docstring: the old notice stayed above the new one
    snippet = '''# SPDX-FileCopyrightText: 2017, 2018 CERN.
# SPDX-License-Identifier: BSD-3-Clause

"""Webpack integration for Flask."""
# ... existing code ...
'''
    expected = snippet.split("# ...")[0] + WEBPACK_CONFIG_PY.split('"""Webpack integration for Flask."""\n')[1]
    assert apply(WEBPACK_CONFIG_PY, snippet, filename="config.py").merged_code == expected


def test_a_comment_added_above_the_first_pair_under_a_notice_keeps_the_notice() -> None:
    # the guard: a new comment that is no notice goes under the file's licence block
    snippet = '''# Settings read by the extension.
"""Webpack integration for Flask."""
# ... existing code ...
'''
    merged = apply(WEBPACK_CONFIG_PY, snippet, filename="config.py").merged_code
    assert merged.startswith("# -*- coding: utf-8 -*-\n") and "# Settings read by the extension.\n" in merged


HELPERS_JS = """import { n as generateCode, o as MagicastError } from "./builders-pgs2P7Vh.js";
//#region src/helpers/deep-merge.ts
function deepMergeObject(magicast, object) {
	if (typeof object === "object" && object !== null) for (const key in object) {
		const magicastValue = magicast[key];
		magicast[key] = object[key];
	}
}
//#endregion
//#region src/helpers/config.ts
function getDefaultExportOptions(magicast) {
	return configFromNode(magicast.exports.default);
}
function configFromNode(node) {
	if (node.$type === "function-call") return node.$args[0];
	return node;
}
//#endregion
//#region src/helpers/nuxt.ts
function getNuxtConfig(magicast) {
	return getDefaultExportOptions(magicast);
}
//#endregion
export { deepMergeObject, getNuxtConfig };
"""


def test_an_import_above_a_region_the_snippet_moved_down_is_replaced_by_the_new_import() -> None:
    # magicast's bundle: the new first line imports the same names from a new chunk, and the
    # deep-merge region that stood under the old import now follows the config region; the old
    # import and the comment that closed the moved region stayed at the top
    region = HELPERS_JS.split("//#endregion\n")[0].split("\n", 1)[1] + "//#endregion\n"
    snippet = """import { a as MagicastError, n as generateCode } from "./builders-CDdrUKLb.js";
//#region src/helpers/config.ts
/* ... existing code ... */
function configFromNode(node) {
	if (node.$type === "function-call") return node.$args[0];
	return node;
}
//#endregion
""" + region + """//#region src/helpers/nuxt.ts
/* ... existing code ... */
"""
    rest = HELPERS_JS.split("//#endregion\n", 1)[1]
    config, nuxt = rest.split("//#region src/helpers/nuxt.ts\n")
    expected = snippet.split("\n", 1)[0] + "\n" + config + region + "//#region src/helpers/nuxt.ts\n" + nuxt
    assert apply(HELPERS_JS, snippet, filename="helpers.js").merged_code == expected


def test_a_variable_declared_with_a_plain_value_is_no_definition_the_file_sets_off() -> None:
    # rollup's node-resolve: a new `if (resolveResult == null) { ... }` glued to `const location =
    # fileURLToPath(resolveResult);` kept the file's blank line between them (whitespace-only wrong
    # merges, 24 of tune-63's): `const` made the statement read as a definition
    from fastapply.merge.gaps import _sets_off, _starts_section

    for statement in ("const location = fileURLToPath(resolveResult);", "let count = items.length", "var x = 1;"):
        assert not _sets_off(statement) and not _starts_section(statement)
    for definition in ("const f = () => {", "const Foo = class {", "let handler = function (event) {",
                       "const options = {", "def f(x):", "#[inline]"):
        assert _sets_off(definition)


BIRPC_MJS = """import { n as createPromiseWithResolvers, t as cachedMap } from "./utils-KbwazfVD.mjs";
//#region src/index.ts
const TYPE_REQUEST = "q";
function createBirpc(functions, options) {
	const { post, on } = options;
	return cachedMap(functions, createPromiseWithResolvers);
}
function createBirpcGroup(channels, functions) {
	return channels.map((channel) => createBirpc(functions, channel));
}
function callGroup(group, name) {
	return group.map((rpc) => rpc[name]());
}
//#endregion
export { createBirpc, createBirpcGroup };
"""


def test_functions_declared_in_the_place_of_their_import_replace_it() -> None:
    # birpc's bundle inlined the helpers it imported from a chunk: the snippet of the whole file
    # starts with `function createPromiseWithResolvers()` and `function cachedMap(...)` over the
    # file's `//#region src/index.ts`; the import of those names stayed above them
    inlined = """//#region src/utils.ts
function createPromiseWithResolvers() {
	let resolve;
	return { promise: new Promise((res) => { resolve = res; }), resolve };
}
const _cacheMap = /* @__PURE__ */ new WeakMap();
function cachedMap(items, fn) {
	return items.map((i) => fn(i));
}
//#endregion
"""
    snippet = inlined + BIRPC_MJS.split("\n", 1)[1]
    expected = inlined + BIRPC_MJS.split("\n", 1)[1]
    assert apply(BIRPC_MJS, snippet, filename="index.mjs").merged_code == expected


LIGHTLY_INIT_PY = '''"""lightly is a computer vision framework for self-supervised learning."""

from lightly import data, loss, models

__name__ = "lightly"
__version__ = "1.5.26"


import os

if os.getenv("LIGHTLY_DID_VERSION_CHECK", "False") == "False":
    os.environ["LIGHTLY_DID_VERSION_CHECK"] = "True"
    from lightly.api import _version_checking
'''


def test_a_snippet_that_marks_its_gaps_but_ends_on_a_change_is_refused() -> None:
    # lightly: markers before and between the parts, then `__version__ = "1.6.0"` and nothing after
    # it, while the file goes on (the release deleted the version check; a model may as well have
    # left out its last marker): the tail was kept, silently; now refused, naming the line
    snippet = '''# ... existing code ...
from lightly import data, loss, models
# ... existing code ...
__version__ = "1.6.0"
'''
    try:
        apply(LIGHTLY_INIT_PY, snippet, filename="__init__.py")
    except ApplyError as error:
        assert error.code == "ambiguous_anchor" and "line 4" in str(error) and "marker" in str(error)
    else:
        raise AssertionError("merged")
    # with the last marker the tail stays
    merged = apply(LIGHTLY_INIT_PY, snippet + "# ... existing code ...\n", filename="__init__.py").merged_code
    assert merged == LIGHTLY_INIT_PY.replace("1.5.26", "1.6.0")
