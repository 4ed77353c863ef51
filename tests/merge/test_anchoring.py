"""Anchoring decisions that used to go silently wrong: each test is a small version of a real case."""

import pytest

from fastapply import ApplyError, apply

RUBY = """\
class Account
  def plan_name
    plan.name
  end

  def change_seats!(count)
    raise ArgumentError, "seats must be positive" unless count.positive?

    transaction do
      update!(seats: count)
    end
  end
end
"""


def test_edited_guard_right_after_a_header_replaces_the_old_guard() -> None:
    update = """\
  # ... existing code ...
  def change_seats!(count)
    raise ArgumentError, "seats must be in #{SEAT_RANGE}" unless SEAT_RANGE.cover?(count)

    # ... existing code ...
  end
  # ... existing code ...
"""
    merged = apply(RUBY, update, filename="account.rb").merged_code
    assert merged == RUBY.replace('"seats must be positive" unless count.positive?',
                                  '"seats must be in #{SEAT_RANGE}" unless SEAT_RANGE.cover?(count)')


def test_a_new_call_next_to_a_similar_one_is_inserted() -> None:
    original = "def setup():\n    log.info('loading config')\n    return load()\n\n\ndef other():\n    pass\n"
    update = "def setup():\n    log.info('starting up')\n    # ... existing code ...\n"
    merged = apply(original, update, filename="m.py").merged_code
    assert merged == original.replace("    log.info('loading", "    log.info('starting up')\n    log.info('loading")


def _functions(names: list[str]) -> str:
    return "".join(f"def {n}(items):\n    total = sum(items)\n    {n}_log(total)\n    return total\n\n\n"
                   for n in names)


def test_a_lone_common_line_before_a_deleted_function_keeps_the_deletion() -> None:
    gamma = "def gamma(items):\n    return len(items)\n\n\n"
    original = _functions(["alpha", "beta"]) + gamma + _functions(["delta"])
    update = "# ... existing code ...\n    return total\n\n\ndef delta(items):\n    # ... existing code ...\n"
    merged = apply(original, update, filename="m.py").merged_code
    assert merged == _functions(["alpha", "beta", "delta"])


def test_a_context_line_that_fits_without_deleting_anything_is_refused() -> None:
    original = _functions(["alpha", "beta", "gamma"])
    update = "# ... existing code ...\n    return total\n\n\ndef gamma(items):\n    # ... existing code ...\n"
    with pytest.raises(ApplyError) as caught:
        apply(original, update, filename="m.py")
    assert caught.value.code == "ambiguous_anchor"


def test_a_new_line_equal_to_a_line_far_away_does_not_delete_code_up_to_it() -> None:
    original = ('def first(name):\n    """Look the name up."""\n\n    if name in cache:\n'
                '        return cache[name]\n    return load(name)\n\n\n'
                'def second(name=None):\n    """Check entries."""\n\n    if name is None:\n'
                '        names = list(cache)\n    else:\n        names = [name]\n    return names\n')
    update = ('# ... existing code ...\n    """Look the name up."""\n\n    if name is None:\n'
              '        raise ValueError("name must not be None")\n    if name in cache:\n'
              '    # ... existing code ...\n')
    merged = apply(original, update, filename="m.py").merged_code
    assert merged == original.replace('    if name in cache:\n',
                                      '    if name is None:\n        raise ValueError("name must not be None")\n'
                                      '    if name in cache:\n', 1)


def test_lines_the_snippet_repeats_keep_their_own_indentation() -> None:
    original = "class A {\n\tfoo(): void {\n\t\tthis.a();\n  }\n\n  bar(): void {\n\t\tthis.b();\n  }\n}\n"
    update = ("// ... existing code ...\n\t\tthis.a();\n\t\tthis.c();\n\t\tthis.d();\n  }\n\n  bar(): void {\n"
              "// ... existing code ...\n")
    merged = apply(original, update, filename="a.ts").merged_code.split("\n")
    # new lines take the file's style; the lines the snippet repeated stay byte for byte
    assert [line.strip() for line in merged[3:5]] == ["this.c();", "this.d();"]
    assert merged[:3] + merged[5:] == original.split("\n")


