import { EventEmitter } from 'node:events'

/**
 * A stand-in for the `electron` module in main-process unit tests, wired with
 * `vi.mock('electron', () => import('./fake-electron'))`. It replaces Electron only:
 * the project's own modules, SQLite files and HTTP on 127.0.0.1 stay real. Each fake records
 * what main did (URLs loaded, handlers registered, dialogs shown) and lets a test script the
 * OS's answers (dialog buttons, safeStorage backend, displays). Call resetFakeElectron() in
 * beforeEach: the state is module-wide, as Electron's is.
 */

export interface FakeEvent {
  defaultPrevented: boolean
  preventDefault(): void
}

export function fakeEvent<T extends object>(fields: T = {} as T): FakeEvent & T {
  return Object.assign(
    {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true
      }
    },
    fields
  )
}

interface Rect {
  x: number
  y: number
  width: number
  height: number
}

// ---- app ----------------------------------------------------------------------------------------

class FakeCommandLine {
  readonly switches = new Map<string, string>()
  getSwitchValue(name: string): string {
    return this.switches.get(name) ?? ''
  }
  hasSwitch(name: string): boolean {
    return this.switches.has(name)
  }
  appendSwitch(name: string, value = ''): void {
    this.switches.set(name, value)
  }
}

class FakeApp extends EventEmitter {
  paths: Record<string, string> = {}
  isPackaged = false
  appPath = process.cwd()
  version = '0.0.0-test'
  /** What requestSingleInstanceLock answers: false plays the second instance. */
  singleInstanceLock = true
  commandLine = new FakeCommandLine()
  quitRequests = 0
  /** app.relaunch() calls: Electron starts the app again once this instance has exited. */
  relaunchRequests = 0
  /** True once a quit went through without a will-quit handler holding it. */
  quitted = false
  exitCode: number | null = null

  getPath(name: string): string {
    const path = this.paths[name]
    if (path === undefined)
      throw new Error(`fake electron: app.getPath('${name}') has no value; set fake.app.paths.${name}`)
    return path
  }
  setPath(name: string, path: string): void {
    this.paths[name] = path
  }
  getAppPath(): string {
    return this.appPath
  }
  getVersion(): string {
    return this.version
  }
  requestSingleInstanceLock(): boolean {
    return this.singleInstanceLock
  }
  whenReady(): Promise<void> {
    return Promise.resolve()
  }
  /** As Electron: 'will-quit' first; a handler that calls preventDefault() holds the quit. */
  quit(): void {
    this.quitRequests += 1
    const event = fakeEvent()
    this.emit('will-quit', event)
    if (!event.defaultPrevented) this.quitted = true
  }
  exit(code = 0): void {
    this.exitCode = code
  }
  relaunch(): void {
    this.relaunchRequests += 1
  }
}

// ---- windows -------------------------------------------------------------------------------------

type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' }

export class FakeWebContents extends EventEmitter {
  url = ''
  reloads = 0
  windowOpenHandler: WindowOpenHandler | null = null
  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler
  }
  getURL(): string {
    return this.url
  }
  reload(): void {
    this.reloads += 1
  }
  /** What a page's window.open would get. */
  openWindow(url: string): { action: 'allow' | 'deny' } {
    if (!this.windowOpenHandler) return { action: 'allow' }
    return this.windowOpenHandler({ url })
  }
  /** A navigation the page starts; true when main let it happen. */
  navigate(url: string, isMainFrame = true): boolean {
    const event = fakeEvent({ url, isMainFrame, isSameDocument: false, frame: null })
    this.emit('will-frame-navigate', event)
    if (isMainFrame) this.emit('will-navigate', event, url)
    return !event.defaultPrevented
  }
}

export interface FakeWindowOptions extends Partial<Rect> {
  show?: boolean
  icon?: string
  webPreferences?: Record<string, unknown>
  [key: string]: unknown
}

