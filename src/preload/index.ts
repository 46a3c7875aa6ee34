import { contextBridge, ipcRenderer } from 'electron'
import type { DesktopBridge } from './bridge'

// One typed function per capability; the renderer never sees ipcRenderer itself.
const bridge: DesktopBridge = {
  connection: () => ipcRenderer.invoke('emulator:connection'),
  appVersion: () => ipcRenderer.invoke('emulator:app-version')
}

contextBridge.exposeInMainWorld('emulatorDesktop', bridge)