def test_one_telling_context_line_that_also_ends_the_function_above_is_refused() -> None:
    """re/_parser.py (today's generator): `raise source.error(...)` ends two functions in a row. Read
    at its nearest copy, nothing is deleted; read at the one above, the function between goes.
    One line with this many names is context of its own, and it fits both: refused."""
    ending = "    raise Error('bad escape %s' % escape, len(escape))\n\n\n"
    original = "def a(escape):\n    check(escape)\n" + ending + "def b(escape):\n    lookup(escape)\n" + ending \
        + "def c(items):\n    return list(items)\n\n\ndef d():\n    return 1\n"
    update = "# ... existing code ...\n" + ending + "def c(items):\n    return list(items)\n\n\ndef d():\n    return 2\n"
    with pytest.raises(ApplyError) as caught:
        apply(original, update, filename="m.py")
    assert caught.value.code == "ambiguous_anchor" and caught.value.line == 2


ZIPIMPORT_PY = '''import marshal


def _get_module_path(self, fullname):
    return self.prefix + fullname.rpartition('.')[2]


def _compile_source(pathname, source):
    return compile(source, pathname, 'exec', dont_inherit=True)

# Given a path to a .pyc file in the archive, return the
# modification time of the matching .py file and its size,
# or (0, 0) if no source is available.
def _get_mtime_and_size_of_source(self, path):
    try:
        toc_entry = self._files[path]
        return toc_entry[5], toc_entry[3]
    except (KeyError, IndexError, TypeError):
        return 0, 0


# Given a path to a .pyc file in the archive, return the
# contents of the matching .py file, or None if no source
# is available.
def _get_pyc_source(self, path):
    try:
        toc_entry = self._files[path[:-1]]
    except KeyError:
        return None
    return _get_data(self.archive, toc_entry)
'''


def test_context_before_a_marker_that_also_starts_a_later_definitions_comment_is_refused() -> None:
    """zipimport.py (today's generator): two definitions' comments start with the same line. Right
    after the anchor it deletes nothing; at its later copy it deletes the function between, which
    the snippet may mean (it did). Nothing tells which: refused, naming the line."""
    snippet = '''# ... existing code ...
def _get_module_path(self, fullname):
    return self.prefix + fullname.rpartition(".")[2]
# ... existing code ...
    return compile(source, pathname, 'exec', dont_inherit=True)

# Given a path to a .pyc file in the archive, return the
# ... existing code ...
'''
    with pytest.raises(ApplyError) as caught:
        apply(ZIPIMPORT_PY, snippet, filename="zipimport.py")
    assert caught.value.code == "ambiguous_anchor" and caught.value.line == 7
    assert "below them" in str(caught.value)
ACCEPT = '''\
def _codec_version(name: str) -> str | None:
    for version in versions().split(", "):
        if version.split(" [")[0] == name:
            return version.split(":")[-1]
    return None


def _accept(prefix: bytes) -> bool | str:
    if prefix[4:8] != b"ftyp":
        return False
    major_brand = prefix[8:12]
    if major_brand in (b"avif", b"avis", b"mif1"):
        if not SUPPORTED:
            return "AVIF support not installed"
        return True
    return False


def _default_threads() -> int:
    return os.cpu_count() or 1
'''


def test_a_nested_line_before_a_marker_is_not_the_end_of_its_function() -> None:
    # `return False` under the `if`, then a marker inside the function: the marker stands for the
    # rest of the body, which ends with another `return False` one level up. Pairing the two as
    # the function's last lines dropped everything between them.
    update = '''\
    # ... existing code ...
    return None


ACCEPT_SIZE = 8

def _accept(prefix: bytes) -> bool | str:
    if prefix[4:ACCEPT_SIZE] != b"ftyp":
        return False
    # ... existing code ...
'''
    merged = apply(ACCEPT, update, filename="plugin.py").merged_code
    assert merged == ACCEPT.replace("    return None\n\n\n", "    return None\n\n\nACCEPT_SIZE = 8\n\n") \
        .replace("prefix[4:8]", "prefix[4:ACCEPT_SIZE]")


SYSLOG = """\
package syslog

func (hook *SyslogHook) Fire(entry *logrus.Entry) error {
	line, err := entry.String()
	if err != nil {
		return err
	}

	switch entry.Level {
	case logrus.PanicLevel:
		return hook.Writer.Crit(line)
	case logrus.FatalLevel:
		return hook.Writer.Crit(line)
	case logrus.ErrorLevel:
		return hook.Writer.Err(line)
	default:
		return nil
	}
}
"""


