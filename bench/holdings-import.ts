/**
 * Holdings import benchmark: 1,000,000 position rows (generated CAMS WBR22 + WBR9 and KFintech MFSD203 files,
 * half each) imported by the real refresh (parse, join, hash PANs, COPY, replace positions in one
 * transaction), next to a raw COPY of the same position files into bare text tables in the same run.
 * Then the next day's files (same positions, balance date a day later) replace that set, as the daily refresh
 * does: the replace pass deletes the previous rows. Prints rows/s of both passes, the ratio to raw COPY (target
 * >= 0.5) and the peak RSS during the first import (target < 512 MB).
 * With --data-dir DIR (an embedded server's data, as bench:seed-scale makes) or --database-url URL, the same runs
 * again on that database, whose tables already hold data (issue 28: the ratio must hold there). The benchmark's
 * distributors have ARNs of their own for each run and their positions, snapshots and batches are deleted after.
 *   npm run bench:holdings-import [-- --data-dir DIR | --database-url URL] [--smoke]
 *     (BENCH_ROWS=1000000 by default; DATABASE_URL uses a server for the first side)
 */
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createDistributor } from "../src/domains/auth/distributors.service.js";
import { refreshHoldings } from "../src/domains/holdings/refresh.js";
import { setting } from "./harness/options.js";
import { openStack, type Stack } from "./harness/stack.js";
import { compare, printTable, type Row } from "./harness/table.js";

const { values } = parseArgs({ args: process.argv.slice(2), options: { "data-dir": { type: "string" }, "database-url": { type: "string" }, smoke: { type: "boolean" } } });

const ROWS = setting("BENCH_ROWS", 1_000_000, 2_000);
const DISTRIBUTORS = 20;
const POSITIONS_PER_PAN = 5;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** A well-formed, made-up PAN for each number. */
function panOf(n: number): string {
  const l = (k: number) => LETTERS[k % 26]!;
  return `${l(n)}${l(Math.floor(n / 26))}${l(Math.floor(n / 676))}P${l(Math.floor(n / 17576))}${String(1000 + (n % 9000)).padStart(4, "0")}${l(n * 7)}`;
}
// A tag of this run's own in every ARN: a database that keeps data between runs gets new distributors (and new
// file contents, not DUPLICATE batches) each time.
const RUN_TAG = String(Math.floor(Math.random() * 1e5)).padStart(5, "0");
const arnOf = (n: number) => `ARN-9${RUN_TAG}${String(n % DISTRIBUTORS).padStart(2, "0")}`;

async function writeLines(file: string, header: string, count: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${header}\r\n`);
  let chunk = "";
  for (let i = 0; i < count; i++) {
    chunk += `${line(i)}\r\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}

/** The feed files of one day (of November 2026) for every position. */
async function generate(feedDir: string, day: number): Promise<{ cams: number; kfin: number; wbr9: number }> {
  const cams = Math.floor(ROWS / 2);
  const kfin = ROWS - cams;
  await mkdir(path.join(feedDir, "cams"), { recursive: true });
  await mkdir(path.join(feedDir, "kfintech"), { recursive: true });
  // CAMS: two schemes per folio, so WBR9 has one record per two WBR22 rows. Both date styles appear.
  const folios = Math.ceil(cams / 2);
  await writeLines(
    path.join(feedDir, "cams", "BENCH_WBR9.csv"),
    "FOLIOCHK,INV_NAME,PAN_NO,JNT_NAME1,JNT_NAME2,JOINT1_PAN,JOINT2_PAN,HOLDING_NATURE,AMC_CODE,PRODUCT,CLOS_BAL,REP_DATE",
    folios,
    (f) => `${1_000_000 + f}/${f % 97},"Investor ${f}, Bench",${panOf(Math.floor((2 * f) / POSITIONS_PER_PAN))},${f % 10 === 0 ? "Joint Holder" : ""},,,,${f % 10 === 0 ? "JO" : "SI"},AMC${f % 40},P${f % 40}A,1,${day}-Nov-2026`,
  );
  await writeLines(
    path.join(feedDir, "cams", "BENCH_WBR22.csv"),
    "BROK_DLR_CODE,PRODUCT,ASSET_DATE,FOLIO,INV_NAME,SCHEME_NAME,UNITS,NAV,CLOSING_ASSETS,AE_CODE,TAX_STATUS,AMC_CODE,ISIN",
    cams,
    (i) => {
      const f = Math.floor(i / 2);
      return `${arnOf(f)},P${f % 40}${i % 2 ? "B" : "A"},${i % 3 ? `${day}-Nov-2026` : `202611${day}`},${1_000_000 + f}/${f % 97},"Investor ${f}, Bench",Bench Scheme ${f % 40} Growth,${(i % 5000) + 0.125},${12 + (i % 100) / 7},${((i % 5000) * 12.5).toFixed(2)},,Individual,AMC${f % 40},INF000B${String(f % 40).padStart(4, "0")}1`;
    },
  );
  await writeLines(
    path.join(feedDir, "kfintech", "BENCH_MFSD203.csv"),
    "PRCODE,FUND,ACNO,FUNDDESC,SCHEMEISIN,BALUNITS,PLDG,LNAV,VALINV,MOH,BROKCODE,PAN,INV_NAME,CRDATE,BRANCH",
    kfin,
    (i) => `K${i % 60},KAMC${i % 30},${9_000_000 + i},"Bench KFin Scheme ${i % 60}, Growth",,${(i % 7000) + 0.5},0,${(20 + (i % 50) / 3).toFixed(4)},${((i % 7000) * 20).toFixed(2)},${i % 9 === 0 ? "JOINT" : "SINGLE"},${arnOf(i)},${panOf(200_000 + Math.floor(i / POSITIONS_PER_PAN))},Investor ${i},11/${day}/2026,Pune`,
  );
  return { cams, kfin, wbr9: folios };
}

