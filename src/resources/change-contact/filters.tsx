import { getDefaultFilter } from "@refinedev/antd";
import type { CrudFilter } from "@refinedev/core";
import { Form, type FormProps } from "antd";
import { useTranslation } from "react-i18next";
import { FilterSelect } from "../../app/components/filter-select";
import { SearchBox } from "../../app/components/search-box";
import type { ChangeContactSubmissionDto } from "../../providers/api-types";

export type SubmissionStatus = ChangeContactSubmissionDto["status"];
export type ContactType = ChangeContactSubmissionDto["contactType"];

export const SUBMISSION_STATUSES: readonly SubmissionStatus[] = ["pending", "approved", "rejected"];
export const CONTACT_TYPES: readonly ContactType[] = ["email", "phone"];

/** "All statuses" is an explicit `in` filter, so it survives a reload instead of the default. */
const ALL = "all";
type StatusChoice = SubmissionStatus | typeof ALL;

export interface ContactSearch {
  q?: string;
  status?: StatusChoice;
  contactType?: ContactType;
}

/** The filters the list opens with: pending submissions, the work still to do. */
export const INITIAL_FILTERS: CrudFilter[] = [
  { field: "status", operator: "eq", value: "pending" },
];

export function filtersOf(values: ContactSearch): CrudFilter[] {
  const status = values.status ?? "pending";
  return [
    { field: "q", operator: "contains", value: values.q?.trim() || undefined },
    { field: "status", operator: "eq", value: status === ALL ? undefined : status },
    {
      field: "status",
      operator: "in",
      value: status === ALL ? [...SUBMISSION_STATUSES] : undefined,
    },
    { field: "contactType", operator: "eq", value: values.contactType },
  ];
}

export function searchOf(filters: CrudFilter[]): ContactSearch {
  const status = getDefaultFilter("status", filters, "eq") as SubmissionStatus | undefined;
  const all = getDefaultFilter("status", filters, "in") as unknown;
  return {
    q: getDefaultFilter("q", filters, "contains") as string | undefined,
    status: status ?? (Array.isArray(all) ? ALL : undefined),
    contactType: getDefaultFilter("contactType", filters, "eq") as ContactType | undefined,
  };
}

export const isFiltered = (search: ContactSearch) =>
  Boolean(search.q) || search.contactType !== undefined;

/** Search box, status and contact type above the submissions table; changes apply at once. */
export function ContactFilters({
  formProps,
  initialValues,
}: {
  formProps: FormProps<ContactSearch>;
  initialValues: ContactSearch;
}) {
  const { t } = useTranslation("contact");
  const submit = () => formProps.form?.submit();
  return (
    <Form<ContactSearch>
      {...formProps}
      layout="inline"
      role="search"
      initialValues={initialValues}
      style={{ marginBottom: 16, rowGap: 12 }}
    >
      <SearchBox namespace="contact" onSearch={submit} />
      <FilterSelect<StatusChoice>
        name="status"
        label={t("list.filters.status")}
        values={[...SUBMISSION_STATUSES, ALL]}
        labelOf={(value) => t(`status.${value}`)}
        onChange={submit}
        width={160}
      />
      <FilterSelect<ContactType>
        name="contactType"
        label={t("list.filters.contactType")}
        placeholder={t("list.filters.allTypes")}
        values={CONTACT_TYPES}
        labelOf={(value) => t(`contactType.${value}`)}
        onChange={submit}
        width={160}
      />
    </Form>
  );
}
