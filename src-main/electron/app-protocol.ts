import path from 'node:path';
import { protocol } from 'electron';
import { APP_SCHEME } from './app-origin';
import { rendererResponse } from './renderer-response';

/** Must run before the app is ready: our scheme behaves like a secure standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves the built renderer from app://renderer (renderer-response.ts decides every answer). */
export function serveRenderer(rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle(APP_SCHEME, (request) => rendererResponse(root, request.url));
}
