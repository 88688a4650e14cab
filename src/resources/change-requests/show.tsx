import { useTranslation } from "react-i18next";

import { ModuleShow } from "../../app/kit/generated-show";
import { changeRequests } from "../../shared/modules/change-requests";
import { wordedCells } from "./words";

/** A change request's page: the kit's, its module and verb in the changed module's words. */
export default function ChangeRequestShow() {
  const { t } = useTranslation(["changeRequests", "kit"]);
  return <ModuleShow module={changeRequests} render={wordedCells(t)} />;
}
