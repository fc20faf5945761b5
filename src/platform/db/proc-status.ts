import { existsSync, readFileSync } from "node:fs";

/** What Linux's /proc says of a process: whether it is a data directory's postmaster, its parent, its state. */

/**
 * Whether `pid` is the live postmaster of `dataDir` ("postgres"), gone, or a live process of another
 * program or another data directory ("other": the pid was reused).
 */
export function processState(pid: number, dataDir: string): "postgres" | "gone" | "other" {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return "gone";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return "gone";
    const args = commandLine(pid);
    return /postgres$/.test(args[0] ?? "") && args.includes(dataDir) ? "postgres" : "other";
  } catch {
    // No /proc (not Linux), or it ended a moment ago: trust kill(0).
    return existsSync(`/proc/${pid}`) ? "gone" : "postgres";
  }
}

/** A process's arguments, its program first, from /proc/<pid>/cmdline; throws when it cannot be read. */
export function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
}

/** The parent pid of a live process from /proc/<pid>/stat, undefined when it cannot be read. */
export function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command name in parentheses (which may hold spaces): state, then the parent pid.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** A process's state letter from /proc/<pid>/stat ("Z": a zombie), undefined when it cannot be read. */
export function processStatus(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/** Whether this system has /proc to read. */
export const hasProc = (): boolean => existsSync("/proc/self/stat");
