/**
 * Where the Electron shell reports what it refused or failed to do. The shell
 * has few such events (a blocked navigation, a forbidden IPC sender, a failed
 * shutdown), so they go to the process's stderr, which the OS keeps for GUI
 * apps and which a terminal launch shows directly.
 */
export interface MainLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/** A MainLog writing `[berth:main]`-prefixed lines to the console. */
export function createConsoleLog(prefix = '[berth:main]'): MainLog {
  return {
    info: (message) => console.info(`${prefix} ${message}`),
    warn: (message) => console.warn(`${prefix} ${message}`),
    error: (message, error) => {
      if (error === undefined) console.error(`${prefix} ${message}`);
      else console.error(`${prefix} ${message}`, error);
    },
  };
}
