import { EventEmitter } from 'node:events';

/**
 * The output readline draws the prompt on: the real terminal, except that drawing can be muted (to
 * change the line readline holds without it repainting) and resizes never reach readline. Its repaint
 * on a resize moves up by the rows the line took at the old width, while the terminal has already
 * reflowed the line to the new one: narrower, a stale part of the line stayed above the repaint; wider,
 * a line of output above was wiped. PromptLine redraws the line itself, counting at the new width.
 */
export class ReadlineOutput extends EventEmitter {
  readonly isTTY = true;
  muted = false;

  constructor(private readonly out: NodeJS.WriteStream) {
    super();
  }

  get columns(): number {
    return this.out.columns || 80;
  }

  get rows(): number {
    return this.out.rows || 24;
  }

  write(data: string | Uint8Array, cb?: (err?: Error | null) => void): boolean {
    if (this.muted || this.out.destroyed) {
      cb?.();
      return true;
    }
    return this.out.write(data, cb);
  }
}
