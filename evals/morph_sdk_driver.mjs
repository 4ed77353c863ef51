// Drives the official Morph SDK (npm @morphllm/morphsdk) against a fastapply server.
// usage: node morph_sdk_driver.mjs URL CASES.json OUT.json
// CASES.json: [{id, original, update, instruction, filename}]; OUT.json: [{id, success, mergedCode, error}].
// The SDK switches to its large-file anchor protocol by itself for files of 128 KB or more.
import { readFileSync, writeFileSync } from "node:fs";
import { applyEdit } from "@morphllm/morphsdk/tools/fastapply";

const [url, casesPath, outPath] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const results = [];
for (const c of cases) {
  const r = await applyEdit(
    { originalCode: c.original, codeEdit: c.update, instruction: c.instruction ?? "", filepath: c.filename ?? "file" },
    { morphApiUrl: url, morphApiKey: "fastapply-test", retryConfig: { maxRetries: 0 }, generateUdiff: false },
  );
  results.push({ id: c.id, success: r.success, mergedCode: r.mergedCode ?? null, error: r.error ?? null });
}
writeFileSync(outPath, JSON.stringify(results));
