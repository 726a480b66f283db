// Links to one approval: `/approvals?id=<id>` opens the Approvals page focused on it (see
// use-focus-target.ts). URLs only, no fetching.
const PARAM = 'id';

/** The Approvals page, focused on approval `id`. */
export const approvalHref = (id: string): string => `/approvals?${PARAM}=${encodeURIComponent(id)}`;

/** The approval the current URL asks the Approvals page to focus, if any. */
export const linkedApprovalId = (): string | null =>
  new URLSearchParams(window.location.search).get(PARAM);
