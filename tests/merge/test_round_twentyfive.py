"""Issue 8, twenty-fifth round: real release edits of tune-79 .. (drawn from crawl-34 and the new
crawl-36), read case by case."""

from __future__ import annotations

from fastapply import ApplyError, apply

_ISLAND = '''import { hash } from "ohash";
// ../src/island.ts
/**
* Strip scoped attributes from island props.
*/
function filterProps(props) {
\tif (!props) return {};
\tconst out = {};
\tfor (const key in props) if (!key.startsWith("data-v-")) out[key] = props[key];
\treturn out;
}
/**
* The hash segment of an island URL.
*
* The hash binds the response to the requested tuple.
*/
function getIslandHash(input) {
\tconst props = input.props ?? {};
\treturn hash([
\t\tinput.name,
\t\tprops,
\t\tinput.source
\t]).replace(/[-_]/g, "");
}
export { filterProps, getIslandHash };
'''


def test_prose_in_a_comment_does_not_keep_an_import_whose_last_call_the_whole_file_snippet_replaced() -> None:
    # nuxt's island-hash: the snippet, the whole file without a marker, imports `digest` where the
    # file imported `hash`; its doc comment says "the hash binds", which is no use of the name
    expected = _ISLAND.replace('import { hash }', 'import { digest }').replace(
        "return hash([", "return digest(canonicalJSON([").replace("]).replace", "])).replace").replace(
        "export {", "function canonicalJSON(value) {\n\treturn JSON.stringify(value);\n}\nexport {")
    assert apply(_ISLAND, expected, filename="island.mjs").merged_code == expected


def test_an_import_the_snippet_still_calls_stays_above_a_new_import() -> None:
    # the same snippet calling `hash` in code as well: the old import is still used, and stays
    snippet = _ISLAND.replace('import { hash }', 'import { digest }').replace(
        "\treturn out;", "\treturn hash(out) && out;")
    merged = apply(_ISLAND, snippet, filename="island.mjs").merged_code
    assert 'import { hash } from "ohash";' in merged


_QUERY = '''"use strict";

function parseQuery(urlObj, options)
{
\turlObj.query.full = stringify(urlObj.query.object, false);
\tif (options.removeEmptyQueries)
\t{
\t\turlObj.query.stripped = stringify(urlObj.query.object, true);
\t}
}



function stringify(queryObj, removeEmpty)
{
\tvar str = "";
\tfor (var i in queryObj)
\t{
\t\tif (i !== "" && queryObj.hasOwnProperty(i))
\t\t{
\t\t\tstr += i;
\t\t}
\t}
\treturn str;
}



module.exports = parseQuery;
'''


def test_three_blank_lines_where_the_file_writes_three_stand() -> None:
    # relateurl: a new line under "use strict", then the three blank lines the file puts between
    # its functions; one blank line doubled is a slip, three written as the file writes them are not
    snippet = '''"use strict";
var hasOwnProperty = Object.prototype.hasOwnProperty;



function parseQuery(urlObj, options)
{
\turlObj.query.full = stringify(urlObj.query.object, false);
// ... existing code ...
\t\tif (i !== "" && hasOwnProperty.call(queryObj, i) === true)
// ... existing code ...
'''
    expected = _QUERY.replace('"use strict";\n', '"use strict";\nvar hasOwnProperty = Object.prototype.hasOwnProperty;\n\n\n').replace(
        'queryObj.hasOwnProperty(i))', 'hasOwnProperty.call(queryObj, i) === true)')
    assert apply(_QUERY, snippet, filename="query.js").merged_code == expected


def test_two_blank_lines_under_a_new_line_are_still_a_slip_in_a_file_of_single_ones() -> None:
    # the same edit in a file that puts one blank line between its functions: two are a slip
    original = _QUERY.replace("}\n\n\n\n", "}\n\n")
    snippet = '''"use strict";
var hasOwnProperty = Object.prototype.hasOwnProperty;


function parseQuery(urlObj, options)
{
// ... existing code ...
'''
    merged = apply(original, snippet, filename="query.js").merged_code
    assert merged.startswith('"use strict";\nvar hasOwnProperty = Object.prototype.hasOwnProperty;\n\nfunction parseQuery')
