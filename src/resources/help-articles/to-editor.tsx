import { Navigate, useParams } from "react-router";

import { helpEditorPath } from "./paths";

/** The kit's create and edit routes open the full-page editor (the shell page). */
export default function ToHelpEditor() {
  const { id } = useParams();
  return <Navigate to={helpEditorPath(id)} replace />;
}
