import type { Db } from "../db";
import { signerOf } from "../integrity/signing";
import { verifyChains } from "../integrity/verify";
import type { ScheduledJob } from "./scheduler";

/**
 * The daily verification of the audit trail's and the ledger's chains (docs/integrity.md), on one
 * instance; its signed result is recorded (chain_verifications) and a broken chain is logged.
 */
export function chainVerificationJob(
  signingKey: string,
  parts = 1,
  everySeconds = 86_400,
): ScheduledJob {
  return {
    name: "chain-verification",
    everySeconds,
    async run(db: Db) {
      const result = await verifyChains(db, signerOf(signingKey), null, { parts });
      return {
        status: result.status,
        rowsChecked: result.rowsChecked,
        breaks: result.breaks.map((found) => `${found.chain}#${found.rowId}:${found.kind}`),
      };
    },
  };
}
