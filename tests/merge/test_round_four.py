"""Issue 8, fourth round: an edited line in context that an earlier copy holds unedited, a run of
edited lines that ends the file, and blank lines a snippet changes between two unedited
neighbours (a real release edit re-spacing module code).

Each case is written in the shape the failing cases had (serde_json's number.rs, accelerate's
ao.py, respx's __init__.py), with names of our own.
"""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

NUMBER_RS = """\
impl Number {
    pub fn as_i64(&self) -> Option<i64> {
        #[cfg(not(feature = "arbitrary_precision"))]
        match self.n {
            N::NegInt(n) => Some(n),
            N::PosInt(_) | N::Float(_) => None,
        }
        #[cfg(feature = "arbitrary_precision")]
        self.n.parse().ok()
    }

    pub fn as_u64(&self) -> Option<u64> {
        #[cfg(not(feature = "arbitrary_precision"))]
        match self.n {
            N::PosInt(n) => Some(n),
            N::NegInt(_) | N::Float(_) => None,
        }
        #[cfg(feature = "arbitrary_precision")]
        self.n.parse().ok()
    }

    /// Represents the number as f64 if possible.
    pub fn as_f64(&self) -> Option<f64> {
        #[cfg(not(feature = "arbitrary_precision"))]
        match self.n {
            N::PosInt(n) => Some(n as f64),
            N::NegInt(n) => Some(n as f64),
            N::Float(n) => Some(n),
        }
        #[cfg(feature = "arbitrary_precision")]
        self.n.parse::<f64>().ok().filter(|float| float.is_finite())
    }

    /// Converts a finite `f64` to a `Number`.
    pub fn from_f64(f: f64) -> Option<Number> {
        None
    }
}
"""


def test_context_that_an_earlier_copy_holds_unedited_is_refused_rather_than_read_as_an_edit() -> None:
    # Read as an edit, the snippet rewrites as_f64's last line; read with the copy that ends
    # as_u64, it deletes as_f64 whole. Nothing tells which: refuse, naming the line.
    snippet = """\
        /* [...] */
        #[cfg(feature = "arbitrary_precision")]
        self.n.parse().ok()
    }

    /// Converts a finite `f64` to a `Number`.
    /* [...] */
"""
    with pytest.raises(ApplyError) as caught:
        apply(NUMBER_RS, snippet, language="rust")
    assert caught.value.code == "ambiguous_anchor"
    assert "snippet line 2" in caught.value.message


def test_an_edit_of_a_line_with_no_unedited_copy_elsewhere_is_still_merged() -> None:
    snippet = """\
        /* [...] */
        #[cfg(feature = "arbitrary_precision")]
        self.n.parse::<f64>().ok()
    }

    /// Converts a finite `f64` to a `Number`.
    /* [...] */
"""
    merged = apply(NUMBER_RS, snippet, language="rust").merged_code
    assert "        self.n.parse::<f64>().ok()\n    }\n\n    /// Converts" in merged
    assert "filter(|float|" not in merged
    assert merged.count("pub fn as_f64") == 1


TRAINER_PY = """\
import logging

logger = logging.getLogger(__name__)


def find_layers(model):
    return model.first, model.last


def convert(model, settings=None):
    \"\"\"Convert the model's linear layers.\"\"\"
    from fp8 import convert_linear

    first, last = find_layers(model)
    if settings is None:
        settings = dict(skip=[first, last])
    convert_linear(model, skip=settings["skip"], config=settings)
"""


def test_a_run_of_edited_lines_that_ends_the_file_replaces_the_old_last_lines() -> None:
    # no marker after the last line: the snippet reaches the file's end, and its last four lines
    # are the old last four, edited (before, they went in above the old ones, which stayed)
    snippet = """\
# ... existing code ...
def convert(model, settings=None):
    # ... existing code ...
    from fp8 import convert_linear

    first, last = locate_layers(model)
    if options is None:
        options = dict(skip=[first, last])
    convert_linear(model, skip=options["skip"], config=options)
"""
    merged = apply(TRAINER_PY, snippet, language="python").merged_code
    assert merged.endswith("""\
    first, last = locate_layers(model)
    if options is None:
        options = dict(skip=[first, last])
    convert_linear(model, skip=options["skip"], config=options)
""")
    assert "find_layers(model)\n    if settings" not in merged


