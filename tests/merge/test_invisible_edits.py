"""Merges that a careful reader of the snippet could not make with confidence, refused instead of
guessed (fastapply/merge/alignment_checks.py): a deletion that the snippet's context reads just as well
without, and an old body kept after the new body's exit statement."""

from __future__ import annotations

import pytest
from merge_support import aligned

from fastapply import ApplyError, apply
from fastapply.errors import ValidationError
from fastapply.merge.alignment_checks import (
    check_invisible_deletions,
    check_repeated_block,
    check_unreachable,
)

GO = '''\
func First(a int) error {
	log.Print("first")
	return nil
}

func Second(b int) error {
	log.Print("second")
	return nil
}

func Third(c int) error {
	log.Print("third")
	return nil
}
'''


SNIPPET = '''\
// ... existing code ...
	return nil
}

func Third(c int) error {
	log.Print("THIRD")
	return nil
}
'''


def test_context_that_also_ends_the_deleted_code_is_refused() -> None:
    # `return nil` + `}` placed at the end of First: Second, which ends the same way, is dropped
    al, spliced, _ = aligned(GO, SNIPPET, {1: 2, 2: 3, 4: 10, 6: 12, 7: 13})
    assert spliced.deleted and (4, 10) in spliced.deleted
    with pytest.raises(ValidationError) as caught:
        check_invisible_deletions(al, spliced)
    assert caught.value.code == "ambiguous_anchor"
    assert caught.value.line == 2
    assert "snippet line 2 ('return nil')" in caught.value.message
    assert "right before original line 11" in caught.value.message


def test_the_same_context_right_before_its_anchor_passes() -> None:
    al, spliced, _ = aligned(GO, SNIPPET, {1: 7, 2: 8, 4: 10, 6: 12, 7: 13})
    check_invisible_deletions(al, spliced)  # nothing dropped but the edited line


def test_context_before_a_marker_that_also_starts_the_deleted_code_is_refused() -> None:
    original = '''\
def first():
    value = compute()
    if value:
        return value
    return None


def second():
    value = compute()
    if value:
        return value
    return None
'''
    update = '''\
def first():
    value = compute()
    if value:
# ... existing code ...
'''
    # the context is placed at second(), dropping the start of first() after its header
    al, spliced, _ = aligned(original, update, {0: 0, 1: 8, 2: 9})
    with pytest.raises(ValidationError) as caught:
        check_invisible_deletions(al, spliced)
    assert "right after original line 1" in caught.value.message


def test_closing_lines_alone_show_a_deletion() -> None:
    # `}` then the next function: the usual way to delete the function between them
    update = '''\
// ... existing code ...
}

func Third(c int) error {
// ... existing code ...
'''
    al, spliced, _ = aligned(GO, update, {1: 3, 3: 10})
    assert (4, 10) in spliced.deleted
    check_invisible_deletions(al, spliced)


PY = '''\
def first():
    a = compute()
    return a


def second():
    b = compute()
    return b
'''


def test_an_old_body_kept_after_a_new_return_is_refused() -> None:
    update = '''\
def first():
    return None
# ... existing code ...
def second():
'''
    # the marker read as inside first(): its old body stays after the new `return None`
    al, spliced, _ = aligned(PY, update, {0: 0, 3: 5})
    with pytest.raises(ValidationError) as caught:
        check_unreachable(al, spliced)
    assert caught.value.code == "ambiguous_anchor"
    assert caught.value.line == 2
    assert "original line 2 ('a = compute()')" in caught.value.message


def test_code_after_an_exit_that_the_original_has_too_passes() -> None:
    original = '''\
def first():
    return None
    unreachable()


def second():
    pass
'''
    update = '''\
def first():
    return None
# ... existing code ...
def second():
'''
    al, spliced, _ = aligned(original, update, {0: 0, 1: 1, 3: 5})
    check_unreachable(al, spliced)


def test_a_branch_end_after_an_exit_passes() -> None:
    original = '''\
case "$1" in
    start)
        run
        ;;
    stop)
        halt
        ;;
esac
'''
    update = '''\
case "$1" in
    start)
        run
        exit 0
# ... existing code ...
'''
    # `;;` after `exit 0` ends the branch: not code that never runs
    al, spliced, _ = aligned(original, update, {0: 0, 1: 1, 2: 2})
    assert spliced.lines[4].strip() == ";;"
    check_unreachable(al, spliced)


OUT_OF_ORDER_ORIGINAL = '''\
import logging

logger = logging.getLogger(__name__)


def task_repr(task):
    info = ' '.join(task.info)
    return f'<{info}>'


def get_stack(task):
    frames = []
    f = task.frame
    while f is not None:
        frames.append(f)
        f = f.f_back
    return frames


def print_stack(task, file):
    extracted = []
    for f in get_stack(task):
        extracted.append(f.f_code.co_name)
    print(extracted, file=file)
'''

# segments out of file order, the last marker written at column 0 inside get_stack
OUT_OF_ORDER_SNIPPET = '''\
# ... unchanged ...
        f = f.f_back
    return frames


def print_stack(task, file):
    logger.debug("print_stack is not supported here")
    return None
# ... unchanged ...
def task_repr(task):
    logger.debug("task_repr is not supported here")
    return None


def get_stack(task):
    frames = []
# ... unchanged ...
'''


def test_a_rewritten_body_is_never_merged_with_its_old_body_after_it() -> None:
    try:
        merged = apply(OUT_OF_ORDER_ORIGINAL, OUT_OF_ORDER_SNIPPET, filename="tasks.py").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor" and error.line == 8
        return
    assert "extracted = []" not in merged  # if it is merged, then rightly


