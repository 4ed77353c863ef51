"""Issue 8, twenty-first round: real release edits of the twentieth round's kept-aside batch
check-18 (now tune-55) and of the fresh batch tune-56, read case by case."""

from __future__ import annotations

import pytest

from fastapply import ApplyError, apply

IMMEDIATE_PY = """import logging
from typing import Any, TypeVar

from django.utils import timezone

logger = logging.getLogger(__name__)


class ImmediateBackend(BaseTaskBackend):
    def _execute_task(self, task_result):
        object.__setattr__(task_result, "finished_at", timezone.now())
        object.__setattr__(task_result, "status", TaskResultStatus.SUCCEEDED)
        task_finished.send(type(self), task_result=task_result)

    def enqueue(self, task, args, kwargs):
        task_result = TaskResult(
            task=task,
            metadata={},
        )

        self._execute_task(task_result)

        return task_result

    def save_metadata(self, result_id: str, metadata: dict[str, Any]) -> None:
        pass

    async def asave_metadata(self, result_id: str, metadata: dict[str, Any]) -> None:
        pass
"""


def test_a_tail_that_alone_reads_a_name_the_edited_import_dropped_goes() -> None:
    # django-tasks dropped the metadata methods, the only readers of `Any`, and `Any` from the
    # import: the snippet ends at `return task_result` without a marker, as the file now ends
    snippet = """import logging
from typing import TypeVar

from django.utils import timezone
# ... existing code ...
        object.__setattr__(task_result, "finished_at", timezone.now())
        object.__setattr__(task_result, "status", TaskResultStatus.SUCCESSFUL)
        task_finished.send(type(self), task_result=task_result)

    def enqueue(self, task, args, kwargs):
        task_result = TaskResult(
            task=task,
        )

        self._execute_task(task_result)

        return task_result
"""
    expected = IMMEDIATE_PY.replace("Any, TypeVar", "TypeVar").replace("SUCCEEDED", "SUCCESSFUL") \
        .replace("            metadata={},\n", "")
    expected = expected[:expected.index("\n    def save_metadata")]
    assert apply(IMMEDIATE_PY, snippet, filename="immediate.py").merged_code == expected


def test_a_tail_stays_when_the_dropped_name_is_read_above_it_too() -> None:
    # the same snippet, but the file reads `Any` in the method the snippet shows too: the import
    # edit says nothing about the tail (a left-out last marker), which stays. The snippet itself
    # writes `-> Any` under an import line it took `Any` out of: since the twenty-seventh round
    # that contradiction may be refused instead (dangling.check_lost_imports), naming the name
    original = IMMEDIATE_PY.replace("    def enqueue(self, task, args, kwargs):",
                                    "    def enqueue(self, task, args, kwargs) -> Any:")
    snippet = """import logging
from typing import TypeVar

from django.utils import timezone
# ... existing code ...
        task_finished.send(type(self), task_result=task_result)

    def enqueue(self, task, args, kwargs) -> Any:
        task_result = TaskResult(
            task=task,
        )

        self._execute_task(task_result)

        return task_result
"""
    try:
        merged = apply(original, snippet, filename="immediate.py").merged_code
    except ApplyError as error:
        assert error.code == "ambiguous_anchor" and "`Any`" in error.message
        return
    assert "async def asave_metadata" in merged and "metadata={}" not in merged


MOD_PY = """class Mod(Function):
    @classmethod
    def eval(cls, p, q):
        def number_eval(p, q):
            if q.is_zero:
                raise ZeroDivisionError("Modulo by zero")
            if p is S.NaN:
                return S.NaN

        if q.is_Number:
            if p.is_Number:
                # by difference
                # -2|q| < p < 2|q|
                d = abs(p)
                for _ in range(2):
                    d -= abs(q)
                    if d.is_negative:
                        if q.is_positive:
                            if p.is_positive:
                                return d + q
                            elif p.is_negative:
                                return -d
                        elif q.is_negative:
                            if p.is_positive:
                                return d
                            elif p.is_negative:
                                return -d + q
                        break

        rv = number_eval(p, q)
        if rv is not None:
            return rv

        # denest
        if isinstance(p, cls):
            qinner = p.args[1]
            if qinner % q == 0:
                return cls(p.args[0], q)

    def _eval_is_integer(self, p, q):
        rv = number_eval(p, q)
        if rv is not None:
            return rv.is_integer
        return fuzzy_and([p.is_integer, q.is_integer])
"""


