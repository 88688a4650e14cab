import { useForm, type UseFormProps } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Flex } from "antd";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";

import { isPendingApproval } from "../../shared/kit/four-eyes";
import type { ModuleDecl } from "../../shared/kit/module";
import { VERSION_FIELD, type VersionConflictData } from "../../shared/kit/versions";
import { BackButton, PageHeader } from "../components/page-header";
import { Panel } from "../components/panel";
import { decisionErrorText } from "./decision";
import { DeclaredForm } from "./form";
import { pendingText, useRefreshChangeRequests } from "./four-eyes";
import { moduleText, titleOf } from "./texts";
import { ifMatchHeaders, VersionConflictDialog, versionConflictOf } from "./version-conflict";

type Row = { id: number } & Record<string, unknown>;
type Kind = "create" | "edit";

/** A refused save: the 409's data, the record the form was based on, and the body it sent. */
interface FormConflictState {
  data: VersionConflictData;
  based: Record<string, unknown>;
  yours?: Record<string, unknown>;
}

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
  // Record versions (docs/versions.md): the record the edit form was opened on, whose version
  // the save sends (If-Match), and the body last sent, which a conflict shows and sends again.
  const based = useRef<Record<string, unknown>>(undefined);
  const lastBody = useRef<Record<string, unknown>>(undefined);
  const [conflict, setConflict] = useState<FormConflictState>();
  const [applying, setApplying] = useState(false);
  const form = useForm<Row, HttpError>({
    resource: module.name,
    action: kind,
    ...rest,
    // Read as the save is sent (Refine spreads this meta then), not as the form is drawn.
    mutationMeta: {
      get headers() {
        const own = headers?.();
        const version =
          kind === "edit"
            ? ifMatchHeaders(
                module,
                (rest.id ?? based.current?.id) as number | string,
                based.current,
              )
            : {};
        return own || Object.keys(version).length > 0 ? { ...version, ...own } : undefined;
      },
    },
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
    onMutationError: (error) => {
      // Someone saved the record since the form was opened: compare, then apply or discard.
      const moved = kind === "edit" ? versionConflictOf(error) : undefined;
      if (moved) setConflict({ data: moved, based: based.current ?? {}, yours: lastBody.current });
      else setRefusal(decisionErrorText(t, module, error));
    },
  });
  const loaded = form.query?.data?.data;
  // The version the form is based on: the record as first read (not a later refetch), until a
  // conflict moves it on.
  useEffect(() => {
    if (kind === "edit" && loaded && (!based.current || based.current.id !== loaded.id)) {
      based.current = loaded;
    }
  }, [kind, loaded]);
  const onFinish = (values: Record<string, unknown>) => {
    lastBody.current = values;
    return form.onFinish(values);
  };
  const versions = {
    conflict,
    applying,
    /** Sends the same body again, based on the version the conflict named. */
    applyMine: async () => {
      if (!conflict || !lastBody.current) return;
      based.current = { ...conflict.data.current, [VERSION_FIELD]: conflict.data.version };
      setApplying(true);
      setConflict(undefined);
      try {
        await form.onFinish(lastBody.current);
      } catch {
        // Refused again: the refusal (or a new conflict) is on the form.
      } finally {
        setApplying(false);
      }
    },
    /** Drops what was typed: the form shows the record as it is now, based on its version. */
    discardMine: () => {
      if (!conflict) return;
      const current: Record<string, unknown> = {
        ...conflict.data.current,
        [VERSION_FIELD]: conflict.data.version,
      };
      based.current = current;
      setConflict(undefined);
      const decl = module[kind];
      const keys = decl ? Object.keys(decl.body.shape) : Object.keys(current);
      form.form.setFieldsValue(
        Object.fromEntries(keys.filter((key) => key in current).map((key) => [key, current[key]])),
      );
      void form.query?.refetch();
    },
  };
  return {
    ...form,
    onFinish,
    refusal,
    clearRefusal: () => setRefusal(undefined),
    versions,
  };
}

/**
 * The conflict dialog of an edit form (version-conflict.tsx), for a screen that draws its own
 * form with useModuleForm; FormScreen draws it itself.
 */
export function FormConflict({
  module,
  form,
}: {
  module: ModuleDecl;
  form: ReturnType<typeof useModuleForm>;
}) {
  const { versions } = form;
  if (!versions.conflict) return null;
  return (
    <VersionConflictDialog
      module={module}
      conflict={versions.conflict.data}
      based={versions.conflict.based}
      yours={versions.conflict.yours}
      applying={versions.applying}
      onApply={() => void versions.applyMine()}
      onDiscard={versions.discardMine}
    />
  );
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
      <FormConflict module={module} form={form} />
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
