/**
 * The one-way rule of README "How it is built", checked in CI (`npm run lint:deps`).
 * Type-only imports count too (tsPreCompilationDeps), except where a rule says otherwise.
 */
/** The entry points and the assembly points: the top floor. */
const TOP = "^src/(app|main|shutdown|cli|runtime|worker|router|openapi|tasks|build-services)[.]ts$";
/** The transports: tRPC, the REST adapter over it, and the hosted pages (HTML for investors, over the same services). */
const EDGE = "^src/(trpc|http|pages)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "Files never import each other in a loop: each one can be read and tested from the bottom up.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "edge-only-at-the-edge",
      comment: "Only the top and the transports (trpc/, http/, pages/) know tRPC, HTTP and HTML; domains, jobs and the ground floor do not.",
      severity: "error",
      from: { path: "^src/", pathNot: [TOP, EDGE, "[.]router[.]ts$"] },
      to: { path: EDGE },
    },
    {
      name: "routers-reach-only-trpc-init",
      comment: "A domain's *.router.ts is its edge: it may take the procedure builders of trpc/init.ts, nothing else of trpc/ or http/.",
      severity: "error",
      from: { path: "[.]router[.]ts$", pathNot: EDGE },
      to: { path: EDGE, pathNot: "^src/trpc/init[.]ts$" },
    },
    {
      name: "nothing-imports-the-top",
      comment: "The entry points and assembly points (app router, OpenAPI document, task list, services) import the layers; no layer imports them.",
      severity: "error",
      from: { path: "^src/", pathNot: TOP },
      to: { path: TOP },
    },
    {
      name: "lib-is-the-ground",
      comment: "lib/ is the ground floor: it imports nothing of src/ but lib/ itself (env.ts reads its helpers, so not the other way).",
      severity: "error",
      from: { path: "^src/lib/" },
      to: { path: "^src/", pathNot: "^src/lib/" },
    },
    {
      name: "core-runs-on-the-ground",
      comment: "core/ runs only lib/, db/ and env.ts; its Services type may name the types of the services it holds.",
      severity: "error",
      from: { path: "^src/core/" },
      to: { path: "^src/", pathNot: ["^src/(core|lib|db)/", "^src/env[.]ts$"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "no-barrels",
      comment: "No index files that hand names on: an importer names the module that defines what it uses.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^src/.*/index[.]ts$", pathNot: "^src/generated/" },
    },
    {
      name: "prisma-only-in-repos-and-db",
      comment: "The Prisma client and the generated models are imported only by *.repo.ts and db/ (lib/money.ts: Prisma's Decimal, the money type); the calls themselves (services.prisma.x, tx.x, $queryRaw), which import nothing, are checked by scripts/prisma-calls.ts in the same npm run lint:deps.",
      severity: "error",
      from: { path: "^src/", pathNot: ["[.]repo[.]ts$", "^src/db/", "^src/generated/", "^src/lib/money[.]ts$"] },
      to: { path: ["^node_modules/@prisma/client", "^src/generated/"] },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^src/generated/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
