import { KernelMessage, ServerConnection } from '@jupyterlab/services';
import { describe, expect, it } from 'vitest';
import { explainServerError, kernelAccount, normalizeServerUrl } from '../../../src-main/core/exec/remote/jupyter-connection';
import { kernelOutput } from '../../../src-main/core/exec/remote/kernel-output';

function iopub<T extends KernelMessage.IOPubMessageType>(
  msgType: T,
  content: KernelMessage.IIOPubMessage<T>['content'],
): KernelMessage.IIOPubMessage {
  // createMessage's overloads cannot be picked for a generic message type; the shape is checked by
  // the `content` parameter's type above.
  const options = { channel: 'iopub', msgType, session: 's', content } as unknown as KernelMessage.IOptions<KernelMessage.IStreamMsg>;
  return KernelMessage.createMessage(options);
}

describe('kernel messages as cell output', () => {
  it('streams text to the terminal with CR LF line ends', () => {
    expect(kernelOutput(iopub('stream', { name: 'stdout', text: 'a\nb\n' }))).toEqual({ kind: 'text', text: 'a\r\nb\r\n' });
  });

  it('passes rich outputs through in Jupyter shapes', () => {
    expect(kernelOutput(iopub('execute_result', { execution_count: 3, data: { 'text/plain': '42' }, metadata: {} }))).toEqual({
      kind: 'rich',
      output: { output_type: 'execute_result', execution_count: 3, data: { 'text/plain': '42' }, metadata: {} },
    });
    expect(kernelOutput(iopub('display_data', { data: { 'image/png': 'iVBO' }, metadata: {}, transient: {} }))).toMatchObject({
      output: { output_type: 'display_data' },
    });
    expect(kernelOutput(iopub('error', { ename: 'ValueError', evalue: 'bad', traceback: ['t'] }))).toEqual({
      kind: 'rich',
      output: { output_type: 'error', ename: 'ValueError', evalue: 'bad', traceback: ['t'] },
    });
    expect(kernelOutput(iopub('status', { execution_state: 'idle' }))).toBeNull();
  });

  it('keeps a display id, and turns update_display_data into an update of that id (none without one)', () => {
    const shown = { data: { 'text/plain': "'0/3'" }, metadata: {}, transient: { display_id: 'bar' } };
    expect(kernelOutput(iopub('display_data', shown))).toEqual({
      kind: 'rich',
      output: { output_type: 'display_data', data: { 'text/plain': "'0/3'" }, metadata: {}, displayId: 'bar' },
    });
    const update = { data: { 'text/plain': "'3/3'" }, metadata: {}, transient: { display_id: 'bar' } };
    expect(kernelOutput(iopub('update_display_data', update))).toEqual({
      kind: 'update',
      update: { displayId: 'bar', data: { 'text/plain': "'3/3'" }, metadata: {} },
    });
    expect(kernelOutput(iopub('update_display_data', { ...update, transient: {} }))).toBeNull();
  });
});

describe('server addresses and failures', () => {
  it('normalizes the URL the token is stored under, dropping a pasted ?token=', () => {
    expect(normalizeServerUrl('http://127.0.0.1:8888/?token=abc')).toBe('http://127.0.0.1:8888');
    expect(normalizeServerUrl('https://hub.example.org/user/ana/')).toBe('https://hub.example.org/user/ana');
    expect(kernelAccount('https://hub.example.org/user/ana/lab?token=x')).toBe('kernel:https://hub.example.org/user/ana/lab');
    expect(() => normalizeServerUrl('ftp://x')).toThrow('is not an http(s) URL');
    expect(() => normalizeServerUrl('http://me:secret@host')).toThrow('Put the token in the token field');
  });

  it('explains HTTP and network failures in terms the user can act on', () => {
    const response = (status: number): ServerConnection.ResponseError => new ServerConnection.ResponseError(new Response('{}', { status }));
    expect(explainServerError(response(403), 'http://h:1').message).toBe(
      'The Jupyter server at http://h:1 refused the token (HTTP 403). Check the token (jupyter server list shows it) and connect again.',
    );
    expect(explainServerError(response(404), 'http://h:1').message).toContain("For JupyterHub use your server's URL");
    expect(explainServerError(response(503), 'http://h:1').message).toContain('is not running (HTTP 503)');
    const refused = new ServerConnection.NetworkError(new TypeError('fetch failed: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:1'));
    expect(explainServerError(refused, 'http://127.0.0.1:1').message).toBe(
      'Nothing answers at http://127.0.0.1:1 (connection refused): is the Jupyter server running?',
    );
  });
});
