import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accessLineWriter, createLogger } from "../../src/lib/logger.js";
import { lineSink } from "../helpers/logs.js";

type Request = [requestId: string, method: string, path: string, status: number, durationMs: number];

const long = `/api/holdings/v1/${"x".repeat(90)}/ABCDE1234F`;
const REQUESTS: Request[] = [
  ["req_0b6c8f64-3a0e-4b4f-9b8e-1f2f3a4b5c6d", "GET", "/api/masters/v1/investor-options", 200, 3],
  ["ABCDE1234F", "POST", "/api/investors/v1/abcde1234f/nominees", 201, 0],
  ["req-2", "GET", "/api/order-links/v1/lnk_01k9zzzzzzzzzzzzzzzz", 404, 12],
  ["req-3", "GET", "/l/x%2FABCDE1234F%2Flnk_01k9abcdefgh", 404, 1],
  ["req-4", "GET", '/a"b\\cABCDE1234F\\nABCDE1234F', 400, 1],
  ["req-5", "GET", "/a\nABCDE1234F\tlnk_01k9abcdefgh\u0001", 404, 1],
  ["req-6", "GET", long, 404, 1],
  ["req-7", "GET", "/é/ABCDE1234F/XABCDE1234F/ABCDE1234FX/ABCDE1234F", 404, 1],
  ["req-8", "DELETE", "", 500, 1234567],
  ["req_0b6c8f64-3a0e-4b4f-9b8e-1234f2f3a4b5", "GET", "/p/ABCDE12345F/AB1CDE1234F/ABCD1234F/abcdE1234f", 404, 1],
  ["req-9", "GET", "/p/xABCDE1234F_lnk_01k9abcdefgh/LNK_01K9ABCDEFGH/lNk_01k9a", 404, 1],
];

/** The line pino itself writes, as the app wrote it before: a child without field redaction, `info(fields, "request")`. */
function viaPino(logger: pino.Logger, [requestId, method, path, status, durationMs]: Request): void {
  logger.child({}, { redact: { paths: [] } }).info({ request_id: requestId, method, path, status, duration_ms: durationMs }, "request");
}

describe("the access line", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T06:28:18.123Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("is byte for byte the line pino writes, PANs and link ids masked", () => {
    const ours: string[] = [];
    const pinos: string[] = [];
    const write = accessLineWriter(createLogger("info", lineSink(ours)));
    const logger = createLogger("info", lineSink(pinos));
    for (const request of REQUESTS) {
      write(...request);
      viaPino(logger, request);
    }
    expect(ours).toEqual(pinos);
    expect(ours).toHaveLength(REQUESTS.length);
    expect(ours[0]).toBe(
      '{"level":30,"time":"2026-11-24T06:28:18.123Z","request_id":"req_0b6c8f64-3a0e-4b4f-9b8e-1f2f3a4b5c6d","method":"GET",' +
        '"path":"/api/masters/v1/investor-options","status":200,"duration_ms":3,"msg":"request"}',
    );
    expect(ours[1]).toContain('"request_id":"ABXXXXX34F"');
    expect(ours[2]).toContain('"path":"/api/order-links/v1/lnk_01k9***"');
    expect(ours[4]).toContain('"path":"/a\\"b\\\\cABCDE1234F\\\\nABXXXXX34F"');
    expect(ours[5]).toContain('"path":"/a\\nABXXXXX34F\\tlnk_01k9***\\u0001"');
  });

  it("goes through a multistream to the streams of its level only, as pino's", async () => {
    const [infoLines, warnLines, pinoInfo, pinoWarn]: [string[], string[], string[], string[]] = [[], [], [], []];
    const multi = (info: string[], warn: string[]) =>
      pino.multistream([
        { level: "info", stream: lineSink(info) },
        { level: "warn", stream: lineSink(warn) },
      ]);
    const write = accessLineWriter(createLogger("info", multi(infoLines, warnLines)));
    const logger = createLogger("info", multi(pinoInfo, pinoWarn));
    for (const request of REQUESTS) {
      write(...request);
      viaPino(logger, request);
    }
    await vi.waitFor(() => expect(infoLines).toHaveLength(REQUESTS.length));
    expect(infoLines).toEqual(pinoInfo);
    expect(warnLines).toEqual([]);
    expect(pinoWarn).toEqual([]);
  });

  it("is not written when the logger's level is above info", () => {
    const lines: string[] = [];
    const write = accessLineWriter(createLogger("warn", lineSink(lines)));
    write(...REQUESTS[0]!);
    expect(lines).toEqual([]);
  });

  it("comes from a pino child for a logger made elsewhere", () => {
    const ours: string[] = [];
    const pinos: string[] = [];
    const options = { base: undefined, timestamp: pino.stdTimeFunctions.epochTime };
    accessLineWriter(pino(options, lineSink(ours)))(...REQUESTS[0]!);
    viaPino(pino(options, lineSink(pinos)), REQUESTS[0]!);
    expect(ours).toEqual(pinos);
    expect(JSON.parse(ours[0]!)).toMatchObject({ time: Date.now(), request_id: REQUESTS[0]![0] });
  });
});
