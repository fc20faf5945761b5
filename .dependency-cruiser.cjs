/**
 * The one-way rule of README "The map of the code", checked in CI (`npm run lint:deps`): three kinds of code in
 * three places, and the assembly above them.
 *
 *   src/*.ts, src/pages/, src/seed/                 the assembly: entry points, the app router, the task list, the
 *                                                   hosted pages, the sandbox seed, the OpenAPI document
 *   src/domains/<domain>/                           the business (mutual funds), one folder per domain
 *   src/integrations/<party>/                       the parties outside: the exchange, the registrars, AMFI
 *   src/platform/                                   knows nothing of mutual funds: http, trpc, db, jobs, lib
 *
 * Type-only imports count too (tsPreCompilationDeps).
 */
/** The configuration (src/env.ts) sits below the domains that read it; the other files at the top are the assembly. */
const TOP = "^src/(?!env[.]ts$)[^/]+[.]tsx?$";
const ASSEMBLY = [TOP, "^src/(pages|seed)/"];
/** An integration's adapters for one party (its port's implementations): only the integration itself and the assembly use them. */
const ADAPTERS = "^src/integrations/exchange/bse/";
/** The transports: tRPC's procedure machinery and the HTTP layer. */
const TRANSPORT = "^src/platform/(trpc|http)/";
/** A domain's edge: its router, its raw HTTP handlers, and the procedure builders and request context all routers share. */
const DOMAIN_EDGE = ["[.]router[.]ts$", "[.]http[.]ts$", "^src/domains/shared/(procedures|context)[.]ts$"];

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
      name: "platform-knows-no-business",
      comment: "src/platform/ knows nothing of mutual funds: it imports only itself (and, in db/, the generated Prisma client).",
      severity: "error",
      from: { path: "^src/platform/" },
      to: { path: "^src/", pathNot: ["^src/platform/", "^src/generated/"] },
    },
    {
      name: "integrations-import-no-domain",
      comment: "src/integrations/ speaks for the parties outside: it imports the platform and other integrations, never a domain or the assembly.",
      severity: "error",
      from: { path: "^src/integrations/" },
      to: { path: "^src/", pathNot: ["^src/platform/", "^src/integrations/", "^src/generated/"] },
    },
    {
      name: "domains-use-ports-not-adapters",
      comment: "A domain talks to a party outside through its port (integrations/<party>/*.ts), never through the adapter behind it (bse/): which adapter runs is the assembly's choice.",
      severity: "error",
      from: { path: "^src/domains/" },
      to: { path: ADAPTERS },
    },
    {
      name: "domains-below-the-assembly",
      comment: "Domains import the platform, the integrations' ports and each other; never the assembly above them (entry points, hosted pages, seed, OpenAPI document).",
      severity: "error",
      from: { path: "^src/domains/" },
      to: { path: ASSEMBLY },
    },
    {
      name: "domains-read-each-other-through-services",
      comment: "A domain reads another domain's data through that domain's service functions, never its repo (a repo's SQL may join another domain's table; the events recorder is shared by all).",
      severity: "error",
      from: { path: "^src/domains/([^/]+)/", pathNot: "[.]repo[.]ts$" },
      to: { path: "^src/domains/[^/]+/.*[.]repo[.]ts$", pathNot: ["^src/domains/$1/", "^src/domains/events/events[.]repo[.]ts$"] },
    },
    {
      name: "transport-only-at-the-edge",
      comment: "Inside a domain only its edge (*.router.ts, *.http.ts, shared/procedures.ts and shared/context.ts) knows tRPC and HTTP; services, rules, repos and jobs do not.",
      severity: "error",
      from: { path: "^src/domains/", pathNot: DOMAIN_EDGE },
      to: { path: TRANSPORT },
    },
    {
      name: "nothing-imports-the-top",
      comment: "The entry points and assembly points (app router, OpenAPI document, task list, services) import the layers; no layer imports them.",
      severity: "error",
      from: { path: "^src/", pathNot: ASSEMBLY },
      to: { path: TOP },
    },
    {
      name: "lib-is-the-ground",
      comment: "platform/lib/ is the ground floor: it imports nothing of src/ but lib/ itself.",
      severity: "error",
      from: { path: "^src/platform/lib/" },
      to: { path: "^src/", pathNot: "^src/platform/lib/" },
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
      comment: "The Prisma client and the generated models are imported only by *.repo.ts and platform/db/ (platform/lib/money.ts: Prisma's Decimal, the money type); the calls themselves (services.prisma.x, tx.x, $queryRaw), which import nothing, are checked by scripts/prisma-calls.ts in the same npm run lint:deps.",
      severity: "error",
      from: { path: "^src/", pathNot: ["[.]repo[.]ts$", "^src/platform/db/", "^src/generated/", "^src/platform/lib/money[.]ts$"] },
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
