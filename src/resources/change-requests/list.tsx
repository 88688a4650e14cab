import type { CrudFilter } from "@refinedev/core";
import { Flex, Segmented, Select } from "antd";
import { useTranslation } from "react-i18next";

import { csvHeader, csvText } from "../../app/kit/cells";
import { ModuleList } from "../../app/kit/module-list";
import { MODULES } from "../../app/registry";
import { useCurrentAdmin } from "../../providers/current-admin";
import type { ModuleDecl } from "../../shared/kit/module";
import { changeRequests } from "../../shared/modules/change-requests";
import { moduleWords, verbWords, wordedCells } from "./words";

type Row = { id: number } & Record<string, unknown>;

/** The field that names who asked for a change: "mine" filters by it. */
const MAKER = "makerId";

/** The field naming the module a request changes: the module choice filters by it. */
const MODULE = "module";

/** Whether a module declares a second approver on any of its actions or forms. */
const hasFourEyes = (module: ModuleDecl) =>
  Object.values(module.actions).some((action) => action.fourEyes) ||
  Boolean(module.create?.fourEyes) ||
  Boolean(module.edit?.fourEyes);

/** The modules a request can be about, in the console's order. */
const FOUR_EYES_MODULES = MODULES.filter(hasFourEyes).map((module) => module.name);

const valueOf = (filters: CrudFilter[], field: string) =>
  filters.find((filter) => "field" in filter && filter.field === field && filter.operator === "eq")
    ?.value;
const without = (filters: CrudFilter[], field: string) =>
  filters.filter((filter) => !("field" in filter && filter.field === field));

/** Whether the list is filtered to `me`'s own requests. */
const isMine = (filters: CrudFilter[], me: number | undefined) =>
  me !== undefined &&
  filters.some(
    (filter) => "field" in filter && filter.field === MAKER && Number(filter.value) === me,
  );

/**
 * Pending approvals: every request the signed-in administrator may see (the server leaves out the
 * rest), opening on the pending ones; "Mine" narrows it to the requests they made themselves.
 */
export default function ChangeRequestList() {
  const { t } = useTranslation(["changeRequests", "kit"]);
  const me = useCurrentAdmin()?.id;
  const cells = wordedCells(t);
  return (
    <ModuleList
      module={changeRequests}
      render={cells}
      toolbar={({ filters, setFilters }) => (
        <Flex gap={12} wrap align="center" style={{ marginBottom: 12 }}>
          {me !== undefined && (
            <Segmented<"all" | "mine">
              aria-label={t("list.whose")}
              style={{ maxWidth: "100%" }}
              value={isMine(filters, me) ? "mine" : "all"}
              options={[
                { value: "all", label: t("list.all") },
                { value: "mine", label: t("list.mine") },
              ]}
              onChange={(value) => {
                const others = without(filters, MAKER);
                setFilters(
                  value === "mine"
                    ? [...others, { field: MAKER, operator: "eq", value: me }]
                    : others,
                );
              }}
            />
          )}
          <Select<string>
            allowClear
            aria-label={t("list.moduleFilter")}
            placeholder={t("list.anyModule")}
            style={{ width: 220, maxWidth: "100%" }}
            value={valueOf(filters, MODULE) as string | undefined}
            options={FOUR_EYES_MODULES.map((name) => ({
              value: name,
              label: moduleWords(t, name),
            }))}
            onChange={(value: string | undefined) => {
              const others = without(filters, MODULE);
              setFilters(value ? [...others, { field: MODULE, operator: "eq", value }] : others);
            }}
          />
        </Flex>
      )}
      csvColumns={() =>
        Object.entries(changeRequests.fields)
          .filter(([, decl]) => decl.export)
          .map(([field]) => ({
            header: csvHeader(t, changeRequests, field),
            value: (row: Row) =>
              field === "module"
                ? moduleWords(t, row.module)
                : field === "verb"
                  ? verbWords(t, row.module, row.verb)
                  : csvText(t, changeRequests, field, row[field], row),
          }))
      }
    />
  );
}
