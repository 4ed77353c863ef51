"""Issue 8, eleventh round: real release edits of a fresh tuned batch (tune-21)."""

from __future__ import annotations

from fastapply import ApplyError, apply
from fastapply.merge.similar import edited_version

JS_ORIGINAL = """'use strict';

var Worker = require('./Worker');
var checksum = require('../checksum');
var helpers = require('../helpers');

/**
 * Adds up a checksum of the chunks that pass.
 */
function ChecksumWorker() {
    Worker.call(this, 'ChecksumWorker');
    this.total = 0;
}
helpers.inherits(ChecksumWorker, Worker);

ChecksumWorker.prototype.take = function (chunk) {
    this.total = checksum(chunk.data, this.total);
    this.push(chunk);
};
module.exports = ChecksumWorker;
"""


def test_a_formatters_quote_style_is_an_edit_of_the_line() -> None:
    """prettier's double quotes over the whole file, sent without markers: `"use strict";` replaces
    `'use strict';` rather than landing under it (jszip's stream workers, tune-21)."""
    expected = JS_ORIGINAL.replace("'", '"')
    assert apply(JS_ORIGINAL, expected, filename="ChecksumWorker.js").merged_code == expected


def test_reformatted_lines_read_as_edits_and_different_ones_do_not() -> None:
    assert edited_version('"use strict";', "'use strict';")
    assert edited_version('const a = require("a");', "const a = require('a')")
    assert edited_version("x = `y`", "x = 'y'")
    assert not edited_version('"use strict";', "'use asm';")


def _command(name: str) -> list[str]:
    return ["    @command(", f'        name="{name}",', "        fixed=(Key,),", "    )",
            f"    def {name.lower()}(self, key):", f"        self.run({name!r}, key)", "        return OK", ""]


def test_methods_under_decorators_over_several_lines_are_set_apart_as_the_file_does() -> None:
    """A decorator over several lines rewritten on one: the blank line above it stays (a merge
    that passed before the fix too; the next test holds the measurement that fakeredis's lost)."""
    body = [line for name in ("ADD", "DROP", "QUERY", "MERGE", "INFO", "LIST", "RESET") for line in _command(name)]
    original = "\n".join(["class Commands:", *body]).rstrip("\n") + "\n"
    snippet = """    # ... existing code ...
        self.run('DROP', key)
        return OK

    @command(name="QUERY", fixed=(Key,))
    def query(self, key):
    # ... existing code ...
"""
    expected = original.replace('    @command(\n        name="QUERY",\n        fixed=(Key,),\n    )\n',
                                '    @command(name="QUERY", fixed=(Key,))\n')
    assert apply(original, snippet, filename="commands.py").merged_code == expected


def test_the_usual_gap_between_methods_is_measured_above_their_decorators() -> None:
    """The file's usual blank line between methods, measured above each decorator: the closing `)`
    of one written over several lines is not a sibling's end glued to its method (fakeredis's
    `@command(` ... `)` methods measured 0, and a decorator rewritten on one line after a marker
    lost the blank line above it)."""
    from fastapply.merge.spacing import Spacing

    body = [line for name in ("ADD", "DROP", "QUERY", "MERGE", "INFO", "LIST", "RESET") for line in _command(name)]
    assert Spacing(["class Commands:", *body])._measure(4) == 1  # (was 0: `)` glued to `def`)


ASSIGNMENTS = """import io
import struct

_UNIT_KM = -3
_UNIT_100M = -2
_UNIT_10M = -1


def get(filepath):
    return struct.unpack("<I", io.BytesIO(filepath).read(4))
"""


def test_one_doubled_blank_line_after_new_code_is_still_a_slip() -> None:
    snippet = """import io
import struct

__version__ = "1.4.1"


_UNIT_KM = -3
# ... existing code ...
"""
    expected = ASSIGNMENTS.replace("import struct\n\n", 'import struct\n\n__version__ = "1.4.1"\n\n')
    assert apply(ASSIGNMENTS, snippet, filename="sizes.py").merged_code == expected


ARGS = """def add_arguments(parser):
    parser.add_argument(
        "--level",
        default="INFO",
        help="log level",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=2,
        help="worker processes",
    )
    parser.add_argument(
        "--reload",
        action="store_true",
        help="reload on change",
    )
    return parser
"""


def test_a_new_call_above_a_call_it_starts_like_does_not_replace_that_call() -> None:
    """A new `parser.add_argument(` ... `)` written right under the previous call's `)`, with the
    next call's first line (which the file has three times) before a marker: the new call's `)`
    used to pair with the next call's, so its lines replaced that call's arguments (taskiq: the
    `--workers` option lost). Nothing in the new call's body is the old one's: at best a refusal."""
    snippet = """    # ... existing code ...
        help="log level",
    )
    parser.add_argument(
        "--format",
        default="%(message)s",
        help="log format",
    )
    parser.add_argument(
    # ... existing code ...
"""
    expected = ARGS.replace('        help="log level",\n    )\n', '        help="log level",\n    )\n'
                            '    parser.add_argument(\n        "--format",\n        default="%(message)s",\n'
                            '        help="log format",\n    )\n')
    try:
        merged = apply(ARGS, snippet, filename="args.py").merged_code
    except ApplyError:
        return  # a refusal is a right answer here: the snippet does not say which call follows
    assert merged == expected


STREAMS = '''class Reader:
    def __init__(self, uri):
        self._uri = uri

    def close(self):
        """Close the stream."""
        log("close")

    def readable(self):
        """True: it can be read."""
        return True

    def seekable(self):
        """False: no seeking."""
        return False


class Writer:
    def __init__(self, uri):
        self._uri = uri
        self._closed = False

    @property
    def closed(self):
        return self._closed

    def writable(self):
        return True
'''


def test_a_new_method_named_like_another_class_one_does_not_move_its_neighbour() -> None:
    """`closed` added to the first class, whose name the second class's method has too: that
    other method is no place of the new one, so the untouched `readable` after it is no moved
    method (smart-open's webhdfs.py lost the blank line under `readable`)."""
    snippet = '''    # ... existing code ...
    def close(self):
        """Close the stream."""
        log("close")
        if not self.closed:
            self._buf = None

    @property
    def closed(self):
        return self._buf is None

    def readable(self):
        """True: it can be read."""
        return True
    # ... existing code ...
'''
    expected = STREAMS.replace('''        log("close")
''', '''        log("close")
        if not self.closed:
            self._buf = None

    @property
    def closed(self):
        return self._buf is None
''', 1)
    assert apply(STREAMS, snippet, filename="streams.py").merged_code == expected
