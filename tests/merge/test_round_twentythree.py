"""Issue 8, twenty-third round: real release edits of the twenty-second round's kept-aside batch
check-20 (now tune-66) and of tune-65, read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply


def _barrel(entries: list[tuple[str, str]]) -> str:
    """effect's barrel files: every export under a doc comment that starts alike."""
    lines = ["/**", " * @since 4.0.0", " */", "", "/**", " * @stability unstable", " * @since 4.0.0", " */",
             'export * as Aead from "./Aead.ts"']
    for name, since in entries:
        lines += ["", "/**", " * @stability unstable", f" * @since {since}", " */", f'export * as {name} from "./{name}.ts"']
    return "\n".join(lines) + "\n"


_ENTRIES = [("Hash", "4.0.0"), ("Mac", "4.0.0"), ("SecureRandom", "4.0.0"), ("Signature", "4.0.0"), ("Sign", "4.0.0"),
            ("Token", "4.0.0"), ("Zero", "4.0.0")]


def test_a_new_export_written_between_copies_of_the_doc_comment_start_loses_nothing() -> None:
    # effect's crypto/index.ts: the new `Password` export after `Mac`, then the start of the next
    # entry's doc comment and a marker; read as an edit of `SecureRandom` (the next copy of the
    # comment's start paired), the merge deleted that export
    original = _barrel(_ENTRIES)
    expected = _barrel(_ENTRIES[:2] + [("Password", "4.1.5")] + _ENTRIES[2:])
    snippet = """/* ... existing code ... */
 * @stability unstable
 * @since 4.0.0
 */
export * as Mac from "./Mac.ts"

/**
 * @stability unstable
 * @since 4.1.5
 */
export * as Password from "./Password.ts"

/**
 * @stability unstable
/* ... existing code ... */
"""
    assert apply(original, snippet, filename="index.ts").merged_code == expected


def test_an_edited_entry_under_its_own_name_between_doc_comment_starts_stays_an_edit() -> None:
    # the same shape, but the lines between are the next entry's own, its `@since` edited: an edit
    # of that entry, not a new one beside it
    original = _barrel(_ENTRIES)
    expected = original.replace(' * @since 4.0.0\n */\nexport * as SecureRandom', ' * @since 4.2.0\n */\nexport * as SecureRandom')
    snippet = """/* ... existing code ... */
export * as Mac from "./Mac.ts"

/**
 * @stability unstable
 * @since 4.2.0
 */
export * as SecureRandom from "./SecureRandom.ts"

/**
 * @stability unstable
/* ... existing code ... */
"""
    assert apply(original, snippet, filename="index.ts").merged_code == expected


def test_context_that_starts_every_entry_names_no_entry_to_delete() -> None:
    # effect's persistence/index.ts: an edited `@since` above an export, then the start of the next
    # entry's doc comment, which every entry below starts with: the next entry, nothing deleted
    original = _barrel(_ENTRIES)
    expected = original.replace(' * @since 4.0.0\n */\nexport * as Mac', ' * @since 4.0.7\n */\nexport * as Mac')
    snippet = """/* ... existing code ... */
 * @stability unstable
 * @since 4.0.7
 */
export * as Mac from "./Mac.ts"

/**
 * @stability unstable
 * @since 4.0.0
/* ... existing code ... */
"""
    assert apply(original, snippet, filename="index.ts").merged_code == expected


HIGHLIGHTER_JS = """import Prism from "prismjs";
import { loadLanguages } from "#prism-loadLanguages";
import { addAstro } from "./plugin.js";
const languageMap = new Map([["ts", "typescript"]]);
export async function runHighlighterWithAstro(lang, code) {
\tif (!lang) {
\t\tlang = "plaintext";
\t}
\tlet classLanguage = `language-${lang}`;
\tconst ensureLoaded = async (language) => {
\t\tif (language && !Prism.languages[language]) {
\t\t\tawait loadLanguages([language]);
\t\t}
\t};
\tif (languageMap.has(lang)) {
\t\tawait ensureLoaded(languageMap.get(lang));
\t} else {
\t\tawait ensureLoaded(lang);
\t}
\tconst grammar = Prism.languages[lang];
\tlet html = code;
\tif (grammar) {
\t\thtml = Prism.highlight(code, grammar, lang);
\t}
\treturn {
\t\tclassLanguage,
\t\thtml
\t};
}
"""


