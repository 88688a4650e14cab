import { ModuleList } from "../../app/kit/module-list";
import { settlements } from "../../shared/modules/settlements";
import { RunSettlement } from "./run-dialog";

/** The settlement records, with the run beside the export. */
export default function SettlementList() {
  return <ModuleList module={settlements} headerExtra={<RunSettlement />} />;
}
