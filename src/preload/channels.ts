/**
 * IPC channel names shared by the preload bridge and main's handlers, so the two cannot drift.
 * Only these channels exist; main refuses any of them from a frame that is not the embedded UI.
 */
export const IPC_CHANNELS = {
  connection: 'emulator:connection',
  appInfo: 'emulator:app-info',
  openDataFolder: 'emulator:open-data-folder',
  openExternal: 'emulator:open-external',
  saveTextFile: 'emulator:save-text-file'
} as const

export type IpcChannel = (typeof IPC_CHANNELS)[keyof typeof IPC_CHANNELS]
