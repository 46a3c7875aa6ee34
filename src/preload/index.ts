import { contextBridge, ipcRenderer } from 'electron'

import type { DesktopBridge } from './bridge'
import { IPC_CHANNELS } from './channels'

// One typed function per capability; the renderer never sees ipcRenderer itself, only these
// closures, so it cannot reach any other channel or listen to anything main sends.
const bridge: DesktopBridge = {
  connection: () => ipcRenderer.invoke(IPC_CHANNELS.connection),
  appInfo: () => ipcRenderer.invoke(IPC_CHANNELS.appInfo),
  openDataFolder: () => ipcRenderer.invoke(IPC_CHANNELS.openDataFolder),
  openExternal: (url) => ipcRenderer.invoke(IPC_CHANNELS.openExternal, url),
  saveTextFile: (suggestedName, text) => ipcRenderer.invoke(IPC_CHANNELS.saveTextFile, suggestedName, text)
}

contextBridge.exposeInMainWorld('emulatorDesktop', bridge)
