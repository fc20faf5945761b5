import { Writable } from "node:stream";
import { createLogger } from "../../src/platform/lib/logger.js";

/** A stream that appends every line written to it to `lines`. */
export function lineSink(lines: string[]): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
}

/** A real logger at `level` whose JSON lines the test reads back. */
export function capturingLogger(level = "info") {
  const lines: string[] = [];
  return { lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>), logger: createLogger(level, lineSink(lines)) };
}
