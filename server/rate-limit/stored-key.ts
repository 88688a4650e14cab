import { createHash } from "node:crypto";

/**
 * What a rate-limit key is stored as: its SHA-256. Keys hold what clients send (a login's e-mail,
 * read before validation, may hold any character, NUL included, which a text column refuses), and
 * a table of e-mail addresses and client addresses is not worth keeping.
 */
export const storedKey = (key: string) => createHash("sha256").update(key).digest("base64url");
