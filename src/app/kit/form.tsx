import {
  Alert,
  Button,
  DatePicker,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  Switch,
  type ButtonProps,
  type FormProps,
  type SelectProps,
} from "antd";
import type { FormInstance, Rule } from "antd/es/form";
import dayjs, { type Dayjs } from "dayjs";
import i18next, { type TFunction } from "i18next";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";

import type { FormDecl, InputHint, ModuleDecl } from "../../shared/kit/module";
import { formatBasisPoints, formatRinggit } from "../../shared/money";
import { RichText } from "./rich-text";
import { fieldLabel, moduleText, valueLabel } from "./texts";

type Values = Record<string, unknown>;

/** A body key's zod type without optional / nullable wrappers. */
function inner(schema: z.ZodType): z.ZodType {
  let type = schema;
  while (type instanceof z.ZodOptional || type instanceof z.ZodNullable) {
    type = type.unwrap() as z.ZodType;
  }
  return type;
}

/** The keys a form draws (a literal is sent as it is, with no input). */
export const inputsOf = (decl: FormDecl) =>
  Object.entries(decl.body.shape as Record<string, z.ZodType>).filter(
    ([, schema]) => !(inner(schema) instanceof z.ZodLiteral),
  );

/** A form's values as the API takes them: its literals added, then parsed by its own schema. */
export function bodyOf(decl: FormDecl, values: Values) {
  const literals = Object.entries(decl.body.shape as Record<string, z.ZodType>).flatMap(
    ([key, schema]) => {
      const type = inner(schema);
      return type instanceof z.ZodLiteral ? [[key, type.value] as const] : [];
    },
  );
  // An untouched optional input is undefined, and blank text is no text.
  const given = Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined && value !== ""),
  );
  return decl.body.safeParse({ ...given, ...Object.fromEntries(literals) });
}

/** A value in the words it is typed in: money in ringgit, rates as percentages. */
const shown = (hint: InputHint | undefined, value: unknown) =>
  typeof value !== "number"
    ? String(value)
    : hint?.kind === "money"
      ? formatRinggit(value)
      : hint?.kind === "basisPoints"
        ? formatBasisPoints(value)
        : String(value);

/**
 * A zod issue in the staff member's language (`kit:form.*`, or the module's own words for a
 * rule it names, `<ns>:form.<rule>`), with the limit in the units the input is typed in.
 */
export function issueText(
  t: TFunction,
  module: ModuleDecl,
  decl: FormDecl,
  key: string,
  issue: z.core.$ZodIssue,
): string {
  const text = moduleText(t, module);
  const field = fieldLabel(t, module, key);
  const hint = decl.inputs?.[key];
  switch (issue.code) {
    // A choice left empty (a category nobody picked): asked for, not called invalid.
    case "invalid_value":
      if (issue.input === undefined || issue.input === null || issue.input === "")
        return text("form.choose", { field });
      return text("form.invalid", { field });
    case "invalid_type":
      if (issue.input === undefined || issue.input === null)
        return text("form.required", { field });
      return text(issue.expected === "int" ? "form.notInteger" : "form.invalid", { field });
    case "too_small":
      // A list (roles to send to) with too few entries: nothing, or not enough, was chosen.
      if (issue.origin === "array") return text("form.required", { field });
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1
          ? text("form.required", { field })
          : text("form.tooShort", { field, min: issue.minimum });
      }
      return text("form.tooSmall", { field, min: shown(hint, Number(issue.minimum)) });
    case "too_big":
      return issue.origin === "string"
        ? text("form.tooLong", { field, max: issue.maximum })
        : text("form.tooBig", { field, max: shown(hint, Number(issue.maximum)) });
    case "custom": {
      const params = (issue.params ?? {}) as { rule?: string; other?: string };
      if (params.rule) {
        const other = params.other ? fieldLabel(t, module, params.other) : "";
        return text(`form.${params.rule}`, { field, other });
      }
      // The shared text rule (src/shared/text.ts): control, direction or invisible characters.
      return text("form.unsafeText", { field });
    }
    default:
      return text("form.invalid", { field });
  }
}

