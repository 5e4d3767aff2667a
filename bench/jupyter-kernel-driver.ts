import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// The Jupyter side of bench/exec.bench.ts, apart from it: a Python script driving a real kernel
// through jupyter_client, and the TypeScript end that starts it and sends it commands. The bench
// file keeps what it measures of ours and how the two sides alternate.

// The kernel side, driven over stdin one command at a time so that our measurements and the
// kernel's alternate: on a shared machine the load changes from minute to minute, and a ratio of
// two measurements taken minutes apart would measure the load. Commands: `cold` (start a fresh
// kernel, replacing the last; its start time), `warm N` (N print(1) round trips), `ten`.
const KERNEL_DRIVER = String.raw`
import json, os, resource, sys, time
from jupyter_client.manager import KernelManager

ten_mb_code = sys.argv[1]
km = kc = None

def stop():
    global km, kc
    if km is not None:
        kc.stop_channels(); km.shutdown_kernel(now=True)
    km = kc = None

def start():
    global km, kc
    stop()
    t = time.perf_counter()
    km = KernelManager(kernel_name='python3')
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=120)
    return (time.perf_counter() - t) * 1000

def run(code):
    got = [0]
    def hook(msg):
        if msg['msg_type'] == 'stream':
            got[0] += len(msg['content']['text'])
    kc.execute_interactive(code, output_hook=hook, timeout=600)
    return got[0]

def timed(code):
    t = time.perf_counter(); chars = run(code); return (time.perf_counter() - t) * 1000, chars

def cpu_ms():
    # This client's CPU (its zmq threads too) plus the kernel process's, from /proc (Linux).
    own = resource.getrusage(resource.RUSAGE_SELF)
    with open('/proc/%d/stat' % km.provisioner.process.pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (own.ru_utime + own.ru_stime) * 1000 + (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf('SC_CLK_TCK')

for line in sys.stdin:
    command, _, arg = line.strip().partition(' ')
    if command == 'cold':
        reply = start()
    elif command == 'warm':
        before = cpu_ms()
        reply = {'ms': [timed('print(1)')[0] for _ in range(int(arg))]}
        reply['cpuMs'] = cpu_ms() - before
    elif command == 'ten':
        ms, chars = timed(ten_mb_code)
        reply = {'ms': ms, 'chars': chars}
    else:
        break
    print(json.dumps(reply), flush=True)
stop()
`;

export interface KernelResult {
  cold: number[];
  warm: number[];
  /** CPU time of both processes (client and kernel) over the warm runs. */
  warmCpuMs: number;
  tenMb: number;
  tenMbChars: number;
}

/** The versions of jupyter_client and ipykernel under `python`, or null when it has not both. */
export async function kernelAvailable(python: string): Promise<string | null> {
  return new Promise((res) => {
    execFile(python, ['-c', 'import jupyter_client, ipykernel; print(jupyter_client.__version__, ipykernel.__version__)'], (err, out) =>
      res(err ? null : out.trim()),
    );
  });
}

export interface KernelDriver {
  send<T>(command: string): Promise<T>;
  close(): Promise<void>;
}

/** The driver under `python`, its script written into `dir`; `tenMbCode` is what its `ten` command runs. */
export async function startKernelDriver(dir: string, python: string, tenMbCode: string): Promise<KernelDriver> {
  const script = join(dir, 'kernel_driver.py');
  await writeFile(script, KERNEL_DRIVER);
  // The kernel's debugger integration chatters on stderr; show it only when something fails.
  const child = spawn(python, [script, tenMbCode], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1' },
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4000);
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async send<T>(command: string): Promise<T> {
      child.stdin.write(`${command}\n`);
      const line = await lines.next();
      if (line.done) throw new Error(`kernel driver ended during '${command}': ${err}`);
      return JSON.parse(line.value) as T;
    },
    close: () =>
      new Promise<void>((res) => {
        child.on('exit', () => res());
        child.stdin.end('quit\n');
      }),
  };
}