EMIT_JS = """function emitChild (wrap = false) {
  if (isAbsolute(child.value)) {
    const inline = emitAsset(resolved);
    if (inline) {
      magicString.overwrite(
        child.start, child.end,
        inline
      );
      transformed = true;
    }
  }
  else if (isAbsolute(child.then) && isAbsolute(child.else)) {
    const thenInline = emitAsset(resolvedThen);
    if (thenInline && elseInline) {
      magicString.overwrite(
        child.start, child.end,
        `${code.substring(child.start, child.end)} ? ${thenInline} : ${elseInline}`
      );
      transformed = true;
    }
  }
}

function emitOther () {
  magicString.overwrite(
    other.start, other.end,
    inline
  );
  transformed = true;
}
"""


def test_a_call_rewritten_line_for_line_ends_on_the_nearer_copy_of_common_lines() -> None:
    # webpack-asset-relocator's `magicString.overwrite(` call, three lines for three, rewritten as
    # `overwriteStaticChild(` above `);` / `transformed = true;`, which the file has three times
    snippet = """function emitChild (wrap = false) {
  // ... existing code ...
    if (thenInline && elseInline) {
      overwriteChild(
        `${code.substring(child.start, child.end)} ? ${thenInline} : ${elseInline}`,
        parent
      );
      transformed = true;
    // ... existing code ...
}
"""
    expected = EMIT_JS.replace("""      magicString.overwrite(
        child.start, child.end,
        `${code""", """      overwriteChild(
        `${code""").replace("${elseInline}`\n", "${elseInline}`,\n        parent\n")
    assert apply(EMIT_JS, snippet, filename="emit.js").merged_code == expected


def test_a_context_line_written_again_next_to_the_copy_its_marker_keeps_is_refused() -> None:
    # sympy's rewritten loop, its new `elif q.is_negative:` paired with the old one two levels
    # deeper, and the anchor after the marker below the file's second `rv = number_eval(p, q)`:
    # read as new, `rv = number_eval(p, q)` / `if rv is not None:` would stand over the old
    # `break` and the old pair the marker keeps, a merge that is no edit of the file
    snippet = """# ... existing code ...
                # by difference
                # -2|q| < p < 2|q|
                if q.is_positive:
                    comp1, comp2 = is_le, is_lt
                elif q.is_negative:
                    comp1, comp2 = is_ge, is_gt
                else:
                    return
                ls = -2*q
                r = p - q
                for _ in range(4):
                    if not comp1(ls, p):
                        return
                    if comp2(r, ls):
                        return p - ls
                    ls += q

        rv = number_eval(p, q)
        if rv is not None:
        # ... existing code ...
        return fuzzy_and([p.is_integer, q.is_integer])
"""
    with pytest.raises(ApplyError) as info:
        apply(MOD_PY, snippet, filename="mod.py")
    assert info.value.code == "ambiguous_anchor"


APP_PY = """class App:
    def __init__(self, formal_name=None):
        self._windows = WindowSet(self)

        # Create the implementation. This will trigger any startup logic.
        self.factory.App(interface=self)

    ######################################################################
    # App properties
    ######################################################################

    @property
    def paths(self) -> Paths:
        return self._paths

    ######################################################################
    # App lifecycle
    ######################################################################

    def request_exit(self):
        self._impl.request_exit()
"""


def test_lines_moved_into_a_new_method_leave_their_place_before_a_common_ruler() -> None:
    # toga moved the two lines into a new `create()` method and called it in their place; the
    # `#####` ruler before the marker is the one right under them, of the file's six
    snippet = """# ... existing code ...
        self._windows = WindowSet(self)

        self._impl = self.create()

    ######################################################################
    # ... existing code ...
    ######################################################################

    def create(self):
        # Create the implementation. This will trigger any startup logic.
        return self.factory.App(interface=self)

    def request_exit(self):
        # ... existing code ...
"""
    expected = APP_PY.replace("""        # Create the implementation. This will trigger any startup logic.
        self.factory.App(interface=self)
""", """        self._impl = self.create()
""").replace("""    ######################################################################

    def request_exit(self):""", """    ######################################################################

    def create(self):
        # Create the implementation. This will trigger any startup logic.
        return self.factory.App(interface=self)

    def request_exit(self):""")
    assert apply(APP_PY, snippet, filename="app.py").merged_code == expected


