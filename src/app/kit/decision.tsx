import { CheckOutlined, CloseOutlined } from "@ant-design/icons";
import { useCustomMutation, useInvalidate, useNotification, type HttpError } from "@refinedev/core";
import { useQueryClient, type Query } from "@tanstack/react-query";
import { Alert, Button, Form, Input, Modal, Space, Typography } from "antd";
import type { z } from "zod";
import i18next, { type TFunction } from "i18next";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import {
  guardOf,
  remarkProblem,
  type ActionDecl,
  type FormDecl,
  type ModuleDecl,
} from "../../shared/kit/module";
import { formatRinggit } from "../../shared/money";
import { VERSION_FIELD, type VersionConflictData } from "../../shared/kit/versions";
import { formatDateTime } from "../format";
import { getCurrentAdmin, useCurrentAdmin } from "../../providers/current-admin";
import { toApiError, translateApiError } from "../../providers/errors";
import { renderCell } from "./cells";
import { moduleNamed } from "./links";
import {
  amountOf,
  CHANGE_REASON_FIELD,
  FourEyesNotice,
  needsApproval,
  pendingAnswers,
  pendingText,
  reasonHeaders,
  ReasonInput,
  useFourEyesThreshold,
  useRefreshChangeRequests,
} from "./four-eyes";
import { checkForm, FormInputs } from "./form";
import { ifMatchHeaders, VersionConflictDialog, versionConflictOf } from "./version-conflict";
import { moduleText, titleOf, valueLabel } from "./texts";

type Row = { id: number } & Record<string, unknown>;

/**
 * Whether the action is offered to administrator `me` on this row (ActionDecl.offeredTo): only
 * to the one the row names (`self`, the maker withdrawing), or to anyone else (`other`, a checker).
 * Nobody known: an action offered to someone in particular is not offered.
 */
export function offeredTo(action: ActionDecl, row: Row, me: number | undefined): boolean {
  const offer = action.offeredTo;
  if (!offer) return true;
  if (me === undefined) return false;
  const named = row[offer.field];
  const same = named !== null && named !== undefined && Number(named) === me;
  return offer.is === "self" ? same : !same;
}

/**
 * Whether a row is one the action (one of its verbs, or `verb`) applies to: its guard, and whom
 * it is offered to (`me`: the signed-in administrator's id unless told).
 */
export const actionApplies = (
  action: ActionDecl,
  row: Row,
  verb?: string,
  me: number | undefined = getCurrentAdmin()?.id,
): boolean =>
  offeredTo(action, row, me) &&
  (verb === undefined
    ? // An action on another record (ActionDecl.of) needs a row that carries it.
      (action.of?.fields.every((field) => field in row) ?? true) &&
      action.verbs.some((each) => actionApplies(action, row, each, me))
    : Object.entries(guardOf(action, verb)).every(([field, allowed]) =>
        allowed.includes(String(row[field])),
      ));

export const actionUrl = (module: ModuleDecl, action: ActionDecl, id: number) =>
  `/api/${module.collection}/${id}${action.path ? `/${action.path}` : ""}`;

/**
 * The values of an answer (a refusal's data, an action's answer, a record) as a message shows
 * them: amounts in sen by name (`limitSen`) in ringgit, instants by name (`expiresAt`,
 * `expires_at`) in the campus's time, states translated.
 */
function messageValues(t: TFunction, module: ModuleDecl, data: unknown): Record<string, unknown> {
  const values = typeof data === "object" && data !== null ? data : {};
  return Object.fromEntries(
    Object.entries(values).map(([field, value]) => [
      field,
      field.endsWith("Sen") && typeof value === "number"
        ? formatRinggit(value)
        : /(At|_at)$/.test(field) && typeof value === "string"
          ? formatDateTime(value)
          : valueLabel(t, module, field, value),
    ]),
  );
}

/**
 * A failed decision in the staff member's words: a code the module explains (`<ns>:errors.<CODE>`,
 * with the record's state from the answer translated), else what the console says of it.
 */
