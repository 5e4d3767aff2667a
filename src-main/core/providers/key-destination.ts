import { DEFAULT_BASE_URLS, type ProviderKind, type Settings } from '@contract';

/**
 * Where the model list is asked, and with which key. A key the user TYPED in the request may go to the
 * URL the request names (that is how a new server is tried). A STORED key goes only to the provider's
 * own endpoint or to the base URL the user saved in settings for that provider: main decides, from
 * settings, and a request naming any other URL gets the list asked without the stored key. Otherwise
 * any page or script holding the bridge could name its own server and read every key back
 * (issue 17, finding 4).
 */
export type ListingPlan =
  | { kind: 'typed'; key: string; baseUrl: string | null }
  | { kind: 'stored'; baseUrl: string | null }
  | { kind: 'no-stored-key'; baseUrl: string };

export function planListing(
  provider: ProviderKind,
  request: { key?: string | undefined; baseUrl?: string | null | undefined },
  settings: Pick<Settings, 'provider' | 'baseUrl' | 'providerModels'>,
): ListingPlan {
  const saved = savedBaseUrl(provider, settings);
  const typed = request.key?.trim();
  if (typed) return { kind: 'typed', key: typed, baseUrl: request.baseUrl === undefined ? saved : request.baseUrl };
  if (request.baseUrl === undefined || request.baseUrl === null) {
    // Nothing named: the saved URL, else the provider's own (null).
    return { kind: 'stored', baseUrl: request.baseUrl === null ? null : saved };
  }
  if (sameEndpoint(request.baseUrl, saved) || sameEndpoint(request.baseUrl, ownEndpoint(provider)))
    return { kind: 'stored', baseUrl: request.baseUrl };
  return { kind: 'no-stored-key', baseUrl: request.baseUrl };
}

/** The base URL saved in settings for `provider`: the current one's, or the one remembered for it. */
export function savedBaseUrl(provider: ProviderKind, settings: Pick<Settings, 'provider' | 'baseUrl' | 'providerModels'>): string | null {
  if (settings.provider === provider) return settings.baseUrl;
  return settings.providerModels[provider]?.baseUrl ?? null;
}

function ownEndpoint(provider: ProviderKind): string | null {
  return provider === 'openai-compatible' ? null : DEFAULT_BASE_URLS[provider];
}

/**
 * Equal as endpoints: scheme, host, port and path compared after URL parsing (so case of the host,
 * default ports and trailing slashes do not matter), never with user info, query or fragment.
 */
export function sameEndpoint(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  const norm = (u: string): string | null => {
    try {
      const url = new URL(u);
      if (url.username || url.password || url.search || url.hash) return null;
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return null;
    }
  };
  const na = norm(a);
  return na !== null && na === norm(b);
}

/** What the UI is told when a stored key was held back and the server wanted one. */
export function heldBackMessage(provider: ProviderKind, baseUrl: string, serverSaid: string): string {
  return (
    `${serverSaid}. The saved ${provider} key is only sent to the provider's own address or to the base URL saved in Settings, ` +
    `not to ${new URL(baseUrl).origin} named by this request: save that base URL first, or type the key to test it there.`
  );
}