EVAL_PY = """@impl(hir_stubs.do_static_eval)
def do_static_eval_impl(expr: hir.StaticEvalExpression,
                        local_var_values: tuple[Var, ...]) -> Var:
    local_proxies = tuple(var2sym(x) for x in local_var_values)
    with StaticEvalMode(expr.kind).as_current():
        try:
            result = expr.compiled_expr(*local_proxies)
        except TileError:
            raise
        except Exception as e:
            where = expr.kind._value_
            msg = f"Exception was raised inside {where} ({type(e).__name__}"
            e_str = str(e)
            if len(e_str) > 0:
                msg += ": " + e_str
            msg += ")"
            raise TileStaticEvalError(msg) from e

    if expr.kind == hir.StaticEvalKind.STATIC_ASSERT_MESSAGE:
        if result is None:
            result = ""
        return loosely_typed_const(str(result))
    elif expr.kind == hir.StaticEvalKind.STATIC_ITER_ITERABLE:
        items = _drain_static_iter_iterable(result)
        return build_tuple(tuple(items))
    else:
        return sym2var(result)


_STATIC_ITER_MAX_ITERATIONS = 1000


def _drain_static_iter_iterable(iterable) -> list[Var]:
    try:
        it = iter(iterable)
    except Exception as e:
        msg = str(e)
        if len(msg) > 0:
            msg = ": " + msg
        raise TileTypeError(f"Invalid static_iter() iterable{msg}")

    items = []
    for i in range(_STATIC_ITER_MAX_ITERATIONS + 1):
        try:
            x = next(it)
        except StopIteration:
            break
        except Exception as e:
            msg = str(e)
            if len(msg) > 0:
                msg = ": " + msg
            raise TileTypeError(f"Error was raised while obtaining item #{i}"
                                f" from the static_iter() iterable{msg}")
"""


def test_a_copy_followed_by_its_own_lines_edited_is_the_one_rewritten() -> None:
    # cuda-tile's `except Exception as e:` after a marker, the file's first of three: its next two
    # lines are the file's next two, edited (`where = ...`, `msg = ...`); the rest of the old
    # handler went (read as inserted, the old handler stayed above the new one)
    snippet = """@impl(hir_stubs.do_static_eval)
def do_static_eval_impl(expr: hir.StaticEvalExpression,
        # ... existing code ...
        except Exception as e:
            where = "inside " + expr.kind._value_
            msg = f"Exception was raised {where} ({exception_type_and_str(e)})"
            static_exc = StaticException(msg)
            static_exc._where = where
            raise static_exc from e

    if expr.kind == hir.StaticEvalKind.STATIC_ASSERT_MESSAGE:
        if result is None:
            result = ""
        # ... existing code ...
"""
    old = EVAL_PY[EVAL_PY.index("            where = expr"):EVAL_PY.index("\n    if expr.kind")]
    new = """            where = "inside " + expr.kind._value_
            msg = f"Exception was raised {where} ({exception_type_and_str(e)})"
            static_exc = StaticException(msg)
            static_exc._where = where
            raise static_exc from e
"""
    assert apply(EVAL_PY, snippet, filename="ops.py").merged_code == EVAL_PY.replace(old, new)


OPERATIONS_PY = """class AssocOp(Basic):
    def _new_args_filter(cls, arg_sequence):
        return self.func(*args)

    @classmethod
    def make_args(cls, expr):
        \"\"\"
        Return a sequence of elements `args` such that cls(*args) == expr
        \"\"\"
        if isinstance(expr, cls):
            return expr.args
        else:
            return (sympify(expr),)
"""


def test_overload_stubs_over_a_classmethod_define_the_name_again_on_purpose() -> None:
    # sympy's `make_args` gained typed `@overload` stubs, each `@overload` over `@classmethod`
    # over `def make_args(...)`: `@overload` two lines up still says the name comes again
    snippet = """class AssocOp(Basic):
    # ... existing code ...
        return self.func(*args)

    @overload
    @classmethod
    def make_args(cls: type[Add], expr: Expr) -> tuple[Expr, ...]: ... # type: ignore
    @overload
    @classmethod
    def make_args(cls: type[Mul], expr: Expr) -> tuple[Expr, ...]: ... # type: ignore

    @classmethod
    def make_args(cls: type[Basic], expr: Basic) -> tuple[Basic, ...]:
        \"\"\"
        # ... existing code ...
"""
    expected = OPERATIONS_PY.replace("""    @classmethod
    def make_args(cls, expr):
""", """    @overload
    @classmethod
    def make_args(cls: type[Add], expr: Expr) -> tuple[Expr, ...]: ... # type: ignore
    @overload
    @classmethod
    def make_args(cls: type[Mul], expr: Expr) -> tuple[Expr, ...]: ... # type: ignore

    @classmethod
    def make_args(cls: type[Basic], expr: Basic) -> tuple[Basic, ...]:
""")
    assert apply(OPERATIONS_PY, snippet, filename="operations.py").merged_code == expected


