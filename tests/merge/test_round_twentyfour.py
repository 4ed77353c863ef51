"""Issue 8, twenty-fourth round: real release edits of tune-72 and tune-73 (drawn at the round's start
from crawl-31, crawl-33 and the new crawl-34), read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

_CLIENT = '''class Client(SDKClient):
    """A client.

    :ivar accounts: Accounts operations
    :ivar firewall_rules: FirewallRules operations
    :ivar trusted_id_providers: TrustedIdProviders operations
    """

    def __init__(self, credentials):
        self.config = Configuration(credentials)
        super(Client, self).__init__(self.config.credentials, self.config)

        self._serialize = Serializer()
        self._deserialize = Deserializer()

        self.accounts = AccountsOperations(
            self._client, self.config, self._serialize, self._deserialize)
        self.firewall_rules = FirewallRulesOperations(
            self._client, self.config, self._serialize, self._deserialize)
        self.trusted_id_providers = TrustedIdProvidersOperations(
            self._client, self.config, self._serialize, self._deserialize)
        self.operations = Operations(
            self._client, self.config, self._serialize, self._deserialize)
'''


def test_a_new_attribute_entry_between_copies_of_the_entry_tail_is_added_not_renamed() -> None:
    # azure-mgmt-datalake-store: the tail line every entry ends with, the new entry's first line,
    # the tail again, then the next entry; read from the left the first tail paired after
    # `accounts` and the new line edited `firewall_rules` away
    snippet = """# ... existing code ...
            self._client, self.config, self._serialize, self._deserialize)
        self.virtual_network_rules = VirtualNetworkRulesOperations(
            self._client, self.config, self._serialize, self._deserialize)
        self.trusted_id_providers = TrustedIdProvidersOperations(
# ... existing code ...
"""
    expected = _CLIENT.replace(
        "        self.trusted_id_providers = TrustedIdProvidersOperations(\n",
        "        self.virtual_network_rules = VirtualNetworkRulesOperations(\n"
        "            self._client, self.config, self._serialize, self._deserialize)\n"
        "        self.trusted_id_providers = TrustedIdProvidersOperations(\n")
    assert apply(_CLIENT, snippet, filename="client.py").merged_code == expected


def test_an_entry_renamed_to_an_attribute_the_file_already_has_stays_an_edit_or_is_refused() -> None:
    # the same shape with an attribute the file already assigns: not evidence of a new entry
    snippet = """# ... existing code ...
            self._client, self.config, self._serialize, self._deserialize)
        self.operations = FirewallRulesOperations(
            self._client, self.config, self._serialize, self._deserialize)
        self.trusted_id_providers = TrustedIdProvidersOperations(
# ... existing code ...
"""
    try:
        merged = apply(_CLIENT, snippet, filename="client.py").merged_code
    except ApplyError:
        return
    assert merged.count("= FirewallRulesOperations(") == 1


_HELPERS = '''def dataframe_to_parquet(dataframe, filepath):
    """Write dataframe as a Parquet file.

    Args:
        dataframe (pandas.DataFrame):
            DataFrame to convert.
        filepath (str):
            Path to write Parquet file to.
    """
    dataframe.to_parquet(filepath)


def other():
    return 1
'''


def test_a_docstring_argument_line_is_no_second_definition() -> None:
    # google-cloud-bigquery: a new function whose docstring documents `filepath (str):` like the one
    # above it; the line read as a header defining `filepath` twice and the merge was refused
    snippet = '''# ... existing code ...
    dataframe.to_parquet(filepath)


def dataframe_to_csv(dataframe, filepath):
    """Write dataframe as a CSV file.

    Args:
        dataframe (pandas.DataFrame):
            DataFrame to convert.
        filepath (str):
            Path to write CSV file to.
    """
    dataframe.to_csv(filepath)


def other():
# ... existing code ...
'''
    merged = apply(_HELPERS, snippet, filename="helpers.py").merged_code
    assert merged.count("filepath (str):") == 2 and "def dataframe_to_csv(dataframe, filepath):" in merged
    assert merged.index("def dataframe_to_csv") < merged.index("def other")


_QUERIES = """export function maxDate(a, b) {
  return a > b ? a : b;
}

/** Returns the lesser of the two provider dates. */
export function minDate<A extends DateValue, B extends DateValue>(
  a?: A | null,
  b?: B | null
): A | B | null | undefined {
  if (a && b) {
    return a.compare(b) <= 0 ? a : b;
  }
  return a || b;
}
"""


def test_new_typescript_overloads_above_the_implementation_pair_it_at_the_last_copy() -> None:
    # internationalized/date: two overload declarations written above the implementation, whose
    # header then ends in a marker; the first copy took the header's pair and the implementation's
    # read as a second definition of `minDate` (refused)
    snippet = """// ... existing code ...
/** Returns the lesser of the two provider dates. */
export function minDate<A extends DateValue, B extends DateValue>(a: A, b: B): A | B;
export function minDate<A extends DateValue, B extends DateValue>(
  a?: A | null,
  b?: B | null
): A | B | null | undefined;
export function minDate<A extends DateValue, B extends DateValue>(
// ... existing code ...
"""
    expected = _QUERIES.replace(
        "/** Returns the lesser of the two provider dates. */\n",
        "/** Returns the lesser of the two provider dates. */\n"
        "export function minDate<A extends DateValue, B extends DateValue>(a: A, b: B): A | B;\n"
        "export function minDate<A extends DateValue, B extends DateValue>(\n"
        "  a?: A | null,\n  b?: B | null\n): A | B | null | undefined;\n")
    assert apply(_QUERIES, snippet, filename="queries.ts").merged_code == expected


_NOISE = """def make_calibration(
    iswap_pauli,
    syc_angles,
    iswap_angles,
) -> Calibration:
    return Calibration()


def test_noise_properties():
    calibration = make_calibration(
        iswap_pauli,
        syc_angles,
        iswap_angles,
    )
    with cirq.testing.assert_deprecated(
        "called without the gate_times_ns", deadline="v1.7"
    ):
        prop = noise_properties_from_calibration(calibration)
    assert prop == noise_properties_from_calibration(
        calibration, gate_times_ns="legacy"
    )

    for i, q in enumerate(qubits):
        assert np.isclose(
            prop.fidelity[q], expected[i]
        )


def test_other():
    calibration = make_calibration(
        iswap_pauli,
        syc_angles,
        iswap_angles,
    )
    assert calibration
"""


def test_context_new_lines_and_the_anchor_replace_the_whole_statements_between() -> None:
    # cirq-google: the tail of a call the file has twice, the rewritten lines, then the unique
    # `for` line, no marker between: the `with` block and the assert under it are what they replace
    # (the context, read as new code, had broken the syntax: refused)
    new = """    prop = noise_properties_from_calibration(calibration, gate_times_ns="legacy")

    assert prop.gate_times_ns[cirq.ZPowGate] == 25
    assert prop.gate_times_ns[cirq.ResetChannel] == 250
    assert prop.gate_times_ns[cirq.FSimGate] == 32

"""
    snippet = ("        # ... existing code ...\n        iswap_pauli,\n        syc_angles,\n        iswap_angles,\n    )\n"
               + new + "    for i, q in enumerate(qubits):\n        assert np.isclose(\n            # ... existing code ...\n")
    start = _NOISE.index("    with cirq.testing")
    end = _NOISE.index("    for i, q")
    expected = _NOISE[:start] + new + _NOISE[end:]
    assert apply(_NOISE, snippet, filename="test_noise.py").merged_code == expected


def test_context_then_new_lines_do_not_delete_across_a_definition_header() -> None:
    # the nearest copy of the context sits in the function above the anchor's: the lines between
    # hold a shallower header, no statements of one block, so nothing is deleted silently
    original = """def test_a():
    calibration = make_calibration(
        iswap_pauli,
        syc_angles,
    )
    assert calibration


def test_b():
    for q in qubits:
        check(q)
"""
    snippet = """# ... existing code ...
        iswap_pauli,
        syc_angles,
    )
    prop = 1
    for q in qubits:
        # ... existing code ...
"""
    try:
        merged = apply(original, snippet, filename="test_b.py").merged_code
    except ApplyError:
        return
    assert "def test_b():" in merged and "assert calibration" in merged


def test_a_typescript_directive_comment_edited_at_the_top_of_a_whole_file_snippet_replaces_it() -> None:
    # fault: the whole file sent without markers, its first line `// @ts-ignore` now
    # `// @ts-expect-error`; the old head was kept above the new one
    original = """// @ts-ignore
import formatter from 'format'

export var fault = Object.assign(create(Error), {
  eval: create(EvalError),
  range: create(RangeError),
  reference: create(ReferenceError),
  syntax: create(SyntaxError),
  type: create(TypeError),
  uri: create(URIError)
})

export function create(Constructor) {
  FormattedError.displayName = Constructor.displayName || Constructor.name
  return FormattedError

  function FormattedError(format, ...values) {
    var reason = format ? formatter(format, ...values) : format
    return new Constructor(reason)
  }
}
"""
    snippet = original.replace("// @ts-ignore", "// @ts-expect-error").replace("var ", "const ")
    snippet = snippet.replace("  FormattedError.displayName", "  // @ts-expect-error\n  FormattedError.displayName")
    assert apply(original, snippet, filename="index.js").merged_code == snippet


_PROVIDER = """class DestinationProvider {
    constructor(options){
        Object.defineProperty(this, _providersMetadata, {
            writable: true,
            value: void 0
        });
        Object.defineProperty(this, _diagnostics, {
            writable: true,
            value: void 0
        });
        this.name = 'destination::local-directory';
        this.options = options;
    }
}
"""
_ROLLED_BACK = """        Object.defineProperty(this, _rolledBack, {
            writable: true,
            value: void 0
        });
"""


@pytest.mark.parametrize("context", [3, 2])
def test_a_new_property_written_like_the_one_above_is_added_not_written_over_it(context: int) -> None:
    # strapi's data-transfer providers: the end of the `_diagnostics` property (three lines, or two),
    # a property for the new `_rolledBack` written the same way, then the next line; read as an edit
    # of `_diagnostics` (its lines the new one's but for the name), the merge deleted that property
    tail = ["            writable: true,", "            value: void 0", "        });"][-context:]
    snippet = "// ... existing code ...\n" + "\n".join(tail) + "\n" + _ROLLED_BACK + \
        "        this.name = 'destination::local-directory';\n// ... existing code ...\n"
    expected = _PROVIDER.replace("        this.name =", _ROLLED_BACK + "        this.name =")
    assert apply(_PROVIDER, snippet, filename="index.js").merged_code == expected


def test_a_property_renamed_to_a_name_the_file_uses_is_no_new_sibling() -> None:
    # the same shape under a name the file already has: as likely an edit of the property above
    snippet = """// ... existing code ...
            value: void 0
        });
        Object.defineProperty(this, _providersMetadata, {
            writable: true,
            value: void 0
        });
        this.name = 'destination::local-directory';
