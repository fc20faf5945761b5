/**
 * The sandbox's demo distributor: seeded at every sandbox start (seed/sandbox.ts); the sandbox
 * registrar's books hold demo folios for it (src/integrations/registrars/sandbox/sandbox-folios.ts).
 */
export const SANDBOX_DISTRIBUTOR = { name: "Sandbox Distributor", arn: "ARN-000001" };
