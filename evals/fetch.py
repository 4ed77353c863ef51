"""Download the pinned packages the `--style llm` generator reads, into a cache outside the repo.

    python -m evals.fetch                 # dev packages and release pairs
    python -m evals.fetch --split heldout2  # the held-out ones (for the final, untuned run)
    python -m evals.fetch --split heldout   # the older held-out split
    python -m evals.fetch --split all
    FASTAPPLY_EVALS_CACHE=~/.cache/fastapply-check python -m evals.fetch --batch evals/llmgen/batches/check-3.toml

Registries: npm (`npm pack NAME@VERSION`), Debian (`apt-get download NAME=VERSION`, unpacked with
`dpkg-deb -x`; run `apt-get update` once first), PyPI (`pip download --no-binary :all: NAME==VERSION`,
sdists). The cache is $FASTAPPLY_EVALS_CACHE (default ~/.cache/fastapply-evals): archives in
`downloads/`, unpacked sources in `src/<split>/<registry>-<name>-<version>/`, release pairs in
`evolution/<split>/<registry>-<name>/{old,new}/`. A package already unpacked is not fetched again; a
package that fails (offline, version gone) is reported and skipped, and the exit status is 1.
Nothing is stored in the repository. Cost: one download per package, each bounded by --timeout.
`--batch` fetches a check batch (a TOML list of other packages and release pairs) as the dev split
of the cache it is given: more data of the same kind, to tune on or to keep aside. With `--prune`, the
entries of the batch that could not be fetched are dropped from its file and listed in
`unfetchable.txt` (evals/llmgen/batchfile.py), and the exit status is 0 once they are.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import subprocess
import tarfile
import tempfile
import zipfile
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .llmgen.batchfile import note_unfetchable, prune_batch
from .llmgen.packages import PACKAGES, RELEASE_PAIRS, Package, ReleasePair, folder_name, load_batch
from .llmgen.sources import cache_dir
from .llmgen.splits import SPLITS


class FetchError(Exception):
    """A package could not be downloaded or unpacked; the message says which and why."""


def _run(command: list[str], cwd: Path, timeout: float) -> None:
    """Run a command in its own process group; kill the group on timeout."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True, text=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise FetchError(f"{' '.join(command)}: no answer within {timeout:g} s") from None
    if process.returncode != 0:
        tail = " ".join(output.strip().splitlines()[-2:])
        raise FetchError(f"{' '.join(command)} failed ({process.returncode}): {tail}")


def download(registry: str, name: str, version: str, timeout: float) -> Path:
    """The downloaded archive (cached in downloads/<registry>/)."""
    folder = cache_dir() / "downloads" / registry / folder_name(registry, name, version)
    if folder.is_dir() and any(folder.iterdir()):
        return next(folder.iterdir())
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        where = Path(tmp)
        if registry == "npm":
            _run(["npm", "pack", f"{name}@{version}", "--silent"], where, timeout)
        elif registry == "deb":
            _run(["apt-get", "download", "-q", f"{name}={version}"], where, timeout)
        elif registry == "pypi":  # the sdist: C, Cython and Rust sources live only there
            _run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                  "--no-build-isolation", "-q", "-d", ".", f"{name}=={version}"], where, timeout)
        elif registry == "pypi-wheel":  # Python sources, without building anything
            _run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
                  "-q", "-d", ".", f"{name}=={version}"], where, timeout)
        else:
            raise FetchError(f"unknown registry {registry!r}")
        files = [p for p in where.iterdir() if p.is_file()]
        if len(files) != 1:
            raise FetchError(f"{registry} {name} {version}: expected one archive, got {len(files)}")
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / files[0].name
        shutil.move(files[0], target)
    return target


