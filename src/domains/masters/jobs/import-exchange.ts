import type { TaskHandler } from "../../shared/jobs/task.js";
import { importMastersDir } from "../exchange-masters.dir.js";
import { describeMasterImport, MasterFileError } from "../exchange-masters.import.js";

/**
 * The daily import of the exchange's masters from EXCHANGE_MASTERS_DIR. A refused file (a header without a
 * required column, no valid row) changes nothing and is not retried: the operator replaces it.
 */
export const importExchangeMastersJob: TaskHandler<"masters__import_exchange"> = async (_payload, { services, log }) => {
  const dir = services.config.exchangeMasters.dir;
  if (!dir) {
    log.info("EXCHANGE_MASTERS_DIR is not set: the exchange's masters are imported by hand (npm run mf -- masters:import-exchange)");
    return;
  }
  try {
    const result = await importMastersDir(services.prisma, dir);
    if (!result) {
      log.warn({ dir }, "no scheme master in EXCHANGE_MASTERS_DIR (a file whose name holds 'scheme'): nothing imported");
      return;
    }
    log.info({ files: result.files, summary: { schemes: { ...result.summary.schemes, problems: result.summary.schemes.problems.length }, sip: result.summary.sip && { ...result.summary.sip, problems: result.summary.sip.problems.length } } }, describeMasterImport(result.summary).slice(0, 1).join(" "));
  } catch (error) {
    if (!(error instanceof MasterFileError)) throw error;
    log.error({ dir, problem: error.message }, "the exchange's masters were refused: nothing imported");
  }
};