_SETTINGS = '''import os


def projects_dir_validate(projects_dir):
    assert os.path.isdir(projects_dir)
    return os.path.abspath(projects_dir)


DEFAULT_SETTINGS = {
    "enable_cache": {
        "description": "Enable caching for HTTP API requests",
        "value": True,
    },
    "enable_telemetry": {
        "description": "Telemetry service (Yes/No)",
        "value": True,
    },
    "force_verbose": {
        "description": "Force verbose output when processing environments",
        "value": False,
    },
    "projects_dir": {
        "description": "Default location for projects",
        "value": "~/projects",
        "validator": projects_dir_validate,
    },
    "enable_proxy_strict_ssl": {
        "description": "Verify the proxy server certificate",
        "value": True,
    },
}

SESSION_VARS = {
    "command_ctx": None,
    "caller_id": None,
}
'''


def test_closing_context_after_a_marker_is_found_past_a_new_block_that_repeats_a_line() -> None:
    # platformio: the marker (indented into the dict) stands for the settings down to the last
    # entry's end, shown as `"value": True,` `},` `}`; the new `if` block under it writes
    # `"value": False,`, a line the file has once, above: it is new code, not an anchor
    snippet = '''def projects_dir_validate(projects_dir):
    assert os.path.isdir(projects_dir)
        # ... (keep existing settings)
        "value": True,
    },
}

if "linux" in get_systype():
    DEFAULT_SETTINGS["disable_udev_rules_check"] = {
        "description": "Disable udev rules check",
        "value": False,
    }

SESSION_VARS = {
    # ... existing code ...
'''
    expected = _SETTINGS.replace('''}

SESSION_VARS''', '''}

if "linux" in get_systype():
    DEFAULT_SETTINGS["disable_udev_rules_check"] = {
        "description": "Disable udev rules check",
        "value": False,
    }

SESSION_VARS''')
    assert apply(_SETTINGS, snippet, filename="app.py").merged_code == expected


_DATABASE = '''class SABaseDatabase:
    """The database base class."""

    def __init__(self):
        self.url = None

    def begin(self):
        """See `IDatabase`."""
        pass

    def commit(self):
        """See `IDatabase`."""
        self.store.commit()

    def abort(self):
        """See `IDatabase`."""
        self.store.rollback()
'''


def test_a_docstring_every_method_has_is_the_one_right_above_the_wrapped_anchor() -> None:
    # mailman: the docstring, then a `try:` around the method's one statement; the same docstring
    # in `begin` lies beyond `def commit` (and the snippet writes it twice), so the new lines go
    # under commit's, not in its place
    snippet = '''class SABaseDatabase:
    """The database base class."""
# ... existing code ...
        """See `IDatabase`."""
        try:
            self.store.commit()
        except PendingRollbackError:
            self.abort()

    def abort(self):
        """See `IDatabase`."""
        self.store.rollback()
'''
    expected = _DATABASE.replace('''        self.store.commit()
''', '''        try:
            self.store.commit()
        except PendingRollbackError:
            self.abort()
''')
    assert apply(_DATABASE, snippet, filename="base.py").merged_code == expected


_PLURALS = '''class StringsDictFile:
    def serialize(self, out):
        plist = {}
        for outerkey, units in self.units.items():
            if not units:
                continue
            if len(units) == 1:
                unit = units[0]
                plural_tags = self.tags(unit.target)
                plural_strings = self.strings(unit.target, plural_tags)

                # Omit an incomplete entry.
                if (
                    "other" not in plural_tags
                    or not plural_strings[plural_tags.index("other")]
                ):
                    continue

                plist[outerkey] = {
                    "NSStringLocalizedFormatKey": unit.localized_format
                    or f"%#@{unit.innerkey}@",
                    unit.innerkey: self.plurals(unit),
                }
                continue
            plist[outerkey] = self.other(units)
        out.write(plist)
'''


