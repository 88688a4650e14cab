import { z } from "zod";

/** Timestamps cross the API as ISO-8601 strings with an offset. */
export const isoDateTime = z.iso.datetime({ offset: true });
