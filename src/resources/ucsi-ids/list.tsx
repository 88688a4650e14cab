import { ModuleList } from "../../app/kit/module-list";
import { ucsiIds } from "../../shared/modules/ucsi-ids";
import { ImportUcsiIds } from "./import-dialog";

/** The linked IDs, with the CSV import and its template beside "Link an ID" and the export. */
export default function UcsiIdList() {
  return <ModuleList module={ucsiIds} headerExtra={<ImportUcsiIds />} />;
}