def test_the_file_s_one_copy_of_a_context_line_before_a_marker_ends_the_rewritten_condition() -> None:
    # translate-toolkit: a rewritten `if` and its `continue`, then a marker; `continue` is written
    # twice in the snippet (the other one paired below) and the file has it once between the
    # anchors: the new `if` replaces the old condition, not lands above it
    snippet = '''            # ... existing code ...
                unit = units[0]
                plurals = self.plurals(unit)

                # Omit an incomplete entry.
                if not plurals.get("other"):
                    continue
                    # ... existing code ...
                    or f"%#@{unit.innerkey}@",
                    unit.innerkey: plurals,
                }
                continue
            # ... existing code ...
'''
    expected = _PLURALS.replace('''                plural_tags = self.tags(unit.target)
                plural_strings = self.strings(unit.target, plural_tags)
''', '''                plurals = self.plurals(unit)
''').replace('''                if (
                    "other" not in plural_tags
                    or not plural_strings[plural_tags.index("other")]
                ):
''', '''                if not plurals.get("other"):
''').replace("unit.innerkey: self.plurals(unit),", "unit.innerkey: plurals,")
    assert apply(_PLURALS, snippet, filename="stringsdict.py").merged_code == expected


def test_a_new_continue_before_a_marker_does_not_take_the_file_s_one_copy_across_unrelated_code() -> None:
    # the new lines end with `continue`, the file's one copy lies below statements the new lines
    # do not mention: those stay, and the new `if` is inserted (or the merge refused), never
    # written in their place
    snippet = '''            # ... existing code ...
                unit = units[0]
                if unit.obsolete:
                    continue
                # ... existing code ...
'''
    try:
        merged = apply(_PLURALS, snippet, filename="stringsdict.py").merged_code
    except ApplyError:
        return
    assert "plural_tags = self.tags(unit.target)" in merged and "if unit.obsolete:" in merged


_COMPILED = '''import { callExpression, cloneNode } from "@babel/types";
class ReplaceSupers {
  constructor(opts) {
    this.opts = opts;
  }
  replace() {
    return memberExpressionToFunctions(this.methodPath, {
      getSuperRef() {
        return cloneNode(this.opts.getSuperRef());
      },
      boundGet: handler.get,
      ...handler
    });
  }
}

export { ReplaceSupers as default };
//# sourceMappingURL=index.js.map
'''


def test_a_snippet_ending_on_the_file_s_last_statement_drops_the_source_map_comment_under_it() -> None:
    # babel 8: the release's build no longer writes source maps; the snippet ends, without a
    # marker, on the file's last statement, and the comment under it goes
    snippet = '''      // ... existing code ...
        return cloneNode(this.opts.getSuperRef());
      },
      boundGet(superMember) {
        return callExpression(this.get(superMember), [thisExpression()]);
      },
      ...handler
    });
  }
}

export { ReplaceSupers as default };
'''
    expected = _COMPILED.replace("      boundGet: handler.get,\n", "      boundGet(superMember) {\n"
                                 "        return callExpression(this.get(superMember), [thisExpression()]);\n"
                                 "      },\n").replace("//# sourceMappingURL=index.js.map\n", "")
    assert apply(_COMPILED, snippet, filename="index.js").merged_code == expected


def test_another_comment_under_the_last_statement_stays() -> None:
    # the same snippet over a file that ends with an ordinary comment: the snippet may have left it out
    original = _COMPILED.replace("//# sourceMappingURL=index.js.map", "// end of generated code")
    snippet = '''      // ... existing code ...
        return cloneNode(this.opts.getSuperRef());
      },
      boundGet(superMember) {
        return callExpression(this.get(superMember), [thisExpression()]);
      },
      ...handler
    });
  }
}

export { ReplaceSupers as default };
'''
    try:
        merged = apply(original, snippet, filename="index.js").merged_code
    except ApplyError:
        return
    assert merged.endswith("export { ReplaceSupers as default };\n// end of generated code\n")


