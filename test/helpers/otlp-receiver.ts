import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One span as OTLP/JSON carries it (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding), flattened with its resource. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 INTERNAL, 2 SERVER, 3 CLIENT, 4 PRODUCER, 5 CONSUMER. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
  status: { code?: number };
  resource: Record<string, string | number | boolean>;
}

export const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Requests refused (wrong method, path, content type or body), as `status reason`. */
  refused: string[];
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type KeyValue = { key: string; value: AnyValue };

const HEX_ID = { trace: /^[0-9a-f]{32}$/, span: /^[0-9a-f]{16}$/ };

/**
 * A strict OTLP/HTTP trace receiver (what a collector's otlp receiver does): POST /v1/traces with an
 * ExportTraceServiceRequest in JSON (`Content-Type: application/json`), ids as lower-case hex; anything
 * else is refused (404, 405, 415, 400). A good request is answered 200 with an empty
 * ExportTraceServiceResponse.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const refused: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const refuse = (status: number, reason: string) => {
        refused.push(`${status} ${reason}`);
        res.writeHead(status, { "content-type": "text/plain" }).end(reason);
      };
      if (req.url !== "/v1/traces") return refuse(404, `path ${req.url}`);
      if (req.method !== "POST") return refuse(405, `method ${req.method}`);
      const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "application/json") return refuse(415, `content type ${type}`);
      try {
        spans.push(...parseRequest(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
      } catch (error) {
        return refuse(400, (error as Error).message);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseRequest(body: { resourceSpans?: unknown }): ReceivedSpan[] {
  if (!Array.isArray(body.resourceSpans)) throw new Error("no resourceSpans");
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans as Array<{ resource?: { attributes?: KeyValue[] }; scopeSpans?: unknown }>) {
    const resource = attributesOf(rs.resource?.attributes);
    if (!Array.isArray(rs.scopeSpans)) throw new Error("no scopeSpans");
    for (const ss of rs.scopeSpans as Array<{ spans?: unknown }>) {
      if (!Array.isArray(ss.spans)) throw new Error("no spans");
      for (const s of ss.spans as Array<Record<string, unknown>>) {
        const span = {
          traceId: String(s.traceId),
          spanId: String(s.spanId),
          parentSpanId: typeof s.parentSpanId === "string" ? s.parentSpanId : "",
          name: String(s.name),
          kind: Number(s.kind),
          attributes: attributesOf(s.attributes as KeyValue[] | undefined),
          links: ((s.links as Array<{ traceId: string; spanId: string }> | undefined) ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          status: (s.status as { code?: number } | undefined) ?? {},
          resource,
        };
        if (!HEX_ID.trace.test(span.traceId) || !HEX_ID.span.test(span.spanId)) throw new Error(`bad ids on span ${span.name}`);
        if (span.parentSpanId && !HEX_ID.span.test(span.parentSpanId)) throw new Error(`bad parent id on span ${span.name}`);
        if (!(span.kind >= 1 && span.kind <= 5)) throw new Error(`bad kind on span ${span.name}`);
        out.push(span);
      }
    }
  }
  return out;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
  }
  return out;
}
