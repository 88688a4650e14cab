import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CrudFilter } from "@refinedev/core";
import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../src/providers/i18n";
import {
  filtersOf as kitFiltersOf,
  restoreFilterTypes,
  searchOf as kitSearchOf,
  type ListSearch,
} from "../../src/app/kit/filters";
import { users } from "../../src/shared/modules/users";
import {
  APPROVAL_STATUSES,
  RIDER_VERIFICATION_STATUSES,
  USER_ROLES,
  WALLET_STATUSES,
} from "../../src/resources/users/tags";

/** The users list's search form, as the module kit draws it from the declaration. */
const filtersOf = ({ q, ...f }: { q?: string } & Record<string, unknown>) =>
  kitFiltersOf(users, { q, f } as ListSearch);
const searchOf = (filters: CrudFilter[]) => {
  const { q, f } = kitSearchOf(users, filters);
  return { q, ...f };
};

const given = (filters: CrudFilter[]) =>
  filters.filter((f) => "value" in f && f.value !== undefined);

describe("the users list's filters", () => {
  it("turn the search form into contract-ready filters, leaving out empty fields", () => {
    const filters = filtersOf({
      q: "  wei ling ",
      role: "rider",
      riderVerification: "pending",
      isBanned: "no",
      isVip: "yes",
      createdAt: [dayjs("2025-06-01"), dayjs("2025-06-30")],
    });
    expect(given(filters)).toEqual([
      { field: "q", operator: "contains", value: "wei ling" },
      { field: "role", operator: "eq", value: "rider" },
      { field: "riderVerification", operator: "eq", value: "pending" },
      { field: "isBanned", operator: "eq", value: false },
      { field: "isVip", operator: "eq", value: true },
      { field: "createdAt", operator: "between", value: ["2025-06-01", "2025-06-30"] },
    ]);
    expect(given(filtersOf({ q: "   " }))).toEqual([]);
  });

  it("read back the filters in force, including a dashboard link's", () => {
    const search = searchOf(
      filtersOf({ approvalStatus: "pending", isBanned: "yes" }).filter(
        (f) => f.value !== undefined,
      ),
    );
    expect(search).toMatchObject({ approvalStatus: "pending", isBanned: "yes", createdAt: null });
    expect(
      searchOf([{ field: "riderVerification", operator: "eq", value: "pending" }]),
    ).toMatchObject({ riderVerification: "pending" });
  });

  it("restore booleans that came back from the URL as text, and only those", () => {
    const fromUrl: CrudFilter[] = [
      { field: "isBanned", operator: "eq", value: "true" },
      { field: "isVip", operator: "eq", value: "false" },
      { field: "q", operator: "contains", value: "true" },
    ];
    expect(restoreFilterTypes(users, fromUrl)).toEqual([
      { field: "isBanned", operator: "eq", value: true },
      { field: "isVip", operator: "eq", value: false },
      { field: "q", operator: "contains", value: "true" },
    ]);
    expect(restoreFilterTypes(users, filtersOf({ isVip: "yes" }))).toBe(undefined);
  });
});

describe("the users texts", () => {
  const read = (language: string) =>
    JSON.parse(
      readFileSync(join(import.meta.dirname, `../../locales/${language}/users.json`), "utf8"),
    ) as Record<string, Record<string, string>> & {
      filters: Record<string, Record<string, string>>;
    };

  it.each(LANGUAGES)("name every role and status in %s", (language) => {
    const texts = read(language);
    for (const [group, values] of [
      ["role", USER_ROLES],
      ["approvalStatus", APPROVAL_STATUSES],
      ["walletStatus", WALLET_STATUSES],
      ["riderVerification", RIDER_VERIFICATION_STATUSES],
    ] as const) {
      expect(Object.keys(texts[group] ?? {}).sort(), group).toEqual([...values].sort());
    }
    for (const field of ["isBanned", "isVip"]) {
      expect(Object.keys(texts.filters[field] ?? {}).sort()).toEqual(["any", "label", "no", "yes"]);
    }
  });
});