export function decisionErrorText(
  t: TFunction,
  module: ModuleDecl,
  error: unknown,
  /** The record decided: a change request's refusal may be its changed module's to word. */
  row?: Row,
): string {
  const apiError = toApiError(error);
  if (apiError.kind === "coded") {
    // The module's own words first, then those of the module whose record the row proposes to
    // change (an approval the change itself refused), then the kit's for codes any module may
    // answer (four eyes).
    const changed = row
      ? changedModuleFields(module).flatMap((field) => {
          const named = moduleNamed(row[field]);
          return named ? [named as ModuleDecl] : [];
        })
      : [];
    for (const speaker of [module, ...changed]) {
      const key = `${speaker.i18n}:errors.${apiError.code}`;
      if (i18next.exists(key)) return String(t(key, messageValues(t, speaker, apiError.data)));
    }
    const key = `kit:errors.${apiError.code}`;
    if (i18next.exists(key)) return String(t(key, messageValues(t, module, apiError.data)));
  }
  return translateApiError(apiError, (key, options) => String(t(key, options)));
}

export interface DecisionOutcome {
  verb: string;
  total: number;
  succeeded: Row[];
  /** What each success answered, in the order of `succeeded` (an e-mailed link's expiry). */
  answers: unknown[];
  failures: Array<{ row: Row; error: unknown }>;
}

/** The dashboard's figures (pending queues among them) are read from /api/dashboard/*. */
const isDashboardQuery = (query: Query) =>
  query.queryKey.some(
    (part) =>
      typeof part === "object" &&
      part !== null &&
      "url" in part &&
      typeof part.url === "string" &&
      part.url.startsWith("/api/dashboard"),
  );

/**
 * What an action sends: a decision its verb and the remark, a remark action its one text, a form
 * its inputs, a confirmation its verb's value (`choice`) and the remark when one was typed.
 */
function bodyOf(
  action: ActionDecl,
  verb: string,
  text: string,
  values: Record<string, unknown> = {},
): Record<string, unknown> {
  if (action.kind === "decision") return { action: verb, remark: text };
  if (action.kind === "form") return values;
  if (action.kind === "confirm") {
    const choice = action.choice ? { [action.choice.field]: action.choice.values[verb] } : {};
    return { ...choice, ...(text ? { [action.input.name]: text } : {}) };
  }
  return { [action.input.name]: text };
}

/** A form action's body as a form the kit draws (its inputs and hints). */
const formOf = (action: ActionDecl): FormDecl => ({
  body: action.body as FormDecl["body"],
  audit: action.audit,
  ...(action.inputs && { inputs: action.inputs }),
});

/** A form action's nullable inputs left blank are sent as null (an emptied URL clears it). */
function blanksAsNull(action: ActionDecl, values: Record<string, unknown>) {
  const shape = (action.body as FormDecl["body"]).shape as Record<string, z.ZodType>;
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      (value === "" || value === undefined) && shape[key]?.safeParse(null).success ? null : value,
    ]),
  );
}

/** Whether the dialog asks for the action's text, and whether it must be given. */
const textOf = (action: ActionDecl, verb: string) =>
  action.kind === "decision" || action.kind === "remark"
    ? { asked: true, required: true }
    : action.kind === "confirm" && action.optionalRemark
      ? { asked: true, required: action.remarkRequired?.[verb] ?? false }
      : { asked: false, required: false };

/** The fields naming the module whose record a row's `changes` speak of (`ofField`). */
const changedModuleFields = (module: ModuleDecl) =>
  Object.values(module.fields).flatMap((decl) =>
    decl.display?.kind === "changes" && "ofField" in decl.display ? [decl.display.ofField] : [],
  );

/**
 * Runs an action on records one after another, so a bulk action reports each record's fate;
 * then refreshes every list and record of the collection and the dashboard.
 */
