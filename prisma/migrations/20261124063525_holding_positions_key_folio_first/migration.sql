-- The key's columns in the order the registrars' feeds list their rows (a distributor's folios in turn), so that a
-- refresh's inserts land next to the previous one in the index; the key itself is unchanged. (distributor_id,
-- registrar) still leads, for the refresh's DELETE of a distributor's positions. Edited by hand, as in the
-- holdings migration: DEFERRABLE INITIALLY IMMEDIATE (Prisma does not model deferrability).
-- AlterTable
ALTER TABLE "holding_positions" DROP CONSTRAINT "holding_positions_pkey",
ADD CONSTRAINT "holding_positions_pkey" PRIMARY KEY ("distributor_id", "registrar", "folio_no", "amc_code", "registrar_scheme_code") DEFERRABLE INITIALLY IMMEDIATE;
