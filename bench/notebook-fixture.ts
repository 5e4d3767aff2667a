import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { CellItem, Conversation, ConversationItem } from '../src-preload/contract/model';

// The notebook benchmark's conversation (issue 8, item 5): 10,000 cells — 5,000 markdown and 5,000
// code cells with stream outputs, a real ~20 KB PNG every tenth code cell. The PNG is noise so it
// does not compress: its base64 is what a plot costs in a real notebook. The file comes out near
// 20 MB rather than the 17: each exported code cell carries ~600 bytes of the app's metadata.

const PAIRS = 5_000;
const PNG_EVERY = 10;

/** A valid RGB PNG of random pixels, `side`×`side` (82 → about 20 KB). */
export function noisePng(side = 82): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type: RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < side; y++) rows.push(Buffer.concat([Buffer.from([0]), randomBytes(side * 3)]));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export function benchConversation(): Conversation {
  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
  const items: ConversationItem[] = [];
  let pngs = 0;
  for (let i = 0; i < PAIRS; i++) {
    items.push({
      kind: 'assistant',
      id: `a-${i}`,
      step: `s-${i}`,
      text: `## Step ${i}\n\nNow we look at **batch ${i}** of the data: its mean and spread.`,
      thinking: [],
      interrupted: false,
      createdAt: at(2 * i),
    });
    const outputs: CellItem['outputs'] = [
      {
        output_type: 'stream',
        name: 'stdout',
        text: `batch ${i}\n${Array.from({ length: 3 }, (_, j) => `row ${j}: ${(i * 31 + j * 7) % 997}`).join('\n')}\n`,
      },
    ];
    if (i % PNG_EVERY === 0) {
      pngs++;
      outputs.push({
        output_type: 'display_data',
        data: { 'image/png': noisePng().toString('base64'), 'text/plain': '<Figure size 640x480 with 1 Axes>' },
        metadata: {},
      });
    }
    items.push({
      kind: 'cell',
      id: `c-${i}`,
      step: `s-${i}`,
      toolCallId: `call_${i}`,
      language: 'python',
      code: `batch = data[${i}]\nprint("batch", ${i})\nfor j, row in enumerate(batch.rows[:3]):\n    print(f"row {j}: {row}")`,
      status: 'done',
      approval: 'user',
      outputs,
      exitCode: 0,
      durationMs: 12.5,
      executionCount: i + 1,
      startedAt: at(2 * i + 1),
      limits: { timeoutMs: 120_000, memoryMb: 4096, cpuSeconds: null, maxProcesses: 512, sandbox: null },
      resultForModel: null,
    });
  }
  if (pngs !== PAIRS / PNG_EVERY) throw new Error('the fixture lost its images');
  return {
    version: 1,
    id: 'bench',
    title: 'Notebook benchmark',
    createdAt: at(0),
    updatedAt: at(2 * PAIRS),
    workspace: '/nonexistent/bench-workspace',
    items,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    autoRun: false,
  };
}