NUMERICAL_PY = """def _euler(red, x0, x1, y0, a):
    f_0 = []
    for i in range(a):
        f_0.append(y_0[i])

    sol = []
    for i in range(a):
        sol.append(y_0[i] + h * f_0[i])

    return sol


def _rk4(red, x0, x1, y0, a):
    f_3 = []
    for i in range(a):
        f_3.append(y_0[i])

    sol = []
    for i in range(a):
        sol.append(y_0[i] + h * f_3[i] / 6)

    return sol
"""


def test_a_snippet_ending_in_a_return_replaces_the_rest_of_the_files_last_block() -> None:
    # sympy's `_rk4` now returns a comprehension; the snippet ends with it, no marker after: the
    # old loop and `return sol` below would never run, so they are what it replaces
    snippet = """# ... existing code ...
def _rk4(red, x0, x1, y0, a):
    # ... existing code ...
        f_3.append(y_0[i])

    return [y_0[i] + h * f_3[i] / 6 for i in range(a)]
"""
    tail = NUMERICAL_PY[NUMERICAL_PY.rindex("    sol = []"):]
    expected = NUMERICAL_PY.replace(tail, "    return [y_0[i] + h * f_3[i] / 6 for i in range(a)]\n")
    assert apply(NUMERICAL_PY, snippet, filename="numerical.py").merged_code == expected


PLOT_PY = """def plot(self, grouped_data, iter_keys):
    for key in iter_keys:

        # Pandas fails with singleton tuple inputs
        pd_key = key[0] if len(key) == 1 else key

        try:
            data_subset = grouped_data.get_group(pd_key)
        except KeyError:
            continue
        yield data_subset
"""


def test_new_lines_glued_to_the_statement_after_them_took_the_blank_line_with_the_old_ones() -> None:
    # seaborn rewrote the comment and `pd_key = ...` as a wrapped `pd_key = (` .. `)` right above
    # `try:`: the blank line between them went with the old lines
    snippet = """# ... existing code ...
    for key in iter_keys:

        pd_key = (
            key[0] if len(key) == 1 and _version_predates(pd, "2.2.0") else key
        )
        try:
            data_subset = grouped_data.get_group(pd_key)
        # ... existing code ...
"""
    expected = PLOT_PY.replace("""        # Pandas fails with singleton tuple inputs
        pd_key = key[0] if len(key) == 1 else key

""", """        pd_key = (
            key[0] if len(key) == 1 and _version_predates(pd, "2.2.0") else key
        )
""")
    assert apply(PLOT_PY, snippet, filename="plot.py").merged_code == expected


QKEYMAP_PY = """def _mods(key):
    return key


if QT6 and not (API == "pyside6" and int(QT_VERSION[2]) < 4):

    def _get_qmods(key):
        return key.keyboardModifiers()

else:

    def _get_qmods(key):
        return key & Qt.KeyboardModifierMask
"""


def test_a_kept_line_under_a_new_header_and_its_comments_is_spaced_as_the_snippet_writes_it() -> None:
    # app-model's `if QT6:` and two comment lines over the kept `def _get_qmods`, glued: the
    # blank line under the old header went with it; a definition elsewhere keeps its blank line
    snippet = """# ... existing code ...
    return key


if QT6:
    # note: this doesn't work on pyside6 < 6.5 ...
    # but we don't support that anymore
    def _get_qmods(key):
        return key.keyboardModifiers()
# ... existing code ...
"""
    expected = QKEYMAP_PY.replace("""if QT6 and not (API == "pyside6" and int(QT_VERSION[2]) < 4):

""", """if QT6:
    # note: this doesn't work on pyside6 < 6.5 ...
    # but we don't support that anymore
""")
    assert apply(QKEYMAP_PY, snippet, filename="qkeymap.py").merged_code == expected


