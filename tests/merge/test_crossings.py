"""merge/crossings.py: a context line right under a marker that the alignment turned into a move
(issue 8, fifteenth round: yaspin and bashlex release edits, tune-26 and tune-27)."""

from __future__ import annotations

from fastapply import apply

SPINNER = '''import time


class Spinner:
    def spin(self):
        while not self.stopped():
            if self.hidden is not None and self.hidden.is_set():
                # wait a bit before looking again
                time.sleep(self.interval)
                continue

            # compose the frame
            frame = next(self.frames)

            # Write
            with self.lock:
                self.clear()
                self.out.write(frame)
                self.out.flush()

    def hide(self):
        with self.lock:
            self.hidden.set()
            self.clear()
'''


def test_a_guard_copied_into_a_new_block_keeps_the_context_above_it() -> None:
    # the copied `if` line and its `continue` outweighed `# Write` and `self.out.write(frame)`:
    # the chain anchored on the old guard, deleted the frame's composition and wrote the context
    # under the marker as new code
    edit = '''        # ... existing code ...
            # Write
            with self.lock:
                # a frame is written only while the spinner is shown
                if self.hidden is not None and self.hidden.is_set():
                    continue
                self.clear()
                self.out.write(frame)
        # ... existing code ...
'''
    expected = SPINNER.replace('''            with self.lock:
                self.clear()
                self.out.write(frame)''', '''            with self.lock:
                # a frame is written only while the spinner is shown
                if self.hidden is not None and self.hidden.is_set():
                    continue
                self.clear()
                self.out.write(frame)''')
    assert apply(SPINNER, edit, filename="spinner.py").merged_code == expected


READER = '''class Reader:
    def getc(self):
        while True:
            if self.index < len(self.line):
                c = self.line[self.index]
                self.index += 1
            else:
                c = None

            if c == "\\\\" and self.line[self.index] == "\\n":
                self.line_number += 1
                continue
            else:
                return c

    def skip_line(self):
        self.line_number += 1
'''


def test_a_line_added_under_the_context_that_the_file_has_higher_up() -> None:
    # `self.index += 1` is new under `self.line_number += 1`, and the file has it once, higher
    # up: anchored there, the if/else between was deleted and the context moved down
    edit = '''        # ... existing code ...
                self.line_number += 1
                # skip past the newline
                self.index += 1
                continue
            else:
                return c
        # ... existing code ...
'''
    expected = READER.replace('''                self.line_number += 1
                continue''', '''                self.line_number += 1
                # skip past the newline
                self.index += 1
                continue''')
    assert apply(READER, edit, filename="reader.py").merged_code == expected


def test_a_line_really_moved_up_under_the_marker_stays_a_move() -> None:
    # the first line under the marker is paired where it is: nothing crosses, nothing changes
    edit = '''        # ... existing code ...
            if c == "\\\\" and self.line[self.index] == "\\n":
                continue
            else:
                return c
        # ... existing code ...
'''
    expected = READER.replace('''                self.line_number += 1
                continue
            else:''', '''                continue
            else:''')
    assert apply(READER, edit, filename="reader.py").merged_code == expected
