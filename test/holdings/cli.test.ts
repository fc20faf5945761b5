import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDistributor } from "../../src/domains/auth/distributors.service.js";
import { createPrisma } from "../../src/platform/db/client.js";
import { createTestDatabase } from "../helpers/db.js";
import { randomPan } from "../helpers/factories.js";
import { runEntry } from "../helpers/process.js";

let dir: string;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
const arn = `ARN-6${process.pid}`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "holdings-cli-"));
  db = await createTestDatabase();
  const prisma = createPrisma(db.url, 1);
  await createDistributor(prisma, { name: "CLI Distributor", arn });
  await prisma.$disconnect();
  await mkdir(path.join(dir, "feeds", "kfintech"), { recursive: true });
  await writeFile(
    path.join(dir, "feeds", "kfintech", "MFSD203_cli.csv"),
    "PRCODE,FUND,ACNO,FUNDDESC,SCHEMEISIN,BALUNITS,PLDG,LNAV,VALINV,MOH,BROKCODE,PAN,INV_NAME,CRDATE\n" +
      `S1,AMC1,F1,Scheme One,,1.5,0,10,15,SINGLE,${arn},${randomPan()},Investor,01-Dec-2026\n` +
      `S1,AMC1,F2,Scheme One,,x,0,10,15,SINGLE,${arn},${randomPan()},Investor,01-Dec-2026\n`,
  );
});

afterAll(async () => {
  await db.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("npm run mf -- holdings:refresh", () => {
  it("imports the feed directory once and reports each file", async () => {
    const env = { DATABASE_URL: db.url, MF_DATA_DIR: dir, MF_DATA_KEY: randomBytes(32).toString("hex") };
    const first = runEntry("src/cli.ts", ["holdings:refresh", "--json"], env);
    expect(await first.exited, first.output()).toBe(0);
    const report = JSON.parse(first.output().trim().split("\n").at(-1)!);
    expect(report.feed_dir).toBe(path.join(dir, "feeds"));
    expect(report.files).toEqual([
      expect.objectContaining({ registrar: "KFINTECH", file: "MFSD203_cli.csv", outcome: "IMPORTED", rows: 1, imported: 1, problem_count: 1 }),
    ]);
    const again = runEntry("src/cli.ts", ["holdings:refresh"], env);
    expect(await again.exited, again.output()).toBe(0);
    expect(again.output()).toContain("KFINTECH MFSD203_cli.csv: DUPLICATE");
    expect(again.output()).toContain("0 feed(s) imported (0 positions), 1 already imported, 0 rejected, 0 waiting");
  });
});