def test_a_file_without_blank_lines_gets_none_above_new_code() -> None:
    # astro's compiled prism highlighter has no blank line at all; the new function written glued
    # to the one above stays glued
    snippet = """\t// ... unchanged ...
\tconst grammar = Prism.languages[lang];
\tconst html = grammar ? Prism.highlight(code, grammar, lang) : escapeCode(code);
\treturn {
\t\tclassLanguage,
\t\thtml
\t};
}
function escapeCode(code) {
\treturn code.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}
"""
    expected = HIGHLIGHTER_JS.replace("\tlet html = code;\n\tif (grammar) {\n\t\thtml = Prism.highlight(code, grammar, lang);\n\t}\n",
                                      "\tconst html = grammar ? Prism.highlight(code, grammar, lang) : escapeCode(code);\n") \
        + 'function escapeCode(code) {\n\treturn code.replace(/&/g, "&amp;").replace(/</g, "&lt;");\n}\n'
    assert apply(HIGHLIGHTER_JS, snippet, filename="highlighter.js").merged_code == expected


DATA_TREE_PY = """import types
from collections import OrderedDict

import numpy as np

from ..Qt import QtWidgets
from .TableWidget import TableWidget

try:
    import metaarray  # noqa
    HAVE_METAARRAY = True
except:
    HAVE_METAARRAY = False

__all__ = ['DataTreeWidget']


class DataTreeWidget(QtWidgets.QTreeWidget):
    def __init__(self, parent=None, data=None):
        QtWidgets.QTreeWidget.__init__(self, parent)
        self.setVerticalScrollMode(self.ScrollMode.ScrollPerPixel)
        self.setData(data)
        self.setColumnCount(3)
        self.setHeaderLabels(['key / index', 'type', 'value'])
        self.setAlternatingRowColors(True)

    def parse(self, data):
        typeStr = type(data).__name__
        return typeStr, str(data)
        \n"""


def test_blank_lines_left_where_code_was_deleted_stay_as_written() -> None:
    # pyqtgraph's DataTreeWidget.py: the `try: import metaarray` block deleted between two
    # unchanged lines, its blank lines left on both sides (two in all): no new code meets the file
    # there, so there is no slip to mend; and the line of spaces that ends the file stays one
    snippet = """# ... existing code ...
from ..Qt import QtWidgets
from .TableWidget import TableWidget


__all__ = ['DataTreeWidget']
# ... existing code ...
"""
    expected = DATA_TREE_PY.replace("try:\n    import metaarray  # noqa\n    HAVE_METAARRAY = True\nexcept:\n"
                                    "    HAVE_METAARRAY = False\n\n", "\n")
    merged = apply(DATA_TREE_PY, snippet, filename="DataTreeWidget.py").merged_code
    assert merged == expected
    assert merged.endswith("return typeStr, str(data)\n        \n")


UNIX_PY = '''# \u00a9 2018 Gerard Marull-Paretas <gerard@teslabs.com>
# \u00a9 2014 Mark Harviston <mark.harviston@gmail.com>
# BSD License

"""UNIX specific Quamash functionality."""

import asyncio
import selectors
import collections

from . import QtCore, with_logger, _fileno

EVENT_READ = 1 << 0
EVENT_WRITE = 1 << 1


class _SelectorMapping(collections.abc.Mapping):
    """Mapping of file objects to selector keys."""

    def __init__(self, selector):
        self._selector = selector

    def __len__(self):
        return len(self._selector._fd_to_key)
'''


