import type { KeyTestResult } from '@contract';

/**
 * The result of a key test in words: a network failure says the key was not checked (never that it
 * did not work), a refusal says the key is at fault.
 */
export function keyTestText(result: KeyTestResult): string {
  if (result.ok) {
    const { models } = result;
    return `The key works: ${models.length} model${models.length === 1 ? '' : 's'} (${models.slice(0, 5).join(', ')}${models.length > 5 ? ', …' : ''})`;
  }
  switch (result.problem) {
    case 'network':
      return `Could not check the key: ${result.message}`;
    case 'key':
      return `The key did not work: ${result.message}`;
    case 'server':
      return `The server failed, so the key could not be checked: ${result.message}`;
    default:
      return `The test failed: ${result.message}`;
  }
}
