import { useInvalidate } from "@refinedev/core";
import type { UserDetail } from "../../../providers/api-types";

/** After a change: the user's detail (and so the page and its history) is fetched again. */
export function useRefreshUser(user: UserDetail) {
  const invalidate = useInvalidate();
  return () => void invalidate({ resource: "users", id: user.id, invalidates: ["detail", "list"] });
}
