"""Issue 8, sixteenth round: real release edits of the fifteenth round's fresh batch (tune-29), read
case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

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

  /* Presto */
  {
    test: [/presto/i],
    describe(ua) {
      const engine = {
        name: ENGINE_MAP.Presto,
      };

      const version = Utils.getFirstMatch(/presto\\/(\\d+)/i, ua);
      if (version) {
        engine.version = version;
      }
      return engine;
    },
  },

  /* WebKit */
  {
    test: [/(apple)?webkit/i],
    describe(ua) {
      const engine = {
        name: ENGINE_MAP.WebKit,
      };

      const version = Utils.getFirstMatch(/webkit\\/(\\d+)/i, ua);
      if (version) {
        engine.version = version;
      }
      return engine;
    },
  },
];
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
    # loses nothing: both readings fit, so it is refused
    edit = '''// ... existing code ...
        type: PLATFORMS_MAP.desktop,
      };
    },
  },

''' + _entry("Chrome OS", "chrome os") + '''
  /* PlayStation 4 */
// ... existing code ...
'''
    with pytest.raises(ApplyError, match="fit two places") as error:
        apply(PLATFORMS, edit, filename="parser-platforms.js")
    assert error.value.line == 2


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
