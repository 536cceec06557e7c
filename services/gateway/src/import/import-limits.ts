/**
 * How much of an import's rejections its reply lists: the contract states it (endpoints/admin-organization-import.ts)
 * and the runner applies it (import-runner.ts); a file of its own so that neither imports the other.
 */
export const MAX_REPORTED_ERRORS = 100;
