"""Check batches (evals/llmgen/batches/): the TOML lists load, and `evals.fetch --batch` plans
exactly their packages and release halves, into the dev split of the cache it is given."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.fetch import jobs
from evals.llmgen.packages import PACKAGES, RELEASE_PAIRS, load_batch

BATCHES = Path(__file__).resolve().parents[2] / "evals" / "llmgen" / "batches"


def test_every_shipped_batch_loads_and_holds_no_pinned_entry() -> None:
    pinned = {(p.registry, p.name) for p in PACKAGES} | {(p.registry, p.name) for p in RELEASE_PAIRS}
    files = sorted(BATCHES.glob("*.toml"))
    assert {f.name.split("-")[0] for f in files} == {"check", "tune"}
    for path in files:
        packages, pairs = load_batch(path)
        assert packages or pairs
        assert all(entry.split == "dev" for entry in (*packages, *pairs))
        # a batch adds data: nothing of the pinned dev or held-out lists
        assert not {(p.registry, p.name) for p in (*packages, *pairs)} & pinned, path.name


def test_no_two_batches_share_a_package() -> None:
    """A kept-aside batch must not hold what a tuned one does (check-9 first drew eight of
    tune-21's and tune-23's release pairs): each name is in one batch file only."""
    seen: dict[tuple[str, str], str] = {}
    for path in sorted(BATCHES.glob("*.toml")):
        packages, pairs = load_batch(path)
        for entry in (*packages, *pairs):
            key = (entry.registry, entry.name)
            assert seen.setdefault(key, path.name) == path.name, f"{key} in {seen[key]} and {path.name}"


def test_no_batch_holds_a_name_known_to_be_unfetchable() -> None:
    """unfetchable.txt lists what earlier draws could not fetch, for the next draw to leave out;
    a batch file keeps only pairs that were fetched."""
    listed = {tuple(line.split()) for line in (BATCHES / "unfetchable.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    assert listed and all(len(entry) == 2 for entry in listed)
    for path in sorted(BATCHES.glob("*.toml")):
        packages, pairs = load_batch(path)
        assert not {(p.registry, p.name) for p in (*packages, *pairs)} & listed, path.name


def test_fetch_plans_a_batch_into_the_caches_dev_split(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FASTAPPLY_EVALS_CACHE", str(tmp_path))
    batch = tmp_path / "b.toml"
    batch.write_text('[[package]]\nregistry = "npm"\nname = "clsx"\nversion = "2.1.1"\n\n'
                     '[[pair]]\nregistry = "pypi"\nname = "tomli"\nold = "2.0.1"\nnew = "2.0.2"\n')
    planned = jobs("dev", load_batch(batch))
    assert [(r, n, v) for r, n, v, _ in planned] == [
        ("npm", "clsx", "2.1.1"), ("pypi-wheel", "tomli", "2.0.1"), ("pypi-wheel", "tomli", "2.0.2")]
    assert planned[0][3] == tmp_path / "src" / "dev" / "npm-clsx-2.1.1"
    assert planned[2][3] == tmp_path / "evolution" / "dev" / "pypi-tomli-pair" / "new"
    batch.write_text('[[package]]\nregistry = "cran"\nname = "x"\nversion = "1"\n')
    with pytest.raises(ValueError, match="unknown registry"):
        load_batch(batch)


def test_prune_drops_what_could_not_be_fetched_and_lists_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--prune` keeps a batch file to what was fetched: a pair one of whose halves failed goes, its
    name is listed in unfetchable.txt under the batch's name, the rest of the file stays as it was."""
    import evals.fetch as fetch

    monkeypatch.setenv("FASTAPPLY_EVALS_CACHE", str(tmp_path / "cache"))
    batch = tmp_path / "tune-99.toml"
    text = ('# tune-99: a test batch\n\n'
            '[[pair]]\nregistry = "pypi"\nname = "tomli"\nold = "2.0.1"\nnew = "2.0.2"\n\n'
            '[[pair]]\nregistry = "pypi"\nname = "networkx"\nold = "3.6.1"\nnew = "3.7"\n\n'
            '[[package]]\nregistry = "npm"\nname = "clsx"\nversion = "2.1.1"\n')
    batch.write_text(text)
    (tmp_path / "unfetchable.txt").write_text("# earlier\npypi strictyaml\n")

    def fake_fetch(registry: str, name: str, version: str, target: Path, timeout: float) -> bool:
        if name == "networkx" and version == "3.7":
            raise fetch.FetchError("no wheel for this Python")
        target.mkdir(parents=True, exist_ok=True)
        return True

    monkeypatch.setattr(fetch, "fetch_package", fake_fetch)
    assert fetch.main(["--batch", str(batch), "--prune"]) == 0
    assert batch.read_text() == text.replace(
        '[[pair]]\nregistry = "pypi"\nname = "networkx"\nold = "3.6.1"\nnew = "3.7"\n\n', "")
    assert (tmp_path / "unfetchable.txt").read_text() == "# earlier\npypi strictyaml\n# tune-99\npypi networkx\n"
    packages, pairs = load_batch(batch)
    assert [p.name for p in pairs] == ["tomli"] and [p.name for p in packages] == ["clsx"]
    # nothing failed the second time: the file is left alone
    assert fetch.main(["--batch", str(batch), "--prune"]) == 0
    assert "networkx" not in batch.read_text()


def test_prune_needs_a_batch() -> None:
    import evals.fetch as fetch

    with pytest.raises(SystemExit):
        fetch.main(["--prune"])
