"""Issue 8, sixteenth round: real release edits of the fresh batches tune-29 .. tune-33, read case by
case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply


def _engine(name: str, regex: str) -> str:
    """One entry of bowser's engine list that builds its `engine` object in `describe`."""
    return f'''  /* {name} */
  {{
    test: [{regex}],
    describe(ua) {{
      const engine = {{
        name: ENGINE_MAP.{name},
      }};

      const version = Utils.getFirstMatch(/{name.lower()}\\/(\\d+)/i, ua);
      if (version) {{
        engine.version = version;
      }}
      return engine;
    }},
  }},
'''


ENGINES = '''const engines = [
  /* Blink */
  {
    test(parser) {
      return parser.hasBlink();
    },
    describe(ua) {
      const isBlinkBased = /\\sedg\\//i.test(ua);

      if (isBlinkBased) {
        return { name: ENGINE_MAP.Blink };
      }
      return { name: ENGINE_MAP.EdgeHTML };
    },
  },

''' + _engine("Presto", "/presto/i") + "\n" + _engine("WebKit", "/(apple)?webkit/i") + '''];
'''

IOS_BRANCH = '''    describe(ua) {
      // Edge for iOS runs on WebKit
      if (/\\sedgios\\//i.test(ua)) {
        const engine = {
          name: ENGINE_MAP.WebKit,
        };
        return engine;
      }

'''


def test_a_local_declaration_copied_into_another_function_is_no_move() -> None:
    # bowser's new iOS branch builds its `engine` like the WebKit method does; the move finder took
    # the copy for the WebKit method's `const engine = {...}` moved up and cut it out of that method
    edit = '// ... existing code ...\n' + IOS_BRANCH + '''      const isBlinkBased = /\\sedga?\\//i.test(ua);

      if (isBlinkBased) {
// ... existing code ...
'''
    expected = ENGINES.replace('    describe(ua) {\n      const isBlinkBased = /\\sedg\\//i.test(ua);\n',
                               IOS_BRANCH + '      const isBlinkBased = /\\sedga?\\//i.test(ua);\n')
    assert expected != ENGINES
    assert apply(ENGINES, edit, filename="parser-engines.js").merged_code == expected


def _entry(comment: str, name: str, extra: str = "") -> str:
    return f'''  /* {comment} */
  {{
    test(parser) {{
      return parser.getOSName(true) === '{name}';
    }},
    describe() {{
      return {{
        type: PLATFORMS_MAP.desktop,{extra}
      }};
    }},
  }},
'''


PLATFORMS = "export default [\n" + "\n".join([
    _entry("macOS", "macos", "\n        vendor: 'Apple',"), _entry("Windows", "windows"), _entry("Linux", "linux"),
    _entry("PlayStation 4", "playstation 4")]) + "];\n"


def test_context_that_ends_every_entry_does_not_rewrite_the_entry_above_the_anchor() -> None:
    # bowser added a Chrome OS entry after Linux; the snippet's context (the end of an entry) fits
    # every entry, and the merge paired it with the Windows entry's end and rewrote Linux into
    # Chrome OS: the Linux entry was gone. Read right above `/* PlayStation 4 */` it inserts and
    # loses nothing. Both readings fit, and this round refused; from the eighteenth round on, the
    # new entry ending like the context before it reads as a new sibling (siblings.py): the real
    # edits of this shape (bowser, rrweb-cssom's `@layer` branch, bleak's new `except`) all inserted
    edit = '''// ... existing code ...
        type: PLATFORMS_MAP.desktop,
      };
    },
  },

''' + _entry("Chrome OS", "chrome os") + '''
  /* PlayStation 4 */
// ... existing code ...
'''
    merged = apply(PLATFORMS, edit, filename="parser-platforms.js").merged_code
    linux = _entry("Linux", "linux")
    assert merged == PLATFORMS.replace(linux, linux + "\n" + _entry("Chrome OS", "chrome os"))


