import { afterEach, describe, expect, it } from 'vitest';
import { appendToFeed, clearFeeds, hasFeed, resetFeed, subscribeFeed } from '../../../src-renderer/state/terminal-feeds';

describe('terminal feeds', () => {
  afterEach(() => clearFeeds());

  it('replays what a feed holds to a late subscriber, then streams new chunks', () => {
    resetFeed('c1');
    appendToFeed('c1', 'a');
    appendToFeed('c1', 'b');
    const got: string[] = [];
    const off = subscribeFeed('c1', (c) => got.push(c));
    appendToFeed('c1', 'c');
    off();
    appendToFeed('c1', 'd');
    expect(got).toEqual(['a', 'b', 'c']);
  });

  it('keeps a subscriber across a reset (a cell run again) and starts the replay empty', () => {
    const got: string[] = [];
    subscribeFeed('c2', (c) => got.push(c));
    appendToFeed('c2', 'first run');
    resetFeed('c2');
    appendToFeed('c2', 'second run');
    expect(got).toEqual(['first run', 'second run']);
    const replay: string[] = [];
    subscribeFeed('c2', (c) => replay.push(c));
    expect(replay).toEqual(['second run']);
    expect(hasFeed('c2')).toBe(true);
    expect(hasFeed('never')).toBe(false);
  });
});