NDIM_PY = """class NDimArray:
    def _sympystr(self, printer):
        def f(sh, shape_left, i, j):
            return printer._print(sh)

        if self.rank() == 0:
            return printer._print(self[()])

        return f(self._loop_size, self.shape, 0, self._loop_size)

    def tolist(self):
        return self._tolist()
"""


def test_a_block_inserted_where_a_blank_line_stood_above_a_plain_statement_takes_its_place() -> None:
    # sympy's new `if 0 in self.shape:` / `return ...`, written between the `if` above and the
    # final `return f(...)` with no blank line: the edit wrote it in the blank line's place
    snippet = """# ... existing code ...
        if self.rank() == 0:
            return printer._print(self[()])
        if 0 in self.shape:
            return f"{self.__class__.__name__}([], {self.shape})"
        return f(self._loop_size, self.shape, 0, self._loop_size)
# ... existing code ...
"""
    expected = NDIM_PY.replace("""            return printer._print(self[()])

""", """            return printer._print(self[()])
        if 0 in self.shape:
            return f"{self.__class__.__name__}([], {self.shape})"
""")
    assert apply(NDIM_PY, snippet, filename="ndim_array.py").merged_code == expected



POLICY_PY = """def ce_supported(config, world_size, max_blocks, numel):
    if config.variant in (
        IpcVariant.COPY_ENGINE_ISLAND,
        IpcVariant.COPY_ENGINE_RING_MEMOP,
    ):
        if config.variant == IpcVariant.COPY_ENGINE_ISLAND and world_size != 8:
            return False
        # A copy-engine variant is not exempt from the world-size-2 rule just
        # because it does not use the SM.
        if world_size == 2:
            return False
        if not 0 < config.blocks <= CE_MAX_PIECES:
            return False
        # The ring is bound by the fabric rather than by the SM, so the add
        # runs on the copy engine.
        if config.variant != IpcVariant.COPY_ENGINE_ISLAND:
            shards = world_size
            if numel % (shards * pack_elems) != 0:
                return False
            if (numel // shards) % (config.blocks * pack_elems) != 0:
                return False
        return world_size <= config.threads <= 1024
    if not 0 < config.blocks <= max_blocks:
        return False
    return True
"""


def test_new_lines_that_edit_the_sibling_between_two_common_lines_replace_it() -> None:
    # flashinfer's `if not 0 < config.blocks <= CE_MAX_PIECES:` rewritten under a new comment
    # between two `return False` lines, and `if (numel // shards) ...` turned `elif` under a new
    # branch: both edits of the lines they stand for, not new code beside them
    snippet = """def ce_supported(config, world_size, max_blocks, numel):
    # ... existing code ...
        # A copy-engine variant is not exempt from the world-size-2 rule just
            # ... existing code ...
            return False
        # The launcher checks blocks <= max_blocks for every variant.
        if not 0 < config.blocks <= min(CE_MAX_PIECES, max_blocks):
            return False
        # The ring is bound by the fabric rather than by the SM, so the add
            # ... existing code ...
                return False
            if config.variant == IpcVariant.COPY_ENGINE_RING_PIPED:
                if numel // pack_elems < 4 * CE_MAX_PIECES * world_size:
                    return False
            elif (numel // shards) % (config.blocks * pack_elems) != 0:
                return False
        return world_size <= config.threads <= 1024
    # ... existing code ...
"""
    expected = POLICY_PY.replace("""        if not 0 < config.blocks <= CE_MAX_PIECES:
""", """        # The launcher checks blocks <= max_blocks for every variant.
        if not 0 < config.blocks <= min(CE_MAX_PIECES, max_blocks):
""").replace("""            if (numel // shards) % (config.blocks * pack_elems) != 0:
""", """            if config.variant == IpcVariant.COPY_ENGINE_RING_PIPED:
                if numel // pack_elems < 4 * CE_MAX_PIECES * world_size:
                    return False
            elif (numel // shards) % (config.blocks * pack_elems) != 0:
""")
    assert apply(POLICY_PY, snippet, filename="policy.py").merged_code == expected