def test_an_entry_rewritten_under_its_own_distinctive_context_still_merges() -> None:
    # the guard: with a line that tells which entry comes before (`'windows'`), the rewrite of the
    # Linux entry is what the snippet says
    edit = '''// ... existing code ...
      return parser.getOSName(true) === 'windows';
    },
    describe() {
      return {
        type: PLATFORMS_MAP.desktop,
      };
    },
  },

''' + _entry("Chrome OS", "chrome os") + '''
  /* PlayStation 4 */
// ... existing code ...
'''
    expected = PLATFORMS.replace(_entry("Linux", "linux"), _entry("Chrome OS", "chrome os"))
    assert apply(PLATFORMS, edit, filename="parser-platforms.js").merged_code == expected


def _save(name: str, var: str, makedirs: str = "os.makedirs(path)") -> str:
    return f'''def save_{name}_path(*resource):
    """Ensure ``${var}/<resource>/`` exists, and return its path."""
    resource = os.path.join(*resource)
    assert not resource.startswith('/')
    path = os.path.join({var.lower()}, resource)
    if not os.path.isdir(path):
        {makedirs}
    return path

'''


BASE_DIRECTORY = "import os\n\n" + _save("config", "XDG_CONFIG_HOME", "os.makedirs(path, 0o700)") + \
    _save("data", "XDG_DATA_HOME") + _save("cache", "XDG_CACHE_HOME") + '''def load_config_paths(*resource):
    resource = os.path.join(*resource)
    for config_dir in xdg_config_dirs:
        yield os.path.join(config_dir, resource)
'''


def test_a_new_sibling_after_context_that_ends_every_sibling_is_no_rename_of_one() -> None:
    # pyxdg added save_state_path after save_cache_path; the snippet's context (`os.makedirs(path)`,
    # `return path`) ends save_data_path and save_cache_path alike. The merge paired it with the
    # first and read the new function as save_cache_path renamed and rewritten: save_cache_path was
    # gone. Inserted right above load_config_paths it loses nothing: both fit, so it is refused
    edit = '''def save_config_path(*resource):
    # ... existing code ...
        os.makedirs(path)
    return path

''' + _save("state", "XDG_STATE_HOME") + '''def load_config_paths(*resource):
    # ... existing code ...
'''
    with pytest.raises(ApplyError, match="fit two places") as error:
        apply(BASE_DIRECTORY, edit, filename="BaseDirectory.py")
    assert error.value.line == 3


def test_a_renamed_definition_with_its_body_unchanged_is_still_a_rename() -> None:
    # the guard: a new header over the same body is a rename, not a new sibling
    edit = '''def save_config_path(*resource):
    # ... existing code ...
        os.makedirs(path)
    return path

''' + _save("cache", "XDG_CACHE_HOME").replace("save_cache_path", "save_cache_dir") + '''def load_config_paths(*resource):
    # ... existing code ...
'''
    expected = BASE_DIRECTORY.replace("save_cache_path", "save_cache_dir")
    assert apply(BASE_DIRECTORY, edit, filename="BaseDirectory.py").merged_code == expected


TRACKER = '''class MessageTracker:
    @property
    def done(self):
        """Is 0MQ completely done with the message(s) being tracked?"""
        for evt in self.events:
            if not evt.is_set():
                return False
        for pm in self.peers:
            if not pm.done:
                return False
        return True

    def wait(self, timeout=-1):
        for evt in self.events:
            evt.wait(timeout)
        return self.done
'''


def test_context_after_a_marker_resumes_right_above_the_next_anchor() -> None:
    # pyzmq annotated `done`; the snippet shows `for evt in self.events:`, a marker, then
    # `return False` and `return True`. The `return False` was paired with the `for` block's own
    # (its end, hidden by the marker), and the loop over the peers between was dropped
    edit = '''class MessageTracker:
    @property
    def done(self) -> bool:
        """Is 0MQ completely done with the message(s) being tracked?"""
        for evt in self.events:
# ... existing code ...
                return False
        return True

    def wait(self, timeout: float = -1) -> bool:
        for evt in self.events:
            evt.wait(timeout)
        return self.done
'''
    expected = TRACKER.replace("def done(self):", "def done(self) -> bool:").replace(
        "def wait(self, timeout=-1):", "def wait(self, timeout: float = -1) -> bool:")
    assert apply(TRACKER, edit, filename="tracker.py").merged_code == expected


