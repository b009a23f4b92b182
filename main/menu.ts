import type { MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: standard roles only, so every item has native
 * behaviour and keyboard shortcuts (copy/paste in inputs needs the Edit menu
 * on macOS). Developer tools are offered only in unpackaged builds.
 */
export function buildAppMenuTemplate(options: {
  platform: NodeJS.Platform;
  appName: string;
  isPackaged: boolean;
}): MenuItemConstructorOptions[] {
  const isMac = options.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];

  if (isMac) {
    template.push({
      label: options.appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }

  template.push({ role: 'fileMenu', submenu: [isMac ? { role: 'close' } : { role: 'quit' }] });
  template.push({
    role: 'editMenu',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(isMac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  });
  template.push({
    role: 'viewMenu',
    submenu: [
      ...(options.isPackaged
        ? []
        : [
            { role: 'reload' } as const,
            { role: 'forceReload' } as const,
            { role: 'toggleDevTools' } as const,
            { type: 'separator' } as const,
          ]),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });
  template.push({
    role: 'windowMenu',
    submenu: isMac
      ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  });
  return template;
}
