/**
 * Transaction feed import benchmark: a 1,000,000-row transaction feed (generated CAMS WBR2 and KFintech MFSD201
 * files in their full layouts, half each) imported by the real refresh (parse, type, hash PANs, COPY to a stage,
 * insert ON CONFLICT DO NOTHING, link reversals), next to the holdings import of as many position rows (WBR22 +
 * WBR9, MFSD203) in the same run. Prints rows/s of both and the ratio (target: transactions >= 0.5 x holdings).
 *   npm run bench:transactions-import     (BENCH_ROWS=1000000 by default; DATABASE_URL uses a server; --smoke for a tiny run)
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { createDistributor } from "../src/domains/auth/distributors.service.js";
import { refreshHoldings } from "../src/domains/holdings/refresh.js";
import { setting } from "./harness/options.js";
import { openStack } from "./harness/stack.js";
import { compare, printTable } from "./harness/table.js";

const ROWS = setting("BENCH_ROWS", 1_000_000, 2_000);
const DISTRIBUTORS = 20;

const WBR2 =
  "AMC_CODE,FOLIO_NO,PRODCODE,SCHEME,INV_NAME,TRXNTYPE,TRXNNO,TRXNMODE,TRXNSTAT,USERCODE,USRTRXNO,TRADDATE,POSTDATE,PURPRICE,UNITS,AMOUNT,BROKCODE,SUBBROK,BROKPERC,BROKCOMM,ALTFOLIO,REP_DATE,TIME1,TRXNSUBTYP,APPLICATIO,TRXN_NATUR,TAX,TOTAL_TAX,TE_15H,MICR_NO,REMARKS,SWFLAG,OLD_FOLIO,SEQ_NO,REINVEST_F,MULT_BROK,STT,LOCATION,SCHEME_TYP,TAX_STATUS,LOAD,SCANREFNO,PAN,INV_IIN,TARG_SRC_S,TRXN_TYPE_,TICOB_TRTY,TICOB_TRNO,TICOB_POST,DP_ID,TRXN_CHARG,ELIGIB_AMT,SRC_OF_TXN,TRXN_SUFFI,SIPTRXNNO,TER_LOCATI,EUIN,EUIN_VALID,EUIN_OPTED,SUB_BRK_AR,EXCH_DC_FL,SRC_BRK_CO,SYS_REGN_D,AC_NO,BANK_NAME,REVERSAL_C,EXCHANGE_F,CA_INITIAT,GST_STATE_,IGST_AMOUN,CGST_AMOUN,SGST_AMOUN,REV_REMARK,ORIGINAL_T,STAMP_DUTY";
const MFSD201 =
  "FMCODE,TD_FUND,TD_SCHEME,TD_PLAN,TD_ACNO,SCHPLN,DIVOPT,FUNDDESC,TD_PURRED,TD_TRNO,SMCODE,CHQNO,INVNAME,TRNMODE,TRNSTAT,TD_BRANCH,ISCTRNO,TD_TRDT,TD_PRDT,TD_UNITS,TD_AMT,TD_AGENT,TD_BROKER,BROKPER,BROKCOMM,INVID,CRDATE,CRTIME,TRNSUB,TD_APPNO,UNQNO,TRDESC,TD_TRTYPE,NAVDATE,PORTDT,ASSETTYPE,SUBTRTYPE,CityCategory,eUIN,Trcharges,clientid,Dpid,STT,IHNO,BranchCode,InwardNumber,PAN1,PAN2,PAN3,TdsAmount,chqdate,chqbank,trflag,load1,BROK_ENTDT,NCTREMARKS,PRCODE1,Status,SchemeISIN,td_nav,InsAmount,RejTrnoOrgNo,eValid,eDeclFlag,SubArnCode,ATMCardRemarks,ATMCardStatus,Sch1,Pln1,td_trxnmode,NewUnqno,SipRegdt,sipregslno,DivPer,CAN,ExchOrgTrType,ElecTrxnFlag,cleared,Brok_ValueDt,td_pop,InvState,StampDuty";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** A well-formed, made-up PAN for each number. */
