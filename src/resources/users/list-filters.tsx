import { getDefaultFilter } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { DatePicker, Form, type FormProps } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";
import { FilterSelect } from "../../app/components/filter-select";
import { SearchBox } from "../../app/components/search-box";
import type { ApprovalStatus, RiderVerificationStatus, UserRole } from "../../providers/api-types";
import { APPROVAL_STATUSES, RIDER_VERIFICATION_STATUSES, USER_ROLES } from "./tags";

/** Refine's free-text field; the data provider sends it as the contract's `$search`. */
const SEARCH_FIELD = "q";
/** backoffice.md: dates are typed, and sent to the API, as YYYY-MM-DD. */
const DATE_INPUT_FORMAT = "YYYY-MM-DD";

/** The boolean filters (see restoreBooleanFilters for why the list needs to know them). */
export const BOOLEAN_FILTER_FIELDS: ReadonlySet<string> = new Set(["isBanned", "isVip"]);

/** A yes/no filter as a select value: antd's Select takes strings, the contract booleans. */
const YES_NO = ["yes", "no"] as const;
type YesNo = (typeof YES_NO)[number];

/**
 * The search form's values. Fields whose form value differs from the filter value have their own
 * names: @refinedev/antd copies URL filters into same-named form fields as they are, and a
 * date-range picker given two strings, or a select given `true`, would break.
 */
export interface UserSearch {
  q?: string;
  role?: UserRole;
  approvalStatus?: ApprovalStatus;
  riderVerification?: RiderVerificationStatus;
  banned?: YesNo;
  vip?: YesNo;
  registered?: [Dayjs, Dayjs] | null;
}

const toBoolean = (value: YesNo | undefined) => (value === undefined ? undefined : value === "yes");
const toYesNo = (value: unknown): YesNo | undefined =>
  value === true || value === "true"
    ? "yes"
    : value === false || value === "false"
      ? "no"
      : undefined;

/** The search form's values as Refine filters; an empty field removes its filter. */
export function filtersOf(values: UserSearch): CrudFilter[] {
  const [from, to] = values.registered ?? [];
  return [
    { field: SEARCH_FIELD, operator: "contains", value: values.q?.trim() || undefined },
    { field: "role", operator: "eq", value: values.role },
    { field: "approvalStatus", operator: "eq", value: values.approvalStatus },
    { field: "riderVerification", operator: "eq", value: values.riderVerification },
    { field: "isBanned", operator: "eq", value: toBoolean(values.banned) },
    { field: "isVip", operator: "eq", value: toBoolean(values.vip) },
    {
      field: "createdAt",
      operator: "between",
      value:
        from && to ? [from.format(DATE_INPUT_FORMAT), to.format(DATE_INPUT_FORMAT)] : undefined,
    },
  ];
}

/** The form's values for the filters in force (from the URL, a dashboard link or a search). */
export function searchOf(filters: CrudFilter[]): UserSearch {
  const range = getDefaultFilter("createdAt", filters, "between") as unknown;
  const [from, to] = Array.isArray(range) ? range.map((day) => dayjs(String(day))) : [];
  return {
    q: getDefaultFilter(SEARCH_FIELD, filters, "contains") as string | undefined,
    role: getDefaultFilter("role", filters, "eq") as UserRole | undefined,
    approvalStatus: getDefaultFilter("approvalStatus", filters, "eq") as ApprovalStatus | undefined,
    riderVerification: getDefaultFilter("riderVerification", filters, "eq") as
      RiderVerificationStatus | undefined,
    banned: toYesNo(getDefaultFilter("isBanned", filters, "eq")),
    vip: toYesNo(getDefaultFilter("isVip", filters, "eq")),
    registered: from?.isValid() && to?.isValid() ? [from, to] : null,
  };
}

export const isFiltered = (search: UserSearch) =>
  Object.values(search).some((value) => value !== undefined && value !== null && value !== "");

interface UserFiltersProps {
  formProps: FormProps<UserSearch>;
  initialValues: UserSearch;
}

/** Search box and filters above the users table; every change applies at once. */
export function UserFilters({ formProps, initialValues }: UserFiltersProps) {
  const { t } = useTranslation("users");
  const submit = () => formProps.form?.submit();

  return (
    <Form<UserSearch>
      {...formProps}
      layout="inline"
      role="search"
      initialValues={initialValues}
      style={{ marginBottom: 16, rowGap: 12 }}
    >
      <SearchBox namespace="users" onSearch={submit} />
      <FilterSelect<UserRole>
        name="role"
        label={t("list.filters.role")}
        placeholder={t("list.filters.allRoles")}
        values={USER_ROLES}
        labelOf={(value) => t(`role.${value}`)}
        onChange={submit}
        width={150}
      />
      <FilterSelect<ApprovalStatus>
        name="approvalStatus"
        label={t("list.filters.approvalStatus")}
        placeholder={t("list.filters.allApprovalStatuses")}
        values={APPROVAL_STATUSES}
        labelOf={(value) => t(`approvalStatus.${value}`)}
        onChange={submit}
        width={190}
      />
      <FilterSelect<RiderVerificationStatus>
        name="riderVerification"
        label={t("list.filters.riderVerification")}
        placeholder={t("list.filters.allRiderVerifications")}
        values={RIDER_VERIFICATION_STATUSES}
        labelOf={(value) => t(`riderVerification.${value}`)}
        onChange={submit}
        width={210}
      />
      {(["banned", "vip"] as const).map((field) => (
        <FilterSelect<YesNo>
          key={field}
          name={field}
          label={t(`list.filters.${field}.label`)}
          placeholder={t(`list.filters.${field}.any`)}
          values={YES_NO}
          labelOf={(value) => t(`list.filters.${field}.${value}`)}
          onChange={submit}
          width={field === "banned" ? 160 : 150}
        />
      ))}
      <Form.Item name="registered" noStyle>
        <DatePicker.RangePicker
          format={DATE_INPUT_FORMAT}
          placeholder={[t("list.filters.createdFrom"), t("list.filters.createdTo")]}
          aria-label={t("list.filters.createdAt")}
          onChange={submit}
        />
      </Form.Item>
    </Form>
  );
}