function useDecisions(module: ModuleDecl, action: ActionDecl) {
  const { mutateAsync } = useCustomMutation<Row, HttpError, Record<string, unknown>>();
  const invalidate = useInvalidate();
  const queryClient = useQueryClient();
  const refreshChangeRequests = useRefreshChangeRequests();
  const [progress, setProgress] = useState<{ done: number; total: number }>();

  const decide = async (
    rows: readonly Row[],
    verb: string,
    remark: string,
    formValues?: Record<string, unknown>,
    /** The maker's reason for a second approver, sent apart from the body. */
    reason?: string,
  ) => {
    const reasons = reasonHeaders(reason);
    const values = bodyOf(action, verb, remark.trim(), formValues);
    const outcome: DecisionOutcome = {
      verb,
      total: rows.length,
      succeeded: [],
      answers: [],
      failures: [],
    };
    try {
      for (const [index, row] of rows.entries()) {
        setProgress({ done: index + 1, total: rows.length });
        // Record versions (docs/versions.md): each row's change is based on the version it showed.
        const versioned = { ...ifMatchHeaders(module, row.id, row), ...reasons };
        const headers = Object.keys(versioned).length > 0 ? versioned : undefined;
        try {
          const { data } = await mutateAsync({
            url: actionUrl(module, action, row.id),
            method: action.method === "POST" ? "post" : "patch",
            values,
            ...(headers ? { config: { headers } } : {}),
            // The dialog reports the outcome of the whole run; no toast per record.
            successNotification: false,
            errorNotification: false,
          });
          outcome.succeeded.push(row);
          outcome.answers.push(data);
        } catch (error) {
          outcome.failures.push({ row, error });
        }
      }
    } finally {
      setProgress(undefined);
      // A record that proposes a change of another module's record (a change request) changed
      // that module's record once decided: its lists and pages are read again too.
      const changed = new Set(
        rows.flatMap((row) =>
          changedModuleFields(module).flatMap((field) =>
            typeof row[field] === "string" ? [row[field]] : [],
          ),
        ),
      );
      await Promise.all([
        invalidate({ resource: module.name, invalidates: ["all"] }),
        ...[...changed].map((name) => invalidate({ resource: name, invalidates: ["all"] })),
        queryClient.invalidateQueries({ predicate: isDashboardQuery }),
        refreshChangeRequests(),
      ]);
    }
    return outcome;
  };
  return { decide, progress };
}

export interface DecisionRequest {
  /** The name of the module's action. */
  action: string;
  verb: string;
  rows: Row[];
}

/** How a verb's button looks: approving is the primary choice, rejecting and undoing danger. */
export function verbButtonProps(action: ActionDecl, verb: string) {
  if (verb === "approve") return { type: "primary" as const, icon: <CheckOutlined aria-hidden /> };
  if (verb === "reject") return { danger: true, icon: <CloseOutlined aria-hidden /> };
  return { danger: action.danger && verb === action.verbs[0] };
}

