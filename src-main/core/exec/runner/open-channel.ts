import { FifoChannel } from './fifo-channel';
import type { ChannelKind, RunnerChannel, RunnerChannelEvents } from './runner-channel';
import { SideChannel } from './side-channel';

// Apart from the channel types (runner-channel.ts) so that the two channel kinds can name those
// types without an import circle.

/** Opens a channel of the given kind in the session's private folder `dir`. */
export function openRunnerChannel(kind: ChannelKind, dir: string, events: RunnerChannelEvents): Promise<RunnerChannel> {
  return kind === 'fifo' ? FifoChannel.open(dir, events) : SideChannel.listen(dir, events);
}