def test_an_if_turned_elif_keeps_its_condition_as_an_edit() -> None:
    from fastapply.merge.similar import edited_version

    assert edited_version("elif (numel // shards) % (config.blocks * pack_elems) != 0:",
                          "if (numel // shards) % (config.blocks * pack_elems) != 0:")
    assert edited_version("if x > 1:", "elif x > 1:")
    assert not edited_version("elif y is None:", "if (numel // shards) % (config.blocks * pack_elems) != 0:")
    # two branches of one chain are no edit of each other (gluonts' rank checks)
    assert not edited_version("elif len(self.forecast_array.shape) == 3:", "if len(self.forecast_array.shape) == 2:")



TOPK_PY = """class TopK:
    def renorm(self, tensor, kwargs):
        top_k = self._get_param("top_k", kwargs, required=True)
        maybe_top_k_arr, top_k_val = _to_tensor_scalar_tuple(top_k)

        if maybe_top_k_arr is None and (
            not isinstance(top_k_val, int) or top_k_val <= 0
        ):
            raise ValueError("top_k must be a positive integer or a tensor array")

        # Allocate row_states buffer for multi-CTA kernel (1MB is enough for any GPU)
        row_states_buffer = _get_cache_buf(
            f"top_k_renorm_probs_row_states_{tensor.data.device}",
            1024 * 1024,
            tensor.data.device,
            zero_init=True,
        )
        renorm_probs = get_sampling_module().top_k_renorm_probs(
            tensor.data, maybe_top_k_arr, top_k_val, row_states_buffer
        )
        return renorm_probs

    def mask(self, tensor, kwargs):
        top_k = self._get_param("top_k", kwargs, required=True)
        maybe_top_k_arr, top_k_val = _to_tensor_scalar_tuple(top_k)

        if maybe_top_k_arr is None and (
            not isinstance(top_k_val, int) or top_k_val <= 0
        ):
            raise ValueError("top_k must be a positive integer or a tensor array")

        # Allocate row_states buffer for multi-CTA kernel (1MB is enough for any GPU)
        row_states_buffer = _get_cache_buf(
            f"top_k_mask_logits_row_states_{tensor.data.device}",
            1024 * 1024,
            tensor.data.device,
            zero_init=True,
        )
        masked_logits = get_sampling_module().top_k_mask_logits(
            tensor.data, maybe_top_k_arr, top_k_val, row_states_buffer
        )
        return masked_logits
"""


def test_four_unchanged_lines_and_an_anchor_frame_the_lines_they_rewrite() -> None:
    # flashinfer's top-k guard, the same four lines in two sibling methods, shown over the second
    # method's rewritten buffer allocation: the copy in the anchor's method, its old allocation
    # replaced (read as new, the guard stood twice in `mask`)
    snippet = """class TopK:
    # ... existing code ...
        if maybe_top_k_arr is None and (
            not isinstance(top_k_val, int) or top_k_val <= 0
        ):
            raise ValueError("top_k must be a positive integer or a tensor array")

        row_states_buffer = _get_row_states_buffer(
            "top_k_mask_logits_row_states", tensor.data.device
        )
        masked_logits = get_sampling_module().top_k_mask_logits(
        # ... existing code ...
"""
    old = TOPK_PY[TOPK_PY.rindex("        # Allocate"):TOPK_PY.index("        masked_logits =")]
    new = """        row_states_buffer = _get_row_states_buffer(
            "top_k_mask_logits_row_states", tensor.data.device
        )
"""
    assert apply(TOPK_PY, snippet, filename="operators.py").merged_code == TOPK_PY.replace(old, new)


