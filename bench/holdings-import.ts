/**
 * Holdings import benchmark: 1,000,000 position rows (generated CAMS WBR22 + WBR9 and KFintech MFSD203 files,
 * half each) imported by the real refresh (parse, join, hash PANs, COPY, replace positions in one
 * transaction), next to a raw COPY of the same position files into bare text tables in the same run.
 * Prints rows/s of both, the ratio (target >= 0.5) and the peak RSS during the import (target < 512 MB).
 *   npm run bench:holdings-import     (BENCH_ROWS=1000000 by default; DATABASE_URL uses a server; --smoke for a tiny run)
 */
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { createDistributor } from "../src/domains/auth/distributors.service.js";
import { refreshHoldings } from "../src/domains/holdings/refresh.js";
import { setting } from "./harness/options.js";
import { openStack } from "./harness/stack.js";
import { compare, printTable } from "./harness/table.js";

const ROWS = setting("BENCH_ROWS", 1_000_000, 2_000);
const DISTRIBUTORS = 20;
const POSITIONS_PER_PAN = 5;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** A well-formed, made-up PAN for each number. */
function panOf(n: number): string {
  const l = (k: number) => LETTERS[k % 26]!;
  return `${l(n)}${l(Math.floor(n / 26))}${l(Math.floor(n / 676))}P${l(Math.floor(n / 17576))}${String(1000 + (n % 9000)).padStart(4, "0")}${l(n * 7)}`;
}
const arnOf = (n: number) => `ARN-9${String(n % DISTRIBUTORS).padStart(5, "0")}`;

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

async function generate(feedDir: string): Promise<{ cams: number; kfin: number; wbr9: number }> {
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
    (f) => `${1_000_000 + f}/${f % 97},"Investor ${f}, Bench",${panOf(Math.floor((2 * f) / POSITIONS_PER_PAN))},${f % 10 === 0 ? "Joint Holder" : ""},,,,${f % 10 === 0 ? "JO" : "SI"},AMC${f % 40},P${f % 40}A,1,16-Nov-2026`,
  );
  await writeLines(
    path.join(feedDir, "cams", "BENCH_WBR22.csv"),
    "BROK_DLR_CODE,PRODUCT,ASSET_DATE,FOLIO,INV_NAME,SCHEME_NAME,UNITS,NAV,CLOSING_ASSETS,AE_CODE,TAX_STATUS,AMC_CODE,ISIN",
    cams,
    (i) => {
      const f = Math.floor(i / 2);
      return `${arnOf(f)},P${f % 40}${i % 2 ? "B" : "A"},${i % 3 ? "16-Nov-2026" : "20261116"},${1_000_000 + f}/${f % 97},"Investor ${f}, Bench",Bench Scheme ${f % 40} Growth,${(i % 5000) + 0.125},${12 + (i % 100) / 7},${((i % 5000) * 12.5).toFixed(2)},,Individual,AMC${f % 40},INF000B${String(f % 40).padStart(4, "0")}1`;
    },
  );
  await writeLines(
    path.join(feedDir, "kfintech", "BENCH_MFSD203.csv"),
    "PRCODE,FUND,ACNO,FUNDDESC,SCHEMEISIN,BALUNITS,PLDG,LNAV,VALINV,MOH,BROKCODE,PAN,INV_NAME,CRDATE,BRANCH",
    kfin,
    (i) => `K${i % 60},KAMC${i % 30},${9_000_000 + i},"Bench KFin Scheme ${i % 60}, Growth",,${(i % 7000) + 0.5},0,${(20 + (i % 50) / 3).toFixed(4)},${((i % 7000) * 20).toFixed(2)},${i % 9 === 0 ? "JOINT" : "SINGLE"},${arnOf(i)},${panOf(200_000 + Math.floor(i / POSITIONS_PER_PAN))},Investor ${i},11/16/2026,Pune`,
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

async function main(): Promise<void> {
  const stack = await openStack({ name: "holdings-import", logLevel: "warn" });
  try {
    const { services } = stack;
    const dataDir = services.config.dataDir;
    for (let d = 0; d < DISTRIBUTORS; d++) await createDistributor(services.prisma, { name: `Bench ${d}`, arn: arnOf(d) });
    const feedDir = path.join(dataDir, "feeds");
    const generated = await generate(feedDir);
    console.log(`generated ${generated.cams} WBR22 rows (+${generated.wbr9} WBR9 records) and ${generated.kfin} MFSD203 rows`);

    global.gc?.();
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
    const started = performance.now();
    const report = await refreshHoldings(services, { feedDir, sandboxFeed: false });
    const importSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);

    const rows = report.files.reduce((n, f) => n + f.rows, 0);
    const imported = report.files.reduce((n, f) => n + f.imported, 0);
    const problems = report.files.reduce((n, f) => n + f.problem_count, 0);
    const stored = await services.prisma.holdingPosition.count();
    if (rows !== ROWS || imported !== ROWS || stored !== ROWS) throw new Error(`expected ${ROWS} rows: read ${rows}, imported ${imported}, stored ${stored}, problems ${problems}`);

    for (const f of report.files) console.log(`  ${f.registrar}: read and staged in ${f.timing_ms.stage} ms, replaced in ${f.timing_ms.replace} ms`);
    const copySeconds = await rawCopy(services.config.databaseUrl!, feedDir);
    const importRate = ROWS / importSeconds;
    const copyRate = ROWS / copySeconds;
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    const peakMb = peakRss / 1024 / 1024;
    printTable(
      `holdings import of ${ROWS.toLocaleString("en")} position rows (${report.files.map((f) => `${f.registrar} ${f.outcome}`).join(", ")}): ` +
        `import ${importSeconds.toFixed(2)} s, raw COPY ${copySeconds.toFixed(2)} s; process max RSS ${mb(process.resourceUsage().maxRSS * 1024)}`,
      [
        compare("holdings import (parse, join, hash, COPY, replace)", "rows/s", { rate: importRate }, "raw COPY of the same rows, bare tables", { rate: copyRate }, { minRatio: 0.5 }),
        { path: "holdings import, peak RSS", unit: "MB", ours: { text: peakMb.toFixed(0) }, baselineName: "-", baseline: {}, target: "< 512 MB", met: peakMb < 512 },
      ],
    );
  } finally {
    await stack.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
