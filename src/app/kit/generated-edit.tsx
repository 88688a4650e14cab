import { Skeleton } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";

import { QueryError } from "../components/query-error";
import { FormScreen, useModuleForm } from "./form-screen";
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
  const form = useModuleForm(module, "edit", {
    id,
    redirect: false,
    onMutationSuccess: () => navigate(back),
  });
  const { query } = form;
  if (query?.isError) return <QueryError query={query} title={text("show.loadFailed")} />;
  const record = query?.data?.data;
  if (!record) return <Skeleton active />;

  return (
    <FormScreen
      module={module}
      kind="edit"
      form={form}
      title={text("edit.title", { name: titleOf(module, record) })}
      back={back}
      onBody={(body) => void form.onFinish(body).catch(() => undefined)}
    />
  );
}