export class FakeBrowserWindow extends EventEmitter {
  static windows: FakeBrowserWindow[] = []
  /** Set to an Error to make the next loadURL fail, as a page that does not load. */
  static nextLoadError: Error | null = null
  static getAllWindows(): FakeBrowserWindow[] {
    return FakeBrowserWindow.windows.filter((window) => !window.destroyed)
  }

  readonly options: FakeWindowOptions
  readonly webContents = new FakeWebContents()
  readonly loadedUrls: string[] = []
  bounds: Rect
  visible: boolean
  maximized = false
  minimized = false
  focused = false
  destroyed = false

  constructor(options: FakeWindowOptions = {}) {
    super()
    this.options = options
    this.bounds = {
      x: options.x ?? 100,
      y: options.y ?? 100,
      width: options.width ?? 800,
      height: options.height ?? 600
    }
    this.visible = options.show !== false
    FakeBrowserWindow.windows.push(this)
    fakeState.app.emit('web-contents-created', fakeEvent(), this.webContents)
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrls.push(url)
    this.webContents.url = url
    const failure = FakeBrowserWindow.nextLoadError
    FakeBrowserWindow.nextLoadError = null
    if (failure) throw failure
    setImmediate(() => this.emit('ready-to-show'))
  }
  show(): void {
    this.visible = true
  }
  focus(): void {
    this.focused = true
  }
  restore(): void {
    this.minimized = false
  }
  minimize(): void {
    this.minimized = true
    this.focused = false
  }
  maximize(): void {
    this.maximized = true
    this.emit('maximize')
  }
  unmaximize(): void {
    this.maximized = false
    this.emit('unmaximize')
  }
  isMaximized(): boolean {
    return this.maximized
  }
  isMinimized(): boolean {
    return this.minimized
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  getBounds(): Rect {
    return { ...this.bounds }
  }
  getNormalBounds(): Rect {
    return { ...this.bounds }
  }
  /** As a user dragging or resizing: the window fires 'move' and/or 'resize'. */
  setBounds(bounds: Partial<Rect>): void {
    const before = this.bounds
    this.bounds = { ...before, ...bounds }
    if (this.bounds.x !== before.x || this.bounds.y !== before.y) this.emit('move')
    if (this.bounds.width !== before.width || this.bounds.height !== before.height) this.emit('resize')
  }
  close(): void {
    if (this.destroyed) return
    const event = fakeEvent()
    this.emit('close', event)
    if (event.defaultPrevented) return
    this.destroyed = true
    this.emit('closed')
    if (FakeBrowserWindow.getAllWindows().length === 0) fakeState.app.emit('window-all-closed')
  }
}

// ---- ipc -----------------------------------------------------------------------------------------

type InvokeHandler = (event: { senderFrame: { url: string } | null }, ...args: unknown[]) => unknown

class FakeIpcMain {
  readonly handlers = new Map<string, InvokeHandler>()
  handle(channel: string, handler: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.handlers.set(channel, handler)
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel)
  }
  /** What ipcRenderer.invoke from a frame at `senderUrl` (null: a destroyed frame) would get. */
  async invoke(channel: string, senderUrl: string | null, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel)
    if (!handler) throw new Error(`No handler registered for '${channel}'`)
    return handler({ senderFrame: senderUrl === null ? null : { url: senderUrl } }, ...args)
  }
}

class FakeIpcRenderer {
  readonly invocations: { channel: string; args: unknown[] }[] = []
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invocations.push({ channel, args })
    return { channel, args }
  }
}

class FakeContextBridge {
  readonly exposed = new Map<string, unknown>()
  exposeInMainWorld(key: string, api: unknown): void {
    this.exposed.set(key, api)
  }
}

// ---- menu, clipboard, shell, dialog --------------------------------------------------------------

export interface FakeMenuItem {
  label?: string
  role?: string
  type?: string
  accelerator?: string
  click?: () => void
  submenu?: FakeMenuItem[]
}

