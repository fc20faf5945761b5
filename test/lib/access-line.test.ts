import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { lineSink } from "../helpers/logs.js";

// maskLogLine itself, watched: the access line must call it for exactly the values that may hold a PAN or a link id.
vi.mock("../../src/platform/lib/mask.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/platform/lib/mask.js")>();
  return { ...actual, maskLogLine: vi.fn(actual.maskLogLine) };
});
// The suite's workers keep the modules one test file imported for the next (isolate: false): logger.js is
// imported afresh here, so that it is the one importing the watched mask.js.
vi.resetModules();
const { accessLineWriter, createLogger } = await import("../../src/platform/lib/logger.js");
const { maskLogLine } = await import("../../src/platform/lib/mask.js");

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

describe("the access line's values", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T06:28:18.123Z"));
  });
  afterEach(() => vi.useRealTimers());

  /** Our line and pino's for one request, which must be the same. */
  function lines(request: Request): string {
    const ours: string[] = [];
    const pinos: string[] = [];
    accessLineWriter(createLogger("info", lineSink(ours)))(...request);
    viaPino(createLogger("info", lineSink(pinos)), request);
    expect(ours).toEqual(pinos);
    expect(ours).toHaveLength(1);
    return ours[0]!;
  }

  /** The texts maskLogLine is called with when the access line of a request for `path` is written. */
  function masking(path: string): string[] {
    const write = accessLineWriter(createLogger("info", lineSink([])));
    vi.mocked(maskLogLine).mockClear();
    write("r1", "GET", path, 200, 1);
    return vi.mocked(maskLogLine).mock.calls.map(([text]) => text);
  }

  it("are escaped as pino does: quotes and backslashes at either end, control characters, over 100 characters", () => {
    const path = (text: string) => JSON.parse(lines(["r1", "GET", text, 200, 1])).path as string;
    const raw = (text: string) => {
      const line = lines(["r1", "GET", text, 200, 1]);
      return line.slice(line.indexOf(',"path":') + 8, line.indexOf(',"status":'));
    };
    expect(raw('"ab')).toBe('"\\"ab"');
    expect(raw('ab"')).toBe('"ab\\""');
    expect(raw("\\ab")).toBe('"\\\\ab"');
    expect(raw("ab\\")).toBe('"ab\\\\"');
    expect(raw('"')).toBe('"\\""');
    expect(raw("")).toBe('""');
    expect(raw("\u001f")).toBe('"\\u001f"');
    expect(raw("\n")).toBe('"\\n"');
    expect(raw("\u001fab")).toBe('"\\u001fab"');
    expect(raw(" ")).toBe('" "');
    // A lone surrogate shows which way a value went: JSON.stringify escapes it, pino's own escaping keeps it (and
    // the stream writes it as U+FFFD).
    expect(path("a b\ud800")).toBe("a b\ufffd");
    expect(path("\ud800")).toBe("\ufffd");
    expect(path("\n\ud800")).toBe("\n\ud800");
    expect(path(`${"x".repeat(99)}\ud800`)).toBe(`${"x".repeat(99)}\ufffd`);
    expect(path(`${"x".repeat(100)}\ud800`)).toBe(`${"x".repeat(100)}\ud800`);
    expect(raw(`"${"x".repeat(99)}`)).toBe(`"\\"${"x".repeat(99)}"`);
    expect(raw(`"${"x".repeat(100)}`)).toBe(`"\\"${"x".repeat(100)}"`);
  });

  it("write a status or duration that is not a finite number as null, as pino does", () => {
    expect(lines(["r1", "GET", "/", Number.NaN, Number.POSITIVE_INFINITY])).toBe(
      '{"level":30,"time":"2026-11-24T06:28:18.123Z","request_id":"r1","method":"GET","path":"/","status":null,"duration_ms":null,"msg":"request"}',
    );
    expect(lines(["r1", "GET", "/", 200, -0.5])).toContain('"status":200,"duration_ms":-0.5,');
  });

  it("are masked by maskLogLine only when they hold 5 letters, 4 digits and a letter, or nk_ (any case)", () => {
    for (const path of ["ABCDE1234F", "/x/ABCDE1234F", "ABCDE1234F/x", "abcde1234f", "zZaAz9090Z", "AZaza0999a", "xABCDEF1234G", "nk_", "lnk_x", "NK_", "nK_", "/lnk_"]) {
      expect(masking(path), path).toEqual([JSON.stringify(path)]);
    }
    const nearMisses = [
      "", "GET", "1234", "12345", "ABCD1234F", "BCDE1234F/", "ABCDE1234", "ABCDE1234/", "ABCDE123F", "ABCDE12345F", "ABCDEx123F", "ABCDEFGH1J", "ABCDE1x34F",
      "ABCDE----F", "ABCDE/.-/F", "ABCDE::::F", "ABCDE////F", "ABCDE0000/", "ABCDE9999/",
      "k_", "_", "_x", "n_", "nk", "nkx", "nk-", "xk_", "nx_", "mk_", "nj_", "ok_", "nl_", "k_nk", "n k_",
    ];
    for (const other of ["-", "@", "[", "`", "{", "~", " ", "0"]) {
      for (let at = 0; at < 5; at++) nearMisses.push(`${"ABCDE".slice(0, at)}${other}${"ABCDE".slice(at + 1)}1234F`);
      nearMisses.push(`ABCDE1234${other}`);
    }
    for (const path of nearMisses) expect(masking(path), path).toEqual([]);
  });

  it("mask PANs with 0 and 9, a and z in any case", () => {
    expect(JSON.parse(lines(["r1", "GET", "/ZZZZZ0909A/aaaaa9090z", 200, 1])).path).toBe("/ZZXXXXX09A/aaXXXXX90z");
  });
});

