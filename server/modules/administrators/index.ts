/** The administrators module: its list and record from the declaration, and its own routes. */
import { administrators as declaration } from "../../../src/shared/modules/administrators";
import { administrators } from "../../db/schema";
import { bindModule } from "../../kit/bind";
import { administratorEndpoints } from "./endpoints";

export const administratorsModule = bindModule(declaration, {
  table: administrators,
  endpoints: administratorEndpoints,
});