def test_a_notice_rewritten_as_a_docstring_replaces_the_comment_head() -> None:
    # qasync: the `# \u00a9 ...` lines and the one-line docstring became one docstring with
    # `Copyright (c) ...` lines, in a snippet of the whole file without markers
    head = '''"""
UNIX specific qasync functionality.

Copyright (c) 2018 Gerard Marull-Paretas <gerard@teslabs.com>
Copyright (c) 2014 Mark Harviston <mark.harviston@gmail.com>

BSD License
"""
'''
    body = UNIX_PY.split('"""UNIX specific Quamash functionality."""\n')[1]
    body = body.replace("import selectors\nimport collections\n", "import collections\nimport selectors\n") \
        .replace("with_logger, _fileno", "_fileno, with_logger")
    snippet = head + body
    assert apply(UNIX_PY, snippet, filename="_unix.py").merged_code == snippet


COMMON_PY = '''__all__ = ["CtrlNode", "PlottingCtrlNode", "metaArrayWrapper"]

import numpy as np

from ..Node import Node


class CtrlNode(Node):
    def process(self, In, display=True):
        out = self.processData(In)
        return {'Out': out}


class PlottingCtrlNode(CtrlNode):
    def process(self, In, display=True):
        out = CtrlNode.process(self, In, display)
        out['plot'] = None
        return out


def metaArrayWrapper(fn):
    def newFn(self, data, *args, **kargs):
        if HAVE_METAARRAY and (hasattr(data, 'implements') and data.implements('MetaArray')):
            d1 = fn(self, data.view(np.ndarray), *args, **kargs)
            info = data.infoCopy()
            if d1.shape != data.shape:
                for i in range(data.ndim):
                    if 'values' in info[i]:
                        info[i]['values'] = info[i]['values'][:d1.shape[i]]
            return metaarray.MetaArray(d1, info=info)
        else:
            return fn(self, data, *args, **kargs)
    return newFn
'''


def test_a_last_definition_taken_out_of_all_ends_the_file() -> None:
    # pyqtgraph's flowchart/library/common.py: `metaArrayWrapper` left `__all__`, and the snippet
    # ends, without a marker, on the unchanged end of the class above it: the file ends there
    snippet = '''__all__ = ["CtrlNode", "PlottingCtrlNode"]

import numpy as np
# ... unchanged ...
        out = CtrlNode.process(self, In, display)
        out['plot'] = None
        return out
'''
    expected = COMMON_PY.replace('"PlottingCtrlNode", "metaArrayWrapper"]', '"PlottingCtrlNode"]') \
        .split("\n\n\ndef metaArrayWrapper")[0] + "\n"
    assert apply(COMMON_PY, snippet, filename="common.py").merged_code == expected


def test_unchanged_last_lines_under_an_all_that_keeps_the_name_still_ask_for_a_marker() -> None:
    # the same ending under an `__all__` edited but still naming `metaArrayWrapper`: the snippet
    # may have left out its last marker
    snippet = '''__all__ = ["CtrlNode", "PlottingCtrlNode", "metaArrayWrapper", "Extra"]

import numpy as np
# ... unchanged ...
        out = CtrlNode.process(self, In, display)
        out['plot'] = None
        return out
'''
    with pytest.raises(ApplyError):
        apply(COMMON_PY, snippet, filename="common.py")


FUZZYSORT_JS = """function prepQuery(search) {
  search = search.trim()
  let info = lowerInfo(search)
  return info
}

function lowerInfo(value) {
  value = remapChars(value)
  let lower = value.toLowerCase()
  let lowerCodes = []
  let bitflags = 0
  for (let i = 0; i < lower.length; ++i) {
    lowerCodes[i] = lower.charCodeAt(i)
    bitflags |= 1 << lowerCodes[i]
  }
  return {lowerCodes, bitflags, _lower: lower}
}

function remapChars(value) {
  return value
}
"""