/** The buttons of every action that applies to one record, each opening its dialog. */
export function ActionButtons({
  module,
  row,
  size,
  only,
  onDecide,
}: {
  module: ModuleDecl;
  row: Row;
  size?: "small" | "middle";
  /** Only these actions (a page drawing each part's actions in its own panel). */
  only?: readonly string[];
  onDecide: (request: DecisionRequest) => void;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const name = titleOf(module, row);
  // Who is signed in decides the actions offered to someone in particular (ActionDecl.offeredTo).
  const me = useCurrentAdmin()?.id;
  // An action the module's own page draws (ActionDecl.ownDialog) has no button of the kit's.
  const applying = Object.entries(module.actions).filter(
    ([actionName, action]) =>
      !action.ownDialog &&
      (!only || only.includes(actionName)) &&
      actionApplies(action, row, undefined, me),
  );
  if (applying.length === 0) return null;
  return (
    <Space size={6} wrap>
      {applying.flatMap(([actionName, action]) =>
        action.verbs
          .filter((verb) => actionApplies(action, row, verb, me))
          .map((verb) => (
            <Button
              key={`${actionName}.${verb}`}
              size={size ?? "small"}
              {...verbButtonProps(action, verb)}
              aria-label={text(`decision.${verb}For`, { name })}
              onClick={() => onDecide({ action: actionName, verb, rows: [row] })}
            >
              {text(`decision.${verb}`)}
            </Button>
          )),
      )}
    </Space>
  );
}

/** By default a record's dialog shows what deciding it changes: its `changes` fields, if any. */
const describeChanges = (t: TFunction, module: ModuleDecl) => (row: Row) => {
  const fields = Object.entries(module.fields).filter(
    ([, decl]) => decl.display?.kind === "changes",
  );
  return fields.map(([field]) => (
    <div key={field} style={{ marginBlockEnd: 12 }}>
      {renderCell(t, module, field, row[field], row)}
    </div>
  ));
};

/**
 * Asks for the remark every decision needs (1–500 characters after trimming, counted as typed),
 * then decides the records one after another. Success closes the dialog with a toast; failures
 * stay in it, each with its reason.
 */
export function DecisionDialog({
  module,
  action,
  request: { verb, rows },
  describe,
  onDecided,
  onClose,
}: {
  module: ModuleDecl;
  action: ActionDecl;
  request: DecisionRequest;
  /** What a single record's decision changes, shown above the remark. */
  describe?: (row: Row) => ReactNode;
  onDecided: (outcome: DecisionOutcome) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const { open } = useNotification();
  const [form] = Form.useForm<Record<string, unknown>>();
  const { decide, progress } = useDecisions(module, action);
  const asks = textOf(action, verb);
  const [outcome, setOutcome] = useState<DecisionOutcome>();
  // A record that moved on since the dialog opened (409 VERSION_CONFLICT): what was asked, to
  // send again on top of the record as it is now, or to drop.
  const [moved, setMoved] = useState<{
    conflict: VersionConflictData;
    row: Row;
    args: [string, Record<string, unknown> | undefined, string | undefined];
  }>();
  const [applying, setApplying] = useState(false);
  const bulk = rows.length > 1;
  const name = rows[0] ? titleOf(module, rows[0]) : "";
  const title = bulk
    ? text(`decision.${verb}TitleBulk`, { count: rows.length })
    : text(`decision.${verb}Title`, { name });
  const done = action.done[verb] ?? verb;
  const { input } = action;
  // Four eyes: when the change waits for a second approver, and the maker's reason for it.
  const fourEyes = action.fourEyes;
  const thresholdSen = useFourEyesThreshold(fourEyes);
  const watched = Form.useWatch([], form) as Record<string, unknown> | undefined;
  const waits = rows.some(
    (row) => needsApproval(fourEyes, amountOf(fourEyes, watched, row), thresholdSen) === true,
  );
  // A decision's or a remark action's remark is the reason; any other change asks for one.
  const ownRemark = asks.required && input.name === "remark";
  const asksReason = waits && !ownRemark;

  const announce = (all: DecisionOutcome) => {
    // Changes that wait for their checker are said apart from those applied at once.
    const pending = pendingAnswers(all.answers);
    if (pending.length > 0) open?.({ type: "success", message: pendingText(t, pending) });
    const applied = all.succeeded.flatMap((row, index) =>
      pending.includes(all.answers[index] as (typeof pending)[number])
        ? []
        : [{ row, answer: all.answers[index] }],
    );
    const result: DecisionOutcome = {
      ...all,
      succeeded: applied.map((each) => each.row),
      answers: applied.map((each) => each.answer),
    };
    const succeeded = result.succeeded.length;
    if (succeeded === 0) return;
    const message =
      result.failures.length > 0
        ? text(`decision.${done}Partial`, { succeeded, total: result.total })
        : succeeded > 1
          ? text(`decision.${done}Bulk`, { count: succeeded })
          : text(`decision.${done}`, {
              ...messageValues(t, module, result.succeeded[0]),
              ...messageValues(t, module, result.answers[0]),
              name: titleOf(module, result.succeeded[0]!),
            });
    open?.({ type: "success", message });
  };

  const submit = async (values: Record<string, unknown>) => {
    let formValues: Record<string, unknown> | undefined;
    if (action.kind === "form") {
      // The reason for a second approver is no input of the action's body.
      const { [CHANGE_REASON_FIELD]: _reason, ...inputs } = values;
      formValues = checkForm(t, module, formOf(action), form, blanksAsNull(action, inputs));
      if (!formValues) return;
    }
    const remark = typeof values.remark === "string" ? values.remark : "";
    const reason = asksReason ? String(values[CHANGE_REASON_FIELD] ?? "") : undefined;
    await run(rows, [remark, formValues, reason]);
  };

  const run = async (
    targets: Row[],
    args: [string, Record<string, unknown> | undefined, string | undefined],
  ) => {
    const result = await decide(targets, verb, ...args);
    announce(result);
    onDecided(result);
    const conflict = !bulk && result.failures[0] && versionConflictOf(result.failures[0].error);
    if (conflict) setMoved({ conflict, row: result.failures[0]!.row, args });
    else if (result.failures.length === 0) onClose();
    else setOutcome(result);
  };

  if (moved) {
    const { conflict, row, args } = moved;
    return (
      <VersionConflictDialog
        module={module}
        conflict={conflict}
        based={row}
        yours={args[1]}
        yourAction={text(`decision.${verb}`)}
        applying={applying}
        onApply={() => {
          setApplying(true);
          const current = { ...row, ...conflict.current, [VERSION_FIELD]: conflict.version } as Row;
          setMoved(undefined);
          void run([current], args).finally(() => setApplying(false));
        }}
        onDiscard={onClose}
      />
    );
  }

  if (outcome) {
    return (
      <Modal
        open
        title={title}
        onCancel={onClose}
        footer={<Button onClick={onClose}>{text("decision.close")}</Button>}
      >
        <Alert
          type={outcome.succeeded.length > 0 ? "warning" : "error"}
          showIcon
          message={text("decision.failedTitle", { count: outcome.failures.length })}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {outcome.failures.map(({ row, error }) => (
                <li key={row.id}>
                  {text("decision.failure", {
                    ...row,
                    name: titleOf(module, row),
                    message: decisionErrorText(t, module, error, row),
                  })}
                </li>
              ))}
            </ul>
          }
        />
      </Modal>
    );
  }

  const running = progress !== undefined;
  return (
    <Modal
      open
      title={title}
      okText={text(`decision.${verb}`)}
      okButtonProps={{
        danger: verb === "reject" || (action.danger && verb === action.verbs[0]),
        loading: running,
      }}
      cancelText={text("decision.cancel")}
      cancelButtonProps={{ disabled: running }}
      closable={!running}
      maskClosable={false}
      keyboard={!running}
      onOk={() => form.submit()}
      onCancel={() => {
        if (!running) onClose();
      }}
      destroyOnHidden
    >
      {i18next.exists(`${module.i18n}:decision.${verb}Intro`) && (
        <Typography.Paragraph>
          {text(
            `decision.${verb}Intro${bulk ? "Bulk" : ""}`,
            bulk ? {} : { ...messageValues(t, module, rows[0]), name },
          )}
        </Typography.Paragraph>
      )}
      <FourEyesNotice
        decl={fourEyes}
        amountSen={bulk ? undefined : amountOf(fourEyes, watched, rows[0])}
        thresholdSen={thresholdSen}
      />
      {bulk ? (
        <Typography.Paragraph type="secondary">
          {rows.map((row) => titleOf(module, row)).join(", ")}
        </Typography.Paragraph>
      ) : (
        rows[0] && (describe ?? describeChanges(t, module))(rows[0])
      )}
      <Form<Record<string, unknown>>
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        disabled={running}
        initialValues={
          action.kind === "form" && !bulk && rows[0]
            ? Object.fromEntries(
                Object.keys((action.body as FormDecl["body"]).shape).map((key) => [
                  key,
                  rows[0]![key] ?? undefined,
                ]),
              )
            : undefined
        }
      >
        {action.kind === "form" && <FormInputs module={module} decl={formOf(action)} />}
        {asks.asked && (
          <Form.Item
            name="remark"
            label={text(`decision.${input.name}`)}
            required={asks.required}
            rules={[
              {
                validator: (_, value: string | undefined) => {
                  if (!asks.required && (value ?? "").trim() === "") return Promise.resolve();
                  const problem = remarkProblem(value, input);
                  const key = { required: "Required", tooLong: "TooLong", invalid: "Invalid" };
                  return problem
                    ? Promise.reject(
                        new Error(
                          text(`decision.${input.name}${key[problem]}`, { max: input.max }),
                        ),
                      )
                    : Promise.resolve();
                },
              },
            ]}
          >
            {input.multiline ? (
              <Input.TextArea
                rows={4}
                autoFocus
                placeholder={text(`decision.${input.name}Placeholder`)}
                count={{ show: true, max: input.max, strategy: (value) => value.trim().length }}
              />
            ) : (
              <Input
                autoFocus
                placeholder={text(`decision.${input.name}Placeholder`)}
                count={{ show: true, max: input.max, strategy: (value) => value.trim().length }}
              />
            )}
          </Form.Item>
        )}
        {asksReason && <ReasonInput autoFocus={!asks.asked && action.kind !== "form"} />}
      </Form>
      {progress && bulk && (
        <Typography.Text type="secondary" role="status">
          {text("decision.progress", { ...progress })}
        </Typography.Text>
      )}
    </Modal>
  );
}

/**
 * Some of a module's actions on one record, on the record's own page: the kit's buttons and
 * dialogs (as on the list), each panel of a page drawing its own with `only`. `row` is the record
 * (with the facts an action on another record changes over it, ActionDecl.of).
 */
export function RecordActions({
  module,
  row,
  only,
  onDecided,
}: {
  module: ModuleDecl;
  row: Row;
  only: readonly string[];
  /** After each run of the dialog (the kit has already refetched the module's queries). */
  onDecided?: (outcome: DecisionOutcome) => void;
}) {
  const [request, setRequest] = useState<DecisionRequest>();
  const action = request && module.actions[request.action];
  return (
    <>
      <ActionButtons module={module} row={row} size="middle" only={only} onDecide={setRequest} />
      {request && action && (
        <DecisionDialog
          module={module}
          action={action}
          request={request}
          onDecided={(outcome) => onDecided?.(outcome)}
          onClose={() => setRequest(undefined)}
        />
      )}
    </>
  );
}
