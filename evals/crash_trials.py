"""Crash safety of multi-file batches, measured: after a crash at any point and a recovery, the tree
is byte for byte all old or all new, with no temporary file left.

    python -m evals.crash_trials                      # every fault point (crash and EIO), 200 kills
    python -m evals.crash_trials --kills 500 --seed 7 # more random kill -9 trials
    python -m evals.crash_trials --sweep-only

The batch (a V4A patch) changes, creates (some in new folders) and deletes files of a 50-file tree.
Sweep: the writer is made to crash (SIGKILL, in a forked child) or raise EIO / ENOSPC at its k-th
filesystem operation, for every k from 1 to the last (FASTAPPLY_FAULT, fastapply.formats.safe_fs);
then a recovery runs and the tree is compared with the old and the new one. Kills: the batch runs in
a fresh interpreter that is killed with SIGKILL after a random delay within the batch's own
duration (seeded); then `fastapply patch --recover` runs and the tree is compared.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

FILES = 50


def build_tree(root: Path, size: int = 2000) -> str:
    """Write the old tree under `root` and return a V4A patch that changes 20 files, deletes 15 and
    creates 15 (5 of them in folders that do not exist yet)."""
    root.mkdir(parents=True, exist_ok=True)
    patch = ["*** Begin Patch"]
    for i in range(FILES - 15):
        folder = root / f"pkg{i % 4}"
        folder.mkdir(exist_ok=True)
        body = "".join(f"value_{i}_{j} = {j}\n" for j in range(max(3, size // 16)))
        (folder / f"mod{i}.py").write_text(f"# module {i}\n{body}")
        if i < 20:
            patch += [f"*** Update File: pkg{i % 4}/mod{i}.py", "@@", f"-value_{i}_1 = 1", f"+value_{i}_1 = 'new {i}'"]
        elif i < 35:
            patch += [f"*** Delete File: pkg{i % 4}/mod{i}.py"]
    for i in range(15):
        where = f"fresh{i % 5}/deep" if i < 5 else f"pkg{i % 4}"
        patch += [f"*** Add File: {where}/new{i}.py", f"+# new file {i}", f"+created = {i}"]
    patch.append("*** End Patch")
    return "\n".join(patch) + "\n"


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under root, hidden ones included."""
    out: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        out[rel] = None if path.is_dir() and not path.is_symlink() else path.read_bytes()
    return out


def prepare(base: Path) -> tuple[str, dict[str, bytes | None], dict[str, bytes | None]]:
    """The patch, the old tree and the new tree (the batch applied once without faults)."""
    import fastapply

    old_root, new_root = base / "old", base / "new"
    patch = build_tree(old_root)
    shutil.copytree(old_root, new_root, symlinks=True)
    result = fastapply.apply_batch(patch, root=new_root, atomic=True)
    if not result.ok:
        raise RuntimeError(f"the trial batch itself fails: {result.files}")
    return patch, snapshot(old_root), snapshot(new_root)


def verdict(root: Path, old: dict[str, bytes | None], new: dict[str, bytes | None]) -> str:
    now = snapshot(root)
    if now == old:
        return "old"
    if now == new:
        return "new"
    return "mixed"


def recover(root: Path) -> None:
    from fastapply.formats.journal import locked_root

    with locked_root(root):
        pass


def fault_once(base: Path, patch: str, kind: str, k: int) -> tuple[Path, bool]:
    """Run the batch on a fresh copy of the old tree with a fault at operation k; True when the fault
    was reached (k not past the last operation)."""
    from fastapply.formats import safe_fs

    root = base / f"t-{kind}-{k}"
    shutil.copytree(base / "old", root, symlinks=True)
    if kind == "crash":
        pid = os.fork()
        if pid == 0:  # the child: crashes itself at operation k (or finishes)
            safe_fs.inject("crash", k)
            try:
                import fastapply

                fastapply.apply_batch(patch, root=root, atomic=True)
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        reached = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    else:
        import fastapply

        safe_fs.inject(kind, k)
        try:
            result = fastapply.apply_batch(patch, root=root, atomic=True)
            if not result.ok:
                raise RuntimeError(result.files)
        except fastapply.ApplyError as exc:
            if exc.code != "io_error":
                raise
        finally:
            # the fault fired (an error after the last rename is absorbed: the batch is complete)
            reached = safe_fs.FAULTS.count >= k
            safe_fs.inject("", 0)
    return root, reached