describe("the access line's stream", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-24T06:28:18.123Z"));
  });
  afterEach(() => vi.useRealTimers());

  /** A stream that asks for the line's metadata (as pino's multistream does) and keeps what it saw at each write. */
  function metadataSink() {
    const seen: Record<string, unknown>[] = [];
    const stream = {
      [pino.symbols.needsMetadataGsym]: true,
      write(this: Record<string, unknown>, line: string) {
        seen.push({ line, level: this.lastLevel, obj: this.lastObj, msg: this.lastMsg, time: this.lastTime, child: this.lastLogger !== undefined });
      },
    };
    return { seen, stream: stream as unknown as pino.DestinationStream };
  }

  it("is given the line's level, fields, message and time when it asks for them, as pino gives them", () => {
    const ours = metadataSink();
    const pinos = metadataSink();
    accessLineWriter(createLogger("info", ours.stream))(...REQUESTS[1]!);
    viaPino(createLogger("info", pinos.stream), REQUESTS[1]!);
    expect(ours.seen).toEqual(pinos.seen);
    expect(ours.seen).toEqual([
      {
        line: '{"level":30,"time":"2026-11-24T06:28:18.123Z","request_id":"ABXXXXX34F","method":"POST","path":"/api/investors/v1/abXXXXX34f/nominees","status":201,"duration_ms":0,"msg":"request"}\n',
        level: 30,
        obj: { request_id: "ABCDE1234F", method: "POST", path: "/api/investors/v1/abcde1234f/nominees", status: 201, duration_ms: 0 },
        msg: "request",
        time: '"2026-11-24T06:28:18.123Z"',
        child: true,
      },
    ]);
  });

  it("is given no metadata when it does not ask for it", () => {
    const sink = lineSink([]);
    accessLineWriter(createLogger("info", sink))(...REQUESTS[0]!);
    expect(Object.keys(sink).filter((key) => key.startsWith("last"))).toEqual([]);
  });

  it("of a logger of createLogger gets a line masked value by value, not by pino's hook over the whole line", () => {
    const lines: string[] = [];
    const write = accessLineWriter(createLogger("info", lineSink(lines)));
    vi.mocked(maskLogLine).mockClear();
    write("r1", "GET", "/x", 200, 1);
    expect(maskLogLine).not.toHaveBeenCalled();
    expect(lines).toHaveLength(1);
  });

  it("of a logger made elsewhere gets the line unredacted, whatever the logger redacts", () => {
    const lines: string[] = [];
    const logger = pino({ base: undefined, timestamp: false, redact: { paths: ["path", "method", "request_id"], censor: "[redacted]" } }, lineSink(lines));
    accessLineWriter(logger)("r1", "GET", "/x", 200, 1);
    expect(lines).toEqual(['{"level":30,"request_id":"r1","method":"GET","path":"/x","status":200,"duration_ms":1,"msg":"request"}']);
  });
});