def test_a_run_of_edited_lines_replaces_the_lines_before_the_copy_as_far_on() -> None:
    # Three edited lines, then `return hook.Writer.Crit(line)`, which two cases have: the edits
    # replace the three lines before its second copy one for one; read as new lines before its
    # first copy (the old `case logrus.PanicLevel:` dropped), the old `case logrus.FatalLevel:`
    # stayed next to the edited one.
    update = """\
	// ... existing code ...
	switch entry.Level {
	case log.PanicLevel:
		return hook.Writer.Emerg(line)
	case log.FatalLevel:
		return hook.Writer.Crit(line)
	// ... existing code ...
"""
    merged = apply(SYSLOG, update, filename="syslog.go").merged_code
    assert merged == SYSLOG.replace("case logrus.PanicLevel:\n\t\treturn hook.Writer.Crit(line)\n\tcase logrus.Fatal",
                                    "case log.PanicLevel:\n\t\treturn hook.Writer.Emerg(line)\n\tcase log.Fatal")


FITS = '''\
class FitsGzipDecoder(ImageFile.PyDecoder):
    _pulls_fd = True

    def decode(self, buffer: bytes) -> tuple[int, int]:
        assert self.fd is not None
        with gzip.open(self.fd) as fp:
            value = fp.read(self.state.xsize * self.state.ysize * 4)
        self.set_as_raw(value)
        return -1, 0


# --------------------------------------------------------------------
# Registry

Image.register_open(FitsImageFile.format, FitsImageFile, _accept)
Image.register_decoder("fits_gzip", FitsGzipDecoder)
'''


def test_a_ruler_comment_found_once_anchors_the_end_of_a_rewritten_method() -> None:
    # `# ----` has no word, so it counted as trivial and anchored nothing: the rewritten method's
    # lines and the ruler after them went in as new code, and the file's ruler stayed below.
    update = '''\
# ... existing code ...
    def decode(self, buffer: bytes) -> tuple[int, int]:
        logger.debug("decode is not supported here")
        return None


# --------------------------------------------------------------------
# ... existing code ...
'''
    merged = apply(FITS, update, filename="FitsImagePlugin.py").merged_code
    body = FITS[FITS.index("        assert self.fd"):FITS.index("\n\n\n# ----")]
    assert merged == FITS.replace(body, '        logger.debug("decode is not supported here")\n        return None')



DEVCOMM = """\
#pragma once

namespace c10d::symmetric_memory {

class TORCH_API DevCommManager {
 public:
  explicit DevCommManager(const c10::Device device) : device_(device) {}

#ifdef NCCL_HAS_SYMMEM_DEVICE_SUPPORT
  std::optional<ncclDevComm> get_devcomm(const std::string& group_name) {
    std::lock_guard<std::mutex> lock(mutex_);
    return find(group_name);
  }
#endif

 private:
  c10::Device device_;
  std::mutex mutex_;
};

inline bool devcomm_supported(const c10::Device device) {
  if (!device.is_cuda()) {
    return false;
  }
  int value = 0;
  C10_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMultiGpuBoardGroupID, device.index()));
  LOG(INFO) << "devcomm_supported: device=" << device << " value=" << value;
  return value != 0;
}

} // namespace c10d::symmetric_memory
"""


def test_a_preprocessor_line_at_column_0_does_not_end_the_class_it_is_in() -> None:
    # The snippet gives the whole class (no marker). `#ifdef` at column 0 among its members read
    # as the class's end, so only the members above it were replaced and the rest stayed after
    # the new class: its `private:` section twice, and a second `};`.
    update = """\
class TORCH_API DevCommManager {
  // Not available in this build.
  DevCommManager() = delete;
};
"""
    merged = apply(DEVCOMM, update, filename="devcomm_manager.hpp").merged_code
    start, end = DEVCOMM.index(" public:"), DEVCOMM.index("};")
    assert merged == DEVCOMM[:start] + "  // Not available in this build.\n  DevCommManager() = delete;\n" + DEVCOMM[end:]
