import { errorMessage } from '@contract';
import { KernelSpecAPI, ServerConnection } from '@jupyterlab/services';
import { normalizeServerUrl, RemoteKernelError, safeUrl, type JupyterTarget, type KernelSpecInfo } from './jupyter-urls';

// Talking to a Jupyter Server (or JupyterHub's per-user server, or an Enterprise Gateway) by URL and
// token, and turning its failures into sentences a user can act on: which URL, what went wrong,
// what to check.

export { kernelAccount, normalizeServerUrl, RemoteKernelError, safeUrl, type JupyterTarget, type KernelSpecInfo } from './jupyter-urls';

export function serverSettings(target: JupyterTarget): ServerConnection.ISettings {
  const baseUrl = `${normalizeServerUrl(target.url)}/`;
  return ServerConnection.makeSettings({
    baseUrl,
    wsUrl: `ws${baseUrl.slice(4)}`,
    token: target.token ?? '',
    // The WebSocket in Node cannot send an Authorization header through this library, so the token
    // rides in the URL of the socket (over TLS for https servers), as JupyterLab does outside a browser.
    appendToken: true,
    fetch: fetchKeepingCause,
  });
}

/**
 * The library rethrows a failed fetch as a NetworkError carrying only the message ("fetch failed"),
 * which loses why it failed. Putting the cause's message (with its code: ECONNREFUSED…) in the
 * message keeps it.
 */
const fetchKeepingCause: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : null;
    const code = networkCode(err);
    if (!cause && !code) throw err;
    throw new TypeError(`fetch failed: ${code ?? ''} ${cause?.message ?? ''}`.replace(/\s+/g, ' ').trim(), { cause: err });
  }
};

/** Checks the URL and token by listing the server's kernels; throws a RemoteKernelError saying what is wrong. */
export async function listKernelSpecs(target: JupyterTarget): Promise<{ default: string | null; specs: KernelSpecInfo[] }> {
  const settings = serverSettings(target);
  try {
    const models = await KernelSpecAPI.getSpecs(settings);
    const specs = Object.values(models.kernelspecs)
      .filter((s): s is NonNullable<typeof s> => s !== undefined)
      .map((s) => ({ name: s.name, displayName: s.display_name, language: s.language }));
    return { default: models.default || null, specs };
  } catch (err) {
    throw explainServerError(err, target.url);
  }
}

/** A failure from the server or the network, as a sentence naming the server and what to check. */
export function explainServerError(err: unknown, url: string): RemoteKernelError {
  if (err instanceof RemoteKernelError) return err;
  const where = `the Jupyter server at ${safeUrl(url)}`;
  if (err instanceof ServerConnection.ResponseError) {
    const status = err.response.status;
    if (status === 401 || status === 403) {
      return new RemoteKernelError(
        `${capitalize(where)} refused the token (HTTP ${status}). Check the token (jupyter server list shows it) and connect again.`,
      );
    }
    if (status === 404) {
      return new RemoteKernelError(
        `${capitalize(where)} has no Jupyter API at this address (HTTP 404). For JupyterHub use your server's URL, e.g. https://hub.example.org/user/<name>/.`,
      );
    }
    if (status === 503 || status === 424) {
      return new RemoteKernelError(
        `${capitalize(where)} is not running (HTTP ${status}); start it (for JupyterHub: from the hub's home page) and try again.`,
      );
    }
    return new RemoteKernelError(`${capitalize(where)} answered HTTP ${status}: ${err.message}`);
  }
  const code = networkCode(err);
  if (code === 'ECONNREFUSED')
    return new RemoteKernelError(`Nothing answers at ${safeUrl(url)} (connection refused): is the Jupyter server running?`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new RemoteKernelError(`The host of ${safeUrl(url)} cannot be found (${code}); check the URL.`);
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new RemoteKernelError(`${capitalize(where)} did not answer in time (${code}); check the URL and the network.`);
  }
  if (code) return new RemoteKernelError(`Could not reach ${where} (${code}).`);
  const message = errorMessage(err);
  return new RemoteKernelError(`Could not reach ${where}: ${message}`);
}

/**
 * The error code of a failed fetch: Node puts it on the cause (undici), sometimes one level deeper;
 * after the library's rewrapping it survives only in the message (see fetchKeepingCause).
 */
function networkCode(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    if (typeof e === 'object' && 'code' in e && typeof e.code === 'string' && e.code !== 'ERR_INVALID_STATE') return e.code;
    e = typeof e === 'object' && 'cause' in e ? e.cause : null;
  }
  const message = err instanceof Error ? err.message : '';
  return /\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/.exec(message)?.[1] ?? null;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
