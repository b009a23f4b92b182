'use strict';
// A stand-in for the `electron` module, rich enough to run the bundled
// dist/main/index.cjs under plain Node (no Electron binary exists here). It
// enforces Electron's ordering rules that Berth relies on (privileged schemes
// before ready, windows and protocol handlers after), reports what the app
// does over the fork IPC channel, and lets the test drive it: bridge calls
// from chosen frames, berth:// requests, Quit.
const { EventEmitter } = require('node:events');

const report = (type, data = {}) => {
  if (process.send) process.send({ type, ...data });
};

let ready = false;
let resolveReady;
const readyPromise = new Promise((resolve) => {
  resolveReady = resolve;
});
setImmediate(() => {
  ready = true;
  resolveReady();
});

const requireReady = (what) => {
  if (!ready) throw new Error(`fake electron: ${what} cannot be used before the app is ready`);
};

const paths = {};
const app = new EventEmitter();
Object.assign(app, {
  isPackaged: false,
  name: 'berth',
  setName(name) {
    app.name = name;
  },
  getName() {
    return app.name;
  },
  setPath(name, value) {
    paths[name] = value;
  },
  getPath(name) {
    if (!(name in paths)) throw new Error(`fake electron: no path "${name}"`);
    return paths[name];
  },
  getAppPath() {
    return process.env.FAKE_ELECTRON_APP_PATH;
  },
  requestSingleInstanceLock() {
    return process.env.FAKE_ELECTRON_LOCK !== 'taken';
  },
  whenReady() {
    return readyPromise;
  },
  quit() {
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    app.emit('before-quit', event);
    if (!event.defaultPrevented) process.exit(0);
  },
  exit(code) {
    process.exit(code);
  },
});

const protocolHandlers = new Map();
const protocol = {
  registerSchemesAsPrivileged(schemes) {
    if (ready) throw new Error('fake electron: registerSchemesAsPrivileged must be called before the app is ready');
    report('schemes', { schemes });
  },
  handle(scheme, handler) {
    requireReady('protocol.handle');
    protocolHandlers.set(scheme, handler);
  },
};

const ipcHandlers = new Map();
const ipcMain = {
  handle(channel, handler) {
    if (ipcHandlers.has(channel)) throw new Error(`fake electron: a handler for "${channel}" is already registered`);
    ipcHandlers.set(channel, handler);
  },
  removeHandler(channel) {
    ipcHandlers.delete(channel);
  },
};

const windows = [];
class BrowserWindow extends EventEmitter {
  constructor(options) {
    requireReady('BrowserWindow');
    super();
    this.options = options;
    this.destroyed = false;
    const contents = new EventEmitter();
    contents.mainFrame = { parent: null, url: '' };
    contents.setWindowOpenHandler = (handler) => {
      contents.windowOpenHandler = handler;
    };
    contents.isDestroyed = () => this.destroyed;
    contents.send = (channel, ...args) => report('sent', { channel, args });
    contents.session = { setPermissionRequestHandler() {}, setPermissionCheckHandler() {} };
    this.webContents = contents;
    windows.push(this);
    app.emit('web-contents-created', {}, contents);
  }
  static getAllWindows() {
    return windows.filter((w) => !w.destroyed);
  }
  async loadURL(url) {
    this.webContents.mainFrame.url = url;
    report('window', { url, options: this.options });
    setImmediate(() => this.emit('ready-to-show'));
  }
  show() {}
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return this.destroyed;
  }
}

const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: (menu) => report('menu', { labels: menu.template.map((item) => item.label ?? item.role) }),
};

const dialog = {
  showErrorBox: (title, content) => report('error-box', { title, content }),
};

process.on('message', async (message) => {
  try {
    if (message.type === 'call') {
      const win = windows[0];
      const handler = ipcHandlers.get(message.channel);
      if (!win || !handler) throw new Error(`no window or no handler for ${message.channel}`);
      const frame =
        message.frame === 'sub'
          ? { parent: win.webContents.mainFrame, url: win.webContents.mainFrame.url }
          : win.webContents.mainFrame;
      const result = await handler({ sender: win.webContents, senderFrame: frame }, message.method, message.input);
      report('reply', { id: message.id, result });
    } else if (message.type === 'fetch') {
      const handler = protocolHandlers.get(new URL(message.url).protocol.slice(0, -1));
      const response = await handler(new Request(message.url));
      report('reply', {
        id: message.id,
        result: {
          status: response.status,
          csp: response.headers.get('content-security-policy'),
          text: await response.text(),
        },
      });
    } else if (message.type === 'quit') {
      app.quit();
    }
  } catch (error) {
    report('reply', { id: message.id, error: String(error && error.stack ? error.stack : error) });
  }
});

module.exports = {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeTheme: { shouldUseDarkColors: false },
  protocol,
  // No OS keychain here: Berth falls back to its 0600 secrets file, as on a Linux box without a secret service.
  safeStorage: {
    isEncryptionAvailable: () => false,
    encryptString: () => {
      throw new Error('fake safeStorage: encryption is not available');
    },
    decryptString: () => {
      throw new Error('fake safeStorage: encryption is not available');
    },
  },
  shell: { openExternal: async () => undefined },
};
