import { EventEmitter } from 'node:events';

/**
 * The output readline draws the prompt on: the real terminal, except that drawing can be muted (to
 * change the line readline holds without it repainting) and resizes reach readline only while its
 * line is on screen (a repaint at other times would wipe the agent's half-written output line).
 */
export class ReadlineOutput extends EventEmitter {
  readonly isTTY = true;
  muted = false;
  forwardResize = false;

  constructor(private readonly out: NodeJS.WriteStream) {
    super();
    out.on('resize', () => {
      if (this.forwardResize) this.emit('resize');
    });
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