function panOf(n: number): string {
  const l = (k: number) => LETTERS[k % 26]!;
  return `${l(n)}${l(Math.floor(n / 26))}${l(Math.floor(n / 676))}P${l(Math.floor(n / 17576))}${String(1000 + (n % 9000)).padStart(4, "0")}${l(n * 7)}`;
}
const arnOf = (n: number) => `ARN-8${String(n % DISTRIBUTORS).padStart(5, "0")}`;

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

/** A row of `header`'s width with the given columns set (the rest empty, as most of a real row is). */
function rowMaker(header: string): (values: Record<string, string>) => string {
  const columns = header.split(",");
  return (values) => columns.map((c) => values[c] ?? "").join(",");
}

const CAMS_TYPES = [["P", "Purchase", ""], ["P", "Systematic Investment Purchase", "77"], ["R", "Redemption", ""], ["SI", "Switch Over In", ""], ["SO", "Switch Over Out", ""], ["DR", "Div. Reinvestment", ""]] as const;
const KFIN_TYPES = [["NEW", "P"], ["ADD", "P"], ["SIN", "P"], ["RED", "R"], ["LTIN", "P"], ["LTOF", "R"], ["DIR", "P"]] as const;

async function generateTransactions(feedDir: string): Promise<void> {
  const cams = Math.floor(ROWS / 2);
  await mkdir(path.join(feedDir, "cams"), { recursive: true });
  await mkdir(path.join(feedDir, "kfintech"), { recursive: true });
  const camsRow = rowMaker(WBR2);
  await writeLines(path.join(feedDir, "cams", "BENCH_R2.csv"), WBR2, cams, (i) => {
    const [type, nature, sip] = CAMS_TYPES[i % CAMS_TYPES.length]!;
    const f = Math.floor(i / 4);
    // One row in a thousand reverses the row before it.
    const reversal = i % 1000 === 999;
    return camsRow({
      AMC_CODE: `A${f % 40}`, FOLIO_NO: `${1_000_000 + f}`, PRODCODE: `P${f % 40}A`, SCHEME: `"Bench Scheme ${f % 40}, Growth"`, INV_NAME: `Investor ${f}`,
      TRXNTYPE: type, TRXNNO: `${10_000_000 + i}`, TRXNMODE: "N", TRXNSTAT: "P", TRADDATE: `${1 + (i % 28)}-Apr-2025`, POSTDATE: "30-Apr-2025",
      PURPRICE: (12 + (i % 100) / 7).toFixed(4), UNITS: `${(i % 5000) + 0.125}`, AMOUNT: ((i % 5000) * 12.5).toFixed(2), BROKCODE: arnOf(f),
      TRXN_NATUR: nature, SIPTRXNNO: sip, PAN: panOf(Math.floor(f / 3)), STT: i % 3 ? "" : "0.05", STAMP_DUTY: "0.25",
      ...(reversal ? { REVERSAL_C: "CR", ORIGINAL_T: `${10_000_000 + i - 1}` } : {}),
    });
  });
  const kfinRow = rowMaker(MFSD201);
  await writeLines(path.join(feedDir, "kfintech", "BENCH_MFSD201.csv"), MFSD201, ROWS - cams, (i) => {
    const [type, purred] = KFIN_TYPES[i % KFIN_TYPES.length]!;
    const a = Math.floor(i / 4);
    return kfinRow({
      FMCODE: `K${a % 60}GP`, TD_FUND: `${100 + (a % 30)}`, TD_ACNO: `${9_000_000 + a}`, FUNDDESC: `Bench KFin Scheme ${a % 60}`, TD_PURRED: purred,
      TD_TRNO: `${50_000_000 + i}`, INVNAME: `Investor ${a}`, TD_TRDT: `4/${1 + (i % 28)}/2025`, TD_PRDT: "4/30/2025", TD_UNITS: `${(i % 7000) + 0.5}`,
      TD_AMT: ((i % 7000) * 20).toFixed(2), TD_AGENT: arnOf(a), TRDESC: type, TD_TRTYPE: type, PAN1: panOf(200_000 + Math.floor(a / 3)),
      td_nav: (20 + (i % 50) / 3).toFixed(4), StampDuty: "0.10",
    });
  });
}

