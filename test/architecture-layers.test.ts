import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const DEPCRUISE = path.resolve("node_modules/.bin/depcruise");

/**
 * The layering rules of .dependency-cruiser.cjs (README "The map of the code"), each shown to fail on a
 * deliberate wrong import in a scratch tree of the same shape, and to pass the right ones.
 */
let dir: string;

function file(name: string, source: string): void {
  mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  writeFileSync(path.join(dir, name), source);
}

/** The rules depcruise reports for the scratch tree, as `rule: from -> to`. */
async function violations(): Promise<string[]> {
  const out = await run(DEPCRUISE, ["src", "--config", ".dependency-cruiser.cjs", "--output-type", "json"], { cwd: dir }).catch((error: { stdout: string }) => error);
  const report = JSON.parse(out.stdout) as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "layers-"));
  copyFileSync(".dependency-cruiser.cjs", path.join(dir, ".dependency-cruiser.cjs"));
  file("tsconfig.json", JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", allowImportingTsExtensions: true, noEmit: true } }));
  file("package.json", JSON.stringify({ type: "module" }));
  file("src/app.ts", 'import { place } from "./domains/orders/orders.service.ts";\nexport const app = place;\n');
  file("src/env.ts", "export const config = {};\n");
  file("src/platform/lib/ids.ts", "export const id = 1;\n");
  file("src/platform/trpc/errors.ts", 'import { id } from "../lib/ids.ts";\nexport const e = id;\n');
  file("src/integrations/exchange/port.ts", 'import { id } from "../../platform/lib/ids.ts";\nexport const port = id;\n');
  file("src/integrations/exchange/bse/bse-exchange.ts", 'import { port } from "../port.ts";\nexport const bse = port;\n');
  file("src/domains/orders/orders.router.ts", 'import { e } from "../../platform/trpc/errors.ts";\nimport { place } from "./orders.service.ts";\nexport const r = [e, place];\n');
  file("src/domains/orders/orders.service.ts", 'import { port } from "../../integrations/exchange/port.ts";\nimport { config } from "../../env.ts";\nexport const place = [port, config];\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the layering rules (npm run lint:deps)", () => {
  it("pass a tree whose imports point one way", async () => {
    expect(await violations()).toEqual([]);
  });

  it("fail each deliberate wrong import, naming its rule", async () => {
    file("src/platform/lib/wrong.ts", 'import { place } from "../../domains/orders/orders.service.ts";\nexport const w = place;\n');
    file("src/integrations/exchange/wrong.ts", 'import { place } from "../../domains/orders/orders.service.ts";\nexport const w = place;\n');
    file("src/domains/orders/wrong-adapter.ts", 'import { bse } from "../../integrations/exchange/bse/bse-exchange.ts";\nexport const w = bse;\n');
    file("src/domains/orders/wrong-top.ts", 'import { app } from "../../app.ts";\nexport const w = app;\n');
    file("src/domains/orders/wrong-edge.ts", 'import { e } from "../../platform/trpc/errors.ts";\nexport const w = e;\n');
    file("src/domains/payments/payments.repo.ts", "export const row = 1;\n");
    file("src/domains/payments/payments.service.ts", 'import { row } from "./payments.repo.ts";\nexport const pay = row;\n');
    file("src/domains/orders/wrong-repo.ts", 'import { row } from "../payments/payments.repo.ts";\nimport { pay } from "../payments/payments.service.ts";\nexport const w = [row, pay];\n');
    expect(await violations()).toEqual([
      "domains-below-the-assembly: src/domains/orders/wrong-top.ts -> src/app.ts",
      "domains-read-each-other-through-services: src/domains/orders/wrong-repo.ts -> src/domains/payments/payments.repo.ts",
      "domains-use-ports-not-adapters: src/domains/orders/wrong-adapter.ts -> src/integrations/exchange/bse/bse-exchange.ts",
      "integrations-import-no-domain: src/integrations/exchange/wrong.ts -> src/domains/orders/orders.service.ts",
      "lib-is-the-ground: src/platform/lib/wrong.ts -> src/domains/orders/orders.service.ts",
      "nothing-imports-the-top: src/domains/orders/wrong-top.ts -> src/app.ts",
      "platform-knows-no-business: src/platform/lib/wrong.ts -> src/domains/orders/orders.service.ts",
      "transport-only-at-the-edge: src/domains/orders/wrong-edge.ts -> src/platform/trpc/errors.ts",
    ]);
  });
});
