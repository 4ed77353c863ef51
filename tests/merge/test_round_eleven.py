"""Issue 8, eleventh round: real release edits of a fresh tuned batch (tune-21)."""

from __future__ import annotations

from fastapply import apply
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
