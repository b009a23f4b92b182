// Its own module: the controls on the first screen read it, and the dialogs' focus code stays out of that screen.

/**
 * Set on a button the dialog focused by itself. Its tooltip stays shut: a tooltip is a layer of
 * its own and would take the first Escape, which must close the dialog.
 */
export const QUIET_FOCUS = 'data-quiet-focus';
