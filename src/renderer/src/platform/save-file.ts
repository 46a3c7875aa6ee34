/**
 * Saves text as a file: through the OS save dialog in the desktop app
 * (window.emulatorDesktop.saveTextFile), as a Blob download in a browser.
 * Answers false when the person cancelled the save dialog.
 */
export async function saveTextFile(fileName: string, text: string, mime = 'text/plain'): Promise<boolean> {
  const desktop = window.emulatorDesktop
  if (desktop) return desktop.saveTextFile(fileName, text)
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }))
  try {
    const link = document.createElement('a')
    link.href = url
    link.download = fileName
    link.rel = 'noopener'
    link.style.display = 'none'
    document.body.appendChild(link)
    link.click()
    link.remove()
  } finally {
    // Give the download a moment to start before the URL goes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000)
  }
  return true
}

/** Opens an http(s) URL outside the app: the OS browser in the desktop app, a new tab otherwise. */
export function openExternal(url: string): void {
  const desktop = window.emulatorDesktop
  if (desktop) void desktop.openExternal(url)
  else window.open(url, '_blank', 'noopener,noreferrer')
}
