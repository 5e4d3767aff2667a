// Paths browser mode serves besides the renderer's files; here so the server need not load the
// handlers behind them to route a request.

/** `/files/<conversationId>/<path inside its workspace, each segment URL-encoded>`: workspace downloads. */
export const FILES_PREFIX = '/files/';
