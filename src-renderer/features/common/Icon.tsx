// Small stroke icons drawn inline: no icon font to load (CSP allows only our own assets) and no
// dependence on the system having an emoji font.

const PATHS = {
  attach: 'M21 12.5l-8.5 8.5a5 5 0 01-7-7L14 5.5a3.3 3.3 0 014.7 4.7l-8.6 8.6a1.7 1.7 0 01-2.4-2.4L15.5 8.6',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
  edit: 'M4 20h4L19 9l-4-4L4 16v4zM13 7l4 4',
  // A return arrow: the path goes into the message being written (not a download).
  insert: 'M19 5v7a4 4 0 0 1-4 4H6M10 12l-4 4 4 4',
  download: 'M12 4v10M8 10l4 4 4-4M4 15v4h16v-4',
  external: 'M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 01-1 1H5a1 1 0 01-1-1V7a1 1 0 011-1h5',
  refresh: 'M20 11a8 8 0 10-2.3 5.7M20 5v6h-6',
  panel: 'M4 5h16v14H4zM15 5v14',
  folder: 'M3 7a1 1 0 011-1h5l2 2h9a1 1 0 011 1v9a1 1 0 01-1 1H4a1 1 0 01-1-1z',
  file: 'M6 3h8l4 4v14H6zM14 3v4h4',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15 9.5a1 1 0 100-.1',
  notebook: 'M6 3h12v18H6zM9 3v18M12 8h4M12 12h4',
  table: 'M4 5h16v14H4zM4 10h16M4 15h16M10 5v14',
  close: 'M6 6l12 12M18 6L6 18',
  gear: 'M12 9a3 3 0 100 6 3 3 0 000-6zM19 12l2-1-1-3-2 .3-1.4-1.4.3-2-3-1-1 2h-2l-1-2-3 1 .3 2L6 7.3 4 7l-1 3 2 1v2l-2 1 1 3 2-.3 1.4 1.4-.3 2 3 1 1-2h2l1 2 3-1-.3-2 1.4-1.4 2 .3 1-3-2-1z',
  key: 'M14 10a4 4 0 10-3.5 4L13 16.5V19h2.5v-2.5H18V14l-4-4z',
  chat: 'M4 5h16v11H9l-5 4z',
  clock: 'M12 3a9 9 0 100 18 9 9 0 000-18zM12 7v5l3 3',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