def unpack(archive: Path, target: Path, timeout: float) -> None:
    tmp = target.with_name(target.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        if archive.suffix == ".deb":
            _run(["dpkg-deb", "-x", str(archive), str(tmp)], tmp, timeout)
        elif archive.suffix in (".zip", ".whl"):
            with zipfile.ZipFile(archive) as handle:
                handle.extractall(tmp)
        else:
            with tarfile.open(archive) as handle:
                handle.extractall(tmp, filter="data")
    except (OSError, tarfile.TarError, zipfile.BadZipFile) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise FetchError(f"cannot unpack {archive.name}: {exc}") from exc
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)


def fetch_package(registry: str, name: str, version: str, target: Path, timeout: float) -> bool:
    """Unpack one package into `target`; False when it was already there."""
    if target.is_dir():
        return False
    archive = download(registry, name, version, timeout)
    target.parent.mkdir(parents=True, exist_ok=True)
    unpack(archive, target, timeout)
    return True


def jobs(split: str,
         batch: tuple[list[Package], list[ReleasePair]] | None = None) -> list[tuple[str, str, str, Path]]:
    """What to fetch: the pinned packages and pairs of `split`, or those of a check batch."""
    root = cache_dir()
    out = []
    packages, pairs = batch if batch is not None else (PACKAGES, RELEASE_PAIRS)
    for p in packages:
        if split in ("all", p.split):
            out.append((p.registry, p.name, p.version, root / "src" / p.split /
                        folder_name(p.registry, p.name, p.version)))
    for pair in pairs:
        if split in ("all", pair.split):
            base = root / "evolution" / pair.split / folder_name(pair.registry, pair.name, "pair")
            registry = "pypi-wheel" if pair.registry == "pypi" else pair.registry
            out.append((registry, pair.name, pair.old, base / "old"))
            out.append((registry, pair.name, pair.new, base / "new"))
    return out


def missing(split: str) -> list[str]:
    """The packages and release halves of `split` that are not in the cache yet."""
    return [f"{registry} {name} {version}" for registry, name, version, target in jobs(split)
            if not target.is_dir()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.fetch", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="dev")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per download (default 180)")
    parser.add_argument("--batch", type=Path, metavar="TOML",
                        help="fetch a check batch (evals/llmgen/batches/*.toml) as the dev split, instead of "
                             "the pinned packages; give it a cache of its own (FASTAPPLY_EVALS_CACHE)")
    parser.add_argument("--prune", action="store_true",
                        help="with --batch: drop from the batch file the entries that could not be fetched and "
                             "list their names in unfetchable.txt next to it (a batch keeps only what was fetched)")
    args = parser.parse_args(argv)
    if args.prune and args.batch is None:
        parser.error("--prune needs --batch: it edits a batch file")
    console = Console(stderr=True)
    cache_dir().mkdir(parents=True, exist_ok=True)
    todo = jobs(args.split, load_batch(args.batch) if args.batch is not None else None)
    failed = []
    unfetched: set[tuple[str, str]] = set()
    columns = (TextColumn("[bold]fetch"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))
    with Progress(*columns, console=console, disable=not console.is_terminal) as bar:
        task = bar.add_task("", total=len(todo))
        for registry, name, version, target in todo:
            bar.update(task, description=f"{registry} {name} {version}")
            try:
                fetch_package(registry, name, version, target, args.timeout)
            except FetchError as exc:
                failed.append(str(exc))
                unfetched.add(("pypi" if registry == "pypi-wheel" else registry, name))
                console.print(f"[yellow]skipped[/] {registry} {name} {version}: {exc}")
            bar.advance(task)
    console.print(f"{len(todo) - len(failed)} of {len(todo)} packages in {cache_dir()}")
    if args.prune and unfetched:
        removed = prune_batch(args.batch, unfetched)
        note_unfetchable(args.batch.parent / "unfetchable.txt", args.batch.stem, removed)
        console.print(f"pruned from {args.batch.name} (listed in unfetchable.txt): "
                      + ", ".join(f"{registry} {name}" for registry, name in removed))
        return 0 if removed else 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
