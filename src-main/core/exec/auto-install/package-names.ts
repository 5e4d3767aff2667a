// From the name code imports to the name a package manager installs. Most Python packages install
// under the name they are imported by; these are the well-known exceptions. A wrong guess here
// would install a different (possibly hostile) package, so entries are only ones whose mapping is
// certain.

const PIP_NAMES: Readonly<Record<string, string>> = {
  cv2: 'opencv-python',
  PIL: 'pillow',
  sklearn: 'scikit-learn',
  skimage: 'scikit-image',
  yaml: 'pyyaml',
  bs4: 'beautifulsoup4',
  dateutil: 'python-dateutil',
  dotenv: 'python-dotenv',
  docx: 'python-docx',
  pptx: 'python-pptx',
  magic: 'python-magic',
  slugify: 'python-slugify',
  multipart: 'python-multipart',
  jose: 'python-jose',
  serial: 'pyserial',
  usb: 'pyusb',
  zmq: 'pyzmq',
  socks: 'PySocks',
  nacl: 'PyNaCl',
  jwt: 'PyJWT',
  Crypto: 'pycryptodome',
  OpenSSL: 'pyOpenSSL',
  OpenGL: 'PyOpenGL',
  git: 'GitPython',
  fitz: 'PyMuPDF',
  attr: 'attrs',
  dns: 'dnspython',
  Bio: 'biopython',
  gi: 'PyGObject',
  cairo: 'pycairo',
  wx: 'wxPython',
  kafka: 'kafka-python',
  MySQLdb: 'mysqlclient',
  psycopg2: 'psycopg2-binary',
  osgeo: 'GDAL',
  umap: 'umap-learn',
  faiss: 'faiss-cpu',
  telegram: 'python-telegram-bot',
  discord: 'discord.py',
  speech_recognition: 'SpeechRecognition',
  tabula: 'tabula-py',
  Xlib: 'python-xlib',
  win32api: 'pywin32',
  win32con: 'pywin32',
  win32com: 'pywin32',
  pythoncom: 'pywin32',
  'google.protobuf': 'protobuf',
  mpl_toolkits: 'matplotlib',
  pylab: 'matplotlib',
  pkg_resources: 'setuptools',
  distutils: 'setuptools',
};

/**
 * Packages installed often enough, under their own names, to be installed without asking when the
 * setting says 'auto'. Anything else is still asked about: a model can misremember a name, and a
 * look-alike package on the index can be malicious.
 */
const WELL_KNOWN_PIP = new Set([
  ...Object.values(PIP_NAMES),
  'numpy', 'pandas', 'scipy', 'matplotlib', 'seaborn', 'plotly', 'requests', 'httpx', 'aiohttp', 'urllib3',
  'openpyxl', 'xlrd', 'xlsxwriter', 'pyarrow', 'polars', 'duckdb', 'sqlalchemy', 'tqdm', 'rich', 'click',
  'typer', 'tabulate', 'jinja2', 'markdown', 'lxml', 'html5lib', 'pypdf', 'pdfplumber', 'reportlab', 'pytz',
  'tzdata', 'arrow', 'pendulum', 'networkx', 'sympy', 'statsmodels', 'xgboost', 'lightgbm', 'torch',
  'torchvision', 'tensorflow', 'keras', 'transformers', 'datasets', 'nltk', 'spacy', 'gensim', 'openai',
  'anthropic', 'tiktoken', 'pydantic', 'fastapi', 'flask', 'django', 'uvicorn', 'boto3', 'paramiko',
  'psutil', 'pyperclip', 'pyautogui', 'selenium', 'playwright', 'scrapy', 'imageio', 'moviepy', 'pydub',
  'soundfile', 'librosa', 'qrcode', 'faker', 'regex', 'chardet', 'unidecode', 'emoji', 'feedparser',
  'wordcloud', 'folium', 'geopandas', 'shapely', 'pyproj', 'h5py', 'joblib', 'numba', 'cython', 'bokeh',
  'altair', 'dash', 'streamlit', 'gradio', 'pytest', 'black', 'ipython', 'toml', 'tomli', 'orjson', 'ujson',
  'msgpack', 'redis', 'pymongo', 'cryptography', 'bcrypt', 'docopt', 'yfinance', 'pytesseract', 'opencv-python',
]);