_BANNER = "/* " + "=" * 74 + " */"
_PARSER = f"""export const parse = (command, tokens) =>
  Effect.gen(function*() {{
    const path = [...command.path, command.name]

    const impl = toImpl(command)
    const flags = impl.flags.filter(isFlag)
    const registry = createRegistry(flags)

    const context = {{
      command,
      path,
      registry
    }}

    const result = scan(tokens, context)

    if (result._tag === "Leaf") {{
      return {{
        flags: result.flags,
      }}
    }}
  }})

{_BANNER}
{_BANNER}

/**
 * Scans one command level.
 */
const scan = (tokens, context) => tokens
"""


def test_a_banner_line_before_a_marker_is_the_file_s_own_under_a_new_function() -> None:
    # effect: a body rewritten, a new function after it, then the first line of the banner under
    # it, a marker and the banner's last line: the banner lines are the file's, not new ones
    snippet = f"""    // ... existing code ...
    const path = [...command.path, command.name]
    const result = scan(tokens, makeContext(command, path))

    if (result._tag === "Leaf") {{
      return {{
        flags: result.flags,
      // ... existing code ...
    }}
  }})

/**
 * The tokens left for the selected command.
 */
export const selectedTokens = (command, tokens) => {{
  const result = scan(tokens, makeContext(command, []))
  return result._tag === "Leaf" ? tokens : selectedTokens(result.sub, result.childTokens)
}}

{_BANNER}
// ... existing code ...
{_BANNER}

const makeContext = (command, path) => {{
  const flags = toImpl(command).flags.filter(isFlag)
  return {{ command, path, registry: createRegistry(flags) }}
}}

/**
 * Scans one command level.
 // ... existing code ...
"""
    expected = _PARSER.replace("""

    const impl = toImpl(command)
    const flags = impl.flags.filter(isFlag)
    const registry = createRegistry(flags)

    const context = {
      command,
      path,
      registry
    }

    const result = scan(tokens, context)
""", """
    const result = scan(tokens, makeContext(command, path))
""").replace(f"""  }})

{_BANNER}
{_BANNER}

""", f"""  }})

/**
 * The tokens left for the selected command.
 */
export const selectedTokens = (command, tokens) => {{
  const result = scan(tokens, makeContext(command, []))
  return result._tag === "Leaf" ? tokens : selectedTokens(result.sub, result.childTokens)
}}

{_BANNER}
{_BANNER}

const makeContext = (command, path) => {{
  const flags = toImpl(command).flags.filter(isFlag)
  return {{ command, path, registry: createRegistry(flags) }}
}}

""")
    assert apply(_PARSER, snippet, filename="parser.ts").merged_code == expected


_TOKENS = '''class TokensResource:
    def list(
        self,
        account_id: str,
        timeout: float | None = None,
    ) -> SyncPage[Token]:
        """List all API tokens created for this account.

        Results include
        active and disabled tokens.

        Args:
          account_id: Account identifier tag.

          timeout: Override the client-level default timeout.
        """
        return self._get_api_list(account_id, timeout=timeout)

    def delete(
        self,
        token_id: str,
        timeout: float | None = None,
    ) -> TokenDeleteResponse:
        """Destroy an API token.

        Args:
          token_id: Token identifier tag.
        """
        return self._delete(token_id, timeout=timeout)


class AsyncTokensResource:
    async def list(
        self,
        account_id: str,
        timeout: float | None = None,
    ) -> AsyncPaginator[Token]:
        """List all API tokens created for this account.

        Results include
        active and disabled tokens.

        Args:
          account_id: Account identifier tag.

          timeout: Override the client-level default timeout.
        """
        return self._get_api_list(account_id, timeout=timeout)

    async def delete(
        self,
        token_id: str,
        timeout: float | None = None,
    ) -> TokenDeleteResponse:
        """Destroy an API token.

        Args:
          token_id: Token identifier tag.
        """
        return await self._delete(token_id, timeout=timeout)
'''


