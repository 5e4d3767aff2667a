import type { RawData } from 'ws';

/** A received WebSocket frame's bytes as text, whichever of its three shapes `ws` hands over. */
export function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
}
