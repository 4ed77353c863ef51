"""A folder swapped for a symlink to outside the root while batches write into it: nothing escapes."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import fastapply
from fastapply.formats.journal import JOURNAL, locked_root


def _remove_tree(path: Path) -> None:
    """A batch may write into `path` while it is being removed: retry (bounded) until it is gone."""
    for _ in range(200):
        try:
            shutil.rmtree(path)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.001)
    raise AssertionError(f"could not remove {path}")


def _retry(step, blocker: Path) -> None:
    """Run `step`; when a batch made a new `sub` folder in that instant, remove it and try again."""
    for _ in range(200):
        try:
            step()
            return
        except OSError:
            _remove_tree(blocker)
    raise AssertionError(f"{blocker} kept coming back")


def test_batches_racing_a_symlink_swap_never_write_outside(tmp_path: Path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "sub" / "x.py").write_text("x = 1\n")
    (outside / "x.py").write_text("x = 1\n")
    before = {p.name: (p.read_bytes(), p.stat().st_ino) for p in outside.iterdir()}
    stop = threading.Event()
    swaps = 0
    failures: list[BaseException] = []

    def swapper() -> None:
        # root/sub is the real folder, then a symlink to `outside`, then the real folder again ...
        nonlocal swaps
        try:
            _swap_until_stopped()
        except BaseException as exc:  # a dead swapper would silently end the race: fail the test instead
            failures.append(exc)

    def _swap_until_stopped() -> None:
        nonlocal swaps
        while not stop.is_set():
            os.rename(root / "sub", root / "saved")
            _retry(lambda: os.symlink(outside, root / "sub"), root / "sub")
            os.unlink(root / "sub")
            _retry(lambda: os.rename(root / "saved", root / "sub"), root / "sub")
            swaps += 1
            time.sleep(0.002)  # leave windows in which whole batches get through, too

    thread = threading.Thread(target=swapper)
    thread.start()
    outcomes: dict[str, int] = {}
    try:
        for i in range(150):
            value = i % 2 + 1
            patch = (f"*** Begin Patch\n*** Update File: sub/x.py\n@@\n-x = {value}\n+x = {3 - value}\n"
                     f"*** Add File: sub/new{i}.py\n+created = {i}\n*** End Patch\n")
            try:
                result = fastapply.apply_batch(patch, root=root)
                key = "written" if result.written else (result.files[0].error.code if result.files[0].error
                                                        else "unchanged")
            except fastapply.ApplyError as exc:
                key = exc.code
            except FileNotFoundError:
                key = "vanished"  # the folder was renamed away at that instant: nothing written
            outcomes[key] = outcomes.get(key, 0) + 1
    finally:
        stop.set()
        thread.join()
    assert not failures, f"the swapper thread failed: {failures[0]!r}"
    after = {p.name: (p.read_bytes(), p.stat().st_ino) for p in outside.iterdir()}
    print(f"{swaps} swaps, outcomes {outcomes}")
    assert after == before, f"escaped: {sorted(set(after) - set(before))} after {swaps} swaps, {outcomes}"
    assert swaps > 10 and sum(outcomes.values()) == 150  # the race did run, during every batch
    # a batch interrupted by a refusal in the middle of its rollback left its journal: the next one
    # (or --recover) finishes the job once the folder stays put
    with locked_root(root):
        pass
    final = fastapply.apply_batch("*** Begin Patch\n*** Add File: sub/after.py\n+done = 1\n*** End Patch\n", root=root)
    assert final.written and (root / "sub" / "after.py").read_text() == "done = 1\n"
    # the user's file survived every rolled-back batch (a rollback once took it for one the batch made)
    assert (root / "sub" / "x.py").read_text() in ("x = 1\n", "x = 2\n")
    assert not (root / JOURNAL).exists()
    # (temporary files of a batch whose folder was moved away under it may stay behind: inside the root)
    assert all(root in p.parents for p in tmp_path.rglob(".fastapply-*"))
