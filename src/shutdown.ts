import type { ServerType } from "@hono/node-server";
import { errorSummary, type Logger } from "./platform/lib/logger.js";
import type { Runtime } from "./runtime.js";
import type { WorkerHandle } from "./worker.js";
import type { Tracing } from "./platform/tracing/setup.js";

/**
 * The service's ordered stop: the HTTP server, the worker, then the database, and last the spans still
 * batched are sent. A failure of the first two is logged in one line and the database is closed all the
 * same; the answer is the exit code (1 when any part failed; spans that could not be sent only warn).
 */
export async function stopService(
  parts: { server?: ServerType; worker?: WorkerHandle; runtime: Pick<Runtime, "close">; logger: Logger; tracing?: Pick<Tracing, "shutdown"> },
  signal: string,
): Promise<number> {
  const { server, worker, runtime, logger, tracing } = parts;
  logger.info({ signal }, "stopping");
  let exitCode = 0;
  try {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await worker?.stop();
  } catch (error) {
    logger.error({ error: errorSummary(error) }, "stopping the server or the worker failed; closing the database all the same");
    exitCode = 1;
  }
  try {
    await runtime.close();
  } catch (error) {
    logger.error({ error: errorSummary(error) }, "closing the database failed");
    exitCode = 1;
  }
  await tracing?.shutdown().catch((error: unknown) => logger.warn({ error: errorSummary(error) }, "sending the last spans failed"));
  logger.info({ exit_code: exitCode }, "stopped");
  return exitCode;
}
