"""Draw a new check batch: release pairs of packages picked at random from a candidate list, minus
every name a batch, `unfetchable.txt` or the pinned lists already use.

    python -m evals.draw crawl --out cands.txt pypi:sphinx pypi:jupyterlab npm:webpack npm:eslint
    python -m evals.draw draw --candidates cands.txt --seed 1801 --pypi 40 --npm 40 \\
        --out evals/llmgen/batches/tune-38.toml --title "tune-38 (eighteenth round)"
    FASTAPPLY_EVALS_CACHE=~/.cache/fa-tune-38 python -m evals.fetch --batch evals/llmgen/batches/tune-38.toml --prune

`crawl` writes candidates that are real, used packages rather than names one remembers: the
dependencies of the packages it starts from, breadth first, read from the registries' metadata
(PyPI's JSON API `requires_dist`, npm's `dependencies` of the latest release). `draw` samples the
candidates not used before and keeps, for each, the last two stable releases (PyPI: releases that
have a wheel, which `evals.fetch` reads; npm: versions without a pre-release tag), in version order.
A name whose registry has fewer than two such releases is skipped, and the draw goes on down the
shuffled list until it has the counts asked for.

Network: one metadata request per name read, each bounded by --timeout. Done by hand, with a
script outside the repository, in each round up to the seventeenth (whose script once took the
wrong column of unfetchable.txt as the names to leave out).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import urllib.request
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path

from packaging.version import InvalidVersion, Version

from evals.llmgen.packages import PACKAGES, RELEASE_PAIRS, load_batch

BATCHES = Path(__file__).resolve().parent / "llmgen" / "batches"
Meta = Callable[[str, str], dict | None]  # (registry, name) -> the registry's metadata, or None

_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def registry_meta(registry: str, name: str, timeout: float = 20.0) -> dict | None:
    """The registry's JSON metadata of a package, or None when it cannot be read."""
    url = f"https://pypi.org/pypi/{name}/json" if registry == "pypi" else f"https://registry.npmjs.org/{name}"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return json.load(response)
    except (OSError, ValueError):
        return None


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def used_names(batches: Path = BATCHES) -> set[tuple[str, str]]:
    """(registry, canonical name) of every batch entry, every unfetchable.txt line and the pinned lists."""
    used = {(p.registry, _canonical(p.name)) for p in (*PACKAGES, *RELEASE_PAIRS)}
    for path in batches.glob("*.toml"):
        packages, pairs = load_batch(path)
        used |= {(p.registry, _canonical(p.name)) for p in (*packages, *pairs)}
    listing = batches / "unfetchable.txt"
    if listing.exists():
        for line in listing.read_text(encoding="utf-8").splitlines():
            fields = line.split()
            if len(fields) == 2 and not line.startswith("#"):
                used.add((fields[0], _canonical(fields[1])))
    return used


def read_candidates(path: Path) -> list[tuple[str, str]]:
    """`registry name` lines (comments and blank lines skipped), in file order, without repeats."""
    seen: dict[tuple[str, str], None] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("#", 1)[0].split()
        if len(fields) == 2 and fields[0] in ("pypi", "npm"):
            seen[(fields[0], fields[1])] = None
    return list(seen)


def last_two_stable(registry: str, meta: dict) -> tuple[str, str] | None:
    """The last two stable releases in a registry's metadata, oldest first, or None.
    O(releases log releases)."""
    if registry == "pypi":
        texts = [text for text, files in meta.get("releases", {}).items()
                 if any(f.get("packagetype") == "bdist_wheel" and not f.get("yanked") for f in files)]
    else:
        texts = [text for text in meta.get("versions", {}) if "-" not in text and "+" not in text]
    found = []
    for text in texts:
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        if not version.is_prerelease and not version.is_devrelease:
            found.append((version, text))
    found.sort()
    return (found[-2][1], found[-1][1]) if len(found) >= 2 else None


def dependencies(registry: str, meta: dict) -> list[str]:
    """The names a package's latest release depends on (PyPI: requirements without an extra)."""
    if registry == "pypi":
        names = []
        for requirement in meta.get("info", {}).get("requires_dist") or []:
            if "extra ==" in requirement.replace('"', " ").replace("'", " "):
                continue
            match = _REQUIREMENT.match(requirement)
            if match:
                names.append(match.group(1))
        return names
    latest = meta.get("dist-tags", {}).get("latest")
    return list(meta.get("versions", {}).get(latest, {}).get("dependencies", {}) or {})


