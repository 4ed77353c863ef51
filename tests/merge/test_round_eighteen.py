"""Issue 8, eighteenth round: real release edits of the seventeenth round's kept-aside batch check-14
(now tune-40) and of the fresh batches tune-41 and tune-42, read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

BRANCHES_JS = '''function parse(token) {
	var state = "before-selector";
	var buffer = "";
	var mediaRule, containerRule, supportsRule;
	for (var i = 0; i < token.length; i++) {
		switch (token.charAt(i)) {
		case "@":
			if (token.indexOf("@media", i) === i) {
				state = "atBlock";
				mediaRule = new CSSOM.CSSMediaRule();
				mediaRule.__starts = i;
				i += "media".length;
				buffer = "";
				break;
			} else if (token.indexOf("@container", i) === i) {
				state = "containerBlock";
				containerRule = new CSSOM.CSSContainerRule();
				containerRule.__starts = i;
				i += "container".length;
				buffer = "";
				break;
			} else if (token.indexOf("@supports", i) === i) {
				state = "conditionBlock";
				supportsRule = new CSSOM.CSSSupportsRule();
				supportsRule.__starts = i;
				i += "supports".length;
				buffer = "";
				break;
			}
			break;
		}
	}
	return state;
}
'''


def _layer_edit(extra: str = "") -> str:
    return '''	// ... existing code ...
				buffer = "";
				break;
			} else if (token.indexOf("@layer", i) === i) {
				state = "layerBlock";
				layerRule = new CSSOM.CSSLayerBlockRule();
				layerRule.__starts = i;
				i += "layer".length;
''' + extra + '''				buffer = "";
				break;
			} else if (token.indexOf("@supports", i) === i) {
	// ... existing code ...
'''


def test_a_new_branch_written_like_the_one_above_is_inserted_not_written_over_it() -> None:
    # rrweb-cssom: the snippet shows the end of the branch above, the new `@layer` branch (which
    # ends the same way) and the next unchanged line; read from the left, the context paired with
    # the `@media` branch's end and the new branch went over the `@container` one
    snippet = _layer_edit("				layerRule.parentStyleSheet = styleSheet;\n")
    merged = apply(BRANCHES_JS, snippet, filename="parse.js").merged_code
    layer = snippet.split("break;\n", 1)[1].rsplit("			} else if", 1)[0]
    expected = BRANCHES_JS.replace('			} else if (token.indexOf("@supports"', layer + '			} else if (token.indexOf("@supports"')
    assert merged == expected


def test_a_new_branch_like_the_one_above_line_for_line_is_refused() -> None:
    # the same with as many lines as the `@container` branch, each like its own: an edit of that
    # branch (go-isatty's `token[0] != ...` run edited to `options[0] != ...`) fits as well
    with pytest.raises(ApplyError, match="fit two places") as error:
        apply(BRANCHES_JS, _layer_edit(), filename="parse.js")
    assert error.value.line == 2


CONNECT_PY = '''class Manager:
    async def connect(self, peripheral, timeout):
        future = self.loop.create_future()
        self._connect_futures[peripheral.identifier()] = future
        try:
            self.central.connect(peripheral)
            try:
                await future
            finally:
                del self._connect_futures[peripheral.identifier()]

        except asyncio.TimeoutError:
            logger.debug("Connection timed out after %s seconds.", timeout)
            del self._disconnect_callbacks[peripheral.identifier()]
            future = self.loop.create_future()

            self._disconnect_futures[peripheral.identifier()] = future
            try:
                self.central.cancel(peripheral)
                await future
            finally:
                del self._disconnect_futures[peripheral.identifier()]

            raise

    async def disconnect(self, peripheral):
        future = self.loop.create_future()
        self._disconnect_futures[peripheral.identifier()] = future
        try:
            self.central.cancel(peripheral)
            await future
        finally:
            del self._disconnect_futures[peripheral.identifier()]
'''


def test_a_line_a_new_clause_copies_from_the_clause_above_does_not_pair_with_it() -> None:
    # bleak: the new `except BaseException:` clause repeats `del self._disconnect_callbacks[...]`,
    # a line the original has once, in the clause above; paired there, the lines between it and
    # the shown context (`finally:` / `del self._disconnect_futures[...]`, below it in the
    # original) were lost
    snippet = '''# ... existing code ...
            finally:
                del self._disconnect_futures[peripheral.identifier()]

            raise
        except BaseException:
            # no didDisconnectPeripheral after a failed connection attempt
            del self._disconnect_callbacks[peripheral.identifier()]
            raise

    async def disconnect(self, peripheral):
# ... existing code ...
'''
    merged = apply(CONNECT_PY, snippet, filename="manager.py").merged_code
    clause = '''        except BaseException:
            # no didDisconnectPeripheral after a failed connection attempt
            del self._disconnect_callbacks[peripheral.identifier()]
            raise
'''
    expected = CONNECT_PY.replace("            raise\n\n", "            raise\n" + clause + "\n")
    assert merged == expected


SERVER_PY = '''import smtpd


class Server:
    def __init__(self, host="localhost", port=0):
        self.addr = (host, port)

    def start(self):
        self.running = True

    def stop(self):
        self.running = False

    def __repr__(self):  # pragma: no cover
        return "<smtp.Server %s:%s>" % self.addr


def main():
    import time

    server = Server()
    server.start()

    print("SMTP server is running on %s:%i" % server.addr)
    print("Type <Ctrl-C> to stop")

    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        print("stopping...")
        server.stop()


if __name__ == "__main__":  # pragma: no cover
    main()
'''


def test_a_last_part_of_unchanged_lines_over_a_long_rest_is_refused_not_kept() -> None:
    # pytest-localserver: the release deleted `main()` and the `__main__` block (seventeen lines);
    # the snippet's last part, after a marker, is unchanged lines with no marker after them. Kept,
    # the merge silently changed nothing; deleted, a snippet sent unchanged by mistake would lose as
    # many lines. Refused, with what to send for either reading
    snippet = '''# ... existing code ...
    def __repr__(self):  # pragma: no cover
        return "<smtp.Server %s:%s>" % self.addr
'''
    with pytest.raises(ApplyError, match="may end the file there or have left out its last marker") as error:
        apply(SERVER_PY, snippet, filename="smtp.py")
    assert error.value.line == 3 and "goes on for 16 more lines from original line 18" in str(error.value)


FLAGS_PY = '''class EnumFlag(Flag):
    def _extra_xml_dom_elements(self, doc):
        elements = []
        for enum_value in self.parser.enum_values:
            elements.append(create_xml_dom_element(doc, "enum_value", enum_value))
        return elements


class EnumClassFlag(Flag):
    def _extra_xml_dom_elements(self, doc):
        elements = []
        for enum_value in self.parser.enum_class.__members__.keys():
            elements.append(create_xml_dom_element(doc, "enum_value", enum_value))
        return elements


class MultiEnumFlag(MultiFlag):
    def _extra_xml_dom_elements(self, doc):
        elements = []
        if hasattr(self.parser, "enum_values"):
            for enum_value in self.parser.enum_values:  # pytype: disable=attribute-error
                elements.append(create_xml_dom_element(doc, "enum_value", enum_value))
        return elements


class MultiEnumClassFlag(MultiFlag):  # pytype: disable=not-indexable
    """A multi_enum_class flag."""

    def _extra_xml_dom_elements(self, doc):
        elements = []
        for enum_value in self.parser.enum_class.__members__.keys():  # pytype: disable=attribute-error
            elements.append(create_xml_dom_element(doc, "enum_value", enum_value))
        return elements

    def _serialize_value_for_xml(self, value):
        return ",".join(value)
'''


def test_a_method_edited_to_read_like_another_classs_copy_stays_in_its_class() -> None:
    # absl-py: the release removed the `# pytype:` comments, so `MultiEnumClassFlag`'s method now
    # reads exactly like `EnumClassFlag`'s and its `for` line like `EnumFlag`'s; matched by its
    # text, the method was read as moved there and `EnumClassFlag`'s copy was deleted
    snippet = '''    # ... existing code ...
        elements = []
        if hasattr(self.parser, "enum_values"):
            for enum_value in self.parser.enum_values:
                elements.append(create_xml_dom_element(doc, "enum_value", enum_value))
        return elements


class MultiEnumClassFlag(MultiFlag):
    """A multi_enum_class flag."""
    # ... existing code ...
    def _extra_xml_dom_elements(self, doc):
        elements = []
        for enum_value in self.parser.enum_class.__members__.keys():
            elements.append(create_xml_dom_element(doc, "enum_value", enum_value))
        return elements

    def _serialize_value_for_xml(self, value):
        # ... existing code ...
'''
    merged = apply(FLAGS_PY, snippet, filename="_flag.py").merged_code
    expected = FLAGS_PY.replace("  # pytype: disable=attribute-error", "").replace("  # pytype: disable=not-indexable", "")
    assert merged == expected


MATCH_JS = '''"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createIssuePredicate = void 0;
const path_1 = require("path");
function createIssuePredicate(context, match) {
    return (issue) => {
        const matchesSeverity = !match.severity || match.severity === issue.severity;
        const matchesCode = !match.code || match.code === issue.code;
        return matchesSeverity && matchesCode;
    };
}
exports.createIssuePredicate = createIssuePredicate;
'''


def test_a_whole_file_snippet_that_moved_the_last_line_to_the_head_ends_where_it_ends() -> None:
    # fork-ts-checker-webpack-plugin: the new TypeScript output exports at the head
    # (`exports.f = f;` in place of `exports.f = void 0;`); the file's old last line, written
    # higher up, was kept at the end too
    snippet = MATCH_JS.replace("exports.createIssuePredicate = void 0;\n", "exports.createIssuePredicate = createIssuePredicate;\n") \
        .replace("}\nexports.createIssuePredicate = createIssuePredicate;\n", "}\n")
    assert apply(MATCH_JS, snippet, filename="issue-match.js").merged_code == snippet


STUB_PYI = '''class Subscription(Resource):
    @staticmethod
    def create(params: Incomplete | None = None): ...
    @staticmethod
    def find(subscription_id): ...
    @staticmethod
    def retry_charge(subscription_id, amount: Incomplete | None = None): ...
    @staticmethod
    def update(subscription_id, params: Incomplete | None = None): ...
    @staticmethod
    def cancel(subscription_id): ...
    @staticmethod
    def search(*query): ...
'''


def test_decorators_around_edited_stubs_are_no_sibling_context() -> None:
    # typeshed's stubs: `@staticmethod` before and after the edited lines is no end of a sibling
    # block; read as one, the edited stubs became new copies
    snippet = '''    # ... existing code ...
    @staticmethod
    def retry_charge(subscription_id, amount=None): ...
    @staticmethod
    def update(subscription_id, params=None): ...
    @staticmethod
    def cancel(subscription_id): ...
    # ... existing code ...
'''
    expected = STUB_PYI.replace("amount: Incomplete | None = None", "amount=None") \
        .replace("def update(subscription_id, params: Incomplete | None = None)", "def update(subscription_id, params=None)")
    assert apply(STUB_PYI, snippet, filename="subscription.pyi").merged_code == expected


OVERLOADS_PY = '''@overload
def maybe_to_result(
    maybe_container: Maybe[_FirstType],
) -> Result[_FirstType, None]:
    """No default case."""


@overload
def maybe_to_result(
    maybe_container: Maybe[_FirstType],
    default_error: _SecondType,
) -> Result[_FirstType, _SecondType]:
    """Default value case."""


def maybe_to_result(
    maybe_container: Maybe[_FirstType],
    default_error: _SecondType | None = None,
) -> Result[_FirstType, Any]:
    return maybe_container.map(Success).value_or(Failure(default_error))
'''


def test_overloads_whose_bodies_became_ellipses_are_edited_in_place() -> None:
    # returns: every overload starts `def maybe_to_result(` / `maybe_container: ...`; those lines
    # are headers, no end of a sibling, and the edited overloads are no new ones
    snippet = '''# ... existing code ...
def maybe_to_result(
    maybe_container: Maybe[_FirstType],
) -> Result[_FirstType, None]: ...


@overload
def maybe_to_result(
    maybe_container: Maybe[_FirstType],
    default_error: _SecondType,
) -> Result[_FirstType, _SecondType]: ...


def maybe_to_result(
    maybe_container: Maybe[_FirstType],
    default_error: _SecondType | None = None,
# ... existing code ...
'''
    expected = OVERLOADS_PY.replace(':\n    """No default case."""', ": ...").replace(':\n    """Default value case."""', ": ...")
    assert apply(OVERLOADS_PY, snippet, filename="converters.py").merged_code == expected


IMPORTS_PY = '''from bleak.args import SizedBuffer
from bleak.args.bluez import BlueZClientArgs, BlueZNotifyArgs
from bleak.backends import BleakBackend
from bleak.backends.scanner import (
    AdvertisementData,
    BaseBleakScanner,
)

__author__ = "Henrik Blidh"
'''


def test_an_import_list_opened_in_parentheses_defines_no_name_import() -> None:
    # bleak: `from bleak.args.bluez import (` read as a definition of `import`, a second one next to
    # `from bleak.backends.scanner import (`; the merge was refused
    snippet = '''from bleak.args import SizedBuffer
from bleak.args.bluez import (
    BlueZAdapterArgs,
    BlueZClientArgs,
    BlueZNotifyArgs,
)
from bleak.backends import BleakBackend
# ... existing code ...
'''
    expected = IMPORTS_PY.replace("from bleak.args.bluez import BlueZClientArgs, BlueZNotifyArgs\n",
                                  "from bleak.args.bluez import (\n    BlueZAdapterArgs,\n    BlueZClientArgs,\n    BlueZNotifyArgs,\n)\n")
    assert apply(IMPORTS_PY, snippet, filename="__init__.py").merged_code == expected


PARSER_JS = '''module.exports = function(Parser) {
  return class extends Parser {
    parseClassElement() {
      if (this.type != tt.name || this.value != "static") {
        return super.parseClassElement.apply(this, arguments)
      }

      const branch = this._branch()
      if ([tt.name, this.privateNameToken].indexOf(branch.type) == -1) {
        return super.parseClassElement.apply(this, arguments)
      }

      const node = this.startNode()
      node.static = this.eatContextual("static")
      return node
    }
  }
}
'''


def test_context_whose_other_copy_the_part_above_already_holds_is_not_ambiguous() -> None:
    # acorn-static-class-features: the second part's context `return super.parseClassElement...`
    # also stands higher up, but the first part already shows that copy: no other place for it
    snippet = '''// [...]
    parseClassElement() {
      if (this.type != tt.name || this.value !== "static") {
        return super.parseClassElement.apply(this, arguments)
      }
// [...]
        return super.parseClassElement.apply(this, arguments)
      }

      const node = this.startNode()
      node.static = this.eatContextual("static") && !this.canInsertSemicolon()
// [...]
'''
    expected = PARSER_JS.replace('this.value != "static"', 'this.value !== "static"') \
        .replace('this.eatContextual("static")\n', 'this.eatContextual("static") && !this.canInsertSemicolon()\n')
    assert apply(PARSER_JS, snippet, filename="index.js").merged_code == expected
