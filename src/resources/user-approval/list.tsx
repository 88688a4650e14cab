import { useTranslation } from "react-i18next";

import { ModuleList } from "../../app/kit/module-list";
import { userApproval } from "../../shared/modules/user-approval";

/** The generated list of pending users, with what the page is for. */
export default function UserApprovalList() {
  const { t } = useTranslation("approval");
  return <ModuleList module={userApproval} description={t("list.description")} />;
}
