-- A position keeps only the keyed hash of its registrar PAN (the lookup's key): the ciphertext was written by the
-- import and never read. "PAN is stored encrypted or not at all": the registrar PANs stored so far go with it.
-- AlterTable
ALTER TABLE "holding_positions" DROP COLUMN "pan_encrypted";
