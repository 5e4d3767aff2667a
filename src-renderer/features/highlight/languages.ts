// Token rules for the languages the agent writes most. Each rule is a regex source without capturing
// groups (they are joined into one alternation); earlier rules win. Unterminated strings and comments
// run to the end of the input, so code still being streamed highlights sensibly.

export interface LanguageDef {
  rules: Array<[token: string, source: string]>;
  caseInsensitive?: boolean;
}

const END = '(?![\\s\\S])';
const words = (list: string) => `\\b(?:${list.trim().split(/\s+/).join('|')})\\b`;
const NUMBER = '\\b(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|\\d[\\d_]*(?:\\.\\d[\\d_]*)?(?:[eE][+-]?\\d+)?)[jJlLnfF]?\\b';
const DQ = '"(?:\\\\.|[^"\\\\\\n])*"?';
const SQ = "'(?:\\\\.|[^'\\\\\\n])*'?";
const FN = '\\b[A-Za-z_][\\w]*(?=\\s*\\()';
const C_COMMENTS: Array<[string, string]> = [
  ['comment', '//.*'],
  ['comment', `/\\*[\\s\\S]*?(?:\\*/|${END})`],
];

const python: LanguageDef = {
  rules: [
    ['comment', '#.*'],
    ['string', `[rRbBuUfF]{0,2}(?:"""[\\s\\S]*?(?:"""|${END})|'''[\\s\\S]*?(?:'''|${END}))`],
    ['string', `[rRbBuUfF]{0,2}(?:${DQ}|${SQ})`],
    ['meta', '@[\\w.]+'],
    [
      'keyword',
      words(
        'and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case',
      ),
    ],
    ['literal', words('True False None self')],
    [
      'builtin',
      words(
        'print len range open int float str list dict set tuple bool type isinstance enumerate zip map filter sorted sum min max abs round input super object Exception ValueError TypeError KeyError',
      ),
    ],
    ['number', NUMBER],
    ['function', FN],
  ],
};

const javascript: LanguageDef = {
  rules: [
    ...C_COMMENTS,
    ['string', '`(?:\\\\[\\s\\S]|[^`\\\\])*`?'],
    ['string', `${DQ}|${SQ}`],
    [
      'keyword',
      words(
        'async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield interface type enum implements private protected public readonly declare namespace as satisfies keyof',
      ),
    ],
    ['literal', words('true false null undefined NaN Infinity')],
    [
      'builtin',
      words(
        'console require module process Promise Array Object String Number Boolean Map Set JSON Math Date Error RegExp window document',
      ),
    ],
    ['number', NUMBER],
    ['function', FN],
  ],
};

const shell: LanguageDef = {
  rules: [
    ['comment', '(?<![\\w$#{])#.*'],
    ['string', `"(?:\\\\[\\s\\S]|[^"\\\\])*"?`],
    ['string', "'[^']*'?"],
    ['variable', '\\$\\{[^}\\n]*\\}?|\\$\\(|\\$[A-Za-z_]\\w*|\\$[0-9@#?$!*-]'],
    [
      'keyword',
      words(
        'if then else elif fi for in do done case esac while until function return export local readonly declare unset set shift exit source select time',
      ),
    ],
    [
      'builtin',
      words(
        'echo printf cd ls cat grep sed awk find xargs mkdir rm cp mv touch chmod chown pwd head tail sort uniq wc cut tr tee curl wget tar unzip zip python python3 pip pip3 node npm npx git sudo apt brew which env export kill ps',
      ),
    ],
    ['number', '\\b\\d+\\b'],
    ['meta', '(?<=\\s|^)--?[A-Za-z][\\w-]*'],
  ],
};

const json: LanguageDef = {
  rules: [
    ['property', '"(?:\\\\.|[^"\\\\\\n])*"(?=\\s*:)'],
    ['string', DQ],
    ['literal', words('true false null')],
    ['number', '-?\\b\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?\\b'],
  ],
};

const html: LanguageDef = {
  rules: [
    ['comment', `<!--[\\s\\S]*?(?:-->|${END})`],
    ['meta', '<!DOCTYPE[^>]*>?'],
    ['tag', '</?[A-Za-z][\\w:.-]*|/?>'],
    ['attribute', '\\b[A-Za-z_:][\\w:.-]*(?==)'],
    ['string', '"[^"]*"?|\'[^\']*\'?'],
  ],
};

const css: LanguageDef = {
  rules: [
    ['comment', `/\\*[\\s\\S]*?(?:\\*/|${END})`],
    ['string', `${DQ}|${SQ}`],
    ['property', '[\\w-]+(?=\\s*:(?!:))'],
    ['number', '#[0-9a-fA-F]{3,8}\\b|-?\\b\\d+(?:\\.\\d+)?(?:px|em|rem|%|vh|vw|s|ms|deg|fr)?\\b'],
    ['keyword', '@[\\w-]+|!important'],
    ['tag', '[.#][A-Za-z_-][\\w-]*'],
  ],
};

