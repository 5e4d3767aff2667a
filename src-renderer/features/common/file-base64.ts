import { plainMessage } from '../../state/plain-error';

/** A picked or dropped file's bytes as base64, for the bridge (a browser page has no path to hand over). */
export function fileBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      // A data URL: the base64 text follows the first comma.
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error(`${file.name}: could not read the file: ${plainMessage(reader.error)}`));
    reader.readAsDataURL(file);
  });
}
