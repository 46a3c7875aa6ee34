import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { app, BrowserWindow, ipcMain, shell } from 'electron'
import { buildServer } from '../server/build-server'
import { loadOrCreateRuntimeKeyFile } from '../core/crypto/runtime-key-file'
import type { FastifyInstance } from 'fastify'

// Thin shell: the same server as `serve`, in-process on loopback, with data in userData.
let server: FastifyInstance | null = null
const adminToken = randomBytes(24).toString('base64url')
let baseUrl = ''

async function startServer(): Promise<void> {
  const dataDir = app.getPath('userData')
  server = await buildServer({
    databasePath: join(dataDir, 'emulator.db'),
    runtimeKey: loadOrCreateRuntimeKeyFile(join(dataDir, 'runtime-key')),
    adminToken
  })
  baseUrl = await server.listen({ host: '127.0.0.1', port: 4747 })
}

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false
    }
  })
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event) => event.preventDefault())
  const devServer = process.env.ELECTRON_RENDERER_URL
  if (devServer) void window.loadURL(devServer)
  else void window.loadFile(join(import.meta.dirname, '../renderer/index.html'))
}

ipcMain.handle('emulator:connection', () => ({ baseUrl, adminToken }))
ipcMain.handle('emulator:app-version', () => app.getVersion())

app.whenReady().then(async () => {
  await startServer()
  createWindow()
})

app.on('window-all-closed', () => app.quit())
app.on('will-quit', () => {
  void server?.close()
})