def test_a_definition_cut_in_two_keeps_its_old_body_under_the_new_header() -> None:
    # fuzzysort: `lowerInfo` became a wrapper around a new `lowerInfoRemapped`, which holds the old
    # body; the marker under the new header's first lines stands for the rest of that body
    snippet = """// ... existing code ...
function lowerInfo(value) {
  return lowerInfoRemapped(remapChars(value))
}

function lowerInfoRemapped(value) {
  let lower = value.toLowerCase()
  let lowerCodes = []
  // ... existing code ...
"""
    expected = FUZZYSORT_JS.replace("function lowerInfo(value) {\n  value = remapChars(value)\n",
                                    "function lowerInfo(value) {\n  return lowerInfoRemapped(remapChars(value))\n}\n\n"
                                    "function lowerInfoRemapped(value) {\n")
    assert apply(FUZZYSORT_JS, snippet, filename="fuzzysort.js").merged_code == expected


def test_a_new_definition_whose_lines_are_not_the_old_body_still_refuses_its_marker() -> None:
    # the same shape, but the lines under the new header are no lines of the old body: the marker
    # inside the new definition stands for nothing
    snippet = """// ... existing code ...
function lowerInfo(value) {
  return lowerInfoRemapped(remapChars(value))
}

function lowerInfoRemapped(value) {
  const folded = value.normalize("NFKD")
  // ... existing code ...
"""
    with pytest.raises(ApplyError):
        apply(FUZZYSORT_JS, snippet, filename="fuzzysort.js")



BUILDER_PY = '''class DelegatingBlockBuilder(BlockBuilder):
    def __init__(self):
        self._builder = None
        self._empty_block = None

    def build(self) -> Block:
        if self._builder is None:
            if self._empty_block is not None:
                self._builder = BlockAccessor.for_block(self._empty_block).builder()
                self._builder.add_block(self._empty_block)
            else:
                self._builder = ArrowBlockBuilder()
        return self._builder.build()

    def num_rows(self) -> int:
        return self._builder.num_rows() if self._builder is not None else 0
'''


def test_a_block_opener_copied_into_new_code_pairs_at_its_own_depth() -> None:
    # ray's delegating_block_builder.py: the new `if additional_blocks:` branch copies
    # `if self._empty_block is not None:`; the old one, right above a marker at its own depth, is
    # the file's, and the marker keeps the line under it
    snippet = '''# ... existing code ...
    def build(self, *, additional_blocks: Sequence[Block] = ()) -> Block:
        if self._builder is None:
            if additional_blocks:
                builder = DelegatingBlockBuilder()
                if self._empty_block is not None:
                    builder.add_block(self._empty_block)
                for block in additional_blocks:
                    builder.add_block(block)
                return builder.build()
            if self._empty_block is not None:
                # ... existing code ...
                self._builder.add_block(self._empty_block)
            else:
                self._builder = ArrowBlockBuilder()
        return self._builder.build(additional_blocks=additional_blocks)
# ... existing code ...
'''
    expected = BUILDER_PY.replace("    def build(self) -> Block:\n        if self._builder is None:\n", '''    def build(self, *, additional_blocks: Sequence[Block] = ()) -> Block:
        if self._builder is None:
            if additional_blocks:
                builder = DelegatingBlockBuilder()
                if self._empty_block is not None:
                    builder.add_block(self._empty_block)
                for block in additional_blocks:
                    builder.add_block(block)
                return builder.build()
''').replace("        return self._builder.build()\n", "        return self._builder.build(additional_blocks=additional_blocks)\n")
    assert apply(BUILDER_PY, snippet, filename="delegating_block_builder.py").merged_code == expected


HEALTH_PY = '''class MetricsHead:
    async def prometheus_health(self, req):
        try:
            path = f"{self.prometheus_host}/{PROMETHEUS_HEALTHCHECK_PATH}"
            async with self.http_session.get(path) as resp:
                if resp.status != 200:
                    return dashboard_optional_utils.rest_response(
                        status_code=dashboard_utils.HTTPStatusCode.INTERNAL_ERROR,
                        message="prometheus healthcheck failed.",
                        status=resp.status,
                    )
                return dashboard_optional_utils.rest_response(
                    status_code=dashboard_utils.HTTPStatusCode.OK,
                    message="prometheus running",
                )
        except Exception as e:
            return dashboard_optional_utils.rest_response(
                status_code=dashboard_utils.HTTPStatusCode.INTERNAL_ERROR,
                message=str(e),
            )
'''


