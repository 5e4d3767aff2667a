import type { Page } from 'playwright-core';

// What must never happen on the app's page: an uncaught error (pageerror: an exception or an
// unhandled rejection) or a resource the app's own Content-Security-Policy refuses. Both were only
// logged before, so a test could pass over a broken page; the e2e fixture fails the test on either.
// CSP refusals are seen as `securitypolicyviolation` events of the top document, whatever the console
// says; refusals inside the sandboxed frames of HTML outputs are the sandbox working, not a problem.

const CSP_PROBE = `if (window === window.top) {
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__oiCspViolation(e.effectiveDirective + ' refused ' + (e.blockedURI || '(inline)') + (e.sourceFile ? ' in ' + e.sourceFile + ':' + e.lineNumber : ''));
  });
}`;

/** Starts recording the page's problems; call before the page navigates. The array fills as they happen. */
export async function watchPageProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.stack ?? err.message}`));
  await page.exposeFunction('__oiCspViolation', (text: string) => {
    problems.push(`CSP violation: ${text}`);
  });
  await page.addInitScript({ content: CSP_PROBE });
  return problems;
}

/** Throws, naming each one, when the page had any problem. */
export function assertNoPageProblems(problems: readonly string[]): void {
  if (problems.length > 0) throw new Error(`The page had ${problems.length} problem(s):\n${problems.join('\n')}`);
}
