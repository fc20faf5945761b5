import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/process.js";

const run = promisify(execFile);

describe("client/openapi.d.ts", () => {
  it("is what `npm run client:generate` makes of the committed openapi.json (run it after `npm run mf -- openapi`)", async () => {
    // The same generator and options as the npm script, written elsewhere and compared byte for byte.
    const script = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")).scripts["client:generate"] as string;
    expect(script).toBe("openapi-typescript openapi.json -o client/openapi.d.ts");
    const out = path.join(os.tmpdir(), `client-types-${process.pid}.d.ts`);
    try {
      await run(path.join(ROOT, "node_modules/.bin/openapi-typescript"), ["openapi.json", "-o", out], { cwd: ROOT });
      const committed = await readFile(path.join(ROOT, "client/openapi.d.ts"), "utf8");
      expect(committed === (await readFile(out, "utf8")), "client/openapi.d.ts is stale: run `npm run client:generate`").toBe(true);
    } finally {
      await rm(out, { force: true });
    }
  }, 60_000);
});
