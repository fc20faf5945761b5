import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** A full collection, so what is measured next is live memory, not what the young generation happens to hold. */
export function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Live memory: the JS heap and the Buffers outside it, after a collection. */
export function liveBytes(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}
