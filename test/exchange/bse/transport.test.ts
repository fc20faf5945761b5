import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExchangeUnavailableError } from "../../../src/integrations/exchange/port.js";
import { ORDER_ENTRY_SERVICE } from "../../../src/integrations/exchange/bse/soap.js";
import { BseTransport, ExchangeNotDeliveredError } from "../../../src/integrations/exchange/bse/transport.js";
import { startBseDouble, type BseDouble } from "../../helpers/bse-double/double.js";
import { ORDER_ACTION, ORDER_PATH } from "../../helpers/bse-double/sessions.js";
import { capturingLogger } from "../../helpers/logs.js";

let double: BseDouble;
const seen: Array<Array<[string, string]>> = [];

beforeAll(async () => {
  double = await startBseDouble();
  double.soap(ORDER_PATH, ORDER_ACTION("echo"), ({ params }) => {
    seen.push(params);
    return params.map(([name, value]) => `${name}=${value}`).join("|");
  });
});
afterAll(() => double.close());

const transport = (baseUrl = double.baseUrl, timeoutMs = 2000) => new BseTransport({ baseUrl, timeoutMs, log: capturingLogger().logger });

async function failure(call: Promise<unknown>): Promise<Error> {
  const error = await call.then(() => null, (e: unknown) => e as Error);
  if (!error) throw new Error("expected a failure");
  return error;
}

describe("BSE transport", () => {
  it("posts SOAP 1.2 to the service's path with the action, and answers the Result text", async () => {
    // The double refuses a wrong content type, an action that differs from wsa:Action and a wrong wsa:To.
    expect(await transport().soap(ORDER_ENTRY_SERVICE, "echo", [["A", "x & <y>"], ["B", null]])).toBe("A=x & <y>|B=");
    expect(seen.at(-1)).toEqual([["A", "x & <y>"], ["B", ""]]);
  });

  it("a timeout is unavailable (the request may have arrived)", async () => {
    double.failNext("echo", "timeout-before");
    const error = await failure(transport(double.baseUrl, 300).soap(ORDER_ENTRY_SERVICE, "echo", []));
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect(error).not.toBeInstanceOf(ExchangeNotDeliveredError);
    expect(error.message).toBe("BSE order-entry echo: no answer within 300 ms");
  });

  it("a refused connection was never delivered", async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const error = await failure(transport(`http://127.0.0.1:${closed}`).soap(ORDER_ENTRY_SERVICE, "echo", []));
    expect(error).toBeInstanceOf(ExchangeNotDeliveredError);
    expect(error.message).toBe("BSE order-entry echo: could not connect (ECONNREFUSED)");
  });

  it("a 5xx, a SOAP fault and a malformed envelope are unavailable", async () => {
    double.failNext("echo", "http-503");
    expect(await failure(transport().soap(ORDER_ENTRY_SERVICE, "echo", []))).toMatchObject({ name: "ExchangeUnavailableError", message: "BSE order-entry echo: HTTP 503" });
    double.failNext("echo", "malformed");
    expect(await failure(transport().soap(ORDER_ENTRY_SERVICE, "echo", []))).toMatchObject({
      name: "ExchangeUnavailableError",
      message: "BSE order-entry echo: malformed answer (the answer is not well-formed XML)",
    });
    const fault = await failure(transport().soap(ORDER_ENTRY_SERVICE, "noSuchOperation", []));
    expect(fault).toBeInstanceOf(ExchangeUnavailableError);
    expect(fault.message).toMatch(/^BSE order-entry noSuchOperation: HTTP 500 \(SOAP fault: The message with Action 'http:\/\/bsestarmf.in\/MFOrderEntry\/noSuchOperation' cannot be processed/);
  });
});
