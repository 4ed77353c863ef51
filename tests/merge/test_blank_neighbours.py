"""Blank lines around a new definition in a file whose own spacing is not uniform (too few
definitions to tell, or a mix): the new sibling gets the spacing its neighbours have when the
snippet is one blank line off it (a doubled or dropped blank line), and the blank lines after a new
block inserted between two siblings stay the file's."""

from __future__ import annotations

from fastapply import apply

# one blank line between most functions, two before `path.join`: no spacing the whole file keeps
LUA = """\
local path = {}

local function at(s, i)
    return s:sub(i, i)
end

function path.isdir(p)
    return at(p, 1) == '/'
end


function path.join(a, b)
    return a .. '/' .. b
end

function path.base(p)
    return p
end

return path
"""

LUA_NEW = """\
local function fallback_value(value, fallback)
    if value == nil then
        return fallback
    end
    return value
end
"""


def test_doubled_blank_line_before_a_new_function_takes_the_neighbours_spacing() -> None:
    update = f"""\
-- ... existing code ...
function path.isdir(p)
    return at(p, 1) == '/'
end
-- ... existing code ...
function path.base(p)
    return p
end


{LUA_NEW}
return path
"""
    expected = LUA.replace("    return p\nend\n\n", f"    return p\nend\n\n{LUA_NEW}\n")
    assert apply(LUA, update, filename="path.lua").merged_code == expected


def test_a_blank_line_two_off_the_neighbours_is_the_snippets_choice() -> None:
    # three blank lines where the neighbours have one is no slip: the snippet means more than
    # one, as many as the file ever writes (two, before `path.join`)
    update = f"""\
-- ... existing code ...
function path.base(p)
    return p
end



{LUA_NEW}
return path
"""
    expected = LUA.replace("    return p\nend\n\n", f"    return p\nend\n\n\n{LUA_NEW}\n")
    assert apply(LUA, update, filename="path.lua").merged_code == expected


PY_CLASS = '''\
class Tag:
    """A tag."""

    def __init__(self, value):
        self.value = value

    def cvt(self, value):
        return value


def lookup(tag):
    return Tag(tag)
'''


def test_missing_blank_line_before_a_new_method_at_the_end_of_a_small_class() -> None:
    update = '''\
# ...
    def cvt(self, value):
        return value
    def fallback(self, value, default=None):
        return default if value is None else value


def lookup(tag):
# ...
'''
    expected = PY_CLASS.replace(
        "        return value\n",
        "        return value\n\n    def fallback(self, value, default=None):\n"
        "        return default if value is None else value\n")
    assert apply(PY_CLASS, update, filename="tags.py").merged_code == expected


PY_MODULE = '''\
import codecs


class Codec(codecs.Codec):
    def encode(self, text):
        return text


def getregentry():
    return codecs.CodecInfo(
        name='cp869',
    )

### Decoding Map

decoding_map = {}
'''


def test_new_python_function_inserted_into_a_blank_run_keeps_the_run_after_it() -> None:
    # the model wrote the run before the new function and none after it: the file's run follows it
    update = '''\
# ... rest of the code ...
        name='cp869',
    )

def value_or_default(value, default=None):
    return default if value is None else value
### Decoding Map
# ... rest of the code ...
'''
    expected = PY_MODULE.replace(
        "    )\n\n",
        "    )\n\ndef value_or_default(value, default=None):\n    return default if value is None else value\n\n")
    assert apply(PY_MODULE, update, filename="cp869.py").merged_code == expected


RUBY = """\
module Thor
  class Basic
    def say(message)
      puts message
    end

    def set_color(string)
      string
    end

  protected

    def padding
      2
    end
  end
end
"""


def test_new_method_closed_right_before_the_end_of_its_section_keeps_the_blank_line() -> None:
    update = """\
# ... existing code ...
    def set_color(string)
      string
    end

    def coalesce(value, fallback = nil)
      return fallback if value.nil?

      value
    end
  protected
# ... existing code ...
"""
    expected = RUBY.replace(
        "      string\n    end\n\n",
        "      string\n    end\n\n    def coalesce(value, fallback = nil)\n      return fallback if value.nil?\n\n"
        "      value\n    end\n\n")
    assert apply(RUBY, update, filename="basic.rb").merged_code == expected