def test_lines_after_a_marker_take_back_the_lines_a_later_copy_took() -> None:
    # ray's metrics_head.py (its snippet's parts out of file order): after a marker for
    # `status_code=...INTERNAL_ERROR,`, the call's other lines, then a new check whose call copies
    # all of them. The alignment had paired the copy, so the marker stood for nothing and the
    # first call lost its `status_code=` line; asked of the stage itself, with those pairs
    from fastapply.merge.resumed import later_run_copy
    from merge_support import aligned

    snippet = '''# ... existing code ...
                if resp.status != 200:
                    return dashboard_optional_utils.rest_response(
                        # ... existing code ...
                        message="prometheus healthcheck failed.",
                        status=resp.status,
                    )
                if not isinstance(body, dict):
                    return dashboard_optional_utils.rest_response(
                        status_code=dashboard_utils.HTTPStatusCode.INTERNAL_ERROR,
                        message="prometheus healthcheck failed.",
                        status=resp.status,
                    )
                return dashboard_optional_utils.rest_response(
# ... existing code ...
'''
    # snippet items: 1 `if resp.status`, 2 `return ...(`, 3 marker, 4-6 the call's other lines,
    # 7 the new `if`, 8 its `return ...(`, 9-12 its copy of the call's lines, 13 the second
    # `return ...(`; original lines 5 `if resp.status`, 6 .. 10 the first call, 11 the second
    copy = {9: 7, 10: 8, 11: 9, 12: 10}
    al, _, _ = aligned(HEALTH_PY, snippet, {1: 5, 2: 6, **copy, 13: 11})
    later_run_copy(al)
    assert {s: al.pairs.get(s) for s in (4, 5, 6)} == {4: 8, 5: 9, 6: 10}
    assert not any(s in al.pairs for s in range(7, 13))
    assert al.pairs[2] == 6 and al.pairs[13] == 11


WARNING_TS = """import { logWarnings } from '../logger/log-warnings';

export function logV2CompatibilityWarning({
  provider,
  modelId,
}: {
  provider: string;
  modelId: string;
}): void {
  logWarnings({
    warnings: [{ type: 'compatibility', feature: 'specificationVersion' }],
    provider,
    model: modelId,
  });
}
"""


def test_new_imports_over_a_whole_file_replace_the_one_it_no_longer_uses() -> None:
    # ai's log-v2-compatibility-warning.ts, sent whole without markers: `logWarnings` gave way to
    # `createLogWarnings` and a type import; the old import, used nowhere in the new file, goes
    snippet = """import { createLogWarnings } from '../logger/create-log-warnings';
import type { LogWarningsFunction } from '../logger/log-warnings';

export function logV2CompatibilityWarning({
  provider,
  modelId,
  onWarning,
}: {
  provider: string;
  modelId: string;
  onWarning?: LogWarningsFunction;
}): void {
  createLogWarnings(onWarning)({
    warnings: [{ type: 'compatibility', feature: 'specificationVersion' }],
    provider,
    model: modelId,
  });
}
"""
    assert apply(WARNING_TS, snippet, filename="log-v2-compatibility-warning.ts").merged_code == snippet


def test_a_new_import_over_a_whole_file_that_still_uses_the_old_one_keeps_it() -> None:
    # the same new imports above a body that still calls `logWarnings`: the old import stays
    snippet = """import { createLogWarnings } from '../logger/create-log-warnings';

export function logV2CompatibilityWarning({
  provider,
  modelId,
}: {
  provider: string;
  modelId: string;
}): void {
  logWarnings({
    warnings: [{ type: 'compatibility', feature: 'specificationVersion' }],
    provider,
    model: modelId,
  });
}
"""
    merged = apply(WARNING_TS, snippet, filename="log-v2-compatibility-warning.ts").merged_code
    assert "import { logWarnings } from '../logger/log-warnings';" in merged
    assert "import { createLogWarnings } from '../logger/create-log-warnings';" in merged


