// Rich outputs: MIME bundles for values, display(), HTML/Markdown/Image.
// An object can describe its own views by implementing [Symbol.for('oi.mimebundle')]() and
// returning a bundle such as { 'text/html': '<b>hi</b>' }.

import fs from 'node:fs';
import { inspect } from 'node:util';

export const MIME = Symbol.for('oi.mimebundle');
const TEXT_LIMIT = 1_000_000;
const INSPECT = { depth: 4, colors: false, maxArrayLength: 100, maxStringLength: 10_000, breakLength: 100 };

let emit = null; // set by the runner: sends one Jupyter-shaped output on the side channel
export function setEmitter(fn) {
  emit = fn;
}

// Constructors that also work without `new`, as HTML('<b>hi</b>') reads like the Python helper.
export function HTML(source) {
  if (!new.target) return new HTML(source);
  this.source = String(source);
}
HTML.prototype[MIME] = function () {
  return { 'text/html': this.source, 'text/plain': this.source };
};
HTML.prototype[inspect.custom] = function () {
  return this.source;
};

export function Markdown(source) {
  if (!new.target) return new Markdown(source);
  this.source = String(source);
}
Markdown.prototype[MIME] = function () {
  return { 'text/markdown': this.source, 'text/plain': this.source };
};
Markdown.prototype[inspect.custom] = function () {
  return this.source;
};

function sniffImage(bytes) {
  const starts = (...sig) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP') return 'image/webp';
  if (Buffer.from(bytes.subarray(0, 1024)).toString('utf8').includes('<svg')) return 'image/svg+xml';
  return null;
}

/** Image(pathOrBytes, { width, height }): a PNG, JPEG, GIF, WebP or SVG file or buffer. */
export function Image(source, { width, height } = {}) {
  if (!new.target) return new Image(source, { width, height });
  const bytes = typeof source === 'string' || source instanceof URL ? fs.readFileSync(source) : source;
  if (!ArrayBuffer.isView(bytes)) throw new TypeError('Image() takes a file path or image bytes');
  this.bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  this.mime = sniffImage(this.bytes);
  if (!this.mime) throw new Error('Image(): not a PNG, JPEG, GIF, WebP or SVG image');
  this.width = width;
  this.height = height;
}
Image.prototype[MIME] = function () {
  const payload = this.mime === 'image/svg+xml' ? this.bytes.toString('utf8') : this.bytes.toString('base64');
  return { [this.mime]: payload, 'text/plain': `<Image ${this.mime}, ${this.bytes.length} bytes>` };
};
Image.prototype[inspect.custom] = function () {
  return `<Image ${this.mime}, ${this.bytes.length} bytes>`;
};

const clip = (text) => (text.length <= TEXT_LIMIT ? text : `${text.slice(0, TEXT_LIMIT)}\n… (${text.length - TEXT_LIMIT} more characters)`);

/** { data, metadata } for a value: every MIME type it offers, plus text/plain. */
export function bundle(value, forDisplay = false) {
  if (forDisplay && typeof value === 'string') return { data: { 'text/plain': clip(value) }, metadata: {} };
  const data = {};
  const metadata = {};
  if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
    let own;
    try {
      own = typeof value[MIME] === 'function' ? value[MIME]() : null;
    } catch {
      own = null; // a broken optional view must not fail the cell
    }
    if (own && typeof own === 'object') Object.assign(data, own);
    else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      const mime = sniffImage(bytes);
      if (mime && mime !== 'image/svg+xml') data[mime] = bytes.toString('base64');
    }
  }
  if (typeof data['text/plain'] !== 'string') data['text/plain'] = clip(inspect(value, INSPECT));
  return { data, metadata };
}

function send(output) {
  if (!emit) throw new Error('display() works only inside the Open Interpreter runner');
  emit(output);
}

/** Shows each value as a rich output under the cell (HTML, image, Markdown, or text). */
export function display(...values) {
  for (const value of values) send({ output_type: 'display_data', ...bundle(value, true) });
}
display.html = (source) => display(new HTML(source));
display.markdown = (source) => display(new Markdown(source));
display.image = (source, size) => display(new Image(source, size));
/** Sends a MIME bundle as given, e.g. display.raw({ 'text/html': '<b>hi</b>' }). */
display.raw = (data, metadata = {}) => send({ output_type: 'display_data', data: { ...data }, metadata });

export function resultOutput(value, executionCount) {
  return { output_type: 'execute_result', execution_count: executionCount ?? null, ...bundle(value) };
}
