import { useForm, type UseFormProps } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Flex } from "antd";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { isPendingApproval } from "../../shared/kit/four-eyes";
import type { ModuleDecl } from "../../shared/kit/module";
import { BackButton, PageHeader } from "../components/page-header";
import { Panel } from "../components/panel";
import { decisionErrorText } from "./decision";
import { DeclaredForm } from "./form";
import { pendingText, useRefreshChangeRequests } from "./four-eyes";
import { moduleText, titleOf } from "./texts";

type Row = { id: number } & Record<string, unknown>;
type Kind = "create" | "edit";

/** The toast once saved, in the module's words (`{{name}}`: the record's title). */
const SAVED = { create: "create.created", edit: "edit.saved" } as const;

/**
 * The form of a module's create or edit screen (Refine's useForm): saving toasts in the module's
 * words, and a refusal stays on the form (`refusal`), where the staff member can read it and
 * correct the input, in place of a toast.
 */
export function useModuleForm(
  module: ModuleDecl,
  kind: Kind,
  options: Pick<UseFormProps<Row, HttpError>, "id" | "redirect" | "onMutationSuccess"> & {
    /**
     * Headers to send with the save, read when it is sent (the reason for a second approver,
     * typed just before).
     */
    headers?: () => Record<string, string> | undefined;
  },
) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const [refusal, setRefusal] = useState<string>();
  const refreshChangeRequests = useRefreshChangeRequests();
  const { headers, onMutationSuccess, ...rest } = options;
  const form = useForm<Row, HttpError>({
    resource: module.name,
    action: kind,
    ...rest,
    // Read as the save is sent (Refine spreads this meta then), not as the form is drawn.
    ...(headers && {
      mutationMeta: {
        get headers() {
          return headers();
        },
      },
    }),
    onMutationSuccess: (...args) => {
      // A change that waits for its checker (202): the counts and the requests change.
      if (isPendingApproval(args[0]?.data)) void refreshChangeRequests();
      onMutationSuccess?.(...args);
    },
    successNotification: (data) => ({
      type: "success",
      // Nothing was saved yet when the change waits for a second approver: say so, and where.
      message: isPendingApproval(data?.data)
        ? pendingText(t, [data.data])
        : moduleText(t, module)(SAVED[kind], {
            name: data ? titleOf(module, data.data) : "",
          }),
    }),
    errorNotification: false,
    onMutationError: (error) => setRefusal(decisionErrorText(t, module, error)),
  });
  return { ...form, refusal, clearRefusal: () => setRefusal(undefined) };
}

/**
 * A create or edit screen drawn from the module's declared form: its title with the way back
 * (`back`, also where Cancel leads), the inputs with the server's rules and its refusal above the
 * buttons. A create screen has room beside the form for `aside`.
 */
export function FormScreen({
  module,
  kind,
  form,
  title,
  back,
  initialValues,
  onBody,
  aside,
  submit,
  extra,
}: {
  module: ModuleDecl;
  kind: Kind;
  form: ReturnType<typeof useModuleForm>;
  title: string;
  back: string;
  initialValues?: Record<string, unknown>;
  /** The submit button's word, when it depends on what is typed ("Send now" or "Schedule"). */
  submit?: string;
  /** What to do with a checked body (send it, or review it first), given every value typed. */
  onBody: (body: Record<string, unknown>, values: Record<string, unknown>) => void;
  aside?: ReactNode;
  /** Below the inputs: what the form asks beside its body (a reason for a second approver). */
  extra?: ReactNode;
}) {
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const navigate = useNavigate();
  const panel = (
    <Panel style={kind === "create" ? { flex: "1 1 420px" } : undefined}>
      <DeclaredForm
        module={module}
        decl={module[kind]!}
        formProps={form.formProps}
        saveButtonProps={form.saveButtonProps}
        initialValues={initialValues}
        refusal={form.refusal}
        onEdit={form.clearRefusal}
        onBody={onBody}
        onCancel={() => navigate(back)}
        extra={extra}
        words={{
          failed: text(`${kind}.failed`),
          submit: submit ?? text(`${kind}.submit`),
          cancel: text(`${kind}.cancel`),
        }}
      />
    </Panel>
  );
  return (
    <>
      <PageHeader
        title={title}
        back={<BackButton label={text(`${kind}.back`)} onClick={() => navigate(back)} />}
      />
      {kind === "create" ? (
        <Flex gap={16} wrap align="flex-start">
          {panel}
          {aside}
        </Flex>
      ) : (
        panel
      )}
    </>
  );
}