TS = '''\
export class Response {
  /**
   * A response.
   */
  constructor(
    /**
     * The original event object.
     */
    public readonly originalEvent: ProgressEvent,
    public readonly xhr: XMLHttpRequest
  ) {}
}
'''


def test_a_block_inserted_again_next_to_its_kept_copy_is_refused() -> None:
    update = '''\
   * A response.
   */
  constructor_v2(
    /**
     * The original event object.
     */
    public readonly originalEvent: ProgressEvent,
// ... existing code ...
'''
    # the rename was not recognised: the header pairs with nothing, and the marker (read as
    # standing for everything after the comment) keeps the old constructor and its parameters
    al, spliced, _ = aligned(TS, update, {0: 2, 1: 3})
    with pytest.raises(ValidationError) as caught:
        check_repeated_block(al, spliced)
    assert caught.value.code == "ambiguous_anchor"
    assert "snippet lines 5-7" in caught.value.message and "original lines 7-9" in caught.value.message


def test_new_lines_that_repeat_one_unique_line_pass() -> None:
    update = '''\
   * A response.
   */
  constructor_v2(
    public readonly originalEvent: ProgressEvent,
// ... existing code ...
'''
    al, spliced, _ = aligned(TS, update, {0: 2, 1: 3})
    check_repeated_block(al, spliced)  # one repeated line may be new code written like old code


def test_context_exit_inserted_again_after_its_kept_copy_is_refused() -> None:
    original = '''\
class Future:
    def done(self):
        if self.state:
            return True
        return False


class Broken(RuntimeError):
    pass
'''
    update = '''\
        # ... existing code ...
        return False

    def fallback(self, value):
        return value


class Broken(RuntimeError):
'''
    # `return False` (trivial, common) was not paired: the marker keeps the original's and the
    # snippet's is added after it
    al, spliced, _ = aligned(original, update, {7: 7})
    with pytest.raises(ValidationError) as caught:
        check_unreachable(al, spliced)
    assert caught.value.line == 2 and "original line 5 ('return False')" in caught.value.message
    al, spliced, _ = aligned(original, update, {1: 4, 7: 7})
    check_unreachable(al, spliced)  # paired, it is context: the new method follows it


def test_a_new_record_that_repeats_an_old_one_passes() -> None:
    original = '''\
- tag: core
  desc: |
    This tag marks an operator as part of the core set.
    Only one of {core, pointwise} can apply.
- tag: pointwise
  desc: short
'''
    update = '''\
    Only one of {core, pointwise} can apply.
- tag: core-v2
  desc: |
    This tag marks an operator as part of the core set.
    Only one of {core, pointwise} can apply.
# ... existing code ...
'''
    # a data record written after an existing one: its lines repeat it, and no definition is new
    al, spliced, _ = aligned(original, update, {0: 3})
    check_repeated_block(al, spliced)


def test_a_new_definition_written_like_far_away_old_code_passes() -> None:
    filler = "".join(f"x{k} = {k}\n" for k in range(80))
    original = f'''\
def fallback(value, default=None):
    if value is None:
        return default
    return value


{filler}
def last():
    pass
'''
    update = '''\
# ... existing code ...
def other(value, default=None):
    if value is None:
        return default
    return value


def last():
'''
    lines = original.rstrip("\n").split("\n")
    al, spliced, _ = aligned(original, update, {7: lines.index("def last():")})
    check_repeated_block(al, spliced)  # the same body 80 lines away: new code written like old


JS = '''\
/**
 * Whether the route handles a method.
 */
Route.prototype._handles_method = function _handles_method(method) {
  if (this.methods._all) {
    return true;
  }

  var name = method.toLowerCase();

  if (name === 'head' && !this.methods['head']) {
    name = 'get';
  }

  return Boolean(this.methods[name]);
};
'''


def test_common_context_before_an_edit_is_the_copy_next_to_the_anchor() -> None:
    # `return true;` + `}` right after a marker, then an edited line: they are the lines right
    # before the edit (not new code added after the kept ones, which would not parse)
    update = '''\
    // ... existing code ...
    return true;
  }

  // normalize name
  var name = typeof method === 'string'
    ? method.toLowerCase()
    : method

  if (name === 'head' && !this.methods['head']) {
  // ... existing code ...
'''
    merged = apply(JS, update, filename="route.js").merged_code  # refused as syntax_regressed before
    assert merged.count("return true;") == 1
    assert "  }\n\n  // normalize name\n  var name = typeof method === 'string'" in merged
    assert "method.toLowerCase();" not in merged


def test_a_sibling_written_like_its_neighbour_passes() -> None:
    original = '''\
export class Cart {
  applyCoupon(code: string): void {
    const coupon = this.state.coupon;
    if (coupon && coupon.code === code) {
      return;
    }
    this.commit({ ...this.state, coupon: lookup(code) });
  }

  clear(): void {
    this.commit(EMPTY);
  }
}
'''
    update = '''\
  // ... existing code ...
  clear(): void {
    this.commit(EMPTY);
  }

  removeCoupon(): void {
    const coupon = this.state.coupon;
    if (coupon && coupon.code === code) {
      return;
    }
    this.commit({ ...this.state, coupon: null });
  }
}
'''
    # a new method that starts like the one above it: new code, not a rename of applyCoupon
    merged = apply(original, update, filename="cart.ts").merged_code
    assert merged.count("const coupon = this.state.coupon;") == 2 and "applyCoupon" in merged
