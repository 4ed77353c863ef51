"""The provenance checks (fastapply/merge/provenance.py), each given an alignment that is wrong in
the way the check exists for, as a misplaced anchor would leave it; and end to end, merges that
used to come back wrong and are now refused."""

from __future__ import annotations

import pytest
from merge_support import aligned

from fastapply import ApplyError, apply
from fastapply.errors import ValidationError
from fastapply.merge.provenance import _check_kept_once, check_provenance

ORIGINAL = '''\
class Queue:
    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)
        self.size_changed()

    def pop(self):
        item = self.items.pop(0)
        self.size_changed()
        return item

    def size_changed(self):
        log.debug("queue size %d", len(self.items))
'''


def item_index(update: str, text: str) -> int:
    lines = update.split("\n")
    return next(i for i, line in enumerate(lines) if line.strip() == text)


def test_a_definition_kept_and_inserted_again_is_refused() -> None:
    update = '''\
    # ... existing code ...
    def pop(self):
        item = self.items.pop()
        self.size_changed()
    # ... existing code ...
'''
    # the header was not recognised: the old `pop` stays (the first marker keeps the whole file)
    # and the new one is added after it
    al, spliced, drop = aligned(ORIGINAL, update, {})
    with pytest.raises(ValidationError) as caught:
        check_provenance(al, spliced, drop)
    assert caught.value.code == "ambiguous_anchor"
    assert "snippet line 2" in str(caught.value) and "'pop'" in str(caught.value)


def test_an_edited_line_kept_next_to_its_new_version_is_refused() -> None:
    # an edited line that was not recognised: the old one kept (paired), the new one inserted
    update = '''\
    def push(self, item):
        self.items.append(item)
        self.items.append(item)
    # ... existing code ...
'''
    al, spliced, drop = aligned(ORIGINAL, update, {0: 4, 1: 5})
    with pytest.raises(ValidationError) as caught:
        check_provenance(al, spliced, drop)
    assert "snippet line 3" in str(caught.value) and "repeated" in str(caught.value)


def test_an_original_line_lost_without_a_reason_is_refused() -> None:
    update = "# ... existing code ...\n    def pop(self):\n        item = self.items.pop(0)\n    # ... existing code ...\n"
    al, spliced, drop = aligned(ORIGINAL, update, {1: 8, 2: 9})
    # a splice that forgot one kept line (line 11, `self.size_changed()` inside pop)
    row = spliced.origin.index((-1, 10))
    del spliced.lines[row], spliced.origin[row]
    with pytest.raises(ValidationError) as caught:
        check_provenance(al, spliced, drop)
    assert caught.value.code == "content_lost" and "original line 11" in str(caught.value)
    # the same line dropped on purpose (a definition the snippet replaces) passes
    check_provenance(al, spliced, {10})


def test_a_snippet_line_missing_from_the_merge_is_refused() -> None:
    update = "    def pop(self):\n        item = self.items.pop()\n    # ... existing code ...\n"
    al, spliced, drop = aligned(ORIGINAL, update, {0: 8})
    row = next(r for r, (s, _) in enumerate(spliced.origin) if s == 1)
    del spliced.lines[row], spliced.origin[row]
    with pytest.raises(ValidationError) as caught:
        check_provenance(al, spliced, drop)
    assert "snippet line 2" in str(caught.value)


def test_an_empty_marker_next_to_a_unique_unplaced_line_is_refused() -> None:
    update = '''\
    def __init__(self):
        self.items = []
    # ... existing code ...
        log.debug("queue size %d", len(self.items))
'''
    # the alignment placed only the first two lines and put the marker right after them, at the
    # end of the file, with the unique log line left as new code
    al, spliced, drop = aligned(ORIGINAL, update, {0: 1, 1: 2})
    spliced.empty_markers.append(2)
    with pytest.raises(ValidationError) as caught:
        check_provenance(al, spliced, drop)
    assert "snippet line 4" in str(caught.value) and "occurs once" in str(caught.value)


def test_property_setter_is_not_a_duplicate_definition() -> None:
    original = "class A:\n    @property\n    def name(self):\n        return self._name\n"
    update = ("class A:\n    # ... existing code ...\n        return self._name\n\n    @name.setter\n"
              "    def name(self, value):\n        self._name = value\n")
    merged = apply(original, update, filename="a.py").merged_code
    assert merged.count("def name(") == 2


def test_moved_block_that_would_be_kept_twice_is_never_returned_wrong() -> None:
    original = ORIGINAL
    update = '''\
class Queue:
    def size_changed(self):
        log.debug("queue size %d", len(self.items))

    def __init__(self):
        self.items = []
    # ... existing code ...
'''
    try:
        merged = apply(original, update, filename="queue.py").merged_code
    except ApplyError as error:
        assert "line" in str(error)
    else:
        assert merged.count("def size_changed(") == 1
        assert merged.index("def size_changed(") < merged.index("def __init__(")