def test_new_lines_unlike_the_files_last_lines_still_go_before_them() -> None:
    snippet = """\
# ... existing code ...
    from fp8 import convert_linear

    logger.info("converting %s", type(model).__name__)
    model.train()
    model.eval()
    model.cpu()
"""
    merged = apply(TRAINER_PY, snippet, language="python").merged_code
    assert "model.cpu()\n\n    first, last = find_layers(model)" in merged or \
        "model.cpu()\n    first, last = find_layers(model)" in merged
    assert merged.rstrip().endswith('config=settings)')


PACKAGE_INIT = """\
from .models import Response, Route
from .router import Router

from .api import (  # isort:skip
    mock,
    get,
    post,
    put,
    patch,
    delete,
)

__all__ = [
    "Response",
    "Route",
    "Router",
    "mock",
    "get",
    "post",
]
"""


def test_a_blank_line_added_between_two_unedited_neighbours_stands() -> None:
    # the release added a second blank line above `__all__`, longer than any run the file had:
    # nothing new meets the file there, so it is no slip of the model's
    snippet = """\
# ... existing code ...
from .router import Router
from .utils import SetCookie

from .api import (  # isort:skip
    # ... existing code ...
)


__all__ = [
    "Response",
    # ... existing code ...
    "Router",
    "SetCookie",
    "mock",
]
"""
    merged = apply(PACKAGE_INIT, snippet, language="python").merged_code
    assert ")\n\n\n__all__ = [" in merged
    assert '    "Router",\n    "SetCookie",\n    "mock",' in merged


def test_a_doubled_blank_line_next_to_new_code_is_still_the_files_one() -> None:
    # the same doubling right below a new line is the model's slip: the file's single blank line
    snippet = """\
# ... existing code ...
from .router import Router
from .utils import SetCookie


from .api import (  # isort:skip
    # ... existing code ...
"""
    merged = apply(PACKAGE_INIT, snippet, language="python").merged_code
    assert "from .utils import SetCookie\n\nfrom .api import (" in merged


PAIRWISE_TS = """\
import { OperatorFunction } from '../types';
import { operate } from '../util/lift';
import { createOperatorSubscriber } from './OperatorSubscriber';

/**
 * Groups pairs of consecutive emissions together and emits them as an array of
 * two values.
 */
export function pairwise<T>(): OperatorFunction<T, [T, T]> {
  return operate((source, subscriber) => {
    let prev: T;
    let hasPrev = false;
    source.subscribe(
      createOperatorSubscriber(subscriber, (value) => {
        const p = prev;
        prev = value;
        hasPrev && subscriber.next([p, value]);
        hasPrev = true;
      })
    );
  });
}
"""


def test_a_part_shown_before_the_one_above_it_is_placed_by_its_line_and_the_closers_after_it() -> None:
    # `hasPrev = true;` is the part's only line of its own, but the closing lines under it close
    # its blocks one by one down to column 0 as the file has them: the part ends pairwise()
    snippet = """\
        // ... existing code ...
        hasPrev = true;
      })
    );
  });
}
function valueOrDefault<T>(value: T | undefined, fallback: T): T {
  return value ?? fallback;
}
// ... existing code ...
export function pairwise<T>(): OperatorFunction<T, [T, T]> {
  console.debug('pairwise: start');
  return operate((source, subscriber) => {
    let prev: T;
    // ... existing code ...
"""
    merged = apply(PAIRWISE_TS, snippet, language="typescript").merged_code
    assert merged.endswith("""\
  });
}

function valueOrDefault<T>(value: T | undefined, fallback: T): T {
  return value ?? fallback;
}
""")
    assert "OperatorFunction<T, [T, T]> {\n  console.debug('pairwise: start');\n  return operate(" in merged
    assert merged.count("hasPrev = true;") == 1


UTF_CODEC_PY = """\
\"\"\" Python 'utf-16-be' Codec

(c) Copyright CNRI, All Rights Reserved. NO WARRANTY.

\"\"\"
import codecs

### Codec APIs

encode = codecs.utf_16_be_encode

def decode(input, errors='strict'):
    return codecs.utf_16_be_decode(input, errors, True)

### encodings module API

def getregentry():
    return codecs.CodecInfo(
        name='utf-16-be',
        encode=encode,
        decode=decode,
    )
"""


