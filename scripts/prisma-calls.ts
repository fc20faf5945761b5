/**
 * The other half of `npm run lint:deps`: dependency-cruiser sees imports, and a Prisma call imports
 * nothing (the client arrives as `services.prisma`, `db` or `tx`). This scan finds the calls themselves
 * outside `*.repo.ts` and `src/platform/db/`, and fails naming each file:line.
 *
 * A call is a model delegate reached from any receiver and used (`services.prisma.order.findMany(`,
 * `this.db.payment.update(`), a delegate reached from `prisma`, `db`, `tx` or `client` at all (`tx.order`),
 * or raw SQL (`$queryRaw`, `$executeRaw` and their Unsafe forms). Opening a transaction
 * (`db.$transaction(async (tx) => ...)`) stays with the services: deciding what is one unit of work is
 * theirs, it reads no table, and every query inside still goes through a repo.
 *
 * Run: `tsx scripts/prisma-calls.ts` (exit 1 and one line per call when any is found).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(fileURLToPath(import.meta.url), "../..");

const METHODS = [
  "findUnique", "findUniqueOrThrow", "findFirst", "findFirstOrThrow", "findMany",
  "create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn",
  "upsert", "delete", "deleteMany", "count", "aggregate", "groupBy",
];
const CLIENT_NAMES = ["prisma", "db", "tx", "client"];
const RAW = ["$queryRaw", "$queryRawUnsafe", "$executeRaw", "$executeRawUnsafe"];

/** The delegates of prisma/schema.prisma: `model WebhookDelivery` is `webhookDelivery`. */
export function modelDelegates(schema: string): string[] {
  return [...schema.matchAll(/^model\s+(\w+)\s*\{/gm)].map((m) => m[1]!.charAt(0).toLowerCase() + m[1]!.slice(1));
}

export interface PrismaCall {
  line: number;
  text: string;
}

/** The Prisma calls in one source text (a line that starts as a comment is not code). */
export function findPrismaCalls(source: string, delegates: string[]): PrismaCall[] {
  const any = delegates.join("|");
  const escaped = RAW.map((r) => r.replace("$", "\\$")).join("|");
  const patterns = [
    new RegExp(`\\b\\w+\\s*\\.\\s*(?:${any})\\s*\\.\\s*(?:${METHODS.join("|")})\\b`, "g"),
    new RegExp(`\\b(?:${CLIENT_NAMES.join("|")})\\s*\\.\\s*(?:${any})\\b`, "g"),
    new RegExp(`\\.\\s*(?:${escaped})\\b`, "g"),
  ];
  const lines = source.split("\n");
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const lineOf = (index: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const found = new Map<number, PrismaCall>();
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) {
      const at = lineOf(match.index);
      const text = lines[at]!.trim();
      if (text.startsWith("//") || text.startsWith("*") || text.startsWith("/*")) continue;
      if (!found.has(at)) found.set(at, { line: at + 1, text });
    }
  }
  return [...found.values()].sort((a, b) => a.line - b.line);
}

/** Where Prisma may be called: the repos, the database layer, and the generated client itself. */
export function mayCallPrisma(path: string): boolean {
  return path.endsWith(".repo.ts") || path.startsWith("src/platform/db/") || path.startsWith("src/generated/");
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /[.]tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every Prisma call of src/ outside the repos and db/, as `file:line  code`. */
export function strayPrismaCalls(): string[] {
  const delegates = modelDelegates(readFileSync(join(ROOT, "prisma/schema.prisma"), "utf8"));
  return sourceFiles("src")
    .filter((path) => !mayCallPrisma(path))
    .flatMap((path) => findPrismaCalls(readFileSync(join(ROOT, path), "utf8"), delegates).map((c) => `${path}:${c.line}  ${c.text}`));
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === "") {
  const stray = strayPrismaCalls();
  if (stray.length > 0) {
    console.error(`Prisma is called outside *.repo.ts and src/platform/db/ (move each call into its domain's repo):\n${stray.join("\n")}`);
    process.exit(1);
  }
  console.log("prisma-calls: no Prisma call outside *.repo.ts and src/platform/db/");
}
