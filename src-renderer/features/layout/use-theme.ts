import { useEffect } from 'react';
import type { Settings } from '@contract';

/** 'system' follows the OS (CSS prefers-color-scheme); 'light'/'dark' pin it via data-theme. */
export function useTheme(theme: Settings['theme'] | undefined): void {
  useEffect(() => {
    const root = document.documentElement;
    if (!theme || theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
}