GATE_TEST_PY = '''import cirq
import pytest


def test_repr() -> None:
    assert (
        str(cirq.UniformSuperpositionGate(7, 3))
        == 'UniformSuperpositionGate(m_value=7, num_qubits=3)'
    )


@pytest.mark.parametrize(["m", "n"], [(5, 3), (10, 4)])
def test_eq(m: int, n: int) -> None:
    a = cirq.UniformSuperpositionGate(m, n)
    b = cirq.UniformSuperpositionGate(m, n)
    c = cirq.UniformSuperpositionGate(m + 1, n)
    assert a.m_value == b.m_value
    assert a.__eq__(b)
    assert not (a.__eq__(c))
'''


def test_a_new_last_function_where_a_decorated_one_ended_the_file_is_refused() -> None:
    # cirq: `test_eq` under its `@pytest.mark.parametrize(...)` became `test_eq_ne_hash`; a snippet
    # that ends with the new function and no marker may replace the old one or go above it
    snippet = '''# ... existing code ...
        == 'UniformSuperpositionGate(m_value=7, num_qubits=3)'
    )


def test_eq_ne_hash() -> None:
    eq = cirq.testing.EqualsTester()
    a = cirq.UniformSuperpositionGate(5, 3)
    b = cirq.UniformSuperpositionGate(5, 3)
    eq.add_equality_group(a, b)
    assert len({a, b}) == 1
'''
    with pytest.raises(ApplyError, match="may replace that definition or go above it"):
        apply(GATE_TEST_PY, snippet, filename="uniform_superposition_gate_test.py")


APP_PY = '''def init_config(app: FastAPI) -> None:
    app.state.secret_key = get_signing_key("api", "secret_key")


def init_middlewares(app: FastAPI) -> None:
    from airflow.api_fastapi.app import get_auth_manager
    from airflow.api_fastapi.auth.middlewares.refresh_token import JWTRefreshMiddleware
    from airflow.api_fastapi.common.http_access_log import HttpAccessLogMiddleware

    app.add_middleware(JWTRefreshMiddleware)

    # GZipMiddleware must be inside HttpAccessLogMiddleware so that access logs capture
    # the full end-to-end duration including compression time.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=5)
    # HttpAccessLogMiddleware must be outermost (added last) so it times the full
    # request lifecycle including all inner middleware.
    app.add_middleware(HttpAccessLogMiddleware)
'''


def test_an_import_deleted_with_its_only_use_at_the_end_ends_the_snippet_there() -> None:
    # airflow's core_api/app.py: the local import of `HttpAccessLogMiddleware` deleted, and the
    # snippet ends without a marker above the function's last lines, its only use: they went too
    snippet = '''# ... existing code ...
def init_middlewares(app: FastAPI) -> None:
    from airflow.api_fastapi.app import get_auth_manager
    from airflow.api_fastapi.auth.middlewares.refresh_token import JWTRefreshMiddleware

    app.add_middleware(JWTRefreshMiddleware)

    # GZipMiddleware must be inside HttpAccessLogMiddleware so that access logs capture
    # the full end-to-end duration including compression time. HttpAccessLogMiddleware is
    # installed by ``init_access_logging`` in ``create_app``.
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=5)
'''
    expected = APP_PY.split("def init_middlewares")[0] + snippet.split("# ... existing code ...\n")[1]
    assert apply(APP_PY, snippet, filename="app.py").merged_code == expected


REGISTER_MJS = """const register = async ({ strapi }) => {
    strapi.plugin('upload').provider = createProvider(uploadConfig);
    await registerUploadMiddleware({
        strapi
    });
    if (strapi.plugin('graphql')) {
        const { installGraphqlExtension } = await import('./graphql.mjs');
        installGraphqlExtension({
            strapi
        });
    }
};

export { register };
"""