INDEX_JS = '''exports.open = open;
exports.fromFd = fromFd;

function open(path, options, callback) {
  return openImpl(path, options, callback);
}

function fromFd(fd, options, callback) {
  return fromFdImpl(fd, options, callback);
}
''' + "".join(
    # top-level spacing the file is not consistent about: one blank line, or two before some
    ("\n\n" if i in (2, 4) else "\n") + f"function helper{i}(value) {{\n  return value + {i};\n}}\n" for i in range(6))

PROMISES = '''function openPromise(path, options) {
  return new Promise((resolve, reject) => {
    open(path, options, (err, zipfile) => err ? reject(err) : resolve(zipfile));
  });
}
function fromFdPromise(fd, options) {
  return new Promise((resolve, reject) => {
    fromFd(fd, options, (err, zipfile) => err ? reject(err) : resolve(zipfile));
  });
}
function fromBufferPromise(buffer, options) {
  return new Promise((resolve, reject) => {
    fromBuffer(buffer, options, (err, zipfile) => err ? reject(err) : resolve(zipfile));
  });
}
'''


def test_new_siblings_the_snippet_packs_one_under_the_other_stay_packed() -> None:
    # yauzl added four `...Promise` helpers, each right under the other; the file's own top-level
    # spacing is mixed, and the merge read every glued one as a dropped blank line and set it off
    edit = "exports.open = open;\nexports.fromFd = fromFd;\n\n" + PROMISES + \
        "\nfunction open(path, options, callback) {\n// ... existing code ...\n"
    expected = INDEX_JS.replace("\nfunction open(", "\n" + PROMISES + "\nfunction open(", 1)
    assert apply(INDEX_JS, edit, filename="index.js").merged_code == expected


HOOKS = '''class TransactionHook(object):
    def handle_exception(
        self, consumer, exc_type, exc_val, exc_tb
    ):  # pragma: no cover
        """
        Handles an exception thrown while waiting for a response from
        the server.
        """
        pass


class ExceptionHandler(TransactionHook):
    def __init__(self, exception_handler, requires_consumer=False):
        self.handle_exception = _wrap_if_necessary(
            exception_handler, requires_consumer
        )
'''


def test_lines_a_formatter_joined_replace_the_lines_they_join() -> None:
    # uplink's release ran black with a longer line length: a three-line signature and a
    # three-line call became one line each. The joined signature stayed unpaired, its docstring
    # lost its anchor and the edit was refused; the joined call before a marker kept the old
    # call's two other lines (a syntax error)
    edit = '''class TransactionHook:
    def handle_exception(self, consumer, exc_type, exc_val, exc_tb):  # pragma: no cover
        """
        Handles an exception thrown while waiting for a response from
    # ... existing code ...
    def __init__(self, exception_handler, requires_consumer=False):
        self.handle_exception = _wrap_if_necessary(exception_handler, requires_consumer)
        # ... existing code ...
'''
    expected = HOOKS.replace("class TransactionHook(object):", "class TransactionHook:").replace(
        "    def handle_exception(\n        self, consumer, exc_type, exc_val, exc_tb\n    ):  # pragma: no cover",
        "    def handle_exception(self, consumer, exc_type, exc_val, exc_tb):  # pragma: no cover").replace(
        "_wrap_if_necessary(\n            exception_handler, requires_consumer\n        )",
        "_wrap_if_necessary(exception_handler, requires_consumer)")
    assert apply(HOOKS, edit, filename="hooks.py").merged_code == expected


def test_a_long_line_a_formatter_split_replaces_the_original_line() -> None:
    original = '''def main():
    setup()
    result = compute_everything(first_argument, second_argument, third_argument)
    report(result)
'''
    edit = '''def main():
    setup()
    result = compute_everything(
        first_argument, second_argument, third_argument,
    )
    report(result)
'''
    assert apply(original, edit, filename="main.py").merged_code == edit


SNAPPY = '''def stream_decompress(src, dst):
    decompressor = StreamDecompressor()
    for buf in read_blocks(src):
        dst.write(decompressor.decompress(buf))
    decompressor.flush()  # makes sure the stream ended well


def check_format(fin=None, chunk=None):
    ok = True
    if chunk is None:
        chunk = fin.read(BLOCK_SIZE)
    try:
        StreamDecompressor.check_format(chunk)
    except UncompressError:
        ok = False
    return ok, chunk
'''

