import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Form, Select } from "antd";
import { useDeferredValue, useState } from "react";

import type { OptionsList } from "../../shared/kit/options";
import { dataProvider } from "../../providers/data";

/** A record's choices from the module's options route: by a part of its name, or by its id. */
function useOptions(url: string, query: { search?: string; ids?: string }, enabled = true) {
  return useQuery({
    queryKey: ["options", url, query],
    placeholderData: keepPreviousData,
    enabled,
    queryFn: async ({ signal }) => {
      const { data } = await dataProvider.custom!<OptionsList>({
        url,
        method: "get",
        query,
        meta: { signal },
      });
      return data.options;
    },
  });
}

/**
 * A `record` filter: a searchable select of another table's records by name (a business), its
 * choices from `GET /api/{collection}/options/{field}` as staff type; the chosen id is the filter.
 * A filter already in force (from the URL) is named by asking for its id.
 */
export function RecordFilter({
  name,
  url,
  label,
  placeholder,
  notFound,
  failed,
  onChange,
}: {
  name: Array<string | number>;
  url: string;
  label: string;
  placeholder: string;
  notFound: string;
  failed: string;
  onChange: () => void;
}) {
  const [typed, setTyped] = useState("");
  const search = useDeferredValue(typed.trim());
  const chosen = Form.useWatch(name) as number | undefined;
  const found = useOptions(url, search ? { search } : {});
  const named = useOptions(url, { ids: String(chosen) }, typeof chosen === "number");
  const options = [...(named.data ?? []), ...(found.data ?? [])].filter(
    (option, index, all) => all.findIndex((other) => other.value === option.value) === index,
  );
  return (
    <Form.Item name={name} noStyle>
      <Select<number>
        showSearch
        allowClear
        filterOption={false}
        onSearch={setTyped}
        placeholder={placeholder}
        aria-label={label}
        loading={found.isFetching}
        notFoundContent={found.isError ? failed : notFound}
        options={options}
        onChange={() => {
          setTyped("");
          onChange();
        }}
        style={{ width: 220, marginInlineEnd: 12 }}
      />
    </Form.Item>
  );
}