async function rawCopy(databaseUrl: string, feedDir: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const cols = (n: number) => Array.from({ length: n }, (_, i) => `c${i} text`).join(", ");
    await client.query(`DROP TABLE IF EXISTS bare_wbr22, bare_mfsd203`);
    await client.query(`CREATE TABLE bare_wbr22 (${cols(13)})`);
    await client.query(`CREATE TABLE bare_mfsd203 (${cols(15)})`);
    const started = performance.now();
    await pipeline(createReadStream(path.join(feedDir, "cams", "BENCH_WBR22.csv")), client.query(copyFrom("COPY bare_wbr22 FROM STDIN WITH (FORMAT csv, HEADER true)")));
    await pipeline(createReadStream(path.join(feedDir, "kfintech", "BENCH_MFSD203.csv")), client.query(copyFrom("COPY bare_mfsd203 FROM STDIN WITH (FORMAT csv, HEADER true)")));
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

interface Pass {
  seconds: number;
  peakRss: number;
  files: Awaited<ReturnType<typeof refreshHoldings>>["files"];
}

async function importPass(stack: Stack, feedDir: string, distributorIds: string[]): Promise<Pass> {
  global.gc?.();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
  const started = performance.now();
  const report = await refreshHoldings(stack.services, { feedDir, sandboxFeed: false });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const rows = report.files.reduce((n, f) => n + f.rows, 0);
  const imported = report.files.reduce((n, f) => n + f.imported, 0);
  const problems = report.files.reduce((n, f) => n + f.problem_count, 0);
  const stored = await stack.services.prisma.holdingPosition.count({ where: { distributorId: { in: distributorIds } } });
  if (rows !== ROWS || imported !== ROWS || stored !== ROWS) throw new Error(`expected ${ROWS} rows: read ${rows}, imported ${imported}, stored ${stored}, problems ${problems}`);
  for (const f of report.files) console.log(`  ${f.registrar}: read and staged in ${f.timing_ms.stage} ms, replaced in ${f.timing_ms.replace} ms`);
  return { seconds, peakRss, files: report.files };
}

/** The plan of the statement (src/domains/holdings/import.ts, replacePositions) that deletes the previous set. */
async function replacePlan(databaseUrl: string, distributorIds: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ "QUERY PLAN": string }>(
      "EXPLAIN DELETE FROM holding_positions WHERE registrar = $1 AND distributor_id = ANY($2::text[]) AND feed_file_id <> $3", ["KFINTECH", distributorIds, "hff_next"]);
    return rows.map((r) => r["QUERY PLAN"]);
  } finally {
    await client.end();
  }
}

/** What a run leaves on a kept database: the bare tables, and its distributors' positions, snapshots and batches. */
async function cleanUp(databaseUrl: string, distributorIds: string[], feedFileIds: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("DROP TABLE IF EXISTS bare_wbr22, bare_mfsd203");
    await client.query("DELETE FROM holding_positions WHERE distributor_id = ANY($1::text[])", [distributorIds]);
    await client.query("DELETE FROM holding_snapshots WHERE distributor_id = ANY($1::text[])", [distributorIds]);
    await client.query("DELETE FROM holding_feed_files WHERE id = ANY($1::text[])", [feedFileIds]);
  } finally {
    await client.end();
  }
}

