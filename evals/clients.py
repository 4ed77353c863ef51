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
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import msgspec

import fastapply
from evals import continue_filter
from evals.cases import DATA_DIR, Case, load_cases

MORPH_SDK = "@morphllm/morphsdk@0.2.196"
DRIVER = Path(__file__).with_name("morph_sdk_driver.mjs")


class Outcome(msgspec.Struct, kw_only=True):
    merged: str | None = None
    code: str | None = None  # the refusal's error code
    error: str | None = None  # what the client reported


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


def _error_code(body: object) -> str | None:
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            return error.get("code")
    return None


# --- OpenAI chat completions, one dialect each ---

def _openai_messages(dialect: str, case: Case) -> tuple[list[dict[str, str]], dict[str, object]]:
    from fastapply.runtime.templates import FASTAPPLY

    if dialect == "morph":
        content = f"<instruction>{case.instruction or ''}</instruction>\n<code>{case.original}</code>\n" \
                  f"<update>{case.update}</update>"
        return [{"role": "user", "content": content}], {}
    if dialect == "kortix":
        assert FASTAPPLY.system is not None
        return [{"role": "system", "content": FASTAPPLY.system},
                {"role": "user", "content": FASTAPPLY.user_message(case.original, case.update, None)}], {}
    if dialect == "continue":
        return continue_filter.apply_messages(case.original, case.update), {}
    return [{"role": "user", "content": case.update}], {"prediction": {"type": "content",
                                                                       "content": case.original}}


def _openai_answer(dialect: str, text: str, model: str) -> str:
    if dialect == "kortix":
        start, end = text.find("<updated-code>"), text.rfind("</updated-code>")
        return text[start + len("<updated-code>"):end] if 0 <= start < end else text
    if dialect == "continue":
        return continue_filter.applied_file(text, model)
    return text


def openai_client(dialect: str, stream: bool) -> Callable[[str, list[Case]], list[Outcome]]:
    def run(url: str, cases: list[Case]) -> list[Outcome]:
        import openai

        client = openai.OpenAI(base_url=url + "/v1", api_key="fastapply-test", max_retries=0)
        model = "fast-apply" if dialect == "continue" else "morph-v3-large"
        out = []
        for case in cases:
            messages, extra = _openai_messages(dialect, case)
            try:
                if stream:
                    chunks = client.chat.completions.create(model=model, messages=messages, stream=True,
                                                            **extra)  # type: ignore[call-overload]
                    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
                else:
                    reply = client.chat.completions.create(model=model, messages=messages,
                                                           **extra)  # type: ignore[call-overload]
                    text = reply.choices[0].message.content or ""
                out.append(Outcome(merged=_openai_answer(dialect, text, model)))
            except openai.APIStatusError as exc:
                out.append(Outcome(code=_error_code(exc.body), error=str(exc)))
        return out

    return run


# --- Continue's own requests, replayed byte for byte ---

def continue_apply(url: str, cases: list[Case]) -> list[Outcome]:
    import httpx

    out = []
    with httpx.Client(timeout=60) as http:
        for case in cases:
            body = continue_filter.apply_request_body(case.original, case.update, "fast-apply")
            with http.stream("POST", url + "/v1/chat/completions", content=body, headers={
                    "Content-Type": "application/json", "Authorization": "Bearer fastapply-test"}) as r:
                if r.status_code != 200:
                    r.read()
                    out.append(Outcome(code=_error_code(r.json()), error=r.text))
                    continue
                text = []
                for line in r.iter_lines():
                    if line.startswith("data: ") and line != "data: [DONE]":
                        event = json.loads(line[6:])
                        text += [c["delta"].get("content") or "" for c in event.get("choices", [])]
            out.append(Outcome(merged=continue_filter.applied_file("".join(text), "fast-apply")))
    return out


def continue_relace(url: str, cases: list[Case]) -> list[Outcome]:
    import httpx

    out = []
    with httpx.Client(timeout=60) as http:
        for case in cases:
            r = http.post(url + "/v1/code/apply", content=continue_filter.relace_request_body(
                case.original, case.update), headers={"Content-Type": "application/json",
                                                      "Authorization": "Bearer fastapply-test"})
            body = r.json()
            if r.status_code == 200 and "total_tokens" in body.get("usage", {}):
                out.append(Outcome(merged=body["mergedCode"]))
            else:
                out.append(Outcome(code=_error_code(body), error=r.text))
    return out


