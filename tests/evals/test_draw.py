"""evals.draw: the release pairs a draw picks, the names it leaves out, and a crawl's order, on
registry metadata written here (no network)."""

from __future__ import annotations

from pathlib import Path

from evals.draw import batch_text, crawl, dependencies, draw, last_two_stable, read_candidates, used_names
from evals.llmgen.packages import load_batch


def _pypi(*releases: tuple[str, bool], requires: list[str] | None = None) -> dict:
    return {"info": {"requires_dist": requires},
            "releases": {v: [{"packagetype": "bdist_wheel" if wheel else "sdist", "yanked": False}]
                         for v, wheel in releases}}


def _npm(times: dict[str, str], deps: dict[str, str] | None = None) -> dict:
    latest = max(times, key=times.get)  # type: ignore[arg-type]
    return {"dist-tags": {"latest": latest}, "time": {"created": "2000", **times},
            "versions": {v: ({"dependencies": deps} if v == latest else {}) for v in times}}


def test_pypi_pairs_are_the_last_two_stable_releases_with_a_wheel() -> None:
    meta = _pypi(("1.9.0", True), ("1.10.0", True), ("1.10.1", False), ("2.0.0rc1", True), ("1.2", True))
    assert last_two_stable("pypi", meta) == ("1.9.0", "1.10.0")  # (versions compare as versions)
    assert last_two_stable("pypi", _pypi(("1.0", True), ("1.1", False))) is None


def test_npm_pairs_are_the_last_two_stable_versions_in_version_order() -> None:
    meta = _npm({"1.0.0": "2020", "2.0.0-beta.1": "2021", "1.0.10": "2022", "1.0.9": "2023"})
    assert last_two_stable("npm", meta) == ("1.0.9", "1.0.10")  # (a backport published last is not the last)


def test_dependencies_skip_extras_and_read_the_latest_npm_release() -> None:
    meta = _pypi(("1.0", True), requires=["attrs>=20", "pytest ; extra == 'test'", "tomli; python_version<'3.11'"])
    assert dependencies("pypi", meta) == ["attrs", "tomli"]
    assert dependencies("npm", _npm({"1.0.0": "2020", "1.1.0": "2021"}, {"debug": "^4"})) == ["debug"]


def test_a_crawl_is_breadth_first_and_skips_what_the_registry_lacks() -> None:
    metas = {("pypi", "a"): _pypi(("1", True), requires=["b", "c"]), ("pypi", "b"): _pypi(("1", True), requires=["d"]),
             ("pypi", "c"): _pypi(("1", True)), ("pypi", "d"): _pypi(("1", True))}
    assert crawl([("pypi", "a"), ("pypi", "gone")], 10, lambda r, n: metas.get((r, n))) == \
        [("pypi", "a"), ("pypi", "b"), ("pypi", "c"), ("pypi", "d")]
    assert len(crawl([("pypi", "a")], 2, lambda r, n: metas.get((r, n)))) == 2


def test_a_draw_leaves_out_used_names_and_fills_each_count(tmp_path: Path) -> None:
    metas = {("pypi", f"p{i}"): _pypi(("1.0", True), ("1.1", True)) for i in range(6)}
    metas[("pypi", "p0")] = _pypi(("1.0", True))  # one release only: skipped, the draw goes on
    metas.update({("npm", f"n{i}"): _npm({"1.0.0": "2020", "1.0.1": "2021"}) for i in range(3)})
    candidates = [*metas, ("npm", "missing")]
    used = {("pypi", "p1"), ("npm", "n1")}
    pairs = draw(candidates, used, 7, {"pypi": 3, "npm": 5}, lambda r, n: metas.get((r, n)))
    names = [(r, n) for r, n, _, _ in pairs]
    assert len([r for r in names if r[0] == "pypi"]) == 3 and len([r for r in names if r[0] == "npm"]) == 2
    assert not set(names) & (used | {("pypi", "p0")})
    assert pairs == draw(candidates, used, 7, {"pypi": 3, "npm": 5}, lambda r, n: metas.get((r, n)))
    path = tmp_path / "tune-99.toml"
    path.write_text(batch_text("tune-99 (test)", "seed 7", pairs), encoding="utf-8")
    _, loaded = load_batch(path)
    assert [(p.registry, p.name, p.old, p.new) for p in loaded] == pairs


def test_used_names_read_every_batch_and_the_unfetchable_list() -> None:
    used = used_names()
    assert ("pypi", "contourpy") in used  # unfetchable.txt, tune-37
    assert ("pypi", "strictyaml") in used  # unfetchable.txt, check-11: the name, not the registry
    assert ("npm", "mimic-response") in used  # tune-37
    assert ("pypi", "pypi") not in used


def test_candidate_lists_keep_the_first_of_repeated_names(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    path.write_text("# crawl\npypi attrs\nnpm debug  # a note\npypi attrs\ndeb skipped\n\n", encoding="utf-8")
    assert read_candidates(path) == [("pypi", "attrs"), ("npm", "debug")]
