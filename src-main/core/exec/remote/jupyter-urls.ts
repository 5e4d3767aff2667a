// The parts of talking to a Jupyter server that need no Jupyter client: URLs, the keychain account of
// a server's token, the error type. Kept apart so the app can start (and name kernels) without loading
// @jupyterlab/services, which only a run on a remote kernel needs.

export interface JupyterTarget {
  /** Base URL of the server, e.g. http://127.0.0.1:8888 or https://hub.example.org/user/ana/ */
  url: string;
  token: string | null;
}

export interface KernelSpecInfo {
  name: string;
  displayName: string;
  language: string;
}

export class RemoteKernelError extends Error {
  override readonly name = 'RemoteKernelError';
}

/** http(s) only, no trailing slash, no query: the form used as the key of the token in the keychain. */
export function normalizeServerUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new RemoteKernelError(`"${input}" is not a URL; a Jupyter server URL looks like http://127.0.0.1:8888`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RemoteKernelError(`"${input}" is not an http(s) URL; a Jupyter server URL looks like http://127.0.0.1:8888`);
  }
  if (url.username || url.password) throw new RemoteKernelError('Put the token in the token field, not in the URL.');
  // A URL copied from the browser carries ?token=…; the token is kept in the keychain instead.
  url.search = '';
  url.hash = '';
  return url.toString().replace(/\/+$/, '');
}

/** Where the token for a server lives in the SecretStore. */
export const kernelAccount = (url: string): string => `kernel:${normalizeServerUrl(url)}`;

/** The URL without anything secret in it, for messages. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.search = '';
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return url;
  }
}