def test_a_docstring_rewritten_down_to_its_args_line_before_a_marker_replaces_the_old_text() -> None:
    # cloudflare: the second copy of a rewritten docstring ends with `Args:` and a marker; every
    # method has an `Args:`, the method only one, and the new lines take the old ones' place
    new_doc = '''        """List API tokens created for this account.

        Callers with the `list_self` permission only receive tokens they
        created. Results include active and disabled tokens.
'''
    snippet = '''# ...
        timeout: float | None = None,
    ) -> SyncPage[Token]:
''' + new_doc + '''
        Args:
          account_id: Account identifier tag.
# ...
        timeout: float | None = None,
    ) -> AsyncPaginator[Token]:
''' + new_doc + '''
        Args:
# ...
'''
    old_doc = '''        """List all API tokens created for this account.

        Results include
        active and disabled tokens.
'''
    assert apply(_TOKENS, snippet, filename="tokens.py").merged_code == _TOKENS.replace(old_doc, new_doc)



_CHECK = '''class gmail_mail_delegation_disabled(Check):
    def execute(self):
        findings = []
        if gmail_client.policies:
            report = CheckReport(metadata=self.metadata())
            delegation_enabled = gmail_client.policies.enable_mail_delegation

            if delegation_enabled is False:
                report.status = "PASS"
                report.status_extended = (
                    f"Mail delegation is disabled in domain {gmail_client.domain}."
                )
            elif delegation_enabled is None:
                report.status = "PASS"
                report.status_extended = (
                    f"Mail delegation uses the secure default in domain {gmail_client.domain}."
                )
            else:
                report.status = "FAIL"
                report.status_extended = (
                    f"Mail delegation is enabled in domain {gmail_client.domain}."
                )

            findings.append(report)
        return findings
'''


def test_a_new_branch_above_one_that_starts_alike_is_inserted_and_the_old_if_becomes_elif() -> None:
    # prowler: a new first branch whose body starts as the old first branch's does; the snippet's
    # context under the old header (now `elif`) repeats those lines, then a marker: read from the
    # top, the new `if` edited the old one, the old one (as `elif`) the next branch, and the old
    # branch's message was lost
    snippet = '''            # ... rest of the code ...
            delegation_enabled = gmail_client.policies.enable_mail_delegation

            if gmail_client.policies.off_for_everyone:
                report.status = "PASS"
                report.status_extended = (
                    f"Gmail is turned off for everyone in domain {gmail_client.domain}."
                )
            elif delegation_enabled is False:
                report.status = "PASS"
                report.status_extended = (
                    # ... rest of the code ...
'''
    expected = _CHECK.replace('''            if delegation_enabled is False:
''', '''            if gmail_client.policies.off_for_everyone:
                report.status = "PASS"
                report.status_extended = (
                    f"Gmail is turned off for everyone in domain {gmail_client.domain}."
                )
            elif delegation_enabled is False:
''')
    assert apply(_CHECK, snippet, filename="check.py").merged_code == expected


def test_a_rewritten_first_branch_stays_an_edit_when_its_header_is_the_nearer_text() -> None:
    # the same shape where the first header is the one edited (a condition rewritten a little):
    # nothing moves
    snippet = '''            # ... rest of the code ...
            delegation_enabled = gmail_client.policies.enable_mail_delegation

            if delegation_enabled is False or delegation_enabled == 0:
                report.status = "PASS"
                report.status_extended = (
                    f"Mail delegation is off in domain {gmail_client.domain}."
                )
            elif delegation_enabled is None:
                report.status = "PASS"
                report.status_extended = (
                    # ... rest of the code ...
'''
    expected = _CHECK.replace('''            if delegation_enabled is False:
                report.status = "PASS"
                report.status_extended = (
                    f"Mail delegation is disabled in domain {gmail_client.domain}."''', '''            if delegation_enabled is False or delegation_enabled == 0:
                report.status = "PASS"
                report.status_extended = (
                    f"Mail delegation is off in domain {gmail_client.domain}."''')
    assert apply(_CHECK, snippet, filename="check.py").merged_code == expected


_ORDERS = '''class btcbox(Exchange):
    def fetch_order(self, id, symbol=None):
        response = self.privatePostTradeView(request)
        #
        #     [
        #         {
        #             "id": "11",
        #         },
        #     ]
        #
        return self.parse_order(response, market)

    def fetch_orders_by_type(self, type, symbol=None, since=None, limit=None):
        response = self.privatePostTradeList(request)
        #
        #     [
        #         {
        #             "id": "7",
        #         },
        #     ]
        #
        orders = self.parse_orders(response, market, since, limit)
        # btcbox does not return status, but we know it's 'open' as we queried for open orders
        if type == 'open':
            for i in range(0, len(orders)):
                orders[i]['status'] = 'open'
        return orders
'''