TOKEN_PY = '''from .base import Resource
from ..constants.url import URL


class Token(Resource):
    def __init__(self, client=None):
        super(Token, self).__init__(client)
        self.base_url = URL.V1 + URL.CUSTOMER_URL

    def create(self, data={}, **kwargs):
        """
        Create token from given dict

        Returns:
            token Dict which was created
        """
        url = '{}{}'.format(URL.V1, URL.TOKEN)

        return self.post_url(url, data, **kwargs)

    def fetch(self, customer_id, token_id, data={}, **kwargs):
        """
        Fetch Token for given Id and given customer Id

        Args:
            customer_id : Customer Id for which tokens have to be fetched
            token_id    : Id for which TOken object has to be fetched

        Returns:
            Token dict for given token Id
        """
        url = "{}/{}/tokens/{}".format(self.base_url, customer_id, token_id)
        return self.get_url(url, data, **kwargs)

    def all(self, customer_id, data={}, **kwargs):
        """
        Get all tokens for given customer Id

        Args:
            customer_id : Customer Id for which tokens have to be fetched

        Returns:
            Token dicts for given cutomer Id
        """
        url = "{}/{}/tokens".format(self.base_url, customer_id)
        return self.get_url(url, data, **kwargs)

    def delete(self, customer_id, token_id, data={}, **kwargs):
        """
        Delete Given Token For a Customer

        Args:
            customer_id : Customer Id for which tokens have to be deleted
            token_id    : Id for which TOken object has to be deleted
        Returns:
            Dict for deleted token
        """
        url = "{}/{}/tokens/{}".format(self.base_url, customer_id, token_id)
        return self.delete_url(url, data, **kwargs)

    def processPaymentOnAlternatePAorPG(self, data={}, **kwargs):
        """
        Process a Payment on another PA/PG with Token Created on Razorpay

        Returns:
            Dict for the payment
        """
        url = '{}{}/{}'.format(URL.V1, URL.TOKEN, "service_provider_tokens/token_transactional_data")
        return self.post_url(url, data, **kwargs)
'''


def test_a_key_like_line_in_a_new_docstring_is_text_spaced_as_written() -> None:
    # razorpay's new `cancel` method: `Returns:` glued to the `Args:` lines in its docstring, in a
    # file whose other docstrings set it off; inside a string the snippet's spacing is the text
    snippet = '''    # ... existing code ...
        url = '{}{}/{}'.format(URL.V1, URL.TOKEN, "service_provider_tokens/token_transactional_data")
        return self.post_url(url, data, **kwargs)

    def cancel(self, customer_id, token_id, data={}, **kwargs):
        """
        Cancel Given Token

        Args:
            customer_id : Customer Id for which token have to be cancelled
            token_id    : Id for which Token object has to be cancelled
        Returns:
            Dict for cancel token
        """
        url = f"{self.base_url}/{customer_id}/tokens/{token_id}/cancel"
        return self.put_url(url, data, **kwargs)
'''
    expected = TOKEN_PY + snippet[snippet.index("\n    def cancel"):]
    assert apply(TOKEN_PY, snippet, filename="token.py").merged_code == expected


CACHE_PY = '''from tilelang.jit.adapter.kernel_cache import TVMFFIKernelCache

# Create a map of singleton instance of KernelCaches
_dispatch_map: dict[str, KernelCache] = {
    "tvm_ffi": TVMFFIKernelCache(),
    "torch": TorchKernelCache(),
}


def _resolve_cache_dispatch(target):
    return _dispatch_map[target]


def get_cache(target):
    return _resolve_cache_dispatch(target)
'''


def test_a_literal_assigned_after_a_closing_line_keeps_the_snippets_blank_line() -> None:
    # tilelang's `_ascend_dispatch_map: ... = {` one blank line under the `}` of the map above:
    # the file's two blank lines there set off the function below, not a new literal
    snippet = '''# ... existing code ...
    "torch": TorchKernelCache(),
}

_ascend_dispatch_map: dict[str, KernelCache] = {
    "tvm_ffi": AscendTVMFFIKernelCache(),
}


def _resolve_cache_dispatch(target):
# ... existing code ...
'''
    expected = CACHE_PY.replace('''}


def _resolve''', '''}

_ascend_dispatch_map: dict[str, KernelCache] = {
    "tvm_ffi": AscendTVMFFIKernelCache(),
}


def _resolve''')
    assert apply(CACHE_PY, snippet, filename="cache.py").merged_code == expected




