// Rewrites a JavaScript cell so that what it declares at top level outlives the cell.
//
// Each cell runs as a classic script in the main context (vm.Script#runInThisContext). Scripts
// already share `var` and function declarations through the global object, but top-level
// `let`/`const`/`class` live in a shared lexical scope that rejects redeclaration (re-running a
// cell with `const x` would fail), and a cell using top-level await must be wrapped in an async
// function, whose declarations would die with it. So, before compiling:
//   - `let`/`const`/`var` declarations become assignments to global `var`s:
//       const {a, b} = f()   →   var a, b; … void ({a, b} = f());
//   - `class C {}` becomes `void (C = class C {});`
//   - static `import` statements become `await import()` assignments;
//   - a cell with top-level await runs as `(async () => { … })()`, its function declarations are
//     copied onto globalThis, and its final expression statement is returned.
// Declarations therefore behave like `var`: they persist, a later cell may redeclare them, and
// const-ness and the temporal dead zone are not enforced across cells.
//
// This is a scanner, not a parser: it knows strings, templates, comments, regex literals and
// bracket nesting, which is enough to find top-level statements. When a rewrite does not compile,
// the runner falls back to the cell as written (see oi-runner.mjs).

const PUNCTUATORS = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
];
const REGEX_AFTER_WORDS = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
  'extends',
]);
// Words after which an expression cannot end, so a newline there does not end the statement.
const OPERATOR_WORDS = new Set([
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'await',
  'yield',
  'case',
  'extends',
  'else',
  'do',
  'if',
  'for',
  'while',
  'with',
  'switch',
  'catch',
  'try',
  'finally',
  'function',
  'class',
  'const',
  'let',
  'var',
  'import',
  'export',
  'async',
]);
const BLOCK_HEADS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);
const STATEMENT_WORDS = new Set([
  'if',
  'for',
  'while',
  'do',
  'switch',
  'try',
  'throw',
  'return',
  'break',
  'continue',
  'function',
  'class',
  'const',
  'let',
  'var',
  'import',
  'export',
  'else',
  'catch',
  'finally',
  'debugger',
  'with',
]);
const STATEMENT_PUNCTUATORS = new Set(['{', '!', '~', '++', '--']);