def test_syntax_refusal_names_the_snippet_line_behind_the_error() -> None:
    original = "function a() {\n  one();\n}\n\nfunction b() {\n  two();\n}\n"
    update = "// ... existing code ...\nfunction b() {\n  two(;\n}\n"
    with pytest.raises(ApplyError) as caught:
        apply(original, update, filename="x.js")
    assert caught.value.code == "syntax_regressed"
    assert str(caught.value).startswith("syntax_regressed: snippet line 3 ('two(;')")
    assert caught.value.line == 3


HEADER_REGISTRY = '''\
from email import errors


class Address:

    def __init__(self, display_name='', username='', domain=''):
        """Create an object representing a full email address."""
        self._display_name = display_name
        self._username = username
        self._domain = domain

    @property
    def display_name(self):
        return self._display_name

    @property
    def username(self):
        return self._username

    @property
    def domain(self):
        return self._domain
'''


def test_decorator_right_before_a_marker_is_refused_not_inserted() -> None:
    # `@property` stands for one of three decorated properties; what it decorates is hidden behind
    # the marker, so it cannot be placed (it was inserted as new code above __init__)
    update = '''\
# ... existing code ...
class Address:

    @property
    # ... existing code ...
'''
    with pytest.raises(ApplyError) as info:
        apply(HEADER_REGISTRY, update, filename="headerregistry.py")
    assert info.value.code == "ambiguous_anchor"
    assert "snippet line 4" in str(info.value)


def test_a_deletion_that_takes_a_header_and_keeps_its_body_is_refused() -> None:
    """A new line paired with an equal line deep in the next method (as `if to_addrs is None:` in
    smtplib's sendmail met send_message's): push's tail and pop's header would go, pop's body stay."""
    update = "    # ... existing code ...\n    def push(self, item):\n        self.check(item)\n" \
             "        item = self.items.pop(0)\n    # ... existing code ...\n"
    al, spliced, drop = aligned(ORIGINAL, update, {1: 4, 3: 9})
    with pytest.raises(ValidationError) as caught:
        check_provenance(al, spliced, drop)
    assert caught.value.code == "content_lost" and "'def pop(self):' (line 9)" in str(caught.value)
    assert caught.value.line == 4  # the snippet line paired down there


def test_a_header_replaced_in_place_is_no_half_deletion() -> None:
    """pop renamed to take: its old header goes between two anchors, a new one stands in its place."""
    update = "    # ... existing code ...\n        self.size_changed()\n\n    def take(self):\n" \
             "        item = self.items.pop(0)\n    # ... existing code ...\n"
    al, spliced, drop = aligned(ORIGINAL, update, {1: 6, 4: 9})
    check_provenance(al, spliced, drop)
    assert "    def take(self):" in spliced.lines and "    def pop(self):" not in spliced.lines


def test_a_new_python_block_header_with_nothing_in_it_is_refused() -> None:
    """hashlib.py (today's generator): a new `try:` before a column-0 marker that kept the next
    function. tree-sitter-python accepts the empty block; Python does not."""
    from fastapply.languages import get_language
    from fastapply.merge.empty_blocks import check_empty_blocks

    original = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ntry:\n    import json\nexcept ImportError:\n" \
               "    json = None\n"
    update = "def a():\n    return 1\n\n\ntry:\n# ... existing code ...\n"
    al, spliced, _ = aligned(original, update, {0: 0, 1: 1})
    with pytest.raises(ValidationError) as caught:
        check_empty_blocks(get_language("python"), spliced, al.items, original.splitlines())
    assert caught.value.code == "syntax_regressed" and caught.value.line == 5
    # with its body shown, or in another language, it passes
    al, spliced, _ = aligned(original, update.replace("try:\n", "try:\n    import ujson as json\n"), {0: 0, 1: 1})
    check_empty_blocks(get_language("python"), spliced, al.items, original.splitlines())
    check_empty_blocks(get_language("ruby"), aligned(original, update, {0: 0, 1: 1})[1], al.items,
                       original.splitlines())


