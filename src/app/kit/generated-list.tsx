import { ModuleList } from "./module-list";
import { useModule } from "./use-module";

/** The list page of a module that needs nothing beyond its declaration. */
export default function GeneratedList() {
  return <ModuleList module={useModule()} />;
}
