/**
 * The load generator's own process (forked by load.ts), so autocannon never shares an event loop with the
 * servers it measures. It receives one LoadSpec, runs it, answers one LoadResult and exits.
 */
import autocannon from "autocannon";
import type { LoadResult, LoadSpec } from "./load.js";

process.once("message", (spec: LoadSpec) => {
  void run(spec).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
  );
});

async function run(spec: LoadSpec): Promise<LoadResult> {
  let firstFailure: string | undefined;
  let next = 0;
  const bodies = spec.bodies;
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds }),
    requests: [
      {
        method: spec.method,
        headers: spec.headers,
        // Bodies in turn (a list shuffled by the caller where the order matters).
        ...(bodies && bodies.length > 0 ? { setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) } : {}),
        onResponse: (status, body) => {
          if (status !== spec.expectStatus && firstFailure === undefined) firstFailure = `${status}: ${String(body).slice(0, 500)}`;
        },
      },
    ],
  });
  const stats = (result.statusCodeStats ?? {}) as Record<string, { count: number } | undefined>;
  const expected = stats[String(spec.expectStatus)]?.count ?? 0;
  return {
    rate: result.duration > 0 ? result.requests.total / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    seconds: result.duration,
    unexpected: result.requests.total - expected + result.errors,
    errors: result.errors,
    firstFailure,
  };
}
