import { writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'

import type { DesktopBridge } from '../preload/bridge'
import { IPC_CHANNELS } from '../preload/channels'
import { originOf, parseExternalUrl } from './external-url'

/** The part of an IPC event that tells who sent it. */
export interface IpcSenderEvent {
  senderFrame: { url: string } | null
}

/** Electron's ipcMain, as far as this module uses it. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => unknown): void
  removeHandler(channel: string): void
}

type Result<K extends keyof DesktopBridge> = Awaited<ReturnType<DesktopBridge[K]>>

/** Main's side of each bridge function; arguments arrive unchecked from the renderer. */
export interface BridgeHandlers {
  connection(): Result<'connection'> | Promise<Result<'connection'>>
  appInfo(): Result<'appInfo'> | Promise<Result<'appInfo'>>
  openDataFolder(): Promise<void>
  openExternal(url: unknown): Promise<void>
  saveTextFile(suggestedName: unknown, text: unknown): Promise<boolean>
}

/** A refused call: the renderer's promise rejects with this message. */
export class IpcRefusedError extends Error {}

/**
 * Whether an IPC message comes from the embedded UI: a live frame whose document is on one of
 * `allowedOrigins` (the server's own). A page that got into the window some other way (a
 * navigation that slipped through, an injected frame) gets nothing, above all not the admin token.
 */
export function isAllowedSender(event: IpcSenderEvent, allowedOrigins: readonly string[]): boolean {
  const frame = event.senderFrame
  if (!frame) return false // the frame navigated away or was destroyed before the message arrived
  const origin = originOf(frame.url)
  return origin !== null && allowedOrigins.includes(origin)
}

/**
 * Registers one handler per bridge function, each behind the sender check. `allowedOrigins` is
 * read per call (the server's origin is known only once it listens). Returns an unregister function.
 */
export function registerIpcHandlers(
  ipcMain: IpcMainLike,
  allowedOrigins: () => readonly string[],
  handlers: BridgeHandlers,
  onRefused: (channel: string, url: string | null) => void = () => undefined
): () => void {
  // The handlers are closures (no `this`), so they can be taken off the object.
  const routes: Record<string, (...args: unknown[]) => unknown> = {
    [IPC_CHANNELS.connection]: handlers.connection,
    [IPC_CHANNELS.appInfo]: handlers.appInfo,
    [IPC_CHANNELS.openDataFolder]: handlers.openDataFolder,
    [IPC_CHANNELS.openExternal]: handlers.openExternal,
    [IPC_CHANNELS.saveTextFile]: handlers.saveTextFile
  }
  for (const [channel, handler] of Object.entries(routes)) {
    ipcMain.handle(channel, (event, ...args) => {
      if (!isAllowedSender(event, allowedOrigins())) {
        onRefused(channel, event.senderFrame?.url ?? null)
        throw new IpcRefusedError(`${channel} refused: the sender is not the emulator's own UI.`)
      }
      return handler(...args)
    })
  }
  return () => {
    for (const channel of Object.keys(routes)) ipcMain.removeHandler(channel)
  }
}

/** The OS services the handlers use (Electron's shell and dialog, narrowed). */
export interface BridgeDeps {
  connection(): Result<'connection'>
  appInfo(): Result<'appInfo'>
  dataDir: string
  /** shell.openPath: resolves to an error message, '' on success. */
  openPath(path: string): Promise<string>
  /** Opens a checked http(s) URL in the OS browser. */
  openInBrowser(url: string): Promise<void>
  showSaveDialog(options: {
    title: string
    defaultPath: string
  }): Promise<{ canceled: boolean; filePath?: string | undefined }>
  /** Folder the save dialog starts in (Downloads). */
  saveDirectory(): string
}

/** Largest text saveTextFile writes: a whole-state export of a big scenario fits. */
export const MAX_SAVED_TEXT_LENGTH = 256 * 1024 * 1024

export function createBridgeHandlers(deps: BridgeDeps): BridgeHandlers {
  return {
    connection: () => deps.connection(),
    appInfo: () => deps.appInfo(),
    async openDataFolder() {
      const problem = await deps.openPath(deps.dataDir)
      if (problem) throw new Error(`Cannot open ${deps.dataDir}: ${problem}`)
    },
    async openExternal(value) {
      const url = parseExternalUrl(value)
      if (!url) throw new IpcRefusedError('Only http and https URLs open in the browser.')
      await deps.openInBrowser(url)
    },
    async saveTextFile(suggestedName, text) {
      if (typeof text !== 'string') throw new IpcRefusedError('saveTextFile takes the text as a string.')
      if (text.length > MAX_SAVED_TEXT_LENGTH) throw new IpcRefusedError('The text is too large to save.')
      const name = safeFileName(suggestedName)
      const choice = await deps.showSaveDialog({ title: 'Save', defaultPath: join(deps.saveDirectory(), name) })
      if (choice.canceled || !choice.filePath) return false
      // The user picked this path in the OS dialog: the renderer never chooses where files go.
      await writeFile(choice.filePath, text, 'utf8')
      return true
    }
  }
}

/**
 * The renderer only suggests a name: no folders (`../`), no characters Windows forbids, no
 * control characters, a bounded length. The user still confirms in the dialog.
 */
export function safeFileName(value: unknown): string {
  const raw = typeof value === 'string' ? basename(value.replaceAll('\\', '/')) : ''
  const cleaned = raw
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 200)
  return cleaned === '' ? 'export.txt' : cleaned
}
