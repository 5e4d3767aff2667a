// A running cell's terminal bytes, kept outside React state on purpose: 10,000 lines arriving in
// 16 ms batches must not re-render the conversation. A TerminalView subscribes to its cell's feed and
// writes new chunks straight into xterm; a view mounted later (scrolled back into sight) replays them.

type Listener = (chunk: string) => void;

interface Feed {
  chunks: string[];
  bytes: number;
  listeners: Set<Listener>;
}

/** Past this a feed drops its oldest chunks; the exec engine caps a run's output for the UI anyway. */
const MAX_FEED_CHARS = 16 * 1024 * 1024;
/** Feeds of cells that finished long ago are dropped first when there are too many. */
const MAX_FEEDS = 64;

const feeds = new Map<string, Feed>();

/** Starts the cell's feed afresh (its listeners stay) and returns it. */
export function resetFeed(cellId: string): Feed {
  const old = feeds.get(cellId);
  const feed: Feed = { chunks: [], bytes: 0, listeners: old?.listeners ?? new Set() };
  feeds.delete(cellId);
  feeds.set(cellId, feed);
  while (feeds.size > MAX_FEEDS) {
    const oldest = feeds.keys().next().value;
    if (oldest === undefined || oldest === cellId) break;
    feeds.delete(oldest);
  }
  return feed;
}

export function appendToFeed(cellId: string, chunk: string): void {
  const feed = feeds.get(cellId) ?? resetFeed(cellId);
  feed.chunks.push(chunk);
  feed.bytes += chunk.length;
  while (feed.bytes > MAX_FEED_CHARS && feed.chunks.length > 1) feed.bytes -= feed.chunks.shift()?.length ?? 0;
  for (const l of feed.listeners) l(chunk);
}

export function hasFeed(cellId: string): boolean {
  return feeds.has(cellId);
}

/** Calls `onChunk` for what the feed already holds, then for every new chunk; returns the unsubscribe. */
export function subscribeFeed(cellId: string, onChunk: Listener): () => void {
  let feed = feeds.get(cellId);
  if (!feed) {
    feed = { chunks: [], bytes: 0, listeners: new Set() };
    feeds.set(cellId, feed);
  }
  for (const c of feed.chunks) onChunk(c);
  feed.listeners.add(onChunk);
  const f = feed;
  return () => f.listeners.delete(onChunk);
}

export function clearFeeds(): void {
  feeds.clear();
}
