/**
 * Four eyes in the console's kit, without a screen: whom an action is offered to (offeredTo),
 * when a change waits for a second approver, and how the maker's reason travels.
 */
import { describe, expect, it } from "vitest";

import { actionApplies, offeredTo } from "../../src/app/kit/decision";
import { amountOf, needsApproval, reasonHeaders } from "../../src/app/kit/four-eyes";
import { CHANGE_REASON_HEADER } from "../../src/shared/kit/four-eyes";
import { changeRequests } from "../../src/shared/modules/change-requests";
import { topUps } from "../../src/shared/modules/top-ups";

const pending = { id: 1, status: "pending", makerId: 7 };
const { decide, withdraw } = changeRequests.actions as Required<typeof changeRequests.actions>;

describe("offeredTo", () => {
  it("offers a decision to anyone but the maker, and the withdrawal to the maker only", () => {
    expect(offeredTo(decide, pending, 7)).toBe(false);
    expect(offeredTo(decide, pending, 9)).toBe(true);
    expect(offeredTo(withdraw, pending, 7)).toBe(true);
    expect(offeredTo(withdraw, pending, 9)).toBe(false);
  });

  it("offers nothing meant for someone in particular while nobody is known", () => {
    expect(offeredTo(decide, pending, undefined)).toBe(false);
    expect(offeredTo(withdraw, pending, undefined)).toBe(false);
  });

  it("still applies the guard", () => {
    expect(actionApplies(decide, pending, "approve", 9)).toBe(true);
    expect(actionApplies(decide, { ...pending, status: "approved" }, "approve", 9)).toBe(false);
    expect(actionApplies(decide, pending, "approve", 7)).toBe(false);
  });
});

describe("needsApproval", () => {
  const create = topUps.create!.fourEyes!;
  const reverse = topUps.actions.reverse!.fourEyes!;

  it("is always so without a threshold", () => {
    expect(needsApproval(reverse, undefined, undefined)).toBe(true);
  });

  it("is so above the threshold only, and unknown without an amount or a threshold", () => {
    expect(needsApproval(create, 20_001, 20_000)).toBe(true);
    expect(needsApproval(create, 20_000, 20_000)).toBe(false);
    expect(needsApproval(create, undefined, 20_000)).toBeUndefined();
    expect(needsApproval(create, 30_000, undefined)).toBeUndefined();
  });

  it("is never so for a change declaring no four eyes", () => {
    expect(needsApproval(undefined, 99_999, 1)).toBe(false);
  });

  it("reads the amount from the body or the record, as declared", () => {
    expect(amountOf(create, { amountSen: 25_000 }, { amountSen: 1 })).toBe(25_000);
    expect(amountOf(reverse, { amountSen: 1 }, { amountSen: 4_200 })).toBe(4_200);
  });
});

describe("reasonHeaders", () => {
  it("percent-encodes the trimmed reason, and sends nothing for none", () => {
    expect(reasonHeaders("  Paid twice — 重复付款 ")).toEqual({
      [CHANGE_REASON_HEADER]: encodeURIComponent("Paid twice — 重复付款"),
    });
    expect(reasonHeaders("   ")).toBeUndefined();
    expect(reasonHeaders(undefined)).toBeUndefined();
  });
});
