import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const README = readFileSync("README.md", "utf8");
const MAP = README.slice(README.indexOf("## The map of the code"));
const LAYERS = ["src/domains", "src/integrations", "src/platform"];

/** Paths the map names: backticked tokens that start with a folder of the repository. */
function namedPaths(text: string): string[] {
  const names = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  return names.filter((n) => /^(src|test|bench|docs|prisma|client|scripts|assets)\//.test(n) && !n.includes("<"));
}

function folders(dir: string): string[] {
  return readdirSync(dir).filter((name) => statSync(path.join(dir, name)).isDirectory()).map((name) => `${dir}/${name}/`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => `${dir}/${name}`)
    .filter((file) => /\.(ts|tsx)$/.test(file) && !file.startsWith("src/generated/"));
}

describe("README is a map", () => {
  it("is at most 300 lines and has the map", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(300);
    expect(MAP.length).toBeGreaterThan(0);
  });

  it("names only paths that exist", () => {
    const missing = namedPaths(MAP).filter((p) => !existsSync(p.replace(/\/$/, "")) && p !== "src/generated/");
    expect(missing).toEqual([]);
    expect(namedPaths("`src/nowhere/`, `src/orders/orders.repo.ts`, `src/app.ts`")).toEqual(["src/nowhere/", "src/orders/orders.repo.ts", "src/app.ts"]);
  });

  it("names every folder of src/ and every folder of its three layers", () => {
    const named = new Set(namedPaths(MAP));
    const all = [...folders("src"), ...LAYERS.flatMap((layer) => folders(layer))];
    expect(all.filter((folder) => !named.has(folder))).toEqual([]);
  });
});

/** The documents: README.md, docs/*.md and bench/README.md. */
const DOCUMENTS = ["README.md", "bench/README.md", ...readdirSync("docs").filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];

/** The `src/...` paths a document names in backticks (not patterns such as `src/<domain>/` or `src/**`; a `:line` dropped). */
function srcPaths(text: string): string[] {
  return namedPaths(text)
    .filter((name) => name.startsWith("src/") && !/[*{]/.test(name) && !name.startsWith("src/generated/"))
    .map((name) => name.replace(/:\d+$/, ""));
}

describe("the documents name src/ paths that exist", () => {
  it("README.md, docs/*.md and bench/README.md", () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(["docs/guide.md", "docs/operations.md", "docs/decisions.md", "docs/benchmarks.md"]));
    const missing = DOCUMENTS.flatMap((doc) => srcPaths(readFileSync(doc, "utf8")).filter((p) => !existsSync(p.replace(/\/$/, ""))).map((p) => `${doc}: ${p}`));
    expect(missing).toEqual([]);
  });

  it("catches a stale one", () => {
    const text = "see `src/orders/order-moves.ts` and `src/app.ts:12`, `src/<domain>/`, `src/**/*.ts`, `src/generated/prisma/`, `npx x -o src/mf.d.ts`";
    expect(srcPaths(text)).toEqual(["src/orders/order-moves.ts", "src/app.ts"]);
    expect(srcPaths(text).filter((p) => !existsSync(p))).toEqual(["src/orders/order-moves.ts"]);
  });
});

/** A file name a comment gives (`orders/order-moves.ts`, `src/app.ts`): some file of the repository must end so. */
const FILE_IN_COMMENT = /(?<![\w./*-])((?:[\w.-]+\/)*[\w.-]+\.(?:ts|tsx))(?![\w/-])/g;

function comments(source: string): string[] {
  return [...source.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)].map((m) => m[0]);
}

describe("comments name files that exist", () => {
  const files = [...sourceFiles("src"), ...sourceFiles("scripts"), ...sourceFiles("test"), ...sourceFiles("bench"), ...sourceFiles("client"), "vitest.config.ts", "prisma.config.ts"];
  const exists = (name: string) => files.some((file) => file === name || file.endsWith(`/${name}`)) || name.startsWith("src/generated/");

  it("src/: every file a comment names is there", () => {
    const stale = sourceFiles("src").flatMap((file) =>
      comments(readFileSync(file, "utf8")).flatMap((text) => [...text.matchAll(FILE_IN_COMMENT)].map((m) => m[1]!).filter((name) => !exists(name)).map((name) => `${file}: ${name}`)),
    );
    expect(stale).toEqual([]);
  });

  it("catches a stale name", () => {
    const names = comments("// see pages/link-payment-page.tsx and orders/lifecycle.ts\nconst a = 1;").flatMap((t) => [...t.matchAll(FILE_IN_COMMENT)].map((m) => m[1]!));
    expect(names).toEqual(["pages/link-payment-page.tsx", "orders/lifecycle.ts"]);
    expect(names.filter((n) => !exists(n))).toEqual(["pages/link-payment-page.tsx"]);
  });
});