HELPERS = '''

def raw_stream_decompress(src, dst):
    data = src.read()
    dst.write(decompress(data))


def raw_stream_compress(src, dst):
    data = src.read()
    dst.write(compress(data))
'''


def test_new_definitions_where_one_definition_ended_the_file_are_refused() -> None:
    # python-snappy replaced the module's last function, check_format, with four stream helpers;
    # the snippet ends with them and no marker. Read as a left-out last marker, check_format stayed
    # below them. It may go or stay: refused, naming the snippet's last line
    edit = '''# ... existing code ...
        dst.write(decompressor.decompress(buf))
    decompressor.flush()  # makes sure the stream ended well
''' + HELPERS
    with pytest.raises(ApplyError, match="ends with new code") as error:
        apply(SNAPPY, edit, filename="snappy.py")
    assert error.value.line == len(edit.splitlines())


def test_new_definitions_above_several_that_end_the_file_keep_them() -> None:
    # the guard: with two definitions after the last unchanged line, the snippet left out its last
    # marker (nobody replaces the rest of a file by showing its head)
    original = SNAPPY + '''

def check_framing(data):
    return data[:4] == STREAM_IDENTIFIER
'''
    edit = '''# ... existing code ...
        dst.write(decompressor.decompress(buf))
    decompressor.flush()  # makes sure the stream ended well
''' + HELPERS
    expected = original.replace("well\n\n\ndef check_format", "well\n" + HELPERS + "\n\ndef check_format")
    assert apply(original, edit, filename="snappy.py").merged_code == expected


def test_a_plain_import_is_an_edit_of_a_from_import_of_the_same_name() -> None:
    # joblib's vendored loky imports cloudpickle itself now; the snippet shows `try:` and the new
    # import right after a marker: neither was paired (`try:` is in the file twice), the old `try:`
    # and import stayed above them, a syntax error
    original = '''if sys.platform != "win32":
    from ._posix_reduction import _mk_inheritable  # noqa: F401

# global variable to change the pickler behavior
try:
    from joblib.externals import cloudpickle  # noqa: F401

    DEFAULT_ENV = "cloudpickle"
except ImportError:
    DEFAULT_ENV = "pickle"


def set_loky_pickler(loky_pickler=None):
    if loky_pickler == _loky_pickler_name:
        return

    if loky_pickler == "cloudpickle":
        from joblib.externals.cloudpickle import CloudPickler as loky_pickler_cls
    else:
        try:
            module_pickle = import_module(loky_pickler)
            loky_pickler_cls = module_pickle.Pickler
        except ImportError as e:
            raise e
'''
    edit = '''# ... existing code ...
try:
    import cloudpickle  # noqa: F401

    DEFAULT_ENV = "cloudpickle"
except ImportError:
# ... existing code ...
        return

    if loky_pickler == "cloudpickle":
        from cloudpickle import CloudPickler as loky_pickler_cls
    else:
        try:
            module_pickle = import_module(loky_pickler)
# ... existing code ...
'''
    expected = original.replace("from joblib.externals import cloudpickle", "import cloudpickle").replace(
        "from joblib.externals.cloudpickle import", "from cloudpickle import")
    assert apply(original, edit, filename="reduction.py").merged_code == expected


VERSION_PY = '''# This file is part of Patsy
# See file LICENSE.txt for license information.

# We use a simple scheme:
#   1.0.2 -> 1.0.2+dev -> 1.1.0 -> 1.1.0+dev
# where the +dev versions are never released into the wild.
#
# via the use of the "local suffix" "+dev", which is disallowed on index
# servers and causes 1.0.2+dev to sort after plain 1.0.2, which is what we
# want. (Contrast with the special suffix 1.0.2.dev, which sorts *before*
# 1.0.2.)

__version__ = "1.0.2"
'''


