/** Pixels rendered above and below the viewport, so fast scrolling rarely shows blank space. */
export const OVERSCAN_PX = 800;

export interface VirtualWindow {
  /** First and one-past-last index to mount. */
  start: number;
  end: number;
  /** First index at least partly inside the viewport. */
  firstVisible: number;
  /** Top of item `start`, and the height of everything. */
  offset: number;
  total: number;
}

/** Which items to mount for a viewport, given each item's (measured or estimated) height. Pure. */
export function computeWindow(
  count: number,
  heightOf: (i: number) => number,
  top: number,
  height: number,
  overscan = OVERSCAN_PX,
): VirtualWindow {
  const tops = new Array<number>(count + 1);
  tops[0] = 0;
  for (let i = 0; i < count; i++) tops[i + 1] = (tops[i] as number) + heightOf(i);
  const total = tops[count] as number;
  const bottomOf = (i: number) => tops[i + 1] as number;
  let start = 0;
  while (start < count && bottomOf(start) <= top - overscan) start++;
  let firstVisible = start;
  while (firstVisible < count && bottomOf(firstVisible) <= top) firstVisible++;
  let end = start;
  while (end < count && (tops[end] as number) < top + height + overscan) end++;
  return { start, end, firstVisible, offset: tops[start] as number, total };
}
