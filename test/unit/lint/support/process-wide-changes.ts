import ts from 'typescript';

// What a test file changes for the whole test process, read from its syntax tree (code in strings,
// run by a runner in another process, is not the test process's and is not counted). A change is
// put back when the file writes the same thing again inside a `finally` block or an after-hook
// (afterEach/afterAll): e.g. `process.env.TZ = 'Europe/Paris'` then `delete process.env.TZ` in the
// finally. Module mocks cannot be put back for the files after it in a shared process.

export interface ProcessWideChange {
  /** What is changed: `env TZ`, `cwd`, `listener warning`, `module mock`, `global X`… */
  what: string;
  line: number;
}

/** The changes in `source` that nothing in a `finally` or an after-hook puts back. */
export function unrestoredChanges(source: string, fileName = 'file.ts'): ProcessWideChange[] {
  // Parsing every test file costs seconds; most name none of these, and a change needs its name.
  if (!MENTIONS.test(source)) return [];
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const changes: Array<ProcessWideChange & { restoring: boolean }> = [];
  const visit = (node: ts.Node): void => {
    for (const what of changesAt(node)) {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      changes.push({ what, line, restoring: insideRestoringBlock(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  const restored = new Set(changes.filter((c) => c.restoring).map((c) => restoreKey(c.what)));
  return changes
    .filter((c) => !c.restoring && (c.what === 'module mock' || !restored.has(restoreKey(c.what))))
    .map(({ what, line }) => ({ what, line }));
}

const MENTIONS = /process\.(env|chdir|umask|setMaxListeners|on|once|addListener|prependListener)\b|vi\.(mock|doMock|stub)|globalThis\./;

/** Adding a listener is put back by removing one for the same event; everything else by the same write. */
function restoreKey(what: string): string {
  return what.replace(/^(listener|unlisten) /, 'listener ');
}

const isProcessEnv = (node: ts.Node): node is ts.PropertyAccessExpression =>
  ts.isPropertyAccessExpression(node) && node.name.text === 'env' && ts.isIdentifier(node.expression) && node.expression.text === 'process';

/** `process.env.NAME` or `process.env[NAME]` → NAME (the key's text when not a literal). */
function envName(node: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(node) && isProcessEnv(node.expression)) return node.name.text;
  if (ts.isElementAccessExpression(node) && isProcessEnv(node.expression)) {
    const key = node.argumentExpression;
    return ts.isStringLiteralLike(key) ? key.text : key.getText();
  }
  return undefined;
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) return `${callee.expression.text}.${callee.name.text}`;
  return undefined;
}

const LISTEN = new Set(['process.on', 'process.once', 'process.addListener', 'process.prependListener']);
const UNLISTEN = new Set(['process.off', 'process.removeListener', 'process.removeAllListeners']);

function changesAt(node: ts.Node): string[] {
  if (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  ) {
    const name = envName(node.left);
    if (name !== undefined) return [`env ${name}`];
    if (isProcessEnv(node.left)) return ['env (all)'];
    const target = node.left;
    if (ts.isPropertyAccessExpression(target) && ts.isIdentifier(target.expression) && target.expression.text === 'globalThis')
      return [`global ${target.name.text}`];
  }
  if (ts.isDeleteExpression(node)) {
    const name = envName(node.expression);
    if (name !== undefined) return [`env ${name}`];
  }
  if (!ts.isCallExpression(node)) return [];
  const callee = calleeName(node);
  const first = node.arguments[0];
  const firstText = first && ts.isStringLiteralLike(first) ? first.text : first?.getText();
  if (callee === 'Object.assign' && first && isProcessEnv(first)) return ['env (all)'];
  if (callee === 'process.chdir') return ['cwd'];
  if (callee === 'process.umask' && first) return ['umask'];
  if (callee === 'process.setMaxListeners') return ['max listeners'];
  if (callee !== undefined && LISTEN.has(callee)) return [`listener ${firstText}`];
  if (callee !== undefined && UNLISTEN.has(callee)) return [`unlisten ${firstText}`];
  if (callee === 'vi.mock' || callee === 'vi.doMock') return ['module mock'];
  if (callee === 'vi.stubEnv') return ['stubbed env'];
  if (callee === 'vi.unstubAllEnvs') return ['stubbed env'];
  if (callee === 'vi.stubGlobal' || callee === 'vi.unstubAllGlobals') return ['stubbed global'];
  return [];
}

/** Inside a `finally { … }` or the callback of afterEach/afterAll. */
function insideRestoringBlock(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    const parent = at.parent as ts.Node | undefined;
    if (parent && ts.isTryStatement(parent) && parent.finallyBlock === at) return true;
    if (ts.isCallExpression(at) && ts.isIdentifier(at.expression) && /^after(Each|All)$/.test(at.expression.text)) return true;
  }
  return false;
}
