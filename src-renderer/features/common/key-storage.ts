// Where a key the user types will be kept, in the same words everywhere the app says it (first run,
// Settings, the keys screen, the start-up notice from main), so no two places disagree.

export type KeyStorage = 'keychain' | 'memory';

export function keyStorageSentence(storage: KeyStorage | null): string {
  return storage === 'memory'
    ? 'Kept in memory until the app quits: no OS keychain is available on this machine.'
    : 'Saved in the OS keychain.';
}