/** A money input: typed in ringgit with two decimals, held in whole sen. */
function ScaledInput({
  value,
  onChange,
  scale,
  addon,
  id,
}: {
  value?: number;
  onChange?: (value: number | undefined) => void;
  scale: number;
  addon: string;
  id?: string;
}) {
  return (
    <InputNumber<number>
      id={id}
      style={{ width: "100%", maxWidth: 260 }}
      // Two decimals, shown as the value will be sent; no `min`: a negative amount is refused by
      // the field's rule with a message, not silently clamped to zero.
      precision={2}
      step={1}
      addonBefore={addon === "RM" ? addon : undefined}
      addonAfter={addon === "%" ? addon : undefined}
      value={value === undefined ? undefined : value / scale}
      onChange={(typed) => onChange?.(typed === null ? undefined : Math.round(typed * scale))}
    />
  );
}

/** A money input outside a declared form (a dialog's amount): ringgit typed, whole sen held. */
export function MoneyInput(props: {
  value?: number;
  onChange?: (value: number | undefined) => void;
  id?: string;
}) {
  return <ScaledInput scale={100} addon="RM" {...props} />;
}

/**
 * An instant typed as a local date and time (seconds optional), held as ISO-8601 text (what the
 * API takes).
 */
function InstantInput({
  value,
  onChange,
  id,
}: {
  value?: string;
  onChange?: (value: string | undefined) => void;
  id?: string;
}) {
  return (
    <DatePicker
      id={id}
      showTime={{ format: "HH:mm:ss" }}
      format={["YYYY-MM-DD HH:mm:ss", "YYYY-MM-DD HH:mm"]}
      style={{ width: "100%", maxWidth: 260 }}
      value={value ? dayjs(value) : null}
      onChange={(picked: Dayjs | null) => onChange?.(picked ? picked.toISOString() : undefined)}
    />
  );
}

/** What Form.Item hands its input (value or checked, onChange, the label's id): passed on as is. */
type Control = Record<string, unknown>;

/**
 * A Select puts unknown props on its wrapper, a plain div where `aria-required` is not allowed
 * (axe: critical): the control without it. The label still marks the field as required.
 */
function selectControl(control: Control): Control {
  const { "aria-required": _required, ...rest } = control;
  return rest;
}

/** antd's Select for a Form.Item of its own (a hand-written form): without `aria-required`. */
export function FormSelect(props: SelectProps) {
  return <Select {...(selectControl(props as Control) as SelectProps)} />;
}

/** An input for one key, by its zod type and hint; Form.Item's control passes through. */
function InputFor({
  module,
  name,
  schema,
  hint,
  ...rest
}: Control & { module: ModuleDecl; name: string; schema: z.ZodType; hint?: InputHint }) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const control = rest as Record<never, never>;
  const type = inner(schema);
  if (hint?.kind === "money") return <ScaledInput scale={100} addon="RM" {...control} />;
  if (hint?.kind === "basisPoints") return <ScaledInput scale={100} addon="%" {...control} />;
  if (hint?.kind === "richText") {
    return (
      <RichText {...control} collection={module.collection} label={fieldLabel(t, module, name)} />
    );
  }
  if (hint?.kind === "dateTime" || type instanceof z.ZodISODateTime) {
    return <InstantInput {...control} />;
  }
  // A list of choices (business categories, the roles a message goes to): several at once.
  const choices = type instanceof z.ZodArray ? inner(type.element as z.ZodType) : type;
  if (choices instanceof z.ZodEnum) {
    return (
      <Select
        {...selectControl(control)}
        {...(type instanceof z.ZodArray ? { mode: "multiple" as const, allowClear: true } : {})}
        style={{ maxWidth: 420 }}
        options={(choices.options as string[]).map((value) => ({
          value,
          label: valueLabel(t, module, name, value),
        }))}
      />
    );
  }
  if (type instanceof z.ZodBoolean) return <Switch {...control} />;
  if (type instanceof z.ZodNumber) {
    // A whole number is typed whole; any other keeps the decimals typed (a lot's coordinates).
    return (
      <InputNumber
        {...control}
        style={{ maxWidth: 260 }}
        {...(type.format === "safeint" ? { precision: 0 } : {})}
      />
    );
  }
  if (hint?.kind === "multiline") return <Input.TextArea {...control} rows={3} />;
  return <Input {...control} autoComplete="off" style={{ maxWidth: 420 }} />;
}

