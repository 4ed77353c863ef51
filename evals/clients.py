"""Client parity: each client fastapply supports gets exactly the library's merge, or a clear refusal.

For a sample of the dev corpus, every case goes through every client against a real server, and the
file the client ends up with is compared to `fastapply.apply` on the same input (a refusal must carry
the library's error code, and leave an MCP file untouched). Clients:

- openai-{morph,kortix,continue,predicted}[-stream]: the `openai` Python client, one per prompt dialect;
- continue-apply: Continue's default apply request replayed byte for byte (httpx), its answer run
  through Continue's own line filters (evals/continue_filter.py);
- continue-relace: Continue's Relace adapter request (`POST /v1/code/apply`) replayed byte for byte;
- morph-sdk: the official Morph SDK from npm, driven by node (skipped when node or npm is missing);
- mcp-stdio, mcp-http: the `mcp` SDK's own client calling `edit_file` (stdio: `fastapply mcp`, HTTP: /mcp).

    python -m evals.clients --n 40 --seed 0              # starts `fastapply serve` on a free port
                                                         # (plus 20 edits the library refuses)
    python -m evals.clients --n 188 --clients morph-sdk,mcp-stdio --out /tmp/clients.json

Cost: one merge per case per client, plus one npm install (cached) for the Morph SDK.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path

import msgspec

import fastapply
from evals import continue_filter, procs
from evals.cases import DATA_DIR, Case, load_cases
from evals.client_runs import (
    Outcome,
    continue_apply,
    continue_relace,
    mcp_http,
    mcp_stdio,
    morph_sdk,
    morph_sdk_dir,
    openai_client,
)

__all__ = ["Case", "Outcome", "compare", "expected", "large_case", "morph_sdk_dir", "refusal_variants", "sample"]


def expected(case: Case, with_filename: bool = True) -> Outcome:
    """The library's answer to the inputs a client sends: the chat dialects, Relace's API and the Morph
    SDK send no file name (the language comes from the content); MCP's edit_file names the file."""
    try:
        return Outcome(merged=fastapply.apply(case.original, case.update, instruction=case.instruction,
                                              filename=case.filename if with_filename else None).merged_code)
    except fastapply.ApplyError as exc:
        return Outcome(code=exc.code, error=exc.message)


def sample(cases: list[Case], n: int, seed: int) -> list[Case]:
    """n cases spread over the languages (round robin over a seeded shuffle of each language)."""
    rng = random.Random(seed)
    by_lang: dict[str, list[Case]] = {}
    for case in cases:
        by_lang.setdefault(case.lang(), []).append(case)
    for group in by_lang.values():
        rng.shuffle(group)
    out: list[Case] = []
    while len(out) < min(n, len(cases)):
        for lang in sorted(by_lang):
            if by_lang[lang] and len(out) < n:
                out.append(by_lang[lang].pop())
    return out


def large_case(case: Case, size: int = 229_000) -> Case:
    """`case` with its file grown past Morph's 128 KB anchor threshold by appending generated Python
    functions (unique lines, and repeated ones as real files have); the snippet is unchanged."""
    parts, i = [case.original.rstrip("\n") + "\n"], 0
    total = len(parts[0])
    while total < size:
        block = (f"\n\ndef generated_handler_{i}(request, registry, limit={i % 7 + 1}):\n"
                 f"    \"\"\"Route request kind {i} to its registry entry, at most limit items.\"\"\"\n"
                 f"    entries = [entry for entry in registry.lookup(request.kind) if entry.size < limit]\n"
                 f"    if not entries:\n        return None\n"
                 f"    return {{'kind': {i}, 'count': len(entries), 'first': entries[0].name}}\n")
        parts.append(block)
        total += len(block)
        i += 1
    return msgspec.structs.replace(case, id=case.id + "+large", original="".join(parts))


def refusal_variants(cases: list[Case], k: int) -> list[Case]:
    """Up to k edits the library refuses, made from corpus cases: snippets whose lines are nowhere in
    the file (anchor_not_found), and empty snippets (empty_update). Each variant is checked: only
    those the library really refuses, with and without the file name, are kept."""
    out = []
    for i, case in enumerate(cases):
        if len(out) >= k:
            break
        if i % 4 == 3:
            update = "  \n"
        else:
            update = (f"// ... existing code ...\nnot_in_the_file_{i} = compute_missing_{i}(argument_{i})\n"
                      f"still_not_in_the_file_{i} = other_missing_{i}()\n// ... existing code ...\n"
                      f"also_missing_{i}()\n// ... existing code ...\n")
        variant = msgspec.structs.replace(case, id=f"{case.id}+refused", update=update)
        if expected(variant).code and expected(variant, with_filename=False).code:
            out.append(variant)
    return out


