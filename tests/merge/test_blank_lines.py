"""Blank lines where a snippet's edit meets the file: models double or drop the blank line where
their edit ends and the file resumes; the merged file keeps the file's own blank lines there.
(Failures of this kind are 'wrong, whitespace only' merges: silently wrong all the same.)"""

from __future__ import annotations

from fastapply import apply

JS_ROUTE = """\
'use strict';

var debug = require('debug')('express:router:route');

Route.prototype._handles_method = function _handles_method(method) {
  if (this.methods._all) {
    return true;
  }

  var name = typeof method === 'string'
    ? method.toLowerCase()
    : method;

  if (name === 'head' && !this.methods['head']) {
    name = 'get';
  }

  return Boolean(this.methods[name]);
};

Route.prototype.dispatch = function dispatch(req, res, done) {
  var idx = 0;
  var stack = this.stack;
  if (stack.length === 0) {
    return done();
  }
  req.route = this;
  next();
};
"""


def _merged(original: str, update: str) -> str:
    return apply(original, update, filename="route.js").merged_code


def test_dropped_blank_line_after_an_edited_line_is_kept() -> None:
    # the edit rewrote the statement above the blank line; the model wrote no blank line after it
    update = """\
// ... existing code ...
Route.prototype._handles_method = function _handles_method(method) {
  if (this.methods._all) {
    return true;
  }

  var name = String(method || '').toLowerCase();
  if (name === 'head' && !this.methods['head']) {
// ... existing code ...
"""
    expected = JS_ROUTE.replace("typeof method === 'string'\n    ? method.toLowerCase()\n    : method;",
                                "String(method || '').toLowerCase();")
    assert _merged(JS_ROUTE, update) == expected


def test_doubled_blank_line_after_an_edited_line_is_single() -> None:
    update = """\
// ... existing code ...
  if (this.methods._all) {
    return false;
  }


  var name = typeof method === 'string'
// ... existing code ...
"""
    expected = JS_ROUTE.replace("    return true;\n", "    return false;\n")
    assert _merged(JS_ROUTE, update) == expected


def test_doubled_blank_line_after_an_inserted_function_is_single() -> None:
    update = """\
// ... existing code ...
  return Boolean(this.methods[name]);
};

function methodName(method) {
  return typeof method === 'string' ? method.toLowerCase() : method;
}


Route.prototype.dispatch = function dispatch(req, res, done) {
// ... existing code ...
"""
    anchor = "Route.prototype.dispatch"
    helper = ("function methodName(method) {\n"
              "  return typeof method === 'string' ? method.toLowerCase() : method;\n}\n\n")
    expected = JS_ROUTE.replace(anchor, helper + anchor)
    assert _merged(JS_ROUTE, update) == expected


def test_blank_line_the_model_adds_inside_new_code_stays() -> None:
    # a blank line between two new statements is the snippet's own: never touched
    update = """\
// ... existing code ...
  var idx = 0;
  var stack = this.stack;

  debug('dispatching %s %s', req.method, req.url);
  if (stack.length === 0) {
// ... existing code ...
"""
    expected = JS_ROUTE.replace(
        "  var stack = this.stack;\n",
        "  var stack = this.stack;\n\n  debug('dispatching %s %s', req.method, req.url);\n")
    assert _merged(JS_ROUTE, update) == expected