// ... existing code ...
"""
    try:
        merged = apply(_PROVIDER, snippet, filename="index.js").merged_code
    except ApplyError:
        return
    assert merged.count("Object.defineProperty(") <= 2


_SCRIPT = """const npa = require('npm-package-arg')

const nameFromEdges = (node) => {
  if (!node.edgesIn || typeof node.edgesIn[Symbol.iterator] !== 'function') {
    return null
  }
  for (const edge of node.edgesIn) {
    let parsed
    try {
      parsed = npa.resolve(edge.name, edge.spec)
    } catch {
      continue
    }
    if (parsed.registry) {
      return parsed.name
    }
  }
  return null
}

module.exports = { nameFromEdges }
"""


def test_a_definition_split_in_two_keeps_its_old_body_under_the_new_header_with_a_parameter_renamed() -> None:
    # npm's arborist: `nameFromEdges` now calls a new `nameFromEdgeSet(edgesIn)` that holds the old
    # body, which reads `edgesIn` where it read `node.edgesIn`; the body's first lines are shown with
    # a marker for the rest (refused: the marker under a new definition stood for nothing)
    snippet = """// ... existing code ...
const nameFromEdges = (node) => {
  const name = nameFromEdgeSet(node?.edgesIn)
  return name
}

const nameFromEdgeSet = (edgesIn) => {
  if (!edgesIn || typeof edgesIn[Symbol.iterator] !== 'function') {
    return null
  }
  for (const edge of edgesIn) {
    let parsed
    try {
  // ... existing code ...
"""
    head = """const nameFromEdges = (node) => {
  const name = nameFromEdgeSet(node?.edgesIn)
  return name
}

const nameFromEdgeSet = (edgesIn) => {
  if (!edgesIn || typeof edgesIn[Symbol.iterator] !== 'function') {
    return null
  }
  for (const edge of edgesIn) {
"""
    expected = _SCRIPT.replace(_SCRIPT[_SCRIPT.index("const nameFromEdges"):_SCRIPT.index("    let parsed")], head)
    assert apply(_SCRIPT, snippet, filename="script-allowed.js").merged_code == expected


_POLICIES = '''from urllib.parse import urlparse
from typing import Any

SM_LENGTH_HEADER = "x-ms-structured-content-length"


def encode_base64(data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    encoded = base64.b64encode(data)
    return encoded.decode("utf-8")


def is_exhausted(settings):
    return settings["total"] < 0


class SensitiveHeaderCleanupPolicy:
    DEFAULT_SENSITIVE_HEADERS = {
        "authorization",
        "x-ms-authorization-auxiliary",
        "x-ms-copy-source-authorization",
        "x-ms-encryption-key",
    }

    def __init__(self, headers=None):
        self.headers = headers or self.DEFAULT_SENSITIVE_HEADERS
'''


def test_a_new_constant_whose_items_the_file_lists_elsewhere_moves_nothing() -> None:
    # azure-storage's policies: a new `_LOG_REDACTED_HEADERS = frozenset({...})` above
    # `encode_base64`, its header names also in a class's set far below; those lines read as
    # anchors down there, `encode_base64` as moved up, and the rest of its body was lost
    snippet = '''# ... existing code ...
SM_LENGTH_HEADER = "x-ms-structured-content-length"
_LOG_REDACTED_HEADERS = frozenset(
    {
        "authorization",
        "x-ms-authorization-auxiliary",
        "x-ms-copy-source-authorization",
        "x-ms-encryption-key",
    }
)


def encode_base64(data):
    if isinstance(data, str):
        data = data.encode("utf-8")
# ... existing code ...
'''
    new = snippet[snippet.index("_LOG_REDACTED_HEADERS"):snippet.index("def encode_base64")]
    expected = _POLICIES.replace('"x-ms-structured-content-length"\n\n\n',
                                 '"x-ms-structured-content-length"\n' + new)
    assert apply(_POLICIES, snippet, filename="policies.py").merged_code == expected


def test_a_part_anchored_at_both_ends_with_new_lines_like_lines_elsewhere_is_placed_by_its_ends() -> None:
    # the same new constant shown out of file order after a later part: its first and last lines
    # place it; its header names, also in the class's set below, are coincidences (refused before)
    snippet = '''# ... existing code ...
    def __init__(self, headers=None):
        self.headers = headers or self.DEFAULT_SENSITIVE_HEADERS
# ... existing code ...
SM_LENGTH_HEADER = "x-ms-structured-content-length"
_LOG_REDACTED_HEADERS = frozenset(
    {
        "authorization",
        "x-ms-authorization-auxiliary",
        "x-ms-copy-source-authorization",
        "x-ms-encryption-key",
    }
)


def encode_base64(data):
# ... existing code ...
'''
    new = snippet[snippet.index("_LOG_REDACTED_HEADERS"):snippet.index("def encode_base64")]
    expected = _POLICIES.replace('"x-ms-structured-content-length"\n\n\n',
                                 '"x-ms-structured-content-length"\n' + new)
    assert apply(_POLICIES, snippet, filename="policies.py").merged_code == expected


_DRIVER = '''class FileDriver:
    def get_members(self, group_id: bytes):
        group_dir = os.path.join(self._group_dir, group_id)

        def _do_get_members():
            if not os.path.isdir(group_dir):
                raise coordination.GroupNotCreated(group_id)
            members = set()
            try:
                entries = os.listdir(group_dir)
            except OSError as e:
                if e.errno != errno.ENOENT:
                    raise
                return members
            for entry in entries:
                if not entry.endswith('.raw'):
                    continue
                entry_path = os.path.join(group_dir, entry)
                members.add(entry_path)
            return members

        fut = self._executor.submit(_do_get_members)
        return FileFutureResult(fut)
{helpers}
    def get_member_capabilities(self, group_id: bytes, member_id: bytes):
        fut = self._executor.submit(_do_get_member_capabilities)
        return FileFutureResult(fut)

    def delete_group(self, group_id: bytes):
        return None
'''.replace("{helpers}", "".join(
    f"\n    def helper_{k}(self, value):\n        checked_{k} = self._check(value, {k})\n"
    f"        logged_{k} = self._log(checked_{k})\n        return logged_{k} + {k}\n" for k in range(16)))


def test_a_new_method_with_a_wrapped_return_annotation_closed_by_a_bracket_is_new_code() -> None:
    # tooz: a new method whose signature ends `]:`, its body like `get_members`'s above; that
    # closing line was not read as the end of the new signature, the body's lines paired with
    # `get_members` and the context above the method was refused as unplaceable
    new = '''    def get_members_with_capabilities(
        self, group_id: bytes
    ) -> coordination.CoordAsyncResult[
        dict[bytes, coordination.Capabilities]
    ]:
        group_dir = os.path.join(self._group_dir, group_id)

        def _do_get_members_with_capabilities() -> dict[
            bytes, coordination.Capabilities
        ]:
            if not os.path.isdir(group_dir):
                raise coordination.GroupNotCreated(group_id)
            result = {}
            try:
                entries = os.listdir(group_dir)
            except OSError as e:
                if e.errno != errno.ENOENT:
                    raise
                return result
            for entry in entries:
                if not entry.endswith('.raw'):
                    continue
                entry_path = os.path.join(group_dir, entry)
                result[entry_path] = None
            return result

        fut = self._executor.submit(_do_get_members_with_capabilities)
        return FileFutureResult(fut)

'''
    snippet = ("# ... existing code ...\n        fut = self._executor.submit(_do_get_member_capabilities)\n"
               "        return FileFutureResult(fut)\n\n" + new + "    def delete_group(self, group_id: bytes):\n"
               "# ... existing code ...\n")
    expected = _DRIVER.replace("    def delete_group", new + "    def delete_group")
    assert apply(_DRIVER, snippet, filename="file.py").merged_code == expected


def test_a_bracketed_statement_edited_onto_one_line_at_the_file_end_replaces_all_of_it() -> None:
    # kv-asset-handler: `import {` over five names and `export {` over five names, each now one or
    # two lines; the snippet ends at the file's end without a marker, and the old statements' other
    # lines stayed below the edited first one (a syntax error: refused)
    original = """import * as mime from "mime";
import {
\tCacheControl,
\tInternalError,
\tNotFoundError,
\tOptions,
} from "./types";
import type { AssetManifestType } from "./types";

const defaultCacheControl: CacheControl = {
\tbrowserTTL: null,
};

function serve(options: Options) {
\treturn mime.getType(options.path);
}

export { serve };
export {
\tOptions,
\tCacheControl,
\tNotFoundError,
\tInternalError,
};
"""
    snippet = """import * as mime from "mime";
import { InternalError, NotFoundError } from "./types";
import type { AssetManifestType, CacheControl, Options } from "./types";

const defaultCacheControl: CacheControl = {
\t// ... existing code ...
\treturn mime.getType(options.path);
}

export { serve };
export { NotFoundError, InternalError };
export type { Options, CacheControl };
"""
    expected = original[:original.index("import {")] + snippet.split("\n", 1)[1].split("\n\nconst")[0] + \
        original[original.index("\n\nconst"):original.index("export {\n")] + \
        "export { NotFoundError, InternalError };\nexport type { Options, CacheControl };\n"
    assert apply(original, snippet, filename="index.ts").merged_code == expected


def test_context_pairs_with_the_copy_at_its_own_depth_not_the_nearer_shallower_one() -> None:
    # pycadf: after a deep marker, `instance.__dict__[self.name] = value` and `else:`, then a
    # rewritten raise; the file has those two lines twice, the nearer copy one level shallower
    # (the outer `else` branch); paired there, the merge broke the indentation (refused)
    original = """class ValidatorDescriptor:
    def __init__(self, name, func=None):
        self.name = name
        self.func = func

    def __set__(self, instance, value):
        if value is not None:
            if self.func is not None:
                if self.func(value):
                    instance.__dict__[self.name] = value
                else:
                    raise ValueError('%s failed validation: %s' %
                                     (self.name, self.func))
            else:
                instance.__dict__[self.name] = value
        else:
            raise ValueError('%s must not be None.' % self.name)


class CADFAbstractType:
    pass
"""
    snippet = """class ValidatorDescriptor:
    def __init__(self, name, func=None):
        self.name = name
                    # ... existing code ...
                    instance.__dict__[self.name] = value
                else:
                    raise ValueError(
                        f'{self.name} failed validation: {self.func}'
                    )
            else:
                instance.__dict__[self.name] = value
        else:
            raise ValueError(f'{self.name} must not be None.')


class CADFAbstractType:
    # ... existing code ...
"""
    expected = original.replace("""                    raise ValueError('%s failed validation: %s' %
                                     (self.name, self.func))""", """                    raise ValueError(
                        f'{self.name} failed validation: {self.func}'
                    )""").replace("raise ValueError('%s must not be None.' % self.name)",
                                  "raise ValueError(f'{self.name} must not be None.')")
    assert apply(original, snippet, filename="cadftype.py").merged_code == expected


_ZONES = """class ZoneController(V2Controller):
    def create(self, name):
        return self._post('/zones', data={'name': name})

    def list(self, criterion=None, marker=None, limit=None):
        url = self.build_url('/zones', criterion, marker, limit)
        return self._get(url, response_key='zones')


class ZoneExportsController(V2Controller):
    def create(self, zone):
        return self._post(f'/zones/{zone}/tasks/export')

    def get_export_record(self, zone_export_id):
        return self._get(f'/zones/tasks/exports/{zone_export_id}')

    def list(self):
        return self._get('/zones/tasks/exports')

    def delete(self, zone_export_id):
        return self._delete(f'/zones/tasks/exports/{zone_export_id}')
"""


def test_an_edited_header_written_like_another_class_s_is_placed_by_its_part_s_own_lines() -> None:
    # designateclient: `def list(self):` of the exports controller now takes the paging arguments
    # and reads exactly like ZoneController's `list`; the lines around it are the exports
    # controller's own, but the header's verbatim copy elsewhere refused the merge
    snippet = """# ... existing code ...
        return self._post(f'/zones/{zone}/tasks/export')

    def get_export_record(self, zone_export_id):
        return self._get(f'/zones/tasks/exports/{zone_export_id}')

    def list(self, criterion=None, marker=None, limit=None):
        url = self.build_url('/zones/tasks/exports', criterion, marker, limit)
        return self._get(url, response_key='exports')

    def delete(self, zone_export_id):
# ... existing code ...
"""
    expected = _ZONES.replace("""    def list(self):
        return self._get('/zones/tasks/exports')
""", """    def list(self, criterion=None, marker=None, limit=None):
        url = self.build_url('/zones/tasks/exports', criterion, marker, limit)
        return self._get(url, response_key='exports')
""")
    assert apply(_ZONES, snippet, filename="zones.py").merged_code == expected


def test_a_header_shown_with_lines_two_classes_share_is_still_refused() -> None:
    # the same header with only lines both controllers could hold around it: which `list` it
    # edits is a guess
    snippet = """# ... existing code ...
    def list(self, criterion=None, marker=None, limit=None):
        url = self.build_url('/zones/tasks/exports', criterion, marker, limit)
# ... existing code ...
"""
    try:
        merged = apply(_ZONES, snippet, filename="zones.py").merged_code
    except ApplyError:
        return
    assert merged.count("def list(self, criterion=None, marker=None, limit=None):") == 1 \
        and "def list(self):" in merged


def test_a_callback_opener_rewritten_between_two_anchors_is_an_edit_of_the_old_one() -> None:
    # ionic's utils-process, recompiled: `kill(pid, signal, err => {` became `(0,
    # tree_kill_1.default)(pid, signal, err => {` between two unchanged lines; read apart, the old
    # opener went while its body stayed (refused as lost content)
    original = """function killProcessTree(pid, signal = 'SIGTERM') {
    return new Promise((resolve, reject) => {
        kill(pid, signal, err => {
            if (err) {
                debug('error while killing process tree for %d: %O', pid, err);
                return reject(err);
            }
            resolve();
        });
    });
}
function onExit(fn) {
    onSignalExit(() => {
        debug('onExit: process.exit/normal shutdown');
        fn();
    });
}
"""
    snippet = """function killProcessTree(pid, signal = 'SIGTERM') {
    return new Promise((resolve, reject) => {
        (0, tree_kill_1.default)(pid, signal, err => {
            if (err) {
// ... existing code ...
function onExit(fn) {
    (0, signal_exit_1.default)(() => {
        debug('onExit: process.exit/normal shutdown');
// ... existing code ...
"""
    expected = original.replace("        kill(pid", "        (0, tree_kill_1.default)(pid").replace(
        "    onSignalExit(() => {", "    (0, signal_exit_1.default)(() => {")
    assert apply(original, snippet, filename="index.js").merged_code == expected


def test_the_last_read_of_an_enum_member_may_go() -> None:
    # azure-keyvault: the default API version moves to a new member; the old member stays, read
    # nowhere any more, as the release has it (refused as a variable left assigned and unread)
    original = '''class ApiVersion(str, Enum):
    """Key Vault API versions supported by this package"""

    #: this is the default version
    V2025_07_01 = "2025-07-01"
    V7_6 = "7.6"


DEFAULT_VERSION = ApiVersion.V2025_07_01

_SERIALIZER = Serializer()
'''
    snippet = '''# ... existing code ...
    #: this is the default version
    V2026_04_01 = "2026-04-01"
    V2025_07_01 = "2025-07-01"
# ... existing code ...


DEFAULT_VERSION = ApiVersion.V2026_04_01

_SERIALIZER = Serializer()
'''
    expected = original.replace('    V2025_07_01 = "2025-07-01"\n', '    V2026_04_01 = "2026-04-01"\n    V2025_07_01 = "2025-07-01"\n')
    expected = expected.replace("ApiVersion.V2025_07_01", "ApiVersion.V2026_04_01")
    assert apply(original, snippet, filename="client_base.py").merged_code == expected


def test_a_wrapped_header_ending_in_a_comment_left_without_a_body_is_refused() -> None:
    # google-cloud's generated transports: `):  # pragma: NO COVER` ends an `if` wrapped over three
    # lines; the snippet's marker after it at column 0 put the old statements under it at its own
    # depth. tree-sitter-python accepts the empty block; the check read `:` as the line's end only
    original = """def call(self, request):
    if LOGGING and _LOGGER.isEnabledFor(
        logging.DEBUG
    ):  # pragma: NO COVER
        url = request.uri
        _LOGGER.debug(url)
    return request
"""
    snippet = """def call(self, request):
    body = request.body
    if LOGGING and _LOGGER.isEnabledFor(
        logging.DEBUG
    ):  # pragma: NO COVER
# ... existing code ...
"""
    try:
        merged = apply(original, snippet, filename="rest.py").merged_code
    except ApplyError as error:
        assert error.code in ("syntax_regressed", "content_lost", "ambiguous_anchor")
        return
    compile(merged, "rest.py", "exec")


def test_a_rewritten_last_function_under_a_wrapped_signature_replaces_the_old_body_to_its_end() -> None:
    # zope.testing: the snippet shows the last line of `_run_test`'s wrapped signature after a
    # marker, then the whole new body, and ends without a marker; the old body's last lines, after
    # the last line the new body shares with it, were kept below the new ones
    original = """import doctest


def _run_test(self, test, globs, name, path,
              optionflags, checker, testname='self', lineno=0):
    globs.update(getattr(self, 'globs', ()))
    globs[testname] = self
    optionflags |= doctest.IGNORE_EXCEPTION_DETAIL
    doctest.DocTestCase(
        _parser.get_doctest(test, globs, name, path, lineno),
        optionflags=optionflags,
        checker=checker,
    ).runTest()
"""
    snippet = """# ... existing code ...
              optionflags, checker, testname='self', lineno=0):
    globs.update(getattr(self, 'globs', ()))
    globs[testname] = self
    optionflags |= doctest.IGNORE_EXCEPTION_DETAIL
    dtest = _parser.get_doctest(test, globs, name, path, lineno)
    results = doctest.DocTestRunner(optionflags=optionflags, checker=checker).run(dtest)
    if results.failed:
        raise self.failureException(dtest.name)
"""
    expected = original[:original.index("    doctest.DocTestCase(")] + snippet[snippet.index("    dtest ="):]
    assert apply(original, snippet, filename="doctestcase.py").merged_code == expected


_COMPILED = """import { declare } from '@babel/helper-plugin-utils';
import { types } from '@babel/core';

function buildLoopBody(path, declar) {
  const bodyPath = path.get("body");
  return types.blockStatement([declar, bodyPath.node]);
}
const debug = require("debug")("babel:for-of");
const index = declare((api, options) => {
  api.assertVersion(7);
  return { name: "transform-for-of" };
});

export { index as default };
"""
_HELPER = """function getLeftNames(path) {
  const names = Object.keys(path.getBindingIdentifiers());
  return names;
}
"""


def test_a_new_function_written_glued_above_an_old_one_stays_glued_in_a_file_that_glues_them() -> None:
    # babel's compiled plugins glue every top-level statement under the `}` above it; a new helper
    # written glued above `buildLoopBody` got a blank line under it (the one `buildLoopBody` had
    # above it, under the imports)
    snippet = """import { declare } from '@babel/helper-plugin-utils';
import { types } from '@babel/core';

""" + _HELPER + """function buildLoopBody(path, declar) {
// ... existing code ...
"""
    expected = _COMPILED.replace("function buildLoopBody", _HELPER + "function buildLoopBody")
    assert apply(_COMPILED, snippet, filename="index.js").merged_code == expected


def test_a_new_function_written_glued_under_an_old_one_stays_glued_in_a_file_that_glues_them() -> None:
    # metro's compiled watchers: a new `_interopRequireDefault` written glued under the `}` of the
    # helper above it, where the file glues its next statement too, got a blank line above it
    snippet = """// ... existing code ...
  return types.blockStatement([declar, bodyPath.node]);
}
""" + _HELPER + """const debug = (0, _debug.default)("babel:for-of");
// ... existing code ...
"""
    expected = _COMPILED.replace('}\nconst debug = require("debug")("babel:for-of");',
                                 "}\n" + _HELPER + 'const debug = (0, _debug.default)("babel:for-of");')
    assert apply(_COMPILED, snippet, filename="index.js").merged_code == expected


def test_a_docstring_argument_renamed_in_place_is_no_header_written_elsewhere() -> None:
    # lightly: `inv_coff:` in one docstring corrected to `inv_coef:`, which another docstring has
    # verbatim; paired as an edit, it read as a header placed by a guess (refused)
    original = '''class A:
    def __init__(self, tcr_eps, inv_coef):
        """Initializes A.

        Args:
            tcr_eps:
                Total coding rate (TCR) epsilon.
            inv_coef:
                Coefficient for the invariance loss.
        """


class B:
    def __init__(self, tcr_eps, inv_coef):
        """Initializes B.

        Args:
            tcr_eps:
                Total coding rate (TCR) epsilon.
            inv_coff:
                Coefficient for the invariance loss.
        """
        self.inv_coef = inv_coef
'''
    snippet = '''    # ... existing code ...
        """Initializes B.

        Args:
            tcr_eps:
                Total coding rate (TCR) epsilon.
            inv_coef:
                Coefficient for the invariance loss.
        """
        self.inv_coef = inv_coef
'''
    expected = original.replace("inv_coff:", "inv_coef:")
    assert apply(original, snippet, filename="loss.py").merged_code == expected


def test_a_require_whose_last_use_the_snippet_removes_goes_with_it() -> None:
    # cli-table: `var stripAnsi = require('strip-ansi');` above a snippet that starts at the file's
    # doc comment and rewrites the one line that called it; the import stayed
    original = """var stripAnsi = require('strip-ansi');

/**
 * Repeats a string.
 */
exports.repeat = function (str, times) {
  return Array(times + 1).join(str);
};

exports.strlen = function(str){
  var stripped = stripAnsi(str);
  return stripped.length;
};
"""
    snippet = """/**
 * Repeats a string.
// ... existing code ...
exports.strlen = function(str){
  var stripped = ("" + str).replace(/\\u001b\\[(?:\\d*;){0,5}\\d*m/g, '');
  return stripped.length;
// ... existing code ...
"""
    expected = original.replace("var stripAnsi = require('strip-ansi');\n\n", "").replace(
        "  var stripped = stripAnsi(str);", "  var stripped = (\"\" + str).replace(/\\u001b\\[(?:\\d*;){0,5}\\d*m/g, '');")
    assert apply(original, snippet, filename="utils.js").merged_code == expected


def test_a_next_line_lint_directive_above_the_snippet_s_first_line_goes() -> None:
    # pe-library: `// eslint-disable-next-line ...` guarded `/// <reference lib='dom' />`, which the
    # snippet shows as its first line without it; a file-wide `/* eslint-disable */` would stay
    original = """// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference lib='dom' />
import ImageDosHeader from '../format/ImageDosHeader.js';
export function cloneObject(object) {
    return Object.assign({}, object);
}
export function createDataView(bin) {
    return new DataView(bin);
}
"""
    snippet = """/// <reference lib='dom' />
import ImageDosHeader from '../format/ImageDosHeader.js';
export function cloneObject(object) {
    return { ...object };
}
// ... existing code ...
"""
    expected = original.split("\n", 1)[1].replace("return Object.assign({}, object);", "return { ...object };")
    assert apply(original, snippet, filename="functions.js").merged_code == expected
    wide = original.replace("// eslint-disable-next-line @typescript-eslint/triple-slash-reference", "/* eslint-disable */")
    assert apply(wide, snippet, filename="functions.js").merged_code.startswith("/* eslint-disable */\n")
