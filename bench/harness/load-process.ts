/**
 * The load generator's own process (forked by load.ts), so autocannon never shares an event loop with the
 * servers it measures. It receives one LoadSpec, runs it, answers one LoadResult and exits; or it receives a
 * SliceSequence and runs its slices one after the other, saying "start" before each and answering its result
 * after it (the parent reads its CPU clocks at both), then exits.
 */
import autocannon from "autocannon";
import type { LoadResult, LoadSpec, SliceMessage, SliceSequence } from "./load.js";

process.once("message", (message: LoadSpec | SliceSequence) => {
  const done = "slices" in message ? runSlices(message) : run(message).then((result) => send(result));
  void done.then(
    () => process.exit(0),
    (error: unknown) => send({ error: String(error) }).then(() => process.exit(1)),
  );
});

function send(message: SliceMessage | LoadResult | { error: string }): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

async function runSlices({ slices }: SliceSequence): Promise<void> {
  for (const [index, spec] of slices.entries()) {
    await send({ slice: index, phase: "start" });
    await send({ slice: index, phase: "done", result: await run(spec) });
  }
}

async function run(spec: LoadSpec): Promise<LoadResult> {
  let firstFailure: string | undefined;
  let next = 0;
  const bodies = spec.bodies;
  const placeholder = spec.freshPan;
  const series = spec.panSeries ?? 0;
  let sent = 0;
  const bodyOf = placeholder === undefined ? (body: string) => body : (body: string) => body.replace(placeholder, panOf(series, sent++));
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds }),
    requests: [
      {
        method: spec.method,
        headers: spec.headers,
        // Bodies in turn (a list shuffled by the caller where the order matters).
        ...(bodies && bodies.length > 0 ? { setupRequest: (req) => ({ ...req, body: bodyOf(bodies[next++ % bodies.length]!) }) } : {}),
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

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const letter = (n: number) => LETTERS[n % 26]!;

/**
 * The n-th PAN of a series: an individual's PAN (fourth letter P, digits never 0000), distinct for every
 * (series, n) up to 676 series of 175,742,424 PANs each: the series in the first two letters, n in the
 * digits and the three other letters.
 */
export function panOf(series: number, n: number): string {
  const digits = String(1 + (n % 9999)).padStart(4, "0");
  const rest = Math.floor(n / 9999);
  return `${letter(Math.floor(series / 26))}${letter(series)}${letter(rest)}P${letter(Math.floor(rest / 26))}${digits}${letter(Math.floor(rest / 676))}`;
}
