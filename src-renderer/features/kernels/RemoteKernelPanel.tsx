import { useId, useState, type FormEvent } from 'react';
import { useApp } from '../../state/app-store';
import { useKernels } from './kernel-store';
import { serverHost } from './server-host';

/**
 * Server URL, token and kernel for the open conversation. The token field starts empty and is never
 * filled from the app: main keeps the token in the keychain and never sends it back; left empty,
 * the token saved for that server is used.
 */
export function RemoteKernelPanel() {
  const ensureConversation = useApp((s) => s.ensureConversation);
  const { status, specs, defaultSpec, busy, error, listSpecs, connect, disconnect } = useKernels();
  const [url, setUrl] = useState(status?.url ?? '');
  const [token, setToken] = useState('');
  const [kernel, setKernel] = useState<string | null>(null);
  const ids = { url: useId(), token: useId(), kernel: useId() };
  const chosen = kernel ?? defaultSpec ?? specs?.[0]?.name ?? null;

  const onConnect = async (e: FormEvent) => {
    e.preventDefault();
    const conversationId = await ensureConversation();
    // The token has done its job (main saved it); it should not linger in the page.
    if (await connect(conversationId, url, token, chosen)) setToken('');
  };
  const onDisconnect = async () => {
    const conversationId = useKernels.getState().conversationId;
    if (conversationId) await disconnect(conversationId);
  };

  return (
    <form className="kernel-panel" role="dialog" aria-label="Remote kernel" onSubmit={(e) => void onConnect(e)}>
      <p className="kernel-state" data-testid="kernel-state">
        {status ? (
          <>
            {status.language} runs on <strong>{status.displayName}</strong> at {serverHost(status.url)}
            {status.kernelId ? ` (kernel ${status.kernelId.slice(0, 8)})` : ' (the kernel starts with the next run)'}
          </>
        ) : (
          'Code runs on this machine.'
        )}
      </p>
      <label className="field" htmlFor={ids.url}>
        Server URL
        <input id={ids.url} type="url" value={url} placeholder="http://127.0.0.1:8888" required onChange={(e) => setUrl(e.target.value)} />
      </label>
      <label className="field" htmlFor={ids.token}>
        Token
        <input
          id={ids.token}
          type="password"
          value={token}
          autoComplete="off"
          placeholder="Saved in the keychain; leave empty to use the saved one"
          onChange={(e) => setToken(e.target.value)}
        />
      </label>
      <div className="kernel-row">
        <button type="button" disabled={busy !== null || !url.trim()} onClick={() => void listSpecs(url, token)}>
          {busy === 'listing' ? 'Listing…' : 'List kernels'}
        </button>
        {specs && (
          <label className="kernel-pick" htmlFor={ids.kernel}>
            Kernel
            <select id={ids.kernel} value={chosen ?? ''} onChange={(e) => setKernel(e.target.value)}>
              {specs.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.displayName} ({s.language})
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="kernel-row">
        <button type="submit" className="primary" disabled={busy !== null || !url.trim()}>
          {busy === 'connecting' ? 'Connecting…' : status ? 'Reconnect' : 'Connect'}
        </button>
        {status && (
          <button type="button" disabled={busy !== null} onClick={() => void onDisconnect()}>
            {busy === 'disconnecting' ? 'Disconnecting…' : 'Disconnect'}
          </button>
        )}
      </div>
    </form>
  );
}
