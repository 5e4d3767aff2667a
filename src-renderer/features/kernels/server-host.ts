// The short name of a Jupyter server for the top bar and the cell's limits line: its host and port,
// never its path or query (a URL copied from a browser may carry ?token=…).

export function serverHost(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** The host a run's `limits.location` names ('remote Jupyter kernel "…" at http://h:p'), or null. */
export function locationHost(location: string): string | null {
  const url = /\bhttps?:\/\/\S+/.exec(location)?.[0];
  return url ? serverHost(url) : null;
}
