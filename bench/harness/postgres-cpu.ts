/**
 * CPU time of the embedded PostgreSQL server (the postmaster and every backend), from /proc: the other half of a
 * request's server cost, which the benchmarks' rates on a shared two-core machine hide. Linux only; elsewhere (or
 * with DATABASE_URL, where the server is not ours) undefined.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on every Linux build that matters). */
const TICKS_PER_SECOND = 100;

let watched: string | undefined;

/** Counts the server of this data directory from now on (openStack calls it for the embedded database). */
export function watchPostgresCpu(dataDir: string): void {
  watched = dataDir;
}

/**
 * The server's CPU time so far, in microseconds: the postmaster's own and its reaped children's, and each live
 * child's. Differences between two readings are what a run cost PostgreSQL (backends live as long as the pools).
 */
export function postgresCpuMicros(): number | undefined {
  if (watched === undefined) return undefined;
  try {
    const postmaster = Number(readFileSync(path.join(watched, "postmaster.pid"), "utf8").split("\n")[0]);
    let ticks = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = statOf(Number(entry));
      if (stat === undefined) continue;
      if (Number(entry) === postmaster) ticks += stat.utime + stat.stime + stat.cutime + stat.cstime;
      else if (stat.ppid === postmaster) ticks += stat.utime + stat.stime;
    }
    return (ticks * 1_000_000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Fields of /proc/<pid>/stat after the command's closing parenthesis (which may itself hold spaces). */
function statOf(pid: number): { ppid: number; utime: number; stime: number; cutime: number; cstime: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // gone meanwhile
  }
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // f[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
  return { ppid: Number(f[1]), utime: Number(f[11]), stime: Number(f[12]), cutime: Number(f[13]), cstime: Number(f[14]) };
}
