// Cell ids (nbformat 4.5) must be unique and match [a-zA-Z0-9-_]{1,64}. Items keep their own id
// when it fits, so export → import → export is stable; anything else gets a derived, unique one.

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

export class CellIdAllocator {
  private readonly taken = new Set<string>();

  constructor(private readonly fallbackPrefix: string) {}

  /** `preferred` when it is valid and free; otherwise a free id derived from it or from `index`. */
  allocate(preferred: string | undefined, index: number): string {
    if (preferred !== undefined && VALID.test(preferred) && !this.taken.has(preferred)) {
      this.taken.add(preferred);
      return preferred;
    }
    const cleaned = (preferred ?? '').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 48);
    const base = cleaned || `${this.fallbackPrefix}-${index}`;
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}-${n}`;
    this.taken.add(id);
    return id;
  }
}
