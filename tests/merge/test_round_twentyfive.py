"""Issue 8, twenty-fifth round: real release edits of tune-79 .. (drawn from crawl-34 and the new
crawl-36), read case by case."""

from __future__ import annotations

from fastapply import apply

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
