import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, OiTerminal, runOi } from '../../support/cli-process';
import { useFileLlm } from '../../support/cli-run';

// A scheduled task proposed in `oi` (docs/cli.md, docs/schedules.md#from-a-conversation): in a
// pseudo-terminal, with -y (auto-run), oi prints what will run, when, where and how, and asks y/n —
// auto-run does not answer it. n: nothing is made and the model is told; y: the task is made and
// `oi schedule list` shows it. OI_SCHEDULER=in-app: nothing goes into the machine's systemd.

const shared = useFileLlm('oi-cli-schedule-', { models: ['planner'] });
const model = () => ['--provider', 'openai-compatible', '--model', 'planner', '--base-url', shared.llm().openaiBaseUrl];
const propose = (id: string, name: string) => ({
  kind: 'tool' as const,
  calls: [{ id, name: 'schedule_task', arguments: { name, prompt: 'Summarise the logs.', days: 'mon', at: '09:00', report: true } }],
});

describe('oi and schedule_task', () => {
  it('shows the proposal and asks y/n even with -y; n makes nothing, y makes the task oi schedule list shows', async () => {
    const ws = path.join(shared.dir(), 'ws');
    mkdirSync(ws, { recursive: true });
    const env = cliEnv(shared.dir(), { OI_SCHEDULER: 'in-app' });
    shared.llm().enqueue(propose('s1', 'Declined task'), { kind: 'text', text: 'Fine, not scheduled.' });
    shared.llm().enqueue(propose('s2', 'Monday logs'), { kind: 'text', text: 'Scheduled for Mondays.' });
    const oi = new OiTerminal([...model(), '-y', '--workspace', ws, 'Run this every Monday'], env);
    try {
      await oi.expectEach(
        '── proposed scheduled task ──',
        'Declined task',
        'mon at 09:00',
        ws,
        'refused: the model only reports',
        'Schedule this task? (y)es, (n)o:',
      );
      await oi.enter('n', 'not scheduled: The person declined this scheduled task; nothing was scheduled.', 'Fine, not scheduled.');
      await oi.enter('Please do schedule it', 'Monday logs', 'Schedule this task? (y)es, (n)o:');
      await oi.enter('y', '✓ scheduled', 'Scheduled task “Monday logs” added: mon at 09:00.', 'Scheduled for Mondays.');
      // The call's JSON is not printed as code.
      expect(oi.output).not.toContain('"days"');
      oi.line('exit');
      expect(await oi.exited).toBe(0);
    } finally {
      oi.kill();
    }
    const list = await runOi(['schedule', 'list', '--json'], env);
    const { schedules } = JSON.parse(list.stdout) as { schedules: Array<{ name: string; workspace: string; policy: { code: string } }> };
    expect(schedules.map((s) => [s.name, s.workspace, s.policy.code])).toEqual([['Monday logs', ws, 'report']]);
  });
});
