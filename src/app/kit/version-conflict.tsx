import { Alert, Button, Flex, Modal, Typography } from "antd";
import type { TFunction } from "i18next";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import type { ModuleDecl } from "../../shared/kit/module";
import {
  etagOf,
  VERSION_CONFLICT,
  VERSION_FIELD,
  versionConflictData,
  versionOf,
  type VersionConflictData,
} from "../../shared/kit/versions";
import { isApiError } from "../../providers/api-error";
import { formatDateTime } from "../format";
import { displayText } from "./cells";
import { moduleText, titleOf } from "./texts";

type Values = Record<string, unknown>;

/**
 * Record versions in the console (docs/versions.md): a change sends the version its form or
 * dialog was based on (If-Match); when the record moved on, the server refuses it with 409
 * VERSION_CONFLICT and the record as it is now, and this dialog shows, field by field in the
 * module's terms, what it was when opened, what it is now (theirs) and what the staff member
 * typed (yours), with who changed it and when: apply mine on top (sent again with the new
 * version), or discard mine (the form shows theirs).
 */

/** The 409 VERSION_CONFLICT's data, when `error` is one (undefined for any other failure). */
export function versionConflictOf(error: unknown): VersionConflictData | undefined {
  if (!isApiError(error) || error.code !== VERSION_CONFLICT) return undefined;
  const parsed = versionConflictData.safeParse(error.data);
  return parsed.success ? parsed.data : undefined;
}

/** The If-Match of a change based on `record` of `module` (none when it carries no version). */
export function ifMatchHeaders(
  module: Pick<ModuleDecl, "collection">,
  id: number | string | undefined,
  record: unknown,
): Record<string, string> {
  const version = versionOf(record);
  const numeric = Number(id);
  if (version === undefined || !Number.isInteger(numeric) || numeric < 1) return {};
  return { "If-Match": etagOf(module.collection, numeric, version) };
}

