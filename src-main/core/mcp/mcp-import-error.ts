/** A config file that cannot be imported: the message names the file or the entry and field. */
export class McpImportError extends Error {}
