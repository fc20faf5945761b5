/**
 * The top frames of a CPU profile (`node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/<name>.ts`): self time
 * by function and by package (node_modules/<package>, node: internals, our src/, bench/), largest first.
 *   npx tsx bench/harness/top-frames.ts DIR/<file>.cpuprofile [count] [after=<text>]
 * With `after=<text>`, only the samples after the last one whose frame's URL contains <text>: e.g.
 * `after=@hono/node-server` keeps bench:dispatch's drain (the backlog is placed over HTTP before it).
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, countArg, afterArg] = process.argv.slice(2);
if (!file) throw new Error("usage: top-frames.ts <file.cpuprofile> [count] [after=<text>]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const count = Number(countArg ?? 25);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
if (afterArg?.startsWith("after=")) {
  const text = afterArg.slice("after=".length);
  let last = -1;
  profile.samples.forEach((id, i) => {
    if (byId.get(id)!.callFrame.url.includes(text)) last = i;
  });
  profile.samples = profile.samples.slice(last + 1);
  profile.timeDeltas = profile.timeDeltas.slice(last + 1);
}
const selfByFrame = new Map<string, number>();
const selfByPackage = new Map<string, number>();
let total = 0;

function packageOf(url: string): string {
  if (!url) return "(native, gc, idle)";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith("node:")) return "node: internals";
  const src = url.indexOf("/src/");
  if (src >= 0) return `src/${url.slice(src + 5).split("/")[0]}`;
  return url.includes("/bench/") ? "bench" : url;
}

profile.samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const { functionName, url, lineNumber } = node.callFrame;
  const frame = `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(src|bench)\//, "$1/")}:${lineNumber + 1}`;
  selfByFrame.set(frame, (selfByFrame.get(frame) ?? 0) + dt);
  const pkg = functionName === "(idle)" ? "(idle)" : packageOf(url);
  selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + dt);
});

const busy = total - (selfByPackage.get("(idle)") ?? 0);
const print = (title: string, map: Map<string, number>) => {
  console.log(`\n${title} (share of busy time, ${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s)`);
  for (const [name, us] of [...map].filter(([n]) => n !== "(idle)" && !n.startsWith("(idle)")).sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${((100 * us) / busy).toFixed(1).padStart(5)}%  ${name}`);
  }
};
print("by package", selfByPackage);
print("by function", selfByFrame);
