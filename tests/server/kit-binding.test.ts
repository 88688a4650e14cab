/**
 * What the server's reader refuses when it starts: a declaration and a binding that disagree
 * fail with the module and the field named, before any request is served.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { changeContactSubmissions } from "../../server/db/schema";
import { bindModule } from "../../server/kit/bind";
import { decision, defineModule, effectAction, field } from "../../src/shared/kit/module";
import { PERMISSION } from "../../src/shared/permissions";

const declare = (extra: Record<string, unknown> = {}) =>
  defineModule({
    name: "probe",
    collection: "probes",
    queryName: "probes",
    menu: "user-change-contact",
    permission: PERMISSION.user,
    thing: { one: "Probe", many: "Probes" },
    i18n: "contact",
    paths: { list: "/user-change-contact" },
    fields: {
      id: field(z.number().int(), { filter: "numberRange" }),
      status: field(z.enum(["pending", "approved", "rejected"]), { filter: "choice" }),
      ...extra,
    },
    titleField: "id",
    defaultSort: [["id", "desc"]],
    actions: { decide: decision({ when: { status: ["pending"] }, audit: "probe" }) },
  });

const decide = async () => {};

describe("binding a declaration to a table", () => {
  it("refuses a field the table has no column for, naming module, field and table", () => {
    expect(() =>
      bindModule(declare({ colour: field(z.string()) }), {
        table: changeContactSubmissions,
        actions: { decide },
      }),
    ).toThrow('Module "probe": field "colour" has no column in table "change_contact_submissions"');
  });

  it("refuses an action without its business rules", () => {
    expect(() => bindModule(declare(), { table: changeContactSubmissions } as never)).toThrow(
      'Module "probe": action "decide" has no handler',
    );
  });

  it("refuses a scope without its condition", () => {
    const scoped = { ...declare(), scope: "stale" };
    expect(() =>
      bindModule(scoped, { table: changeContactSubmissions, actions: { decide } }),
    ).toThrow('Module "probe": scope "stale" has no condition');
    expect(() =>
      bindModule(scoped, {
        table: changeContactSubmissions,
        actions: { decide },
        scope: sql`true`,
      }),
    ).not.toThrow();
  });

  it("refuses an action that answers after its effect without the effect, and the reverse", () => {
    const mailed = {
      ...declare(),
      actions: {
        decide: effectAction({
          verb: "send",
          done: "sent",
          when: {},
          audit: "probe",
          conflictCode: "CONFLICT",
          answer: { status: 202, response: z.object({ status: z.literal("sent") }) },
        }),
      },
    };
    const problem =
      'Module "probe": action "decide": its declared answer and the binding\'s "after" go together';
    expect(() =>
      bindModule(mailed, { table: changeContactSubmissions, actions: { decide } }),
    ).toThrow(problem);
    expect(() =>
      bindModule(declare(), {
        table: changeContactSubmissions,
        actions: { decide: { run: decide, after: async () => ({ status: "sent" }) } },
      }),
    ).toThrow(problem);
    expect(() =>
      bindModule(mailed, {
        table: changeContactSubmissions,
        actions: { decide: { run: decide, after: async () => ({ status: "sent" }) } },
      }),
    ).not.toThrow();
  });

  it("takes a computed column for a field the table lacks", () => {
    const bound = bindModule(declare({ colour: field(z.string(), { filter: "text" }) }), {
      table: changeContactSubmissions,
      columns: { colour: sql<string>`'blue'` } as never,
      actions: { decide },
    });
    expect(bound.collection.fields.colour).toMatchObject({ type: "text", filterable: true });
    expect(bound.collection.fields.status).toMatchObject({
      type: "choice",
      values: ["pending", "approved", "rejected"],
    });
  });
});