# --- the Morph SDK from npm ---

def morph_sdk_dir(cache: Path | None = None) -> Path | None:
    """A folder with the Morph SDK installed (npm, cached by version), or None without node and npm."""
    if not shutil.which("node") or not shutil.which("npm"):
        return None
    folder = (cache or Path(tempfile.gettempdir()) / "fastapply-npm") / MORPH_SDK.replace("/", "_")
    if not (folder / "node_modules" / "@morphllm" / "morphsdk").is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent", "--ignore-scripts",
                        "--prefix", str(folder), MORPH_SDK], check=True, timeout=600,
                       stdout=subprocess.DEVNULL)
    shutil.copy(DRIVER, folder / DRIVER.name)  # ESM resolves packages next to the script
    return folder


def morph_sdk(url: str, cases: list[Case]) -> list[Outcome]:
    folder = morph_sdk_dir()
    if folder is None:
        raise RuntimeError("node and npm are needed for the Morph SDK client")
    with tempfile.TemporaryDirectory() as tmp:
        cases_path, out_path = Path(tmp, "cases.json"), Path(tmp, "out.json")
        cases_path.write_text(json.dumps([{"id": c.id, "original": c.original, "update": c.update,
                                           "instruction": c.instruction, "filename": c.filename}
                                          for c in cases]), encoding="utf-8")
        proc = subprocess.Popen(["node", str(folder / DRIVER.name), url, str(cases_path), str(out_path)],
                                cwd=folder, start_new_session=True, stdout=subprocess.DEVNULL)
        try:
            proc.wait(timeout=600)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 9)
        results = json.loads(out_path.read_text(encoding="utf-8"))
    return [Outcome(merged=r["mergedCode"]) if r["success"] else Outcome(error=r["error"]) for r in results]


# --- the mcp SDK's client, calling edit_file ---

def _mcp_calls(session_factory: Callable[[], object], root: Path, cases: list[Case]) -> list[Outcome]:
    import anyio

    async def main() -> list[Outcome]:
        out = []
        async with session_factory() as session:  # type: ignore[attr-defined]
            await session.initialize()
            for i, case in enumerate(cases):
                rel = f"case{i}/{case.filename or 'file.txt'}"
                target = root / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(case.original.encode("utf-8"))
                result = await session.call_tool("edit_file", {
                    "target_filepath": rel, "code_edit": case.update, "instruction": case.instruction})
                text = result.content[0].text if result.content else ""
                now = target.read_bytes().decode("utf-8")
                if result.is_error:
                    code = text.split("error [", 1)[1].split("]", 1)[0] if "error [" in text else None
                    out.append(Outcome(code=code if now == case.original else "file_changed", error=text))
                else:
                    out.append(Outcome(merged=now))
        return out

    return anyio.run(main)


def mcp_stdio(url: str, cases: list[Case], root: Path) -> list[Outcome]:
    from contextlib import asynccontextmanager

    from mcp.client import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    @asynccontextmanager
    async def session():
        params = StdioServerParameters(command=sys.executable, args=["-m", "fastapply", "mcp", "--root",
                                                                     str(root)])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            yield s

    return _mcp_calls(session, root, cases)


def mcp_http(url: str, cases: list[Case], root: Path) -> list[Outcome]:
    """`root` must be the server's --mcp-root."""
    from contextlib import asynccontextmanager

    import httpx2
    from mcp.client import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    @asynccontextmanager
    async def session():
        async with httpx2.AsyncClient(headers={"Authorization": "Bearer fastapply-test"}, timeout=60) as http, \
                streamable_http_client(url + "/mcp", http_client=http) as (read, write), \
                ClientSession(read, write) as s:
            yield s

    return _mcp_calls(session, root, cases)


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
    import time

    import httpx

    from evals.load import free_port

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "fastapply", "serve", "--port", str(port), "--log-level",
                             "warning", "--mcp-root", str(root)], start_new_session=True,
                            env={**os.environ, "FASTAPPLY_API_KEY": ""}, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.2)
    os.killpg(proc.pid, 9)
    raise SystemExit("fastapply serve did not answer /healthz")


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
            os.killpg(proc.pid, 15)
            proc.wait(10)
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
