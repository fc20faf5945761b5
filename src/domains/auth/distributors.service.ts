import type { Db, DbOrTx } from "../../platform/db/client.js";
import { AppError, type ErrorDetail } from "../../platform/lib/errors.js";
import { sha256Hex } from "../../platform/lib/crypto.js";
import { newId, newSecret } from "../../platform/lib/ids.js";
import * as repo from "./auth.repo.js";

export const ARN_PATTERN = /^ARN-[0-9]{1,10}$/;

export interface NewDistributor {
  distributor_id: string;
  arn: string;
  client_id: string;
  /** Shown once; only its hash is stored. */
  client_secret: string;
}

/** Creates a distributor with its first API client. */
export async function createDistributor(db: Db, input: { name: string; arn: string }): Promise<NewDistributor> {
  const name = input.name.trim();
  const arn = input.arn.trim().toUpperCase();
  const details: ErrorDetail[] = [];
  if (name.length === 0 || name.length > 200) details.push({ path: "name", message: "Name must be 1-200 characters", reason: name.length === 0 ? "too_small" : "too_big" });
  if (!ARN_PATTERN.test(arn)) details.push({ path: "arn", message: "ARN must be 'ARN-' followed by digits", reason: "invalid_format" });
  if (details.length > 0) throw new AppError("VALIDATION_ERROR", "The distributor is not valid", { details });
  if (await repo.findDistributorByArn(db, arn)) {
    throw new AppError("CONFLICT", `A distributor with ${arn} already exists`);
  }

  const created = { distributor_id: newId("dst"), arn, client_id: newId("mfc"), client_secret: newSecret("mfcs") };
  await repo.insertDistributorWithClient(db, {
    distributorId: created.distributor_id,
    name,
    arn,
    apiClientId: newId("acl"),
    clientId: created.client_id,
    secretHash: sha256Hex(created.client_secret),
  });
  return created;
}

/** Makes the given credentials valid for the distributor (sandbox seeding with fixed credentials). */
export async function setClientCredentials(
  db: Db,
  input: { distributorId: string; clientId: string; clientSecret: string },
): Promise<void> {
  await repo.upsertClientCredentials(db, {
    apiClientId: newId("acl"),
    distributorId: input.distributorId,
    clientId: input.clientId,
    secretHash: sha256Hex(input.clientSecret),
  });
}

/** A distributor's name and ARN (null for an unknown id): what an investor is shown of who proposes an order. */
export async function distributorNameAndArn(db: DbOrTx, id: string): Promise<{ name: string; arn: string } | null> {
  return repo.findDistributor(db, id);
}
