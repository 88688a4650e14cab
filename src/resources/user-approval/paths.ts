/** User > Approval: the pending users. The resource declaration in ./index.ts uses the same string. */
export const USER_APPROVAL_PATHS = {
  list: "/user-approval",
} as const;

/** The approval call for one user, relative to the API base. */
export const approvalActionUrl = (id: number) =>
  `/api/users/${encodeURIComponent(String(id))}/approval-action`;