def sweep(base: Path, kinds: tuple[str, ...] = ("crash", "oserror", "enospc"),
          step: int = 1) -> dict[str, dict[str, int]]:
    """Every `step`-th fault point for each kind (1: all): trees found old / new / mixed after recovery."""
    patch, old, new = prepare(base)
    counts: dict[str, dict[str, int]] = {}
    for kind in kinds:
        tally = {"old": 0, "new": 0, "mixed": 0, "points": 0}
        k = 1
        while True:
            root, reached = fault_once(base, patch, kind, k)
            recover(root)
            tally[verdict(root, old, new)] += 1
            shutil.rmtree(root)
            if not reached:
                break  # k is past the last operation: the batch completed
            tally["points"] += 1
            k += step
        counts[kind] = tally
    return counts


_CHILD = """
import sys, fastapply
patch = open(sys.argv[2]).read()
print("ready", flush=True)
sys.stdin.readline()
fastapply.apply_batch(patch, root=sys.argv[1], atomic=True)
print("done", flush=True)
"""


def kill_trials(base: Path, trials: int, seed: int, progress=None) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """Random SIGKILLs during real batches in fresh interpreters, each followed by `--recover`."""
    patch, old, new = prepare(base)
    patch_file = base / "patch.txt"
    patch_file.write_text(patch)
    rng = random.Random(seed)
    duration = _timed_batch(base, patch_file)
    tally = {"old": 0, "new": 0, "mixed": 0}
    for trial in range(trials):
        root = base / f"k{trial}"
        shutil.copytree(base / "old", root, symlinks=True)
        child = subprocess.Popen([sys.executable, "-c", _CHILD, str(root), str(patch_file)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True, start_new_session=True)
        try:
            assert child.stdout is not None and child.stdin is not None
            child.stdout.readline()  # imported: the batch starts on the next line we send
            child.stdin.write("go\n")
            child.stdin.flush()
            time.sleep(rng.uniform(0, duration * 1.1))
            os.killpg(child.pid, signal.SIGKILL)
        finally:
            if child.poll() is None:
                os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        subprocess.run([sys.executable, "-m", "fastapply", "patch", "--recover", "--root", str(root)],
                       check=True, capture_output=True)
        tally[verdict(root, old, new)] += 1
        shutil.rmtree(root)
        if progress:
            progress()
    return tally


def _timed_batch(base: Path, patch_file: Path) -> float:
    root = base / "timing"
    shutil.copytree(base / "old", root, symlinks=True)
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(root), str(patch_file)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdin is not None
    child.stdout.readline()
    started = time.perf_counter()
    child.stdin.write("go\n")
    child.stdin.flush()
    child.stdout.readline()
    duration = time.perf_counter() - started
    child.wait()
    shutil.rmtree(root)
    return duration


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.crash_trials", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=200, help="random kill -9 trials (default 200)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--sweep-only", action="store_true")
    parser.add_argument("--kills-only", action="store_true")
    parser.add_argument("--disk", action="store_true", help="use the system temp folder, not /dev/shm")
    args = parser.parse_args(argv)
    import tempfile

    from rich.progress import Progress

    mixed = 0
    # A kill -9 loses nothing that was written (only a power cut would): tmpfs keeps the many fsyncs
    # of the ~1000 trials fast without changing what is tested.
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and not args.disk else None
    with tempfile.TemporaryDirectory(prefix="fastapply-crash-", dir=shm) as tmp:
        if not args.kills_only:
            started = time.perf_counter()
            counts = sweep(Path(tmp) / "sweep")
            for kind, tally in counts.items():
                print(f"sweep {kind:8} fault points {tally['points']:4}  trees old {tally['old']:4}  "
                      f"new {tally['new']:4}  mixed {tally['mixed']}")
                mixed += tally["mixed"]
            print(f"sweep took {time.perf_counter() - started:.1f} s")
        if not args.sweep_only:
            with Progress(transient=True) as bar:
                task = bar.add_task("kill -9 trials", total=args.kills)
                tally = kill_trials(Path(tmp) / "kills", args.kills, args.seed, lambda: bar.advance(task))
            print(f"kill -9 trials {args.kills} (seed {args.seed})  trees old {tally['old']}  new {tally['new']}  "
                  f"mixed {tally['mixed']}")
            mixed += tally["mixed"]
    print("mixed trees:", mixed)
    return 1 if mixed else 0


if __name__ == "__main__":
    sys.exit(main())