def test_a_kept_python_header_whose_body_the_snippet_dedents_is_refused() -> None:
    """requests-oauthlib: the snippet's first line is the old `except ImportError:` body written
    at column 0 (the release removed the try). Paired with that body line, it would leave the kept
    `except` with no statement: tree-sitter-python accepts that, Python does not."""
    original = "try:\n    from urlparse import urlparse\nexcept ImportError:\n    from urllib.parse import urlparse\n" \
               "\nfrom oauthlib.common import add_params_to_uri\n\n\ndef fix(session):\n    return session\n"
    # (sent alone, changing nothing else, the snippet deletes the three lines above it: exactly
    # what the release did; with an edit further down, the first marker was left out, and the
    # merge is refused)
    update = "from urllib.parse import urlparse\n\nfrom oauthlib.common import add_params_to_uri\n# ... existing code ...\n"
    assert apply(original, update, filename="slack.py").merged_code == original[original.index("from urllib"):] \
        .replace("    from urllib", "from urllib")
    with pytest.raises(ApplyError) as caught:
        apply(original, update + "    return None\n", filename="slack.py")
    assert caught.value.code == "syntax_regressed" and caught.value.line == 1
    assert "original line 3 ('except ImportError:')" in str(caught.value)
    # a header that is empty in the original already is not this merge's doing
    empty = original.replace("    from urllib.parse import urlparse\n", "")
    update = "# ... existing code ...\nfrom oauthlib.common import add_params_to_uri\n\n\ndef fix(session):\n" \
             "    return None\n"
    assert "return None" in apply(empty, update, filename="slack.py").merged_code


def test_a_bash_closing_brace_left_over_after_a_heredoc_is_refused() -> None:
    """devscripts: a function whose body is a heredoc at column 0 is replaced by a snippet without
    markers; the heredoc's lines, read as code after the function, would stay with a second `}`.
    tree-sitter-bash reads that `}` as a command named `}`; bash rejects the file."""
    original = 'usage() {\n    echo "usage"\n}\n\nversion() {\n    cat <<EOT\nThis is $PROGNAME.\nEOT\n}\n\n' \
               '[ "$1" = "-V" ] && version && exit 0\necho done\n'
    with pytest.raises(ApplyError) as caught:
        apply(original, 'version() {\n    echo "not supported" >&2\n    return 1\n}\n', filename="getbuildlog.sh")
    assert caught.value.code == "syntax_regressed"
    # a `}` that closes a group stays fine, also with an unusual layout
    snippet = '# ... existing code ...\nversion() {\n    cat <<EOT\nThis is $PROGNAME, version 2.\nEOT\n}\n' \
              '# ... existing code ...\n'
    assert "version 2." in apply(original, snippet, filename="getbuildlog.sh").merged_code


def test_a_snippet_of_markers_and_one_closing_line_is_refused_naming_it() -> None:
    """Found by the fuzz harness: the closing line is set aside as context, and nothing is left to
    place (it crashed with StopIteration)."""
    with pytest.raises(ApplyError) as caught:
        apply("def f():\n    return 1\n", "# ... existing code ...\n// ... existing code ...\n    end\n"
              "// ... existing code ...", filename="a.py")
    assert caught.value.code == "anchor_not_found" and caught.value.line == 3
    assert "snippet line 3 ('end')" in str(caught.value)


def test_a_merge_that_would_keep_an_original_stretch_twice_is_refused() -> None:
    # pairs that cross (a part placed above one that comes before it in the file): the splice keeps
    # `def c` where the snippet shows it and again under the last marker
    original = "def a():\n    return 1\n\ndef b():\n    return 2\n\ndef c():\n    return 3\n"
    update = "def c():\n    return 3\n# ... existing code ...\ndef a():\n    return 1\n# ... existing code ...\n"
    al, spliced, _ = aligned(original, update, {0: 6, 1: 7, 3: 0, 4: 1})
    with pytest.raises(ValidationError, match="hold original line 7"):
        _check_kept_once(al, spliced)
    al, spliced, _ = aligned(original, update.replace("def c():\n    return 3\n", ""), {1: 0, 2: 1})
    _check_kept_once(al, spliced)  # (in order: every line once)


def test_a_new_python_header_with_a_comment_after_its_colon_and_nothing_in_it_is_refused() -> None:
    """google-cloud's transports: `):  # pragma: NO COVER` ends a wrapped `if`; a comment after the
    colon hid the header from the check, and tree-sitter-python accepts the empty block."""
    from fastapply.languages import get_language
    from fastapply.merge.empty_blocks import check_empty_blocks

    original = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    update = "def a():\n    return 1\n\n\nif LOGGING and enabled(\n    DEBUG\n):  # pragma: NO COVER\n# ... existing code ...\n"
    al, spliced, _ = aligned(original, update, {0: 0, 1: 1})
    with pytest.raises(ValidationError) as caught:
        check_empty_blocks(get_language("python"), spliced, al.items, original.splitlines())
    assert caught.value.code == "syntax_regressed" and caught.value.line == 7
