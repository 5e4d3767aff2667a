import type { Session } from 'electron';

/** What denying needs of a Session: unit tests pass a stand-in with the same shape. */
export type PermissionSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>;

/**
 * The app needs no permission a page can ask for (camera, microphone, notifications, geolocation,
 * clipboard reads, MIDI, HID/serial/USB devices…): every request and every check is answered no.
 */
export function denyAllPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