def test_a_new_call_glued_under_a_statement_stays_glued() -> None:
    # strapi's upload register.mjs: a comment and a new `registerUploadMcpTools({` call written
    # right under `});`, as the file glues its statements: no blank line between
    snippet = """// ... existing code ...
    await registerUploadMiddleware({
        strapi
    });
    // Register phase, before the MCP HTTP server starts during bootstrap.
    registerUploadMcpTools({
        strapi
    });
    if (strapi.plugin('graphql')) {
// ... existing code ...
"""
    expected = REGISTER_MJS.replace("    });\n    if (strapi", "    });\n    // Register phase, before the MCP HTTP server "
                                    "starts during bootstrap.\n    registerUploadMcpTools({\n        strapi\n    });\n    if (strapi")
    assert apply(REGISTER_MJS, snippet, filename="register.mjs").merged_code == expected


TRANSFORMERS_PY = '''def _mod_add(op, measurement_qubits):
    for op in ops:
        if op.classical_controls:
            # First create a sorted set of the indexed keys for this control.
            keys = sorted(
                set(
                    indexed_key
                    for condition in op.classical_controls
                    for indexed_key in (
                        [(condition.key, -1)]
                        if isinstance(condition, value.KeyCondition)
                        else [(k, -1) for k in condition.keys]
                    )
                )
            )
            for key, index in keys:
                if key not in measurement_qubits:
                    raise ValueError(f"Deferred measurement for key={key} not found.")
    return ops
'''


def test_a_call_opening_a_bracket_turned_into_a_literal_bracket_is_an_edit_in_place() -> None:
    # cirq's measurement_transformers.py: `set(` became `{` around the comprehension (and its `)`
    # became `}`); read as new lines, the header went and its body stayed (refused)
    snippet = '''# ... existing code ...
            # First create a sorted set of the indexed keys for this control.
            keys = sorted(
                {
                    indexed_key
# ... existing code ...
                        else [(k, -1) for k in condition.keys]
                    )
                }
            )
            for key, index in keys:
                if key not in measurement_qubits:
# ... existing code ...
'''
    expected = TRANSFORMERS_PY.replace("                set(\n", "                {\n").replace(
        "                    )\n                )\n            )\n", "                    )\n                }\n            )\n")
    assert apply(TRANSFORMERS_PY, snippet, filename="measurement_transformers.py").merged_code == expected


CONFIGURATION_PY = '''class AuthorizationManagementClientConfiguration(Configuration):
    def __init__(self, credential: "TokenCredential", subscription_id: str, **kwargs: Any) -> None:
        super(AuthorizationManagementClientConfiguration, self).__init__(**kwargs)
        api_version = kwargs.pop("api_version", "2015-06-01")  # type: str
        self.credential = credential
        self._configure(**kwargs)

    def _configure(
        self, **kwargs  # type: Any
    ):
        # type: (...) -> None
        self.user_agent_policy = kwargs.get("user_agent_policy") or policies.UserAgentPolicy(**kwargs)
        self.headers_policy = kwargs.get("headers_policy") or policies.HeadersPolicy(**kwargs)
        self.proxy_policy = kwargs.get("proxy_policy") or policies.ProxyPolicy(**kwargs)
        self.logging_policy = kwargs.get("logging_policy") or policies.NetworkTraceLoggingPolicy(**kwargs)
'''


def test_a_wrapped_signature_written_on_one_line_keeps_its_body() -> None:
    # azure-mgmt-authorization's generated `_configure(`, `self, **kwargs  # type: Any`, `):` and
    # its type comment, written as one annotated line: the body lines under it are the old body's
    snippet = '''# ... existing code ...
        self._configure(**kwargs)

    def _configure(self, **kwargs: Any) -> None:
        self.user_agent_policy = kwargs.get("user_agent_policy") or policies.UserAgentPolicy(**kwargs)
        self.headers_policy = kwargs.get("headers_policy") or policies.HeadersPolicy(**kwargs)
        self.proxy_policy = kwargs.get("proxy_policy") or policies.ProxyPolicy(**kwargs)
        # ... existing code ...
'''
    expected = CONFIGURATION_PY.replace('''    def _configure(
        self, **kwargs  # type: Any
    ):
        # type: (...) -> None
''', "    def _configure(self, **kwargs: Any) -> None:\n")
    assert apply(CONFIGURATION_PY, snippet, filename="_configuration.py").merged_code == expected

