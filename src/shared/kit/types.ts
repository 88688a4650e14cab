import { z } from "zod";

/** Timestamps cross the API as ISO-8601 strings with an offset. */
export const isoDateTime = z.iso.datetime({ offset: true });

/** The largest amount of money the API takes, in sen (RM 10 million): beyond any campus wallet. */
export const MAX_SEN = 1_000_000_000;

/** An amount of money staff type: whole sen, positive, at most MAX_SEN. */
export const positiveSen = z
  .int("Amount must be a whole number of sen")
  .min(1, "Amount must be positive")
  .max(MAX_SEN, `Amount must be at most ${MAX_SEN} sen`);