const isWordStart = (c) => /[A-Za-z_$#\\]/.test(c) || c.charCodeAt(0) > 127;
const isWordPart = (c) => /[A-Za-z0-9_$\\]/.test(c) || c.charCodeAt(0) > 127;

/** Splits source into tokens: {type: name|num|str|tpl|regex|punc, value, start, end, nl}. */
export function tokenize(src) {
  const tokens = [];
  const braces = []; // '{' or '${', to know when a '}' resumes a template literal
  const n = src.length;
  let i = src.startsWith('#!') ? src.indexOf('\n') : 0;
  if (i < 0) i = n;
  let nl = false;
  const push = (type, start, end) => {
    tokens.push({ type, value: src.slice(start, end), start, end, nl });
    nl = false;
  };
  const regexAllowed = () => {
    const p = tokens[tokens.length - 1];
    if (!p) return true;
    if (p.type === 'name') return REGEX_AFTER_WORDS.has(p.value);
    return p.type === 'punc' && p.value !== ')' && p.value !== ']';
  };
  // Scans template characters from i; returns true when it stopped at a `${`.
  const scanTemplate = () => {
    while (i < n) {
      const c = src[i];
      if (c === '\\') i += 2;
      else if (c === '`') return (i++, false);
      else if (c === '$' && src[i + 1] === '{') return ((i += 2), true);
      else i++;
    }
    return false;
  };
  const templatePart = (start) => {
    if (scanTemplate()) {
      push('tpl', start, i - 2);
      push('punc', i - 2, i);
      braces.push('${');
    } else push('tpl', start, i);
  };

  while (i < n) {
    const c = src[i];
    const start = i;
    if (c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029') {
      nl = true;
      i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      if (src.slice(start, i).includes('\n')) nl = true;
    } else if (c === '"' || c === "'") {
      i++;
      while (i < n && src[i] !== c && src[i] !== '\n') i += src[i] === '\\' ? 2 : 1;
      i++;
      push('str', start, Math.min(i, n));
    } else if (c === '`') {
      i++;
      templatePart(start);
    } else if (c === '{') {
      braces.push('{');
      push('punc', start, ++i);
    } else if (c === '}') {
      const opener = braces.pop();
      push('punc', start, ++i);
      if (opener === '${') templatePart(i);
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      i++;
      while (
        i < n &&
        (/[0-9A-Za-z_.]/.test(src[i]) || (/[+-]/.test(src[i]) && /[eE]/.test(src[i - 1]) && !/^0[xX]/.test(src.slice(start, i))))
      )
        i++;
      push('num', start, i);
    } else if (isWordStart(c)) {
      i++;
      while (i < n && isWordPart(src[i])) i += src[i] === '\\' ? 2 : 1;
      push('name', start, i);
    } else if (c === '/' && regexAllowed()) {
      i++;
      let inClass = false;
      while (i < n && src[i] !== '\n') {
        const r = src[i];
        if (r === '\\') i++;
        else if (inClass) inClass = r !== ']';
        else if (r === '[') inClass = true;
        else if (r === '/') break;
        i++;
      }
      i++;
      while (i < n && /[A-Za-z]/.test(src[i])) i++;
      push('regex', start, Math.min(i, n));
    } else {
      const op = PUNCTUATORS.find((p) => src.startsWith(p, i)) ?? c;
      i += op.length;
      push('punc', start, i);
    }
  }
  return tokens;
}

const isOpener = (t) => t.type === 'punc' && (t.value === '(' || t.value === '[' || t.value === '{' || t.value === '${');
const isCloser = (t) => t.type === 'punc' && (t.value === ')' || t.value === ']' || t.value === '}');

function continuesExpression(t) {
  if (t.type === 'tpl') return true;
  if (t.type === 'name') return t.value === 'in' || t.value === 'instanceof' || t.value === 'from';
  return t.type === 'punc' && !STATEMENT_PUNCTUATORS.has(t.value);
}

function endsExpression(p) {
  if (p.type === 'name') return !OPERATOR_WORDS.has(p.value);
  if (p.type === 'punc') return [')', ']', '}', '++', '--'].includes(p.value);
  return true; // literals
}

function startsStatement(t, p) {
  if (!p) return true;
  if (p.type === 'punc' && (p.value === ';' || p.value === '{')) return true;
  if (p.type === 'punc' && p.value === '}') return !continuesExpression(t);
  return t.nl && endsExpression(p) && !continuesExpression(t);
}

function opensFunctionBody(tokens, k) {
  const p = tokens[k - 1];
  if (!p || p.type !== 'punc') return false;
  if (p.value === '=>') return true;
  if (p.value !== ')' || p.open === undefined) return false;
  const head = tokens[p.open - 1];
  if (!head) return false;
  if (head.type === 'name' && BLOCK_HEADS.has(head.value)) return false;
  return !(head.value === 'await' && tokens[p.open - 2]?.value === 'for');
}

/** Annotates tokens with nesting and finds top-level statements and top-level await. */
export function analyze(tokens) {
  const stack = []; // open brackets: {k, fn}
  const arrows = []; // nesting depths at which a concise arrow body (`x => expr`) is open
  let functionDepth = 0;
  let topLevelAwait = false;
  const starts = [];
  const closeArrows = (depth) => {
    while (arrows.length && arrows[arrows.length - 1] >= depth) arrows.pop();
  };
  // An import statement ends at its module name (or its `with {…}`), even when the next line
  // starts with `(` or `[`, which elsewhere would continue an expression.
  let inImport = false;
  let importEnded = false;
  tokens.forEach((t, k) => {
    t.depth = stack.length;
    const context = stack[stack.length - 1];
    const p = tokens[k - 1];
    if ((!context || tokens[context.k].value === '{') && ((importEnded && t.nl) || startsStatement(t, p))) {
      if (!context) {
        starts.push(k);
        const next = tokens[k + 1];
        inImport = t.value === 'import' && t.type === 'name' && next !== undefined && next.value !== '(' && next.value !== '.';
      }
      closeArrows(stack.length);
    }
    if (isOpener(t)) {
      const fn = t.value === '{' && opensFunctionBody(tokens, k);
      stack.push({ k, fn });
      if (fn) functionDepth++;
    } else if (isCloser(t)) {
      const open = stack.pop();
      if (open) {
        t.open = open.k;
        tokens[open.k].close = k;
        if (open.fn) functionDepth--;
      }
      closeArrows(stack.length + 1);
    } else if (t.type === 'punc' && t.value === '=>') {
      if (tokens[k + 1]?.value !== '{') arrows.push(stack.length);
    } else if (t.type === 'punc' && (t.value === ',' || t.value === ';')) {
      closeArrows(stack.length);
    } else if (t.type === 'name' && t.value === 'await' && functionDepth === 0 && arrows.length === 0) {
      topLevelAwait = true;
    }
    importEnded =
      inImport &&
      stack.length === 0 &&
      (t.type === 'str' || (t.value === '}' && tokens[t.open - 1]?.value === 'with')) &&
      tokens[k + 1]?.value !== 'with' &&
      tokens[k + 1]?.value !== 'assert';
  });
  return { starts, topLevelAwait };
}

class Unsupported extends Error {}

/** Identifiers bound by the pattern starting at token s (a name, `{…}` or `[…]`). */
function bindingNames(tokens, s, names) {
  const t = tokens[s];
  if (t.type === 'name') return void names.push(t.value);
  if (t.close === undefined || (t.value !== '{' && t.value !== '[')) throw new Unsupported('pattern');
  for (const [first, last] of splitAt(tokens, s + 1, t.close - 1, ',')) {
    let at = first;
    if (tokens[at].value === '...') at++;
    if (t.value === '{' && at === first) {
      const colon = findAt(tokens, first, last, ':');
      if (colon < 0)
        names.push(tokens[first].value); // shorthand `{a}` or `{a = 1}`
      else bindingNames(tokens, colon + 1, names);
    } else bindingNames(tokens, at, names);
  }
}

/** [first, last] ranges of tokens between separators at the nesting depth of `first`. */
function splitAt(tokens, first, last, separator) {
  const ranges = [];
  if (first > last) return ranges;
  const depth = tokens[first].depth;
  let from = first;
  for (let k = first; k <= last; k++) {
    if (tokens[k].depth === depth && tokens[k].value === separator && tokens[k].type === 'punc') {
      if (k > from) ranges.push([from, k - 1]);
      from = k + 1;
    }
  }
  if (from <= last) ranges.push([from, last]);
  return ranges;
}

function findAt(tokens, first, last, value) {
  const depth = tokens[first].depth;
  for (let k = first; k <= last; k++) {
    if (tokens[k].depth === depth && tokens[k].value === value && tokens[k].type === 'punc') return k;
  }
  return -1;
}

/** One top-level statement: its tokens [first, last] without a trailing `;`. */
function statementRanges(tokens, starts) {
  return starts.map((first, j) => {
    let last = (starts[j + 1] ?? tokens.length) - 1;
    const semicolon = tokens[last].type === 'punc' && tokens[last].value === ';';
    if (semicolon) last--;
    return { first, last, semicolon };
  });
}

function importEdit(src, tokens, first, last) {
  // import 'm' | import X from 'm' | import * as ns from 'm' | import X, {a, b as c} from 'm'
  let k = first + 1;
  let defaultName = null;
  let namespace = null;
  let named = null;
  if (tokens[k].type === 'name' && tokens[k].value !== 'from') {
    defaultName = tokens[k++].value;
    if (tokens[k]?.value === ',') k++;
  }
  if (tokens[k]?.value === '*') {
    if (tokens[k + 1]?.value !== 'as') throw new Unsupported('import');
    namespace = tokens[k + 2].value;
    k += 3;
  } else if (tokens[k]?.value === '{') {
    named = splitAt(tokens, k + 1, tokens[k].close - 1, ',').map(([a, b]) => {
      if (b === a) return tokens[a].value;
      if (b === a + 2 && tokens[a + 1].value === 'as') return `${tokens[a].value}: ${tokens[b].value}`;
      throw new Unsupported('import');
    });
    k = tokens[k].close + 1;
  }
  if (defaultName || namespace || named) {
    if (tokens[k]?.value !== 'from') throw new Unsupported('import');
    k++;
  }
  const specifier = tokens[k];
  if (specifier?.type !== 'str') throw new Unsupported('import');
  let options = '';
  if (tokens[k + 1] && (tokens[k + 1].value === 'with' || tokens[k + 1].value === 'assert')) {
    const brace = tokens[k + 2];
    if (brace?.value !== '{' || brace.close !== last) throw new Unsupported('import');
    options = `, { with: ${src.slice(brace.start, tokens[last].end)} }`;
  } else if (k !== last) throw new Unsupported('import');
  const load = `await import(${specifier.value}${options})`;
  const names = [defaultName, namespace].filter(Boolean);
  let text;
  if (namespace) text = `${namespace} = ${load}${defaultName ? `, ${defaultName} = ${namespace}.default` : ''}`;
  else if (named) {
    if (defaultName) named.unshift(`default: ${defaultName}`);
    text = `({${named.join(', ')}} = ${load})`;
    for (const entry of named) names.push(entry.split(':').pop().trim());
  } else if (defaultName) text = `${defaultName} = (${load}).default`;
  else text = load;
  const newlines = src.slice(tokens[first].start, tokens[last].end).split('\n').length - 1;
  return { names, text: `void (${text});${'\n'.repeat(newlines)}` };
}

/**
 * Plans how to run a cell. Returns the sources to try, in order:
 *   sync   – a plain script (null when the cell has top-level await); its completion value is
 *            the cell's value when `syncHasValue`
 *   async  – an async wrapper that resolves to the final expression's value
 */
export function prepareCell(src) {
  const tokens = tokenize(src);
  if (tokens.length === 0) return { sync: src, syncHasValue: false, async: null };
  const { starts, topLevelAwait } = analyze(tokens);
  let hasAwait = topLevelAwait;
  const edits = []; // {start, end, text}: replace src[start, end) with text
  const names = [];
  const functions = [];
  let lastIsExpression = false;
  let lastExpression = null; // {start, end} of the final expression statement
  let prologueEnd = 0;
  let inPrologue = true;

  for (const { first: statementFirst, last, semicolon } of statementRanges(tokens, starts)) {
    let first = statementFirst;
    let t = tokens[first];
    if (first > last) {
      // an empty statement
      lastIsExpression = false;
      continue;
    }
    if (inPrologue && t.type === 'str' && first === last) {
      prologueEnd = semicolon ? tokens[last + 1].end : t.end; // a directive such as 'use strict'
      lastIsExpression = true;
      lastExpression = { start: t.start, end: t.end };
      continue;
    }
    inPrologue = false;
    lastIsExpression = false;
    if (t.type === 'name' && t.value === 'export' && first < last) {
      const skip = tokens[first + 1].value === 'default' ? 2 : 1;
      edits.push({ start: t.start, end: tokens[first + skip - 1].end, text: '' });
      first += skip;
      t = tokens[first];
    }
    const next = tokens[first + 1];
    if (
      t.type === 'name' &&
      (t.value === 'const' ||
        t.value === 'var' ||
        (t.value === 'let' && next && (next.type === 'name' || next.value === '[' || next.value === '{')))
    ) {
      edits.push({ start: t.start, end: t.end, text: 'void (' });
      for (const [a, b] of splitAt(tokens, first + 1, last, ',')) {
        bindingNames(tokens, a, names);
        const patternEnd = tokens[a].close ?? a;
        if (b === patternEnd && t.value !== 'var') edits.push({ start: tokens[b].end, end: tokens[b].end, text: ' = undefined' });
        else if (b !== patternEnd && tokens[patternEnd + 1].value !== '=') throw new Unsupported('declaration');
      }
      edits.push({ start: tokens[last].end, end: tokens[last].end, text: semicolon ? ')' : ');' });
    } else if (t.type === 'name' && t.value === 'class' && next?.type === 'name' && next.value !== 'extends') {
      const body = tokens.findIndex((x, k) => k > first && x.value === '{' && x.depth === t.depth);
      if (body < 0 || tokens[body].close !== last) throw new Unsupported('class');
      names.push(next.value);
      edits.push({ start: t.start, end: t.start, text: `void (${next.value} = ` });
      edits.push({ start: tokens[last].end, end: tokens[last].end, text: ');' });
    } else if (t.type === 'name' && (t.value === 'function' || (t.value === 'async' && next?.value === 'function' && !next.nl))) {
      let k = t.value === 'async' ? first + 2 : first + 1;
      if (tokens[k]?.value === '*') k++;
      if (tokens[k]?.type === 'name') functions.push(tokens[k].value);
    } else if (t.type === 'name' && t.value === 'import' && next && next.value !== '(' && next.value !== '.') {
      const edit = importEdit(src, tokens, first, last);
      names.push(...edit.names);
      edits.push({ start: t.start, end: (semicolon ? tokens[last + 1] : tokens[last]).end, text: edit.text });
      hasAwait = true;
    } else {
      const label = t.type === 'name' && next?.value === ':';
      const dynamicImport = t.value === 'import'; // import(…) or import.meta: static ones are handled above
      const keyword = t.type === 'name' && STATEMENT_WORDS.has(t.value) && !dynamicImport;
      lastIsExpression = !label && !keyword && !(t.type === 'punc' && t.value === '{');
      if (lastIsExpression) lastExpression = { start: t.start, end: tokens[last].end };
    }
  }

  const unique = [...new Set(names)];
  // After a directive without its own `;`, ASI would not separate it from our `var`.
  const separator = prologueEnd > 0 && src[prologueEnd - 1] !== ';' ? ';' : '';
  const declare = unique.length ? `${separator}var ${unique.join(', ')}; ` : separator;
  const body = applyEdits(src, edits);
  // Where an offset in the cell lands in the edited body (insertions at the offset stay after it).
  const bodyOffset = (offset) =>
    offset + edits.filter((e) => e.start < offset && e.end <= offset).reduce((d, e) => d + e.text.length - (e.end - e.start), 0);
  const head = body.slice(0, bodyOffset(prologueEnd));
  const rest = body.slice(bodyOffset(prologueEnd));
  const sync = hasAwait ? null : head + declare + rest;

  let asyncBody = rest;
  if (lastIsExpression) {
    const from = bodyOffset(lastExpression.start) - head.length;
    const to = bodyOffset(lastExpression.end) - head.length;
    asyncBody = `${rest.slice(0, from)}return (${rest.slice(from, to)})${rest.slice(to)}`;
  }
  const exports = functions.map((f) => `globalThis[${JSON.stringify(f)}] = ${f}; `).join('');
  const async = `${head}${declare}(async () => { ${exports}${asyncBody}\n})()`;
  return { sync, syncHasValue: lastIsExpression, async };
}

function applyEdits(src, edits) {
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  let out = '';
  let at = 0;
  for (const e of edits) {
    if (e.start < at) throw new Unsupported('overlapping edits');
    out += src.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + src.slice(at);
}

/** prepareCell, or null when the scanner cannot make sense of the cell. */
export function tryPrepareCell(src) {
  try {
    return prepareCell(src);
  } catch (error) {
    if (error instanceof Unsupported || error instanceof TypeError) return null;
    throw error;
  }
}
