/**
 * The field presets (src/shared/kit/presets.ts) yield exactly the fields a declaration would
 * write with `field()`: the same zod types, the same options, nothing set to false (an option
 * turned off is left out), and the keys of a block in the record's order.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { defineModule, type FieldDecl } from "../../src/shared/kit/module";
import {
  administratorLink,
  choice,
  count,
  instant,
  money,
  recordId,
  reviewFields,
  selfLink,
  timestamps,
  userLink,
} from "../../src/shared/kit/presets";
import { isoDateTime } from "../../src/shared/kit/types";
import { PERMISSION } from "../../src/shared/permissions";

/** A field as data: its options and its type as JSON Schema. */
const shape = ({ schema, ...options }: FieldDecl) => ({ options, type: z.toJSONSchema(schema) });
const typeOf = (schema: z.ZodType) => z.toJSONSchema(schema);
const int = z.number().int();

describe("field presets", () => {
  it("recordId: filtered as a number range and sorted; options turn uses off or add a column", () => {
    expect(shape(recordId())).toEqual({
      options: { filter: "numberRange", sort: true },
      type: typeOf(int),
    });
    expect(shape(recordId({ filter: false })).options).toEqual({ sort: true });
    expect(shape(recordId({ list: 90 })).options).toEqual({
      list: { width: 90 },
      filter: "numberRange",
      sort: true,
    });
  });

  it("selfLink: the text naming a record, linked to its own page", () => {
    expect(shape(selfLink({ list: 190 }))).toEqual({
      options: {
        list: { width: 190 },
        show: true,
        filter: "text",
        search: true,
        export: true,
        display: { kind: "link", to: "self", idField: "id" },
      },
      type: typeOf(z.string()),
    });
    expect(shape(selfLink({ filter: false, sort: true })).options).toEqual({
      show: true,
      sort: true,
      search: true,
      export: true,
      display: { kind: "link", to: "self", idField: "id" },
    });
  });

  it("instant: a date-time shown, filtered by range, sorted and exported; nullable on demand", () => {
    expect(shape(instant())).toEqual({
      options: {
        show: true,
        filter: "dateRange",
        sort: true,
        export: true,
        display: { kind: "dateTime" },
      },
      type: typeOf(isoDateTime),
    });
    const lastLogin = instant({
      nullable: true,
      list: 130,
      show: false,
      export: false,
      display: "date",
      empty: "never",
    });
    expect(shape(lastLogin)).toEqual({
      options: {
        list: { width: 130 },
        filter: "dateRange",
        sort: true,
        display: { kind: "date" },
        empty: "never",
      },
      type: typeOf(isoDateTime.nullable()),
    });
    // Turned off is left out, as if never written.
    expect("show" in lastLogin).toBe(false);
    expect("export" in lastLogin).toBe(false);
  });

  it("timestamps: createdAt as an instant, then updatedAt in the record only", () => {
    const fields = timestamps({ list: 160, show: false });
    expect(Object.keys(fields)).toEqual(["createdAt", "updatedAt"]);
    expect(shape(fields.createdAt).options).toEqual({
      list: { width: 160 },
      filter: "dateRange",
      sort: true,
      export: true,
      display: { kind: "dateTime" },
    });
    expect(shape(fields.updatedAt)).toEqual({ options: {}, type: typeOf(isoDateTime) });
  });

  it("choice: an enum filtered as a choice, a tag when it has colours", () => {
    const statuses = z.enum(["pending", "paid"]);
    const status = choice(statuses, { list: 110, colours: { pending: "gold", paid: "green" } });
    expect(status.schema).toBe(statuses);
    expect(shape(status).options).toEqual({
      list: { width: 110 },
      show: true,
      filter: "choice",
      sort: true,
      export: true,
      display: { kind: "tag", colours: { pending: "gold", paid: "green" } },
    });
    expect(shape(choice(statuses, { sort: false })).options).toEqual({
      show: true,
      filter: "choice",
      export: true,
    });
  });

  it("money and count: amounts in sen and grouped numbers", () => {
    expect(shape(money())).toEqual({
      options: { show: true, export: true, display: { kind: "money" } },
      type: typeOf(int),
    });
    expect(
      shape(money({ nullable: true, list: 110, filter: true, sort: true, control: false })),
    ).toEqual({
      options: {
        list: { width: 110 },
        show: true,
        filter: "numberRange",
        control: false,
        sort: true,
        export: true,
        display: { kind: "money" },
      },
      type: typeOf(int.nullable()),
    });
    // A control is only said of a filter.
    expect("control" in money({ control: false })).toBe(false);
    expect(shape(count({ list: 100 })).options).toEqual({
      list: { width: 100 },
      show: true,
      sort: true,
      export: true,
      display: { kind: "count" },
    });
  });

  it("administratorLink: the id, then the name linked to the administrator's page", () => {
    const createdBy = administratorLink("createdBy", "createdByName");
    expect(Object.keys(createdBy)).toEqual(["createdBy", "createdByName"]);
    expect(shape(createdBy.createdBy)).toEqual({ options: {}, type: typeOf(int.nullable()) });
    expect(shape(createdBy.createdByName)).toEqual({
      options: {
        show: true,
        display: { kind: "link", to: "administrators", idField: "createdBy" },
      },
      type: typeOf(z.string().nullable()),
    });
    const assignee = administratorLink("assigneeId", "assigneeName", {
      list: 160,
      export: true,
      filter: true,
      empty: "nobody",
    });
    expect(shape(assignee.assigneeId).options).toEqual({ filter: "record", control: true });
    expect(shape(assignee.assigneeName).options).toEqual({
      list: { width: 160 },
      show: true,
      export: true,
      display: { kind: "link", to: "administrators", idField: "assigneeId" },
      empty: "nobody",
    });
  });

  it("userLink: userId, the account number linked to the user's page, the user's name", () => {
    const fields = userLink({ name: { list: 180, search: true } });
    expect(Object.keys(fields)).toEqual(["userId", "accountNumber", "userName"]);
    expect(shape(fields.userId)).toEqual({
      options: { filter: "numberRange" },
      type: typeOf(int),
    });
    expect(shape(fields.accountNumber).options).toEqual({
      list: { width: 130 },
      show: true,
      filter: "text",
      search: true,
      export: true,
      display: { kind: "link", to: "users", idField: "userId" },
    });
    expect(shape(fields.userName).options).toEqual({
      list: { width: 180 },
      show: true,
      search: true,
      export: true,
    });
    expect(shape(userLink({ account: 140 }).accountNumber).options.list).toEqual({ width: 140 });
  });

  it("reviewFields: the remark, the reviewer linked to their page, and when", () => {
    const fields = reviewFields();
    expect(Object.keys(fields)).toEqual(["remark", "reviewerId", "reviewerName", "reviewedAt"]);
    expect(shape(fields.remark).options).toEqual({ show: true, export: true });
    expect(shape(fields.reviewerName).options).toEqual({
      show: true,
      display: { kind: "link", to: "administrators", idField: "reviewerId" },
    });
    expect(shape(fields.reviewedAt)).toEqual({
      options: { show: true, filter: "dateRange", sort: true },
      type: typeOf(isoDateTime.nullable()),
    });
  });

  it("a module declared with presets passes defineModule's checks, its record in order", () => {
    const module = defineModule({
      name: "preset-things",
      collection: "preset-things",
      queryName: "presetThings",
      menu: "user-change-contact",
      permission: PERMISSION.user,
      thing: { one: "Thing", many: "Things" },
      i18n: "contact",
      paths: { list: "/preset-things", show: "/preset-thing" },
      fields: {
        id: recordId(),
        reference: selfLink({ list: 190 }),
        ...userLink(),
        status: choice(z.enum(["open", "closed"]), { list: 110 }),
        amountSen: money({ filter: true, sort: true }),
        items: count(),
        ...administratorLink("closedBy", "closedByName", { filter: true }),
        ...reviewFields(),
        ...timestamps(),
      },
      titleField: "reference",
      defaultSort: [["createdAt", "desc"]],
    });
    expect(Object.keys(module.item.shape)).toEqual([
      "id",
      "reference",
      "userId",
      "accountNumber",
      "userName",
      "status",
      "amountSen",
      "items",
      "closedBy",
      "closedByName",
      "remark",
      "reviewerId",
      "reviewerName",
      "reviewedAt",
      "createdAt",
      "updatedAt",
    ]);
  });
});
