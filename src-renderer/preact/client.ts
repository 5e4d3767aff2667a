// What the built renderer gets for 'react-dom/client' (the alias in electron.vite.config.ts): Preact's
// createRoot, with React's controlled-input rule added (controlled-inputs.ts). Compat first, so that
// hook runs before compat's own and sees the props as the app wrote them.
export { createRoot } from 'preact/compat/client';
import './controlled-inputs';
