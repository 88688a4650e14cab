/**
 * Password hashes (server/auth/password.ts): scrypt at 2^15 unless PASSWORD_HASH_COST says
 * otherwise, and a stored hash verified at the cost it was made with, so that the cost can be
 * raised (or, outside production, lowered for the tests) without locking anyone out.
 */
import { afterAll, describe, expect, it } from "vitest";

import {
  configurePasswordHashing,
  hashPassword,
  verifyAgainstDecoy,
  verifyPassword,
} from "../../server/auth/password";
import { DEFAULT_PASSWORD_HASH_COST } from "../../server/config";

const PASSWORD = "Correct#Horse1";

afterAll(() => configurePasswordHashing({ cost: DEFAULT_PASSWORD_HASH_COST }));

describe("password hashes", () => {
  it("are scrypt with N = 2^15, r = 8, p = 1 by default, and verify only their password", async () => {
    configurePasswordHashing({ cost: DEFAULT_PASSWORD_HASH_COST });
    const stored = await hashPassword(PASSWORD);
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword("Correct#Horse2", stored)).toBe(false);
    expect(await verifyAgainstDecoy(PASSWORD)).toBe(false);
  });

  it("keep the cost they were made with when the configured cost changes", async () => {
    configurePasswordHashing({ cost: 10 });
    const cheap = await hashPassword(PASSWORD);
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    configurePasswordHashing({ cost: 16 });
    const dear = await hashPassword(PASSWORD);
    expect(dear).toMatch(/^scrypt\$65536\$8\$1\$/);
    expect(await verifyPassword(PASSWORD, cheap)).toBe(true);
    configurePasswordHashing({ cost: 10 });
    expect(await verifyPassword(PASSWORD, dear)).toBe(true);
  });

  it("refuse a stored hash whose cost would make verifying it a denial of service", async () => {
    const [, , r, p, salt, key] = (await hashPassword(PASSWORD)).split("$");
    expect(await verifyPassword(PASSWORD, ["scrypt", 2 ** 21, r, p, salt, key].join("$"))).toBe(
      false,
    );
    expect(await verifyPassword(PASSWORD, ["scrypt", 1000, r, p, salt, key].join("$"))).toBe(false);
  });
});
