import { ArrowLeftOutlined } from "@ant-design/icons";
import { useForm } from "@refinedev/antd";
import type { HttpError } from "@refinedev/core";
import { Button, Skeleton } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";

import { PageHeader } from "../components/page-header";
import { Panel } from "../components/panel";
import { QueryError } from "../components/query-error";
import { decisionErrorText } from "./decision";
import { DeclaredForm } from "./form";
import { moduleText, titleOf } from "./texts";
import { useModule } from "./use-module";

type Row = { id: number } & Record<string, unknown>;

/**
 * A module's edit screen drawn from its declared edit form: the record's current values in the
 * inputs, the server's rules as the staff member types, its refusal on the form, and back to the
 * record once saved.
 */
export default function GeneratedEdit() {
  const module = useModule();
  const decl = module.edit!;
  const { id } = useParams();
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string>();
  const back = module.paths.show ? `${module.paths.show}/${String(id)}` : module.paths.list;
  const { formProps, saveButtonProps, onFinish, query } = useForm<Row, HttpError>({
    resource: module.name,
    action: "edit",
    id,
    redirect: false,
    successNotification: (data) => ({
      type: "success",
      message: text("edit.saved", { name: data ? titleOf(module, data.data) : "" }),
    }),
    errorNotification: false,
    onMutationError: (error) => setRefusal(decisionErrorText(t, module, error)),
    onMutationSuccess: () => navigate(back),
  });
  if (query?.isError) {
    return (
      <QueryError
        error={query.error}
        onRetry={() => void query.refetch()}
        title={text("show.loadFailed")}
      />
    );
  }
  const record = query?.data?.data;
  if (!record) return <Skeleton active />;

  return (
    <>
      <PageHeader
        title={text("edit.title", { name: titleOf(module, record) })}
        back={
          <Button
            type="text"
            icon={<ArrowLeftOutlined aria-hidden />}
            aria-label={text("edit.back")}
            onClick={() => navigate(back)}
          />
        }
      />
      <Panel>
        <DeclaredForm
          module={module}
          decl={decl}
          formProps={formProps}
          saveButtonProps={saveButtonProps}
          refusal={refusal}
          onEdit={() => setRefusal(undefined)}
          onBody={(body) => void onFinish(body).catch(() => undefined)}
          onCancel={() => navigate(back)}
          words={{
            failed: text("edit.failed"),
            submit: text("edit.submit"),
            cancel: text("edit.cancel"),
          }}
        />
      </Panel>
    </>
  );
}
