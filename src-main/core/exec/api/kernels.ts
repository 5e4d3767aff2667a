// The remote Jupyter kernels group of the engine's way in (`Kernels.…` from core/exec).
export { RemoteKernels, type KernelBinding, type KernelBindingMemory } from '../remote/remote-kernels';
export { kernelAccount, normalizeServerUrl, RemoteKernelError } from '../remote/jupyter-urls';
export { listKernelSpecs } from '../remote/list-kernel-specs';
