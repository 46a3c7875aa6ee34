import type { Session } from 'electron'

import { originOf } from './external-url'

/** The one permission the UI needs: writing to the clipboard (its "copy" buttons), from its own origin. */
const ALLOWED_PERMISSION = 'clipboard-sanitized-write'

/**
 * Denies every permission request and check (camera, microphone, geolocation, notifications,
 * HID/USB/serial devices, ...) except clipboard writes from the UI's own origin. The UI needs
 * none of the others; a page that got in some other way gets nothing.
 */
export function denyPermissions(
  session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>,
  allowedOrigins: () => readonly string[]
): void {
  const allowed = (permission: string, origin: string | null): boolean =>
    permission === ALLOWED_PERMISSION && origin !== null && allowedOrigins().includes(origin)
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    callback(allowed(permission, originOf(details.requestingUrl || contents.getURL())))
  })
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    allowed(permission, originOf(requestingOrigin))
  )
  session.setDevicePermissionHandler(() => false)
}