NEW_FUNCTION = """\
def value_or_default(value, default=None):
    \"\"\"Return value, or default when it is missing.\"\"\"
    if value is None:
        return default
    return value
"""


def test_a_marker_indented_like_the_body_after_a_new_function_that_returned_stands_after_it() -> None:
    # the new function's last body line is a `return` at the body's depth: nothing of it can
    # follow, so the marker under it (indented like the body) stands for the code after it
    snippet = """\
    # ... existing code ...
        encode=encode,
        decode=decode,
    )

""" + NEW_FUNCTION + """\
    # ... existing code ...
\"\"\" Python 'utf-16-be' Codec

(c) Copyright CNRI, All Rights Reserved. NO WARRANTY.

\"\"\"
from typing import Any
import codecs
    # ... existing code ...
"""
    merged = apply(UTF_CODEC_PY, snippet, language="python").merged_code
    assert merged.startswith(UTF_CODEC_PY.split("import codecs")[0] + "from typing import Any\nimport codecs\n")
    assert merged.endswith("""\
        decode=decode,
    )

""" + NEW_FUNCTION)


def test_a_new_function_whose_body_goes_on_under_a_marker_is_still_refused() -> None:
    # no exit before the marker: the marker may stand for the rest of a renamed function's body
    snippet = """\
# ... existing code ...
def registry_entry():
    codecs.register(getregentry)
    # ... existing code ...
"""
    with pytest.raises(ApplyError) as caught:
        apply(UTF_CODEC_PY, snippet, language="python")
    assert caught.value.code == "anchor_not_found"


def test_a_go_condition_without_parentheses_is_no_css_selector() -> None:
    from fastapply.merge.lines import header_key
    assert header_key("if handle {") is None
    assert header_key("switch kind {") is None
    assert header_key("match value {") is None
    assert header_key(".button.primary {") == "css:.button.primary"


LOOP_PY = """\
import selectors


class BaseSelectorEventLoop:
    def __init__(self, selector=None):
        super().__init__()

        if selector is None:
            selector = selectors.DefaultSelector()
        self._selector = selector
        self._make_self_pipe()

    def close(self):
        self._selector.close()
"""


def test_a_new_guard_that_repeats_a_line_further_down_is_new_code_above_the_line_after_it() -> None:
    # `if selector is None:` occurs once in the original, three lines further down; read as that
    # line, the merge would drop `super().__init__()` (which the snippet shows right after the
    # guard) and the marker's lines; read as new code, it drops nothing
    snippet = """\
    # ... existing code ...
    def __init__(self, selector=None):
        if selector is None:
            raise ValueError("selector must not be None")
        super().__init__()
# ...
    def close(self):
        self._selector.close()
"""
    merged = apply(LOOP_PY, snippet, language="python").merged_code
    assert merged == LOOP_PY.replace(
        "    def __init__(self, selector=None):\n",
        "    def __init__(self, selector=None):\n        if selector is None:\n"
        "            raise ValueError(\"selector must not be None\")\n")


CONFIG_JS = """\
function configName(flat) {
    if (flat) {
        return "eslint.config.js";
    } else {
        return ".eslintrc";
    }
}

async function locateConfigFile({ configFile, cwd }) {
    let configFilePath;
    let basePath = cwd;
    let error = null;

    if (typeof configFile === "string") {
        configFilePath = path.resolve(cwd, configFile);
    } else if (configFile !== false) {
        configFilePath = await findFlatConfigFile(cwd);

        if (configFilePath) {
            basePath = path.resolve(path.dirname(configFilePath));
        } else {
            error = new Error("Could not find config file.");
        }

    }

    return {
        configFilePath,
        basePath,
        error
    };

}
"""


CONFIG_SNIPPET = """\
// ... existing code ...
        } else {
            error = new Error("Could not find config file.");
            error.messageTemplate = "config-file-missing";
        }

    }

    return {
        // ... existing code ...
"""


def test_context_under_a_new_line_goes_on_past_the_closing_line_of_a_block_opened_above() -> None:
    # (end to end; in eslint's longer snippet the first walk stopped at `}`, see the next test)
    # `}` and `return {` under the new line are the file's next lines, not new code added twice
    snippet = CONFIG_SNIPPET
    merged = apply(CONFIG_JS, snippet, language="javascript").merged_code
    assert merged == CONFIG_JS.replace(
        '            error = new Error("Could not find config file.");\n',
        '            error = new Error("Could not find config file.");\n'
        '            error.messageTemplate = "config-file-missing";\n')