async function generatePositions(feedDir: string): Promise<void> {
  const cams = Math.floor(ROWS / 2);
  await mkdir(path.join(feedDir, "cams"), { recursive: true });
  await mkdir(path.join(feedDir, "kfintech"), { recursive: true });
  const folios = Math.ceil(cams / 2);
  await writeLines(path.join(feedDir, "cams", "BENCH_WBR9.csv"), "FOLIOCHK,INV_NAME,PAN_NO,JNT_NAME1,JNT_NAME2,JOINT1_PAN,JOINT2_PAN,HOLDING_NATURE,AMC_CODE,PRODUCT,CLOS_BAL,REP_DATE", folios,
    (f) => `${1_000_000 + f},"Investor ${f}, Bench",${panOf(Math.floor(f / 3))},,,,,SI,A${f % 40},P${f % 40}A,1,16-Nov-2026`);
  await writeLines(path.join(feedDir, "cams", "BENCH_WBR22.csv"), "BROK_DLR_CODE,PRODUCT,ASSET_DATE,FOLIO,INV_NAME,SCHEME_NAME,UNITS,NAV,CLOSING_ASSETS,AE_CODE,TAX_STATUS,AMC_CODE,ISIN", cams,
    (i) => {
      const f = Math.floor(i / 2);
      return `${arnOf(f)},P${f % 40}${i % 2 ? "B" : "A"},16-Nov-2026,${1_000_000 + f},"Investor ${f}, Bench",Bench Scheme ${f % 40} Growth,${(i % 5000) + 0.125},${(12 + (i % 100) / 7).toFixed(4)},${((i % 5000) * 12.5).toFixed(2)},,Individual,A${f % 40},`;
    });
  await writeLines(path.join(feedDir, "kfintech", "BENCH_MFSD203.csv"), "PRCODE,FUND,ACNO,FUNDDESC,SCHEMEISIN,BALUNITS,PLDG,LNAV,VALINV,MOH,BROKCODE,PAN,INV_NAME,CRDATE,BRANCH", ROWS - cams,
    (i) => `K${i % 60},KAMC${i % 30},${9_000_000 + i},"Bench KFin Scheme ${i % 60}, Growth",,${(i % 7000) + 0.5},0,${(20 + (i % 50) / 3).toFixed(4)},${((i % 7000) * 20).toFixed(2)},SINGLE,${arnOf(i)},${panOf(200_000 + Math.floor(i / 5))},Investor ${i},11/16/2026,Pune`);
}

async function main(): Promise<void> {
  const stack = await openStack({ name: "transactions-import", logLevel: "warn" });
  try {
    const { services } = stack;
    for (let d = 0; d < DISTRIBUTORS; d++) await createDistributor(services.prisma, { name: `Bench ${d}`, arn: arnOf(d) });
    const positionsDir = path.join(services.config.dataDir, "feeds-positions");
    const transactionsDir = path.join(services.config.dataDir, "feeds-transactions");
    await generatePositions(positionsDir);
    await generateTransactions(transactionsDir);
    console.log(`generated ${ROWS} position rows and ${ROWS} transaction rows`);

    const timed = async (feedDir: string) => {
      global.gc?.();
      const started = performance.now();
      const report = await refreshHoldings(services, { feedDir, sandboxFeed: false });
      return { report, seconds: (performance.now() - started) / 1000 };
    };
    const positions = await timed(positionsDir);
    const transactions = await timed(transactionsDir);
    const read = (r: typeof positions.report) => r.files.reduce((n, f) => n + f.rows, 0);
    const stored = await services.prisma.holdingTransaction.count();
    if (read(positions.report) !== ROWS || read(transactions.report) !== ROWS || stored !== ROWS) {
      throw new Error(`expected ${ROWS} rows each: positions read ${read(positions.report)}, transactions read ${read(transactions.report)}, stored ${stored}`);
    }
    for (const f of transactions.report.files) console.log(`  ${f.registrar} transactions: read and staged in ${f.timing_ms.stage} ms, inserted and linked in ${f.timing_ms.replace} ms`);
    printTable(
      `transaction feed import of ${ROWS.toLocaleString("en")} rows (${transactions.seconds.toFixed(2)} s) beside the holdings import of as many position rows (${positions.seconds.toFixed(2)} s)`,
      [compare("transaction feed import (parse, type, hash, COPY, insert, link)", "rows/s", { rate: ROWS / transactions.seconds }, "holdings import, same run", { rate: ROWS / positions.seconds }, { minRatio: 0.5 })],
    );
  } finally {
    await stack.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
