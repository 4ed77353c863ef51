"""How each client fastapply supports is driven, for evals/clients.py: each `run(url, cases)` returns what
the client ended up with per case (the merged file, or the refusal's code).

Cost: one request (or tool call) per case; the Morph SDK needs one `npm install`, cached by version.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import msgspec

from evals import continue_filter, procs
from evals.cases import Case

MORPH_SDK = "@morphllm/morphsdk@0.2.196"
DRIVER = Path(__file__).with_name("morph_sdk_driver.mjs")


class Outcome(msgspec.Struct, kw_only=True):
    merged: str | None = None
    code: str | None = None  # the refusal's error code
    error: str | None = None  # what the client reported


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
        proc = procs.start(["node", str(folder / DRIVER.name), url, str(cases_path), str(out_path)],
                           cwd=str(folder), stderr=None)
        try:
            proc.wait(timeout=600)
        finally:
            procs.stop(proc, grace_s=5)
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