const sql: LanguageDef = {
  caseInsensitive: true,
  rules: [
    ['comment', '--.*'],
    ['comment', `/\\*[\\s\\S]*?(?:\\*/|${END})`],
    ['string', "'(?:''|[^'])*'?"],
    [
      'keyword',
      words(
        'select from where and or not insert into values update set delete create table drop alter add index primary key foreign references join left right inner outer full on group by order having limit offset as distinct union all case when then else end is null like in between exists with returning view',
      ),
    ],
    ['builtin', words('count sum avg min max coalesce cast now')],
    ['number', NUMBER],
  ],
};

const cLike = (keywords: string, literals = 'true false null nullptr nil'): LanguageDef => ({
  rules: [
    ...C_COMMENTS,
    ['meta', '^\\s*#\\s*\\w+.*'],
    ['string', '`[^`]*`?'],
    ['string', `${DQ}|${SQ}`],
    ['keyword', words(keywords)],
    ['literal', words(literals)],
    ['number', NUMBER],
    ['function', FN],
  ],
});

const r: LanguageDef = {
  rules: [
    ['comment', '#.*'],
    ['string', `${DQ}|${SQ}`],
    ['keyword', words('if else repeat while function for in next break return library require')],
    ['literal', words('TRUE FALSE NULL NA Inf NaN T F')],
    ['operator', '<-|->|%>%|\\|>'],
    ['number', NUMBER],
    ['function', '\\b[A-Za-z_.][\\w.]*(?=\\s*\\()'],
  ],
};

const ruby: LanguageDef = {
  rules: [
    ['comment', '#.*'],
    ['string', `${DQ}|${SQ}`],
    ['variable', ':[A-Za-z_]\\w*|@{1,2}\\w+'],
    [
      'keyword',
      words(
        'def end if elsif else unless while until for in do return class module require require_relative puts yield begin rescue ensure then case when self',
      ),
    ],
    ['literal', words('true false nil')],
    ['number', NUMBER],
  ],
};

const powershell: LanguageDef = {
  caseInsensitive: true,
  rules: [
    ['comment', `<#[\\s\\S]*?(?:#>|${END})`],
    ['comment', '#.*'],
    ['string', `${DQ}|${SQ}`],
    ['variable', '\\$[\\w:]+'],
    ['keyword', words('if else elseif foreach for while do switch function param return try catch finally throw in')],
    ['builtin', '\\b[A-Za-z]+-[A-Za-z]+\\b'],
    ['number', NUMBER],
  ],
};

const yaml: LanguageDef = {
  rules: [
    ['comment', '#.*'],
    ['property', '^\\s*-?\\s*[\\w.\\-"\']+(?=\\s*:)'],
    ['string', `${DQ}|${SQ}`],
    ['literal', words('true false null yes no on off')],
    ['number', NUMBER],
  ],
};

export const LANGUAGES: Record<string, LanguageDef> = {
  python,
  javascript,
  typescript: javascript,
  shell,
  json,
  html,
  css,
  sql,
  r,
  ruby,
  powershell,
  yaml,
  toml: yaml,
  java: cLike(
    'abstract class extends implements import package public private protected static final void new return if else for while do switch case break continue try catch finally throw throws interface enum this super instanceof var int long double float boolean char byte short',
  ),
  c: cLike(
    'auto break case char const continue default do double else enum extern float for goto if int long register return short signed sizeof static struct switch typedef union unsigned void volatile while include define',
  ),
  cpp: cLike(
    'auto break case char class const constexpr continue default delete do double else enum explicit extern float for friend if inline int long namespace new operator private protected public return short signed sizeof static struct switch template this throw try catch typedef typename union unsigned using virtual void volatile while include define std',
  ),
  go: cLike(
    'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var',
  ),
  rust: cLike(
    'as async await break const continue crate else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while dyn',
    'true false None Some Ok Err',
  ),
};

const ALIASES: Record<string, string> = {
  py: 'python',
  python3: 'python',
  ipython: 'python',
  js: 'javascript',
  node: 'javascript',
  nodejs: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  console: 'shell',
  shellscript: 'shell',
  terminal: 'shell',
  xml: 'html',
  svg: 'html',
  htm: 'html',
  ps1: 'powershell',
  pwsh: 'powershell',
  yml: 'yaml',
  rb: 'ruby',
  rs: 'rust',
  golang: 'go',
  'c++': 'cpp',
  cc: 'cpp',
  h: 'c',
  postgres: 'sql',
  sqlite: 'sql',
  mysql: 'sql',
};

export function languageDef(name: string): LanguageDef | null {
  const key = name.trim().toLowerCase();
  return LANGUAGES[key] ?? LANGUAGES[ALIASES[key] ?? ''] ?? null;
}
