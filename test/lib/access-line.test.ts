import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accessLineWriter, createLogger } from "../../src/platform/lib/logger.js";
import { lineSink } from "../helpers/logs.js";

type Request = [requestId: string, method: string, path: string, status: number, durationMs: number];

const REQUESTS: Request[] = [
  ["req_0b6c8f64-3a0e-4b4f-9b8e-1f2f3a4b5c6d", "GET", "/api/masters/v1/investor-options", 200, 3],
  ["ABCDE1234F", "POST", "/api/investors/v1/abcde1234f/nominees", 201, 0],
  ["req-2", "GET", "/api/order-links/v1/lnk_01k9zzzzzzzzzzzzzzzz", 404, 12],
  ["req-4", "GET", '/a"b\\cABCDE1234F\\nABCDE1234F', 400, 1],
  ["req-5", "GET", "/a\nABCDE1234F\tlnk_01k9abcdefgh\u0001", 404, 1],
];

/** The access lines a logger of createLogger writes for `requests`. */
function linesOf(requests: Request[], level = "info"): string[] {
  const lines: string[] = [];
  const write = accessLineWriter(createLogger(level, lineSink(lines)));
  for (const request of requests) write(...request);
  return lines;
}

describe("the access line", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T06:28:18.123Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("has the request's fields in a fixed order, PANs and link ids masked", () => {
    const lines = linesOf(REQUESTS);
    expect(lines).toHaveLength(REQUESTS.length);
    expect(lines[0]).toBe(
      '{"level":30,"time":"2026-11-24T06:28:18.123Z","request_id":"req_0b6c8f64-3a0e-4b4f-9b8e-1f2f3a4b5c6d","method":"GET",' +
        '"path":"/api/masters/v1/investor-options","status":200,"duration_ms":3,"msg":"request"}',
    );
    expect(lines[1]).toBe(
      '{"level":30,"time":"2026-11-24T06:28:18.123Z","request_id":"ABXXXXX34F","method":"POST",' +
        '"path":"/api/investors/v1/abXXXXX34f/nominees","status":201,"duration_ms":0,"msg":"request"}',
    );
    expect(lines[2]).toContain('"path":"/api/order-links/v1/lnk_01k9***"');
    expect(lines[3]).toContain('"path":"/a\\"b\\\\cABCDE1234F\\\\nABXXXXX34F"');
    expect(lines[4]).toContain('"path":"/a\\nABXXXXX34F\\tlnk_01k9***\\u0001"');
  });

  it("writes a status or duration that is not a finite number as null", () => {
    expect(linesOf([["r1", "GET", "/", Number.NaN, Number.POSITIVE_INFINITY]])).toEqual([
      '{"level":30,"time":"2026-11-24T06:28:18.123Z","request_id":"r1","method":"GET","path":"/","status":null,"duration_ms":null,"msg":"request"}',
    ]);
  });

  it("masks PANs with 0 and 9, a and z in any case", () => {
    expect(JSON.parse(linesOf([["r1", "GET", "/ZZZZZ0909A/aaaaa9090z", 200, 1]])[0]!).path).toBe("/ZZXXXXX09A/aaXXXXX90z");
  });

  it("goes through a multistream to the streams of its level only", async () => {
    const [infoLines, warnLines]: [string[], string[]] = [[], []];
    const multi = pino.multistream([
      { level: "info", stream: lineSink(infoLines) },
      { level: "warn", stream: lineSink(warnLines) },
    ]);
    const write = accessLineWriter(createLogger("info", multi));
    for (const request of REQUESTS) write(...request);
    // Before waiting: vi.waitFor moves the faked clock on.
    const direct = linesOf(REQUESTS);
    await vi.waitFor(() => expect(infoLines).toHaveLength(REQUESTS.length));
    expect(infoLines).toEqual(direct);
    expect(warnLines).toEqual([]);
  });

  it("is not written when the logger's level is above info", () => {
    expect(linesOf([REQUESTS[0]!], "warn")).toEqual([]);
  });

  it("is not redacted, whatever the logger redacts", () => {
    const lines: string[] = [];
    const logger = pino({ base: undefined, timestamp: false, redact: { paths: ["path", "method", "request_id"], censor: "[redacted]" } }, lineSink(lines));
    accessLineWriter(logger)("r1", "GET", "/x", 200, 1);
    expect(lines).toEqual(['{"level":30,"request_id":"r1","method":"GET","path":"/x","status":200,"duration_ms":1,"msg":"request"}']);
  });
});
