import { Form, Skeleton } from "antd";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";

import { QueryError } from "../components/query-error";
import { FormScreen, useModuleForm } from "./form-screen";
import {
  amountOf,
  CHANGE_REASON_FIELD,
  FourEyesNotice,
  needsApproval,
  reasonHeaders,
  ReasonInput,
  useFourEyesThreshold,
} from "./four-eyes";
import { moduleText, titleOf } from "./texts";
import { useModule } from "./use-module";

/**
 * A module's edit screen drawn from its declared edit form: the record's current values in the
 * inputs, the server's rules as the staff member types, its refusal on the form, and back to the
 * record once saved.
 */
export default function GeneratedEdit() {
  const module = useModule();
  const { id } = useParams();
  const { t } = useTranslation([module.i18n, "kit"]);
  const text = moduleText(t, module);
  const navigate = useNavigate();
  const back = module.paths.show ? `${module.paths.show}/${String(id)}` : module.paths.list;
  // Four eyes (FormDecl.fourEyes): the reason typed for the approver goes as a header.
  const fourEyes = module.edit?.fourEyes;
  const reason = useRef<string>(undefined);
  const form = useModuleForm(module, "edit", {
    id,
    redirect: false,
    onMutationSuccess: () => navigate(back),
    ...(fourEyes && { headers: () => reasonHeaders(reason.current) }),
  });
  const values = Form.useWatch([], form.form) as Record<string, unknown> | undefined;
  const thresholdSen = useFourEyesThreshold(fourEyes);
  const { query } = form;
  if (query?.isError) return <QueryError query={query} title={text("show.loadFailed")} />;
  const record = query?.data?.data;
  if (!record) return <Skeleton active />;
  const amountSen = amountOf(fourEyes, values, record);
  const asksReason = needsApproval(fourEyes, amountSen, thresholdSen) === true;

  return (
    <FormScreen
      module={module}
      kind="edit"
      form={form}
      title={text("edit.title", { name: titleOf(module, record) })}
      back={back}
      onBody={(body, typed) => {
        const given = typed[CHANGE_REASON_FIELD];
        reason.current = asksReason && typeof given === "string" ? given : undefined;
        void form.onFinish(body).catch(() => undefined);
      }}
      extra={
        fourEyes && (
          <>
            <FourEyesNotice decl={fourEyes} amountSen={amountSen} thresholdSen={thresholdSen} />
            {asksReason && <ReasonInput />}
          </>
        )
      }
    />
  );
}
