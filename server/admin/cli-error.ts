/**
 * A refusal or mistake the operator can act on: the CLI prints its message alone, without a stack, and the
 * operator socket sends it back as the answer's error. Its own module so that the modules behind the commands
 * (server/admin/backup.ts) throw it without importing the CLI itself.
 */
export class CliError extends Error {}
