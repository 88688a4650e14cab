import type { CrudFilter } from "@refinedev/core";
import { Segmented } from "antd";
import { useTranslation } from "react-i18next";

import { csvHeader, csvText } from "../../app/kit/cells";
import { ModuleList } from "../../app/kit/module-list";
import { useCurrentAdmin } from "../../providers/current-admin";
import { changeRequests } from "../../shared/modules/change-requests";
import { moduleWords, verbWords, wordedCells } from "./words";

type Row = { id: number } & Record<string, unknown>;

/** The field that names who asked for a change: "mine" filters by it. */
const MAKER = "makerId";

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
      toolbar={({ filters, setFilters }) =>
        me === undefined ? null : (
          <Segmented<"all" | "mine">
            aria-label={t("list.whose")}
            style={{ marginBottom: 12, maxWidth: "100%" }}
            value={isMine(filters, me) ? "mine" : "all"}
            options={[
              { value: "all", label: t("list.all") },
              { value: "mine", label: t("list.mine") },
            ]}
            onChange={(value) => {
              const others = filters.filter(
                (filter) => !("field" in filter && filter.field === MAKER),
              );
              setFilters(
                value === "mine"
                  ? [...others, { field: MAKER, operator: "eq", value: me }]
                  : others,
              );
            }}
          />
        )
      }
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
