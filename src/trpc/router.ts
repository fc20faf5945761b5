import { authRouter } from "../auth/auth.router.js";
import { mastersRouter } from "../masters/masters.router.js";
import { router } from "./init.js";

export const appRouter = router({
  auth: authRouter,
  masters: mastersRouter,
});

/** The typed router for first-party clients (`@trpc/client`). */
export type AppRouter = typeof appRouter;