def test_a_snippet_without_markers_that_edits_the_files_last_lines_replaces_them() -> None:
    # patsy's release bumped every version in version.py; the snippet is the whole new file,
    # without markers. Its last five lines, all edited, were read as new lines above a left-out
    # last marker, and the old ones stayed under them
    edit = VERSION_PY.replace("1.0.2", "1.0.3")
    assert apply(VERSION_PY, edit, filename="version.py").merged_code == edit


TESTS_PY = '''import pytest


def test_from_null_pointer():
    for class_ in [Surface, Context]:
        with pytest.raises(ValueError):
            class_._from_pointer(ffi.NULL, 'unused')
'''


def test_a_decorator_whose_arguments_hang_under_its_parenthesis_stays_on_its_definition() -> None:
    # cairocffi added a test under `@pytest.mark.xfail(cairo_version() < 11800,` /
    # `                   reason='Cairo version too low')`: the hanging line read as the end of
    # a Python body, and a blank line was put between the decorator and its `def`
    new = '''

@pytest.mark.xfail(cairo_version() < 11800,
                   reason='Cairo version too low')
def test_hairline():
    ctx = Context(surface)
    ctx.set_hairline(True)
    assert ctx.get_hairline() is True
'''
    edit = "# ... existing code ...\n            class_._from_pointer(ffi.NULL, 'unused')\n" + new
    assert apply(TESTS_PY, edit, filename="test_cairo.py").merged_code == TESTS_PY + new


RUNNER = '''class Clize:
    @classmethod
    def get_cli(cls, obj, **kwargs):
        try:
            cli = obj.cli
        except AttributeError:
            if callable(obj):
                cli = cls(obj, **kwargs)
            else:
                cli = SubcommandDispatcher(obj, **kwargs).cli
        return cli

    @property
    def cli(self):
        return self


class SubcommandDispatcher:
    @property
    def cli(self):
        return self
'''


def test_a_header_shown_after_a_rewritten_body_pairs_with_the_copy_right_below_it() -> None:
    # clize rewrote the end of get_cli and showed the next method's `@property` / `def cli(self):`
    # with a marker; `def cli(self):` is in the file twice, nothing paired it, and the merge
    # refused it as a second definition of `cli`
    edit = '''class Clize:
    @classmethod
    def get_cli(cls, obj, **kwargs):
        try:
            return obj.cli
        except AttributeError:
            pass
        if callable(obj):
            return cls(obj, **kwargs)
        return SubcommandDispatcher(obj, **kwargs).cli

    @property
    def cli(self):
        # ... existing code ...
'''
    expected = RUNNER.replace('''        try:
            cli = obj.cli
        except AttributeError:
            if callable(obj):
                cli = cls(obj, **kwargs)
            else:
                cli = SubcommandDispatcher(obj, **kwargs).cli
        return cli
''', '''        try:
            return obj.cli
        except AttributeError:
            pass
        if callable(obj):
            return cls(obj, **kwargs)
        return SubcommandDispatcher(obj, **kwargs).cli
''')
    assert apply(RUNNER, edit, filename="runner.py").merged_code == expected


PACKAGE_JSON = '''{
  "name": "linkify-it",
  "version": "6.0.0",
  "description": "Links recognition library with FULL unicode support",
  "keywords": [
    "linkify",
    "autolinker"
  ],
  "repository": "markdown-it/linkify-it",
  "main": "build/index.cjs.js",
  "dependencies": {
    "uc.micro": "^2.0.0"
  }
}
'''


def test_a_key_rewritten_as_an_object_stays_glued_to_the_entry_above() -> None:
    # linkify-it's release turned `"repository": "..."` into an object; after the `],` of the
    # keywords list the merge read the new object as a block after a sibling's end and set it off
    # with a blank line that JSON files never have
    edit = '''  // ... existing code ...
    "autolinker"
  ],
  "repository": {
    "type": "git",
    "url": "git+https://github.com/markdown-it/linkify-it.git"
  },
  "main": "build/index.cjs.js",
  // ... existing code ...
'''
    expected = PACKAGE_JSON.replace('  "repository": "markdown-it/linkify-it",\n', '''  "repository": {
    "type": "git",
    "url": "git+https://github.com/markdown-it/linkify-it.git"
  },
''')
    assert apply(PACKAGE_JSON, edit, filename="package.json").merged_code == expected