CLIENTS = [f"openai-{d}{s}" for d in ("morph", "kortix", "continue", "predicted") for s in ("", "-stream")] + [
    "continue-apply", "continue-relace", "morph-sdk", "mcp-stdio", "mcp-http"]


def run_client(name: str, url: str, cases: list[Case], root: Path) -> list[Outcome]:
    if name.startswith("openai-"):
        dialect, _, stream = name[len("openai-"):].partition("-")
        return openai_client(dialect, bool(stream))(url, cases)
    runners = {"continue-apply": continue_apply, "continue-relace": continue_relace, "morph-sdk": morph_sdk}
    if name in runners:
        return runners[name](url, cases)
    return {"mcp-stdio": mcp_stdio, "mcp-http": mcp_http}[name](url, cases, root)


def agrees(name: str, got: Outcome, want: Outcome) -> bool:
    """The client's file is the library's merge; or both refused (with the same code, where the client
    reports codes: the Morph SDK reports only a message)."""
    if want.merged is None:
        if got.merged is not None:
            return False
        return name == "morph-sdk" or got.code == want.code
    if got.merged is None:
        return False
    if name in ("openai-continue", "openai-continue-stream", "continue-apply"):
        return got.merged == continue_filter.as_continue_writes(want.merged)
    return got.merged == want.merged


def compare(name: str, url: str, cases: list[Case], root: Path) -> dict[str, object]:
    wants = [expected(c, with_filename=name.startswith("mcp-")) for c in cases]
    gots = run_client(name, url, cases, root)
    same = [agrees(name, g, w) for g, w in zip(gots, wants, strict=True)]
    return {"client": name, "cases": len(cases), "agree": sum(same),
            "merged": sum(w.merged is not None for w in wants),
            "refused": sum(w.merged is None for w in wants),
            "disagree": [c.id for c, ok in zip(cases, same, strict=True) if not ok]}


def _serve(root: Path) -> tuple[subprocess.Popen, str]:
    return procs.start_service(["--log-level", "warning", "--mcp-root", str(root)], stdout=None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.clients", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(DATA_DIR), help="eval cases (default: evals/data)")
    parser.add_argument("--n", type=int, default=40, help="cases sampled over the languages (default 40)")
    parser.add_argument("--refusals", type=int, default=20,
                        help="also send this many edits the library refuses (default 20)")
    parser.add_argument("--large", type=int, default=0, metavar="K",
                        help="also send K Python cases grown to 229 KB through the Morph SDK (its anchor "
                        "protocol) and the Morph prompt")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clients", default="all", help=f"comma-separated, from: {', '.join(CLIENTS)}")
    parser.add_argument("--out", default=None, help="write the report as JSON here")
    args = parser.parse_args(argv)
    from rich.progress import Progress

    corpus = load_cases(args.data)
    cases = sample(corpus, args.n, args.seed)
    cases += refusal_variants(sample(corpus, len(corpus), args.seed + 1), args.refusals)
    names = CLIENTS if args.clients == "all" else args.clients.split(",")
    report = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        proc, url = _serve(root)
        try:
            with Progress(transient=True) as bar:
                task = bar.add_task("clients", total=len(names))
                for name in names:
                    bar.update(task, description=name)
                    if name == "morph-sdk" and morph_sdk_dir() is None:
                        report.append({"client": name, "skipped": "node or npm not found"})
                    else:
                        report.append(compare(name, url, cases, root))
                    bar.advance(task)
                large = [large_case(c) for c in corpus if c.lang() == "python"][:args.large]
                for name in ("morph-sdk", "openai-morph-stream") if large else ():
                    if name == "morph-sdk" and morph_sdk_dir() is None:
                        continue
                    row = compare(name, url, large, root)
                    row["client"] = f"{name} (229 KB files)"
                    report.append(row)
        finally:
                    procs.stop(proc)
    for row in report:
        if "skipped" in row:
            print(f"{row['client']:24} skipped: {row['skipped']}")
        else:
            print(f"{row['client']:24} {row['agree']}/{row['cases']} agree with the library "
                  f"({row['merged']} merged, {row['refused']} refused)"
                  + (f"; differ: {', '.join(row['disagree'])}" if row["disagree"] else ""))
    if args.out:
        Path(args.out).write_text(json.dumps(report, indent=2))
    return 0 if all(not r.get("disagree") for r in report) else 1


if __name__ == "__main__":
    raise SystemExit(main())