ASGI_PY = '''class MCPSessionMiddleware:
    def __init__(self, app: Any, server: Any = None) -> None:
        self.app = app
        self._server: Optional[weakref.ReferenceType[Any]] = None
        if server is not None:
            try:
                self._server = weakref.ref(tracking_key(server))
            except TypeError as error:
                log(f"PostHog MCP session middleware: cannot bind server= - {error}")

    def _analytics(self) -> Optional[MCPAnalyticsData]:
        """The bound server's tracking state, when this middleware is the one that
        captures its handshakes: on mcp 2.x ``Server.middleware`` already does."""
        try:
            server = self._server() if self._server is not None else None
            data = get_server_tracking_data(server) if server is not None else None
        except TypeError:  # an unhashable server= can never be instrumented
            return None
        return None if data is None or data.handshake_observed_in_process else data

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        # Tell the in-process fallback that this request's handshake is captured
        # here. Two stacked middlewares see the same request; the outer one owns it.
        # The SSE transport stays unmarked: its session is in a query parameter, so
        # its first request captures the handshake, in the session its calls use.
        observer = None
        if HANDSHAKE_OBSERVER_KEY not in scope and not _is_sse(scope):
            observer = self._analytics()
            if observer is not None:
                scope[HANDSHAKE_OBSERVER_KEY] = observer

        try:
            incoming_header = read_mcp_session_header(_headers_dict(scope))
        except Exception as error:  # noqa: BLE001
            log(f"PostHog MCP session middleware: header read failed - {error}")
            await self.app(scope, receive, send)
            return

        # Decode a replayed token (if any) so the app can read it via get_mcp_session.
        decoded = decode_session_id(incoming_header)
        if decoded is not None:
            scope[_SCOPE_KEY] = decoded

        # Only POSTs carry JSON-RPC. Mint only when the client replayed no session
        # id at all -- if one is present (ours or a stateful transport's), leave it.
        # Such a request is not read, so an initialize that reuses a session id is
        # not captured here. Tool calls, which all carry one, stay unread.
        if scope.get("method") != "POST" or incoming_header is not None:
            await self.app(scope, receive, send)
            return

        # Guard the whole sniff+mint path: on any failure (a raising receive() or
        # adversarial body) the request passes through untouched, per the contract.
        token = None
        initialize = None
        try:
            body, receive = await _buffer_body(receive)
            initialize = _parse_initialize(body)
            if initialize is not None:
                token = _mint_token(initialize)
        except Exception as error:  # noqa: BLE001
            log(f"PostHog MCP session middleware: mint failed - {error}")

        if initialize is None:
            await self.app(scope, receive, send)
            return

        started = datetime.now(timezone.utc)
        if observer is not None:
            send = _InitializeResponse(
                send,
                functools.partial(
                    _record_initialize, observer, initialize, scope, started
                ),
            )
        if token is not None:
            scope[_SCOPE_KEY] = decode_session_id(token)
            send = _sending_session_header(send, token)

        await self.app(scope, receive, send)


def _is_sse(scope: Any) -> bool:
    """The deprecated SSE transport, which keys its session on ``?session_id=``."""
    try:
        query = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    except Exception:  # noqa: BLE001
        return False
    return "session_id" in query
'''


def test_context_above_a_block_moved_into_a_new_method_is_the_copy_right_above_it() -> None:
    # posthog moved the handshake `if` block (and its comments) out of `__call__` into a new
    # `_handshake_observer` method, called in its place under the `http` check's `await
    # self.app(...)` / `return`, lines the method has three times: the block, at the depth the
    # snippet writes its call, went whole, and the context is the copy right above it
    snippet = '''            # ... existing code ...
            await self.app(scope, receive, send)
            return
        observer = self._handshake_observer(scope)

        try:
            incoming_header = read_mcp_session_header(_headers_dict(scope))
        # ... existing code ...
        await self.app(scope, receive, send)

    def _handshake_observer(self, scope: Any) -> Optional[MCPAnalyticsData]:
        # Tell the in-process fallback that this request's handshake is captured
        # here. Two stacked middlewares see the same request; the outer one owns it.
        # The SSE transport stays unmarked: its session is in a query parameter, so
        # its first request captures the handshake, in the session its calls use.
        observer = None
        if HANDSHAKE_OBSERVER_KEY not in scope and not _is_sse(scope):
            observer = self._analytics()
            if observer is not None:
                scope[HANDSHAKE_OBSERVER_KEY] = observer

        return observer


def _is_sse(scope: Any) -> bool:
    # ... existing code ...
'''
    moved = ASGI_PY[ASGI_PY.index("        # Tell the in-process"):ASGI_PY.index("        try:\n            incoming_header")]
    helper = snippet[snippet.index("    def _handshake_observer"):snippet.index("\ndef _is_sse")]
    expected = ASGI_PY.replace(moved, "        observer = self._handshake_observer(scope)\n\n").replace(
        "        await self.app(scope, receive, send)\n\n\ndef _is_sse",
        "        await self.app(scope, receive, send)\n\n" + helper + "\ndef _is_sse")
    assert apply(ASGI_PY, snippet, filename="asgi.py").merged_code == expected