def crawl(starts: Iterable[tuple[str, str]], limit: int, meta: Meta) -> list[tuple[str, str]]:
    """Breadth first over dependencies from `starts`, up to `limit` names (the starts included).
    O(limit) metadata reads."""
    queue = deque(dict.fromkeys(starts))
    seen = set(queue)
    out: list[tuple[str, str]] = []
    while queue and len(out) < limit:
        registry, name = queue.popleft()
        data = meta(registry, name)
        if data is None:
            continue
        out.append((registry, name))
        for dep in dependencies(registry, data):
            key = (registry, dep)
            if key not in seen:
                seen.add(key)
                queue.append(key)
    return out


def draw(candidates: list[tuple[str, str]], used: set[tuple[str, str]], seed: int, counts: dict[str, int],
         meta: Meta) -> list[tuple[str, str, str, str]]:
    """(registry, name, old, new) for up to counts[registry] unused candidates of each registry, in
    the order of a seeded shuffle. O(candidates) metadata reads at most."""
    pool = [c for c in candidates if (c[0], _canonical(c[1])) not in used]
    random.Random(seed).shuffle(pool)
    taken = {registry: 0 for registry in counts}
    out = []
    for registry, name in pool:
        if taken.get(registry, 0) >= counts.get(registry, 0):
            continue
        data = meta(registry, name)
        pair = last_two_stable(registry, data) if data is not None else None
        if pair is not None:
            out.append((registry, name, *pair))
            taken[registry] += 1
    return out


def batch_text(title: str, note: str, pairs: list[tuple[str, str, str, str]]) -> str:
    head = [f"# {title}: PyPI and npm release pairs drawn at random by `python -m evals.draw`."]
    head += [f"# {line}" for line in note.splitlines() if line.strip()]
    body = [f'\n[[pair]]\nregistry = "{r}"\nname = "{n}"\nold = "{o}"\nnew = "{w}"\n' for r, n, o, w in pairs]
    return "\n".join(head) + "\n" + "".join(body)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.draw", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("crawl", help="write a candidate list from registry dependencies")
    c.add_argument("starts", nargs="+", metavar="REGISTRY:NAME", help="packages to start from, e.g. pypi:sphinx")
    c.add_argument("--out", type=Path, required=True, help="candidate list to write (`registry name` lines)")
    c.add_argument("--limit", type=int, default=600, help="most names to write (default 600)")
    d = commands.add_parser("draw", help="write a batch TOML of release pairs drawn from a candidate list")
    d.add_argument("--candidates", type=Path, required=True, action="append", help="candidate list (repeatable)")
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--pypi", type=int, default=40, help="PyPI pairs to draw (default 40)")
    d.add_argument("--npm", type=int, default=40, help="npm pairs to draw (default 40)")
    d.add_argument("--out", type=Path, required=True, help="batch TOML to write (refuses to overwrite)")
    d.add_argument("--title", required=True, help="first comment line, e.g. 'tune-38 (eighteenth round)'")
    d.add_argument("--note", default="", help="more comment lines for the file's head")
    for sub in (c, d):
        sub.add_argument("--timeout", type=float, default=20.0, help="seconds per metadata request")
    args = parser.parse_args(argv)

    def meta(registry: str, name: str) -> dict | None:
        return registry_meta(registry, name, args.timeout)

    if args.command == "crawl":
        starts = [tuple(s.split(":", 1)) for s in args.starts]
        if any(len(s) != 2 or s[0] not in ("pypi", "npm") for s in starts):
            parser.error("starts are REGISTRY:NAME with REGISTRY pypi or npm")
        names = crawl(starts, args.limit, meta)  # type: ignore[arg-type]
        args.out.write_text("".join(f"{r} {n}\n" for r, n in names), encoding="utf-8")
        print(f"wrote {len(names)} candidates to {args.out}")
        return 0
    if args.out.exists():
        parser.error(f"{args.out} exists: a drawn batch is never redrawn; pick another name")
    candidates = [c for path in args.candidates for c in read_candidates(path)]
    pairs = draw(candidates, used_names(), args.seed, {"pypi": args.pypi, "npm": args.npm}, meta)
    note = f"seed {args.seed}, {args.pypi} + {args.npm} asked, from {', '.join(p.name for p in args.candidates)}\n"
    args.out.write_text(batch_text(args.title, note + args.note, pairs), encoding="utf-8")
    print(f"wrote {len(pairs)} pairs to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