def test_extend_tails_pairs_the_context_left_after_a_closing_line_that_a_later_pass_paired() -> None:
    # the state the first walk leaves when it reaches `}` before the `} else {` above it is
    # paired (in a longer snippet, whose parts are aligned in another order): only the anchor,
    # the line above it and the closing line are paired; the walk goes on from there
    from fastapply.merge.anchor import Aligner
    from fastapply.merge.ends import extend_tails
    from fastapply.merge.segments import classify, normalize

    snippet = CONFIG_SNIPPET
    orig = CONFIG_JS.rstrip("\n").split("\n")
    onorm = [normalize(line) for line in orig]
    items = classify(snippet, set(onorm))
    al = Aligner(items, orig, onorm)
    al.rebase(items, {1: 20, 2: 21, 4: 22})
    extend_tails(al)
    assert al.pairs == {1: 20, 2: 21, 4: 22, 6: 24, 8: 26}
    assert orig[24].strip() == "}" and orig[26].strip() == "return {"


MANIFEST_PY = """\
class Manifest(object):
    def process_directive(self, action, patterns, thedir):
        if action == 'include':
            for pattern in patterns:
                if not self._include_pattern(pattern, anchor=True):
                    logger.warning('no files found matching %r', pattern)

        elif action == 'exclude':
            for pattern in patterns:
                found = self._exclude_pattern(pattern, anchor=True)
                #if not found:
                #    logger.warning('no previously-included files '
                #                   'found matching %r', pattern)

        elif action == 'global-include':
            for pattern in patterns:
                if not self._include_pattern(pattern, anchor=False):
                    logger.warning('no files found matching %r', pattern)
"""


def test_an_edited_line_that_drops_the_commented_out_code_under_it_replaces_both() -> None:
    # distlib's release: `found = ...` and the commented-out warning under it became one call;
    # the header above it (`for pattern in patterns:`, found all over) is its context
    snippet = """\
# ... existing code ...
            for pattern in patterns:
                self._exclude_pattern(pattern, anchor=True)

        elif action == 'global-include':
# ... existing code ...
"""
    merged = apply(MANIFEST_PY, snippet, language="python").merged_code
    assert merged == MANIFEST_PY.replace("""\
                found = self._exclude_pattern(pattern, anchor=True)
                #if not found:
                #    logger.warning('no previously-included files '
                #                   'found matching %r', pattern)
""", "                self._exclude_pattern(pattern, anchor=True)\n")


def test_code_under_the_edited_line_is_not_dropped_with_it() -> None:
    # the same edit with a statement under it that the snippet does not show: that is no comment
    # the edit took away, so the new line stays an insertion (or a refusal), never a deletion
    original = MANIFEST_PY.replace("                #if not found:\n", "                log_found(found)\n")
    snippet = """\
# ... existing code ...
            for pattern in patterns:
                self._exclude_pattern(pattern, anchor=True)

        elif action == 'global-include':
# ... existing code ...
"""
    try:
        merged = apply(original, snippet, language="python").merged_code
    except ApplyError:
        return
    assert "log_found(found)" in merged


# the same step twice: the file's last block occurs earlier too
LOCKFILE_STEP = """\
      before_script:
        - |
          cargo generate-lockfile &&
          cargo update -p serde_json --precise 1.0.0 &&
          cargo update -p serde --precise 1.0.0
"""
TRAVIS_YML = """\
language: rust
sudo: false

matrix:
  include:
    - rust: stable
      env: FEATURES=""
""" + LOCKFILE_STEP + """\
    - rust: 1.12.0
      env: FEATURES=""
""" + LOCKFILE_STEP


