import type { Db, DbOrTx } from "../../platform/db/client.js";
import { sha256Hex } from "../../platform/lib/crypto.js";
import { newId, newSecret } from "../../platform/lib/ids.js";
import * as repo from "./auth.repo.js";
import { arnTaken, requireValidDistributor } from "./rules.js";

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
  requireValidDistributor(name, arn);
  if (await repo.findDistributorByArn(db, arn)) throw arnTaken(arn);

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

/** Every distributor's ARN by id. */
export async function distributorArns(db: DbOrTx) {
  return repo.distributorArns(db);
}

/** The distributor of an ARN, or null. */
export async function findDistributorByArn(db: DbOrTx, arn: string) {
  return repo.findDistributorByArn(db, arn);
}