/** One field of the comparison: as opened, theirs now, and yours (when the change sends it). */
export interface ConflictRow {
  field: string;
  old: unknown;
  theirs: unknown;
  /** Absent when the change does not send this field. */
  yours?: { value: unknown };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The fields to compare, in the order given (the module's declaration): every field someone else changed
 * since `based` (the record the form was opened on), and every field of `yours` that differs from
 * theirs now. Never the version, the timestamps or a field the module does not declare.
 */
export function conflictRows(
  fields: readonly string[],
  based: Values,
  current: Values,
  yours: Values = {},
): ConflictRow[] {
  const skipped = new Set([VERSION_FIELD, "id", "updatedAt", "createdAt"]);
  return fields
    .filter((field) => !skipped.has(field) && field in current)
    .filter(
      (field) =>
        !same(based[field], current[field]) ||
        (field in yours && !same(yours[field], current[field])),
    )
    .map((field) => ({
      field,
      old: based[field],
      theirs: current[field],
      ...(field in yours && { yours: { value: yours[field] } }),
    }));
}

/** Who changed the record last and when, in a sentence. */
export function conflictIntro(
  t: TFunction,
  module: ModuleDecl,
  conflict: VersionConflictData,
): string {
  const text = moduleText(t, module);
  const name = titleOf(module, conflict.current);
  const last = conflict.lastChange;
  if (!last) return text("versions.introUnknown", { name });
  return text("versions.intro", {
    name,
    who: last.adminName ?? text("versions.someone"),
    when: formatDateTime(last.at),
  });
}

/**
 * The terms of a hand-written form whose fields are not its module's record's (a rider's vehicle
 * on the user's page): which fields to compare, their values now (the 409's `current` is the
 * module's record), their labels and how a value reads.
 */
export interface ConflictTerms {
  fields: readonly string[];
  current: Values;
  label: (field: string) => string;
  show: (field: string, value: unknown) => string;
}

/**
 * The conflict dialog: who changed the record and when, each field that matters as it was when
 * opened → theirs → yours, and the two ways on. `yours` is the body the change sent (its form's
 * inputs); an action without inputs names itself in `yourAction`. The fields are the module's,
 * in its terms, unless the form names its own (`terms`).
 */
export function VersionConflictDialog({
  module,
  conflict,
  based,
  yours,
  yourAction,
  terms,
  applying,
  onApply,
  onDiscard,
}: {
  module: ModuleDecl;
  conflict: VersionConflictData;
  /** The record the form or dialog was opened on. */
  based: Values;
  yours?: Values;
  /** The action the staff member chose ("Suspend"), when it sends no field of the record. */
  yourAction?: string;
  terms?: ConflictTerms;
  applying?: boolean;
  onApply: () => void;
  onDiscard: () => void;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const current = terms?.current ?? conflict.current;
  const rows = conflictRows(terms?.fields ?? Object.keys(module.fields), based, current, yours);
  const label = (field: string) =>
    terms ? terms.label(field) : String(t([`${module.i18n}:fields.${field}`, field]));
  const shown = (field: string, value: unknown, row: Values) =>
    terms ? terms.show(field, value) : displayText(t, module, field, value, row);
  return (
    <Modal
      open
      title={text("versions.title")}
      closable={!applying}
      maskClosable={false}
      onCancel={() => {
        if (!applying) onDiscard();
      }}
      footer={
        <Flex gap={8} justify="flex-end" wrap>
          <Button onClick={onDiscard} disabled={applying}>
            {text("versions.discard")}
          </Button>
          <Button type="primary" onClick={onApply} loading={applying}>
            {text("versions.apply")}
          </Button>
        </Flex>
      }
    >
      <Alert
        type="warning"
        showIcon
        role="alert"
        message={conflictIntro(t, module, conflict)}
        style={{ marginBottom: 16 }}
      />
      {yourAction && (
        <Typography.Paragraph>
          {text("versions.yourAction", { action: yourAction })}
        </Typography.Paragraph>
      )}
      {rows.length === 0 ? (
        <Typography.Paragraph type="secondary">
          {text("versions.nothingVisible")}
        </Typography.Paragraph>
      ) : (
        <ul
          aria-label={text("versions.changes")}
          style={{ listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 12 }}
        >
          {rows.map((row) => (
            <li
              key={row.field}
              data-field={row.field}
              style={{ borderBottom: "1px solid rgba(5, 5, 5, 0.06)", paddingBottom: 8 }}
            >
              <Typography.Text strong>{label(row.field)}</Typography.Text>
              <dl
                style={{
                  display: "grid",
                  gridTemplateColumns: "minmax(96px, max-content) 1fr",
                  columnGap: 12,
                  rowGap: 2,
                  margin: "4px 0 0",
                  overflowWrap: "anywhere",
                }}
              >
                <dt>
                  <Typography.Text type="secondary">{text("versions.old")}</Typography.Text>
                </dt>
                <dd style={{ margin: 0 }} data-side="old">
                  {shown(row.field, row.old, based)}
                </dd>
                <dt>
                  <Typography.Text type="secondary">{text("versions.theirs")}</Typography.Text>
                </dt>
                <dd style={{ margin: 0 }} data-side="theirs">
                  {shown(row.field, row.theirs, current)}
                </dd>
                <dt>
                  <Typography.Text type="secondary">{text("versions.yours")}</Typography.Text>
                </dt>
                <dd style={{ margin: 0 }} data-side="yours">
                  {row.yours ? (
                    <Typography.Text strong>
                      {shown(row.field, row.yours.value, { ...current, ...yours })}
                    </Typography.Text>
                  ) : (
                    <Typography.Text type="secondary">{text("versions.notYours")}</Typography.Text>
                  )}
                </dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

/** A refused save of a hand-written form: the 409's data, what it was based on, what it sent. */
export interface ConflictState {
  data: VersionConflictData;
  based: Values;
  yours?: Values;
}

/**
 * Record versions for a hand-written edit screen (one that does not use useModuleForm): the record
 * the form was opened on (`basedOn`, from an effect), the If-Match its save sends (`headers`, read
 * as the save is sent), the body sent (`sent`), and a refusal turned into the conflict dialog's
 * state (`refused`, true when it was a conflict). `moveOn` bases the form on the record as it is
 * now and answers the body last sent (to send again, or to drop).
 */
export function useRecordVersion(module: Pick<ModuleDecl, "collection">, id: number | string) {
  const based = useRef<Values>(undefined);
  const sentBody = useRef<Values>(undefined);
  const [conflict, setConflict] = useState<ConflictState>();
  return {
    conflict,
    basedOn: (record: Values) => {
      if (!based.current || based.current.id !== record.id) based.current = record;
    },
    headers: () => ifMatchHeaders(module, id, based.current),
    sent: (body: Values) => {
      sentBody.current = body;
    },
    refused: (error: unknown) => {
      const data = versionConflictOf(error);
      if (data) setConflict({ data, based: based.current ?? {}, yours: sentBody.current });
      return data !== undefined;
    },
    moveOn: () => {
      if (conflict) {
        based.current = { ...conflict.data.current, [VERSION_FIELD]: conflict.data.version };
      }
      setConflict(undefined);
      return { current: conflict?.data.current ?? {}, body: sentBody.current };
    },
  };
}
