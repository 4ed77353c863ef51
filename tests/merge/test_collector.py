"""The garbage collector is paused during large merges only, and resumed as it was."""

from __future__ import annotations

import gc
import threading

import fastapply
from fastapply.merge import collector
from fastapply.merge.collector import PAUSE_MIN_CHARS, collector_paused


def test_small_input_leaves_the_collector_alone() -> None:
    assert gc.isenabled()
    with collector_paused(PAUSE_MIN_CHARS - 1):
        assert gc.isenabled()
    assert gc.isenabled()


def test_large_input_pauses_and_resumes() -> None:
    with collector_paused(PAUSE_MIN_CHARS):
        assert not gc.isenabled()
        with collector_paused(PAUSE_MIN_CHARS):  # nested (or a concurrent merge): still paused
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    assert collector._active == 0


def test_resumed_after_a_failure_and_kept_off_when_it_was_off() -> None:
    try:
        with collector_paused(PAUSE_MIN_CHARS):
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused(PAUSE_MIN_CHARS):
            assert not gc.isenabled()
        assert not gc.isenabled()  # the program turned it off: it stays off
    finally:
        gc.enable()


def test_concurrent_merges_resume_once_the_last_ends() -> None:
    inside, release = threading.Event(), threading.Event()

    def long_merge() -> None:
        with collector_paused(PAUSE_MIN_CHARS):
            inside.set()
            release.wait(10)

    thread = threading.Thread(target=long_merge)
    thread.start()
    try:
        assert inside.wait(10)
        with collector_paused(PAUSE_MIN_CHARS):
            assert not gc.isenabled()
        assert not gc.isenabled()  # the other merge still runs
    finally:
        release.set()
        thread.join(10)
    assert gc.isenabled()


def test_a_large_merge_runs_paused_and_leaves_the_collector_on(monkeypatch) -> None:
    import fastapply.merge as merge

    seen: list[bool] = []
    real = merge.plan_merge

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(merge, "plan_merge", spy)
    snippet = "// ... existing code ...\nfunction f5() {\n  return 55;\n}\n// ... existing code ...\n"
    small = "".join(f"function f{i}() {{\n  return {i};\n}}\n\n" for i in range(20))
    large = "".join(f"function f{i}() {{\n  return {i};\n}}\n\n" for i in range(12_000))
    assert len(large) >= PAUSE_MIN_CHARS
    for original in (small, large):
        assert "return 55;" in fastapply.apply(original, snippet, filename="a.js").merged_code
    assert seen == [True, False]  # paused for the large file only
    assert gc.isenabled()
