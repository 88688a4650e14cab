import { Form, Select } from "antd";

interface FilterSelectProps<T extends string> {
  /** The search form's field (a path for nested values). */
  name: string | Array<string | number>;
  /** What it filters by: the select's accessible name. */
  label: string;
  /** Shown while nothing is chosen, and makes the choice clearable; omit when a value is required. */
  placeholder?: string;
  values: readonly T[];
  labelOf: (value: T) => string;
  /** Lists apply a filter as soon as it changes. */
  onChange: () => void;
  width: number;
}

/** One choice-of-values filter in a list's inline search form, the same in every list. */
export function FilterSelect<T extends string>({
  name,
  label,
  placeholder,
  values,
  labelOf,
  onChange,
  width,
}: FilterSelectProps<T>) {
  return (
    <Form.Item name={name} noStyle>
      <Select<T>
        allowClear={placeholder !== undefined}
        placeholder={placeholder}
        aria-label={label}
        onChange={onChange}
        options={values.map((value) => ({ value, label: labelOf(value) }))}
        style={{ width, marginInlineEnd: 12 }}
      />
    </Form.Item>
  );
}
