"""Hostile input for every entry point, for a set time: crashes and slow inputs are findings.

    python -m evals.fuzz --seconds 120                  # hypothesis over the library entry points
    python -m evals.fuzz --engine atheris --seconds 120 # coverage-guided (pip install .[fuzz])
    python -m evals.fuzz --engine http --seconds 60     # request bodies against `fastapply serve`

Entry points: fastapply.apply, apply_udiff, apply_search_replace, apply_v4a, apply_replacements,
detect_formats (and apply_batch over a mapping). Inputs start from the real files of evals/data:
slices of them, edited lines, markers in odd places, diffs and blocks built from them then garbled,
and plain random text. A call must return or raise ApplyError; anything else is a crash, and a call
slower than --slow-s is a slow input. Findings go to --out (one JSON file each: entry point, inputs,
what happened) and become regression tests (tests/test_fuzz_regressions.py reads
tests/fuzz_regressions/). The http engine posts random bytes and JSON to every POST route of a real
server on loopback and expects never a 5xx and always the JSON error shape.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
TARGETS = ("apply", "apply_udiff", "apply_search_replace", "apply_v4a", "apply_replacements", "detect_formats",
           "apply_batch")


def corpus(limit: int = 60) -> list[str]:
    files = sorted(DATA.glob("*/*/original.*"))[:limit]
    return [f.read_text(errors="replace") for f in files] or ["def f():\n    return 1\n"]


def call(target: str, original: str, edit: Any) -> str:
    """Run one entry point; 'ok', the ApplyError code, or raises for anything else."""
    import fastapply

    try:
        if target == "detect_formats":
            fastapply.detect_formats(edit if isinstance(edit, str) else str(edit))
        elif target == "apply_batch":
            fastapply.apply_batch(edit, files={"a.py": original, "b/c.js": original[::-1]})
        elif target == "apply":
            fastapply.apply(original, edit, filename="a.py")
        else:
            getattr(fastapply, target)(original, edit)
        return "ok"
    except fastapply.ApplyError as exc:
        return exc.code


class Findings:
    def __init__(self, out: Path, slow_s: float) -> None:
        self.out, self.slow_s = out, slow_s
        self.calls = 0
        self.slowest = (0.0, "")
        self.found: list[Path] = []

    def run(self, target: str, original: str, edit: Any) -> None:
        self.calls += 1
        started = time.perf_counter()
        try:
            outcome = call(target, original, edit)
        except Exception as exc:  # noqa: BLE001 - the finding itself
            self._save("crash", target, original, edit, f"{type(exc).__name__}: {exc}"[:500])
            return
        took = time.perf_counter() - started
        if took > self.slowest[0]:
            self.slowest = (took, target)
        if took > self.slow_s:
            self._save("slow", target, original, edit, f"{took:.2f} s ({outcome})")

    def _save(self, kind: str, target: str, original: str, edit: Any, what: str) -> None:
        record = {"kind": kind, "target": target, "original": original, "edit": edit, "what": what}
        blob = json.dumps(record, sort_keys=True)
        path = self.out / f"{kind}-{target}-{hashlib.sha1(blob.encode()).hexdigest()[:10]}.json"
        if not path.exists():
            self.out.mkdir(parents=True, exist_ok=True)
            path.write_text(blob)
            self.found.append(path)
            print(f"FINDING {kind} in {target}: {what}", file=sys.stderr)


# -- hypothesis -------------------------------------------------------------------------------------

def cases() -> Any:
    """A hypothesis strategy of (entry point, original, edit) built from the real files of evals/data."""
    from hypothesis import strategies as st

    texts = corpus()
    markers = ["// ... existing code ...", "# ... existing code ...", "...", "// ...", "<<<<<<< SEARCH",
               "=======", ">>>>>>> REPLACE", "@@ -1,3 +1,3 @@", "--- a/a.py", "+++ b/a.py", "*** Begin Patch",
               "*** Update File: a.py", "*** End Patch", "@@", "", "}", "end", "\t", "\r", "\x00", "\ufeff"]
    noise = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40)

    @st.composite
    def inputs(draw: Any) -> tuple[str, str, Any]:
        target = draw(st.sampled_from(TARGETS))
        original = draw(st.sampled_from(texts))
        lines = original.split("\n")
        a = draw(st.integers(0, len(lines)))
        b = draw(st.integers(a, min(len(lines), a + 60)))
        piece = lines[a:b]
        for _ in range(draw(st.integers(0, 6))):  # edits: replace, insert, duplicate, delete lines
            at = draw(st.integers(0, len(piece)))
            kind = draw(st.sampled_from(["marker", "noise", "dup", "del", "indent"]))
            if kind == "marker":
                piece.insert(at, draw(st.sampled_from(markers)))
            elif kind == "noise":
                piece.insert(at, draw(noise))
            elif kind == "dup" and piece:
                piece.insert(at, piece[min(at, len(piece) - 1)])
            elif kind == "del" and piece:
                del piece[min(at, len(piece) - 1)]
            elif piece:
                piece[min(at, len(piece) - 1)] = "    " + piece[min(at, len(piece) - 1)]
        text = "\n".join(piece)
        if draw(st.booleans()):
            original = "\n".join(lines[: draw(st.integers(0, len(lines)))]) + draw(st.sampled_from(["", "\n", "\r\n"]))
        if target == "apply_udiff":
            from fastapply.text import unified_diff

            edit: Any = unified_diff(original, "\n".join(lines[:a] + piece + lines[b:]), "a.py")
            edit = _garble(draw, edit, markers, noise)
        elif target in ("apply_search_replace", "apply_batch"):
            edit = f"a.py\n<<<<<<< SEARCH\n{chr(10).join(lines[a:b])}\n=======\n{text}\n>>>>>>> REPLACE\n"
            edit = _garble(draw, edit, markers, noise)
        elif target == "apply_v4a":
            body = "\n".join([" " + x for x in lines[a:a + 3]] + ["-" + x for x in lines[a + 3:b]] +
                             ["+" + x for x in piece])
            edit = _garble(draw, f"*** Begin Patch\n*** Update File: a.py\n@@\n{body}\n*** End Patch\n", markers, noise)
        elif target == "apply_replacements":
            edit = [{"old": "\n".join(lines[a:b]), "new": text, "replace_all": draw(st.booleans())},
                    {draw(st.sampled_from(["old", "old_string", "search", "x"])): draw(noise), "new": draw(noise)}]
        elif target == "detect_formats":
            edit = _garble(draw, text, markers, noise)
        else:
            edit = text
        return target, original, edit

    return inputs()


def hypothesis_run(findings: Findings, seconds: float, tick: Callable[[], None]) -> None:
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=200, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(cases())
    def one(case: tuple[str, str, Any]) -> None:
        findings.run(*case)
        tick()

    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        one()


def _garble(draw: Any, text: str, markers: list[str], noise: Any) -> str:
    from hypothesis import strategies as st

    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines)))
        lines.insert(at, draw(st.sampled_from(markers)) if draw(st.booleans()) else draw(noise))
    return "\n".join(lines)


# -- atheris ----------------------------------------------------------------------------------------

def atheris_main() -> None:  # runs in its own process: atheris takes over sys.argv and never returns
    import atheris

    with atheris.instrument_imports():
        import fastapply
        import fastapply.formats.batch  # noqa: F401 - instrument the lazily imported modules too
        import fastapply.formats.detect  # noqa: F401
        import fastapply.merge  # noqa: F401
    texts = corpus(20)

    def one(data: bytes) -> None:
        fdp = atheris.FuzzedDataProvider(data)
        target = TARGETS[fdp.ConsumeIntInRange(0, len(TARGETS) - 1)]
        base = texts[fdp.ConsumeIntInRange(0, len(texts) - 1)]
        original = base[: fdp.ConsumeIntInRange(0, len(base))] if fdp.ConsumeBool() else fdp.ConsumeUnicodeNoSurrogates(400)
        edit: Any = fdp.ConsumeUnicodeNoSurrogates(600)
        if target == "apply_replacements":
            edit = [{"old": edit, "new": fdp.ConsumeUnicodeNoSurrogates(50)}]
        try:
            call(target, original, edit)
        except fastapply.ApplyError:
            pass

    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


# -- http -------------------------------------------------------------------------------------------

def http_run(findings: Findings, seconds: float, tick: Callable[[], None]) -> None:
    import httpx
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from .abuse import Server

    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
        lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
            st.sampled_from(["initial_code", "edit_snippet", "editSnippet", "code", "update", "messages", "items",
                             "model", "stream", "edits", "format", "path", "role", "content", "files", "atomic"])
            | st.text(max_size=8), kids, max_size=5), max_leaves=16)
    paths = ["/v1/apply", "/v1/chat/completions", "/v1/apply/batch", "/v1/completions", "/v1/models"]
    with Server() as server, httpx.Client(base_url=server.url, timeout=30) as client:

        @settings(max_examples=100, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(st.sampled_from(paths), st.one_of(json_values.map(lambda v: json.dumps(v).encode()),
                                                 st.binary(max_size=300)))
        def one(path: str, body: bytes) -> None:
            findings.calls += 1
            response = client.post(path, content=body, headers={"content-type": "application/json"})
            ok = response.status_code < 500
            if ok and response.status_code >= 400:
                try:
                    ok = set(response.json()["error"]) == {"code", "message", "details"}
                except (ValueError, KeyError, TypeError):
                    ok = False
            if not ok:
                findings._save("crash", "http" + path.replace("/", "_"), "", body.decode("latin-1"),
                               f"{response.status_code}: {response.text[:300]}")
            tick()

        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            one()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=["hypothesis", "atheris", "http"], default="hypothesis")
    parser.add_argument("--seconds", type=float, default=120.0, help="how long to fuzz (default 120)")
    parser.add_argument("--slow-s", type=float, default=2.0, help="a call slower than this is a finding")
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"), help="where findings go")
    args, rest = parser.parse_known_args(argv)
    if args.engine == "atheris":
        import subprocess

        # libFuzzer's own flags: stop after the time, report inputs slower than --slow-s as timeouts
        cmd = [sys.executable, "-c", "from evals.fuzz import atheris_main; atheris_main()",
               f"-max_total_time={int(args.seconds)}", f"-timeout={max(1, int(args.slow_s))}",
               f"-artifact_prefix={args.out}/", "-rss_limit_mb=4096", *rest]
        args.out.mkdir(parents=True, exist_ok=True)
        return subprocess.run(cmd).returncode
    from rich.progress import Progress, TimeElapsedColumn

    findings = Findings(args.out, args.slow_s)
    with Progress(*Progress.get_default_columns(), TimeElapsedColumn(), transient=True) as bar:
        task = bar.add_task(f"fuzzing ({args.engine})", total=None)
        run = hypothesis_run if args.engine == "hypothesis" else http_run
        run(findings, args.seconds, lambda: bar.advance(task))
    print(f"{args.engine}: {findings.calls} calls in {args.seconds:g} s; slowest call {findings.slowest[0]:.3f} s "
          f"({findings.slowest[1]}); findings: {len(findings.found)}")
    for path in findings.found:
        print("  ", path)
    return 1 if findings.found else 0


if __name__ == "__main__":
    sys.exit(main())