export class FakeMenu {
  constructor(readonly template: FakeMenuItem[]) {}
  static buildFromTemplate(template: FakeMenuItem[]): FakeMenu {
    return new FakeMenu(template)
  }
  static setApplicationMenu(menu: FakeMenu | null): void {
    fakeState.applicationMenu = menu
  }
  /** Depth-first search by label. */
  find(label: string): FakeMenuItem | null {
    const walk = (items: FakeMenuItem[]): FakeMenuItem | null => {
      for (const item of items) {
        if (item.label === label) return item
        const found = item.submenu ? walk(item.submenu) : null
        if (found) return found
      }
      return null
    }
    return walk(this.template)
  }
}

class FakeClipboard {
  text = ''
  writeText(text: string): void {
    this.text = text
  }
  readText(): string {
    return this.text
  }
}

class FakeShell {
  readonly openedExternal: string[] = []
  readonly openedPaths: string[] = []
  /** What openPath answers ('' is success, as Electron's). */
  openPathResult = ''
  async openExternal(url: string): Promise<void> {
    this.openedExternal.push(url)
  }
  async openPath(path: string): Promise<string> {
    this.openedPaths.push(path)
    return this.openPathResult
  }
}

interface MessageBoxOptions {
  message: string
  buttons?: string[]
  [key: string]: unknown
}

class FakeDialog {
  readonly messageBoxes: MessageBoxOptions[] = []
  readonly errorBoxes: { title: string; content: string }[] = []
  readonly saveDialogs: Record<string, unknown>[] = []
  /** The button index the next message boxes answer (0 by default: Cancel). */
  messageBoxResponse = 0
  saveDialogResult: { canceled: boolean; filePath?: string } = { canceled: true }

  async showMessageBox(
    windowOrOptions: unknown,
    maybeOptions?: MessageBoxOptions
  ): Promise<{ response: number; checkboxChecked: boolean }> {
    this.messageBoxes.push(maybeOptions ?? (windowOrOptions as MessageBoxOptions))
    return { response: this.messageBoxResponse, checkboxChecked: false }
  }
  async showSaveDialog(
    windowOrOptions: unknown,
    maybeOptions?: Record<string, unknown>
  ): Promise<{ canceled: boolean; filePath?: string }> {
    this.saveDialogs.push(maybeOptions ?? (windowOrOptions as Record<string, unknown>))
    return this.saveDialogResult
  }
  showErrorBox(title: string, content: string): void {
    this.errorBoxes.push({ title, content })
  }
}

// ---- safeStorage, screen, session ----------------------------------------------------------------

const FAKE_CIPHER_PREFIX = Buffer.from('fake-os-encrypted:')

/** Reversible but not plain: a test can tell an encrypted file from a plain one, and decrypt it. */
class FakeSafeStorage {
  available = true
  backend: 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown' = 'gnome_libsecret'
  /** Next decrypt reports a rotated OS key. */
  shouldReEncrypt = false
  encryptCalls = 0

  async isAsyncEncryptionAvailable(): Promise<boolean> {
    return this.available
  }
  getSelectedStorageBackend(): string {
    return this.backend
  }
  async encryptStringAsync(plainText: string): Promise<Buffer> {
    if (!this.available) throw new Error('Encryption is not available.')
    this.encryptCalls += 1
    const body = Buffer.from(plainText, 'utf8').map((byte) => byte ^ 0x5a)
    return Buffer.concat([FAKE_CIPHER_PREFIX, body])
  }
  async decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }> {
    if (!this.available) throw new Error('Decryption is not available.')
    if (!encrypted.subarray(0, FAKE_CIPHER_PREFIX.length).equals(FAKE_CIPHER_PREFIX))
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
    const body = encrypted.subarray(FAKE_CIPHER_PREFIX.length).map((byte) => byte ^ 0x5a)
    const shouldReEncrypt = this.shouldReEncrypt
    this.shouldReEncrypt = false
    return { result: Buffer.from(body).toString('utf8'), shouldReEncrypt }
  }
}

class FakeScreen {
  displays: { id: number; bounds: Rect; workArea: Rect }[] = [
    { id: 1, bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }
  ]
  getAllDisplays(): { id: number; bounds: Rect; workArea: Rect }[] {
    return this.displays
  }
  getPrimaryDisplay(): { id: number; bounds: Rect; workArea: Rect } {
    const primary = this.displays[0]
    if (!primary) throw new Error('fake electron: no display')
    return primary
  }
}

