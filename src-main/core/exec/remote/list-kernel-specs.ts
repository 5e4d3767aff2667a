import type { JupyterTarget, KernelSpecInfo } from './jupyter-urls';

/** The server's kernels; the Jupyter client is loaded on this first use, not at start-up. */
export async function listKernelSpecs(target: JupyterTarget): Promise<{ default: string | null; specs: KernelSpecInfo[] }> {
  return (await import('./jupyter-connection')).listKernelSpecs(target);
}