def test_a_snippet_that_ends_with_the_files_last_lines_after_new_ones_replaces_them() -> None:
    # no marker at the end: the snippet shows the file's last lines, after a record inserted
    # above them; before, the kept tail and the snippet's copy of it both went in
    snippet = """\
    # ...
    - rust: 1.12.0
      env: FEATURES=""
      before_script:
    - rust: 1.12.0-next
      env: FEATURES=""
""" + LOCKFILE_STEP
    merged = apply(TRAVIS_YML, snippet, language="yaml").merged_code
    assert merged.count("cargo generate-lockfile") == 2
    assert merged.endswith(snippet.split("# ...\n", 1)[1])
    # where the alignment leaves those lines unpaired (in the longer file this came from, the
    # block occurs many times), the snippet's end still reaches the file's end: no marker there
    from fastapply.merge.edges import open_edges
    from fastapply.merge.segments import classify, normalize
    onorm = [normalize(line) for line in TRAVIS_YML.rstrip("\n").split("\n")]
    items = classify(snippet, set(onorm))
    pairs = {1: 12, 2: 13, 3: 14}
    assert [onorm[o] for o in pairs.values()] == [items[s].norm for s in pairs]
    edged, _ = open_edges(items, pairs, TRAVIS_YML.rstrip("\n").split("\n"), onorm)
    assert edged[-1].kind == "code"


OAUTH_PY = """\
from __future__ import unicode_literals
from oauthlib.oauth2 import WebApplicationClient, InsecureTransportError
from oauthlib.oauth2 import is_secure_transport
from requests.auth import AuthBase


class OAuth2(AuthBase):
    \"\"\"Adds proof of authorization (OAuth2 token) to the request.\"\"\"

    def __init__(self, client_id=None, client=None, token=None):
        self._client = client or WebApplicationClient(client_id, token=token)
"""


def test_a_snippet_that_starts_below_python_2_future_imports_drops_them() -> None:
    # what pyupgrade does and a release diff shows: the file's head without the no-op import
    snippet = """\
from oauthlib.oauth2 import WebApplicationClient, InsecureTransportError
from oauthlib.oauth2 import is_secure_transport
# ... existing code ...
"""
    merged = apply(OAUTH_PY, snippet, language="python").merged_code
    assert merged == OAUTH_PY.replace("from __future__ import unicode_literals\n", "")


def test_a_future_import_that_still_acts_is_kept() -> None:
    original = OAUTH_PY.replace("unicode_literals", "annotations")
    snippet = """\
from oauthlib.oauth2 import WebApplicationClient, InsecureTransportError
from oauthlib.oauth2 import is_secure_transport
# ... existing code ...
"""
    merged = apply(original, snippet, language="python").merged_code
    assert merged == original


BACKTICK_PY = """\
import re

regex = re.compile("^ (.+) $")


def backtick(state, silent: bool) -> bool:
    pos = state.pos
    ch = state.srcCharCode[pos]

    # /* ` */
    if ch != 0x60:
        return False

    start = pos
    pos += 1
    maximum = state.posMax

    # scan marker length
    while pos < maximum and (state.srcCharCode[pos] == 0x60):
        pos += 1

    marker = state.src[start:pos]
    return True
"""


def test_a_rewritten_condition_before_a_column_0_marker_keeps_what_the_marker_stands_for() -> None:
    # markdown-it-py's release: `ch = ...`, its comment and `if ch != 0x60:` became one condition
    # over the same `return False`. Before, the column-0 marker under it read as the function's
    # end and everything after was dropped (30 lines in the real file)
    snippet = """\
// ... existing code ...
def backtick(state, silent: bool) -> bool:
    pos = state.pos

    if state.src[pos] != "`":
        return False
// ... existing code ...
    maximum = state.posMax

    # scan marker length
    while pos < maximum and (state.src[pos] == "`"):
        pos += 1
// ... existing code ...
"""
    merged = apply(BACKTICK_PY, snippet, language="python").merged_code
    assert merged == BACKTICK_PY.replace("""\
    ch = state.srcCharCode[pos]

    # /* ` */
    if ch != 0x60:
""", """\

    if state.src[pos] != "`":
""").replace("(state.srcCharCode[pos] == 0x60)", '(state.src[pos] == "`")')


def test_a_column_0_marker_followed_by_the_same_functions_code_does_not_end_that_function() -> None:
    # the new lines before the marker edit nothing; the line after the marker is still backtick's
    # own, so the marker stands inside it: the lines it stands for stay
    snippet = """\
// ... existing code ...
def backtick(state, silent: bool) -> bool:
    pos = state.pos
    if state.debug:
        print("backtick at", pos)
// ... existing code ...
    maximum = state.posMax
// ... existing code ...
"""
    merged = apply(BACKTICK_PY, snippet, language="python").merged_code
    assert merged == BACKTICK_PY.replace("    pos = state.pos\n", """\
    pos = state.pos
    if state.debug:
        print("backtick at", pos)
""")
