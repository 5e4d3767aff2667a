// Limits of the contract that need no schema, in a module without zod: the renderer's first chunk
// imports them (as '@contract/limits') without building every schema of the contract at startup.

/** The longest title a conversation may have (the rename field stops there too). */
export const TITLE_MAX = 500;

/** Largest file accepted over the bridge as an attachment (bytes); browser mode sends it base64 in one frame. */
export const MAX_ATTACHMENT_BYTES = 16 * 1024 * 1024;

/** Largest request browser mode carries: one WebSocket frame (bytes). The server closes a socket that sends more (1009). */
export const MAX_SOCKET_FRAME_BYTES = 32 * 1024 * 1024;

/**
 * Largest notebook sent inside one request (bytes). Browser mode carries a request in one WebSocket
 * frame (MAX_SOCKET_FRAME_BYTES), and base64 grows bytes by 4/3; the desktop app sends larger files by path instead.
 * The user's own limit (settings.notebookMaxBytes) applies on top of this.
 */
export const MAX_NOTEBOOK_UPLOAD_BYTES = 20 * 1024 * 1024;

/**
 * Rows of one block of a finished cell's text the page draws: the first half and the last half, with
 * the number left out between. Main sends the page no more than these (bridge/page-cells.ts), and the
 * rows between come a page of this many at a time (`cell.output-rows`).
 */
export const SAVED_OUTPUT_MAX_LINES = 4000;