/** Python modules that no pip package provides: the interpreter was built without them. */
const PYTHON_SYSTEM_MODULES: Readonly<Record<string, { apt: string; brew: string }>> = {
  tkinter: { apt: 'python3-tk', brew: 'python-tk' },
  _tkinter: { apt: 'python3-tk', brew: 'python-tk' },
  venv: { apt: 'python3-venv', brew: 'python' },
  ensurepip: { apt: 'python3-venv', brew: 'python' },
};

export interface PipChoice {
  package: string;
  wellKnown: boolean;
}

/** The pip package for a missing module ('cv2.aruco' → opencv-python); null when pip cannot help. */
export function pipPackageFor(module: string): PipChoice | null {
  const clean = module.trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(clean)) return null;
  const top = clean.split('.')[0] as string;
  if (PYTHON_SYSTEM_MODULES[top] || top.startsWith('_')) return null;
  const name = PIP_NAMES[clean] ?? PIP_NAMES[top] ?? top;
  return { package: name, wellKnown: WELL_KNOWN_PIP.has(name) || WELL_KNOWN_PIP.has(name.toLowerCase()) };
}

export function pythonSystemPackage(module: string): { apt: string; brew: string } | null {
  return PYTHON_SYSTEM_MODULES[module.split('.')[0] as string] ?? null;
}

const WELL_KNOWN_NPM = new Set([
  'lodash', 'axios', 'node-fetch', 'express', 'chalk', 'commander', 'yargs', 'dayjs', 'date-fns', 'moment',
  'uuid', 'nanoid', 'zod', 'ajv', 'cheerio', 'jsdom', 'puppeteer', 'playwright', 'sharp', 'jimp', 'canvas',
  'csv-parse', 'csv-stringify', 'papaparse', 'xlsx', 'exceljs', 'pdf-lib', 'pdfkit', 'marked', 'markdown-it',
  'js-yaml', 'yaml', 'toml', 'dotenv', 'ws', 'socket.io', 'mathjs', 'decimal.js', 'big.js', 'ramda',
  'rxjs', 'immer', 'openai', '@anthropic-ai/sdk', 'typescript', 'tsx', 'prettier', 'glob', 'fast-glob',
  'minimist', 'ora', 'inquirer', 'qrcode', 'd3', 'chart.js', 'three', 'mongodb', 'pg', 'mysql2',
  'better-sqlite3', 'sqlite3', 'redis', 'ioredis', 'nodemailer', 'archiver', 'adm-zip', 'tar', 'semver',
  'left-pad', 'got', 'undici', 'fs-extra', 'rimraf', 'mkdirp', 'execa', 'zx',
]);

/** Node's own modules, which npm must never be asked for. */
const NODE_BUILTINS = new Set([
  'assert', 'async_hooks', 'buffer', 'child_process', 'cluster', 'console', 'constants', 'crypto', 'dgram',
  'diagnostics_channel', 'dns', 'domain', 'events', 'fs', 'http', 'http2', 'https', 'inspector', 'module',
  'net', 'os', 'path', 'perf_hooks', 'process', 'punycode', 'querystring', 'readline', 'repl', 'stream',
  'string_decoder', 'sys', 'timers', 'tls', 'trace_events', 'tty', 'url', 'util', 'v8', 'vm', 'wasi',
  'worker_threads', 'zlib', 'test',
]);

export interface NpmChoice {
  package: string;
  wellKnown: boolean;
}

/** The npm package for a module specifier ('lodash/fp' → lodash, '@scope/x/y' → @scope/x); null for files and builtins. */
export function npmPackageFor(specifier: string): NpmChoice | null {
  const spec = specifier.trim();
  if (!spec || spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || /^[A-Za-z]:[\\/]/.test(spec)) return null;
  if (/^[a-z]+:/.test(spec)) return null; // file:, data:, http: URLs
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
  if (NODE_BUILTINS.has(name)) return null;
  // npm's rules for names: lower case, URL-safe, at most 214 characters.
  if (!/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(name) || name.length > 214) return null;
  return { package: name, wellKnown: WELL_KNOWN_NPM.has(name) };
}