type PermissionRequestHandler = (
  contents: FakeWebContents,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl: string }
) => void
type PermissionCheckHandler = (
  contents: FakeWebContents | null,
  permission: string,
  requestingOrigin: string,
  details: Record<string, unknown>
) => boolean

class FakeSession {
  requestHandler: PermissionRequestHandler | null = null
  checkHandler: PermissionCheckHandler | null = null
  deviceHandler: ((details: unknown) => boolean) | null = null
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.requestHandler = handler
  }
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.checkHandler = handler
  }
  setDevicePermissionHandler(handler: ((details: unknown) => boolean) | null): void {
    this.deviceHandler = handler
  }
  /** What a page at `url` asking for `permission` would be told. */
  request(permission: string, url: string): Promise<boolean> {
    const contents = new FakeWebContents()
    contents.url = url
    return new Promise((resolve) => {
      if (!this.requestHandler) return resolve(true)
      this.requestHandler(contents, permission, resolve, { requestingUrl: url })
    })
  }
  check(permission: string, origin: string): boolean {
    return this.checkHandler ? this.checkHandler(null, permission, origin, {}) : true
  }
}

// ---- the module's exports ------------------------------------------------------------------------

function freshState() {
  return {
    app: new FakeApp(),
    ipcMain: new FakeIpcMain(),
    ipcRenderer: new FakeIpcRenderer(),
    contextBridge: new FakeContextBridge(),
    clipboard: new FakeClipboard(),
    shell: new FakeShell(),
    dialog: new FakeDialog(),
    safeStorage: new FakeSafeStorage(),
    screen: new FakeScreen(),
    defaultSession: new FakeSession(),
    applicationMenu: null as FakeMenu | null
  }
}

const fakeState = freshState()

/** Back to a new app: no windows, handlers, menu or recorded calls. */
export function resetFakeElectron(): void {
  Object.assign(fakeState, freshState())
  FakeBrowserWindow.windows = []
  FakeBrowserWindow.nextLoadError = null
}

/** The fakes' controls and records, for assertions (always the current ones after a reset). */
export const fake = {
  get app() {
    return fakeState.app
  },
  get ipcMain() {
    return fakeState.ipcMain
  },
  get ipcRenderer() {
    return fakeState.ipcRenderer
  },
  get contextBridge() {
    return fakeState.contextBridge
  },
  get clipboard() {
    return fakeState.clipboard
  },
  get shell() {
    return fakeState.shell
  },
  get dialog() {
    return fakeState.dialog
  },
  get safeStorage() {
    return fakeState.safeStorage
  },
  get screen() {
    return fakeState.screen
  },
  get session() {
    return fakeState.defaultSession
  },
  get applicationMenu() {
    return fakeState.applicationMenu
  },
  get windows() {
    return FakeBrowserWindow.getAllWindows()
  }
}

/**
 * The module namespace `electron` resolves to. Every export forwards to the current fake, so a
 * module that imported `app` before a reset still reaches the new one.
 */
function forward<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get: (_target, key) => {
      const target = current()
      const value: unknown = Reflect.get(target, key, target)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
    set: (_target, key, value) => Reflect.set(current(), key, value)
  })
}

export const app = forward(() => fakeState.app)
export const ipcMain = forward(() => fakeState.ipcMain)
export const ipcRenderer = forward(() => fakeState.ipcRenderer)
export const contextBridge = forward(() => fakeState.contextBridge)
export const clipboard = forward(() => fakeState.clipboard)
export const shell = forward(() => fakeState.shell)
export const dialog = forward(() => fakeState.dialog)
export const safeStorage = forward(() => fakeState.safeStorage)
export const screen = forward(() => fakeState.screen)
export const session = {
  get defaultSession() {
    return fakeState.defaultSession
  }
}
export const BrowserWindow = FakeBrowserWindow
export const Menu = FakeMenu
