// What a failed connection means, in words a user can act on. Node's fetch (and both SDKs over it)
// hide the useful part — ECONNREFUSED, ENOTFOUND, a certificate error — a cause or two deep behind
// "fetch failed" or "Connection error.", so the chain is searched for it.

/** The error code somewhere in the cause chain (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET, CERT_HAS_EXPIRED…), or null. */
export function networkCode(err: unknown): string | null {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const { code, cause, errors } = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
    // Happy eyeballs tries IPv4 and IPv6 and reports both in an AggregateError.
    if (Array.isArray(errors) && errors.length > 0) e = errors[0];
    else e = cause;
  }
  return null;
}

/** The message of the deepest cause ("bad port", "getaddrinfo ENOTFOUND x"), for failures without a code. */
export function innermostMessage(err: unknown): string | null {
  let e: unknown = err;
  let message: string | null = null;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const m = (e as { message?: unknown }).message;
    if (typeof m === 'string' && m) message = m;
    e = (e as { cause?: unknown }).cause;
  }
  return message;
}

/**
 * Failures that will not change by trying again in a few seconds: retrying them only delays the answer.
 * `detail` is the innermost message: Node's fetch refuses the ports of the fetch standard's "bad port"
 * list (6000, 6667, 10080…) before connecting, with that message and no code.
 */
export function isLastingNetworkFailure(code: string | null, detail: string | null = null): boolean {
  if (code === null) return detail === BAD_PORT;
  return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || isCertificateCode(code);
}

const BAD_PORT = 'bad port';

/**
 * One sentence: which address could not be reached, what happened, that it is the network and not the
 * key, and what to try. `url` is the endpoint the app called.
 */
export function describeNetworkFailure(url: string, code: string | null, timedOut = false, detail: string | null = null): string {
  const { origin, host } = parts(url);
  const what =
    timedOut || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT'
      ? `${origin} did not answer in time`
      : whatHappened(code ?? detail, origin, host);
  return `could not reach ${url}: ${what}. This is a network problem, not the API key: ${whatToTry(code ?? detail, host)}`;
}

function whatHappened(code: string | null, origin: string, host: string): string {
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the address ${host} could not be found (DNS lookup failed)`;
  if (code === 'ECONNREFUSED') return `nothing is listening at ${origin} (connection refused)`;
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED')
    return `the connection to ${origin} was cut off`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `there is no route to ${host} (the network is down or blocked)`;
  if (code !== null && isCertificateCode(code)) return `the TLS certificate of ${host} was not accepted (${code})`;
  if (code === BAD_PORT) return `the port of ${origin} is one that fetch never connects to (the fetch standard's blocked ports)`;
  return `the connection to ${origin} failed${code ? ` (${code.slice(0, 200)})` : ''}`;
}

function whatToTry(code: string | null, host: string): string {
  const local = /^(localhost|127\.|\[::1\]|0\.0\.0\.0)/.test(host);
  if (code === 'ECONNREFUSED')
    return local
      ? 'start the model server, or check the port in the base URL (Settings → Model).'
      : 'check the base URL and port in Settings → Model.';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return 'check that this machine is online and that the base URL is spelled right (Settings → Model).';
  if (code !== null && isCertificateCode(code)) return 'check the base URL; a proxy that replaces certificates needs NODE_EXTRA_CA_CERTS.';
  if (code === BAD_PORT) return 'run the model server on another port (8000, 8080, 11434…) and change the base URL (Settings → Model).';
  return 'check that this machine is online (and any proxy or VPN), then try again.';
}

function isCertificateCode(code: string): boolean {
  return /^(CERT_|ERR_TLS_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_SSL_)/.test(code);
}

function parts(url: string): { origin: string; host: string } {
  try {
    const u = new URL(url);
    return { origin: u.origin, host: u.hostname };
  } catch {
    return { origin: url, host: url };
  }
}