/** The rule of one input: its own zod type, with the server's messages in the staff's words. */
export function inputRule(t: TFunction, module: ModuleDecl, decl: FormDecl, key: string): Rule {
  const schema = (decl.body.shape as Record<string, z.ZodType>)[key]!;
  const optional = schema.safeParse(undefined).success;
  const nullable = schema.safeParse(null).success;
  // An emptied input is no value: left out when the field is optional, null when it may be null
  // (an emptied URL clears it), as the form sends it.
  const blank = optional ? undefined : nullable ? null : "";
  return {
    validator: (_, value: unknown) => {
      const result = schema.safeParse(value === "" ? blank : value);
      return result.success
        ? Promise.resolve()
        : Promise.reject(new Error(issueText(t, module, decl, key, result.error.issues[0]!)));
    },
  };
}

/**
 * The inputs of a declared form, each labelled `<ns>:fields.<key>` and checked by its own zod
 * type as the staff member types, with the server's rules and translated messages.
 */
export function FormInputs({ module, decl }: { module: ModuleDecl; decl: FormDecl }) {
  const { t } = useTranslation([module.i18n, "kit"]);
  return (
    <>
      {inputsOf(decl).map(([key, schema]) => {
        const optional = schema.safeParse(undefined).success;
        const rule = inputRule(t, module, decl, key);
        return (
          <Form.Item
            key={key}
            name={key}
            label={fieldLabel(t, module, key)}
            // A word of guidance under the input, when the module has one (`<ns>:form.<key>Help`).
            extra={
              i18next.exists(`${module.i18n}:form.${key}Help`)
                ? t(`${module.i18n}:form.${key}Help`)
                : undefined
            }
            required={!optional}
            rules={[rule]}
            valuePropName={inner(schema) instanceof z.ZodBoolean ? "checked" : "value"}
          >
            <InputFor module={module} name={key} schema={schema} hint={decl.inputs?.[key]} />
          </Form.Item>
        );
      })}
    </>
  );
}

/**
 * Checks a whole form with its schema (rules across inputs, such as "the minimum must not
 * exceed the maximum") and puts each problem under its input. Answers the body, or undefined.
 */
export function checkForm(
  t: TFunction,
  module: ModuleDecl,
  decl: FormDecl,
  form: FormInstance,
  values: Values,
) {
  const result = bodyOf(decl, values);
  if (result.success) return result.data as Values;
  form.setFields(
    result.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? "");
      return { name: key, errors: [issueText(t, module, decl, key, issue)] };
    }),
  );
  return undefined;
}

/**
 * A declared form as a screen draws it: its inputs, the server's refusal above the buttons (in
 * the staff member's words), save and cancel. The whole body is checked before `onBody` gets it.
 */
export function DeclaredForm({
  module,
  decl,
  formProps,
  saveButtonProps,
  initialValues,
  refusal,
  onEdit,
  onBody,
  onCancel,
  words,
  extra,
}: {
  module: ModuleDecl;
  decl: FormDecl;
  /** Below the inputs, before the refusal: what the form adds beside its body (a reason). */
  extra?: ReactNode;
  formProps: FormProps;
  saveButtonProps: ButtonProps;
  initialValues?: Values;
  refusal?: string;
  onEdit: () => void;
  /** The checked body, and every value typed (those of `extra` among them). */
  onBody: (body: Values, values: Values) => void;
  onCancel: () => void;
  words: { failed: string; submit: string; cancel: string };
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  return (
    <Form
      {...formProps}
      layout="vertical"
      style={{ maxWidth: 560 }}
      // Refine resets the fields once mounted: to these starting values.
      initialValues={initialValues ?? formProps.initialValues}
      onValuesChange={onEdit}
      onFinish={(values) => {
        // What `extra` adds (a reason for a second approver) is no key of the body.
        const inputs = Object.fromEntries(
          Object.entries(values as Values).filter(([key]) => key in decl.body.shape),
        );
        const body = checkForm(t, module, decl, formProps.form!, inputs);
        if (body) onBody(body, values as Values);
      }}
    >
      <FormInputs module={module} decl={decl} />
      {extra}
      {refusal && (
        <Alert
          type="error"
          showIcon
          role="alert"
          message={words.failed}
          description={refusal}
          style={{ marginBottom: 16 }}
        />
      )}
      <Flex gap={8}>
        <Button type="primary" {...saveButtonProps}>
          {words.submit}
        </Button>
        <Button onClick={onCancel}>{words.cancel}</Button>
      </Flex>
    </Form>
  );
}