/** The first import and the next day's replace on one database, beside a raw COPY of the same files there. */
async function side(stack: Stack, label: string, feeds: { first: string; next: string; prepareNext: () => Promise<void> }): Promise<Row[]> {
  const distributorIds: string[] = [];
  for (let d = 0; d < DISTRIBUTORS; d++) distributorIds.push((await createDistributor(stack.services.prisma, { name: `Bench ${d}`, arn: arnOf(d) })).distributor_id);
  const [{ n: positionsBefore }] = (await stack.services.prisma.$queryRawUnsafe<Array<{ n: bigint }>>("SELECT count(*) AS n FROM holding_positions")) as [{ n: bigint }];
  const first = await importPass(stack, feeds.first, distributorIds);
  await feeds.prepareNext();
  // A day passes between the two: autovacuum has vacuumed and analysed the table after the first import's rows.
  await stack.services.prisma.$executeRawUnsafe("VACUUM ANALYZE holding_positions");
  console.log(`the next pass's replace DELETE, as planned now:\n  ${(await replacePlan(stack.databaseUrl, distributorIds)).join("\n  ")}`);
  const next = await importPass(stack, feeds.next, distributorIds);
  const copySeconds = await rawCopy(stack.databaseUrl, feeds.first);
  await cleanUp(stack.databaseUrl, distributorIds, [...first.files, ...next.files].flatMap((f) => (f.feed_file_id ? [f.feed_file_id] : [])));
  const copyRate = ROWS / copySeconds;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const peakMb = first.peakRss / 1024 / 1024;
  const suffix = label ? ` (${label})` : "";
  console.log(
    `\n${label || "this database"}: ${positionsBefore.toLocaleString("en")} positions of other distributors before; import ${first.seconds.toFixed(2)} s ` +
      `(${first.files.map((f) => `${f.registrar} ${f.outcome}`).join(", ")}), replace ${next.seconds.toFixed(2)} s, raw COPY ${copySeconds.toFixed(2)} s; ` +
      `process max RSS ${mb(process.resourceUsage().maxRSS * 1024)}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`,
  );
  return [
    compare(`holdings import (parse, join, hash, COPY, replace)${suffix}`, "rows/s", { rate: ROWS / first.seconds }, "raw COPY of the same rows, bare tables", { rate: copyRate }, { minRatio: 0.5 }),
    compare(`holdings next day's import, previous set deleted${suffix}`, "rows/s", { rate: ROWS / next.seconds }, "raw COPY of the same rows, bare tables", { rate: copyRate }, { minRatio: 0.5 }),
    { path: `holdings import, peak RSS${suffix}`, unit: "MB", ours: { text: peakMb.toFixed(0) }, baselineName: "-", baseline: {}, target: "< 512 MB", met: peakMb < 512 },
  ];
}

async function main(): Promise<void> {
  const feedRoot = await mkdtemp(path.join(os.tmpdir(), "mf-bench-holdings-feeds-"));
  // The next day's files are written after the first import (its peak RSS is not the generator's).
  let nextDay: Promise<unknown> | undefined;
  const feeds = { first: path.join(feedRoot, "first"), next: path.join(feedRoot, "next"), prepareNext: async () => void (await (nextDay ??= generate(path.join(feedRoot, "next"), 17))) };
  try {
    const generated = await generate(feeds.first, 16);
    console.log(`generated ${generated.cams} WBR22 rows (+${generated.wbr9} WBR9 records) and ${generated.kfin} MFSD203 rows (16 November)`);
    const rows: Row[] = [];
    const bigDataDir = values["data-dir"];
    const bigUrl = values["database-url"];
    const small = await openStack({ name: "holdings-import", logLevel: "warn" });
    try {
      rows.push(...(await side(small, bigDataDir || bigUrl ? "empty database" : "", feeds)));
    } finally {
      await small.close();
    }
    if (bigDataDir || bigUrl) {
      if (!bigUrl) delete process.env.DATABASE_URL;
      const env: Record<string, string> = { ...(bigDataDir ? { MF_DATA_DIR: path.resolve(bigDataDir) } : {}), ...(bigUrl ? { DATABASE_URL: bigUrl } : {}) };
      const big = await openStack({ name: "holdings-import-big", logLevel: "warn", env });
      try {
        rows.push(...(await side(big, "generated database", feeds)));
      } finally {
        await big.close();
      }
    }
    printTable(`holdings import of ${ROWS.toLocaleString("en")} position rows, then the next day's files; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`, rows);
  } finally {
    await rm(feedRoot, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