def test_a_line_deleted_between_a_run_of_common_comment_lines_and_the_next_anchor_goes() -> None:
    # ccxt: the snippet resumes with the last lines of a response example (`#         },` /
    # `#     ]` / `#`), which every method has, then the comment under the line it deletes: the
    # run nearest that comment is the one, and the line between goes
    snippet = '''    # ...
        #         },
        #     ]
        #
        # btcbox does not return status, but we know it's 'open' as we queried for open orders
        extra = {}
        if type == 'open':
            extra['status'] = 'open'
        return self.parse_orders(response, market, since, limit, extra)
'''
    expected = _ORDERS.replace('''        orders = self.parse_orders(response, market, since, limit)
''', "").replace('''        if type == 'open':
            for i in range(0, len(orders)):
                orders[i]['status'] = 'open'
        return orders
''', '''        extra = {}
        if type == 'open':
            extra['status'] = 'open'
        return self.parse_orders(response, market, since, limit, extra)
''')
    assert apply(_ORDERS, snippet, filename="btcbox.py").merged_code == expected



_MODEL = '''from pydantic_core import to_jsonable_python
from typing_extensions import Self

from stackit.iaas.models.network_ipv4 import NetworkIPv4


class Network(BaseModel):
    created_at: Optional[datetime] = Field(
        default=None, description="Date-time when resource was created.", alias="createdAt"
    )
    dhcp: Optional[StrictBool] = Field(default=None, description="Enable or disable DHCP.")
    labels: Optional[Dict[str, Any]] = Field(
        default=None,
        description="Object that represents the labels of an object.",
    )
    name: StrictStr
    __properties: ClassVar[List[str]] = [
        "createdAt",
        "dhcp",
        "labels",
    ]

    model_config = ConfigDict(
        populate_by_name=True,
    )

    def to_str(self) -> str:
        return pprint.pformat(self.model_dump(by_alias=True))

    def to_dict(self) -> Dict[str, Any]:
        _dict = self.model_dump(
            by_alias=True,
        )

        return _dict

    @classmethod
    def from_dict(cls, obj: Optional[Dict[str, Any]]) -> Optional[Self]:
        _obj = cls.model_validate(
            obj,
        )

        return _obj
'''


def test_a_new_field_glued_under_a_wrapped_field_stays_glued() -> None:
    # stackit: the model's fields are glued one under the other, its methods spaced, and the file
    # puts a blank line under most closing `)`; a new field written glued under a field's `)` is a
    # statement, not a definition that wants a blank line above it
    snippet = '''# ... existing code ...
    created_at: Optional[datetime] = Field(
        default=None, description="Date-time when resource was created.", alias="createdAt"
    )
    description: Optional[Annotated[str, Field(strict=True, max_length=255)]] = Field(
        default=None, description="Description Object."
    )
    dhcp: Optional[StrictBool] = Field(default=None, description="Enable or disable DHCP.")
# ... existing code ...
from pydantic_core import to_jsonable_python
from typing_extensions import Annotated, Self

from stackit.iaas.models.network_ipv4 import NetworkIPv4


class Network(BaseModel):
# ... existing code ...
        default=None,
        description="Object that represents the labels of a resource.",
    )
    name: StrictStr
# ... existing code ...
        "createdAt",
        "description",
        "dhcp",
# ... existing code ...
'''
    expected = _MODEL.replace("import Self", "import Annotated, Self").replace(
        "labels of an object.", "labels of a resource.").replace('''        "createdAt",
''', '''        "createdAt",
        "description",
''').replace('''    )
    dhcp:''', '''    )
    description: Optional[Annotated[str, Field(strict=True, max_length=255)]] = Field(
        default=None, description="Description Object."
    )
    dhcp:''')
    assert apply(_MODEL, snippet, filename="network.py").merged_code == expected
