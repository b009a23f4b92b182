/**
 * Environment variables that decide what code a process runs before (or
 * instead of) the server itself: a config file that sets one can run its own
 * code through a harmless-looking command. Imported configs are flagged for
 * them; a person typing them into the form is told too.
 */
const EXACT: ReadonlyMap<string, string> = new Map([
  ['PATH', 'decides which program a command name runs'],
  ['NODE_OPTIONS', 'can make Node.js load any file first (--require, --import)'],
  ['NODE_PATH', 'makes Node.js look for modules in other folders'],
  ['PYTHONPATH', 'makes Python import modules from other folders first'],
  ['PYTHONSTARTUP', 'names a Python file that runs at start'],
  ['PYTHONHOME', 'replaces the Python standard library'],
  ['PERL5OPT', 'adds command-line options (and modules) to every Perl run'],
  ['RUBYOPT', 'adds command-line options (and libraries) to every Ruby run'],
  ['BASH_ENV', 'names a file every non-interactive bash runs first'],
  ['JAVA_TOOL_OPTIONS', 'adds options (and agents) to every Java run'],
]);

/** Why an env key is dangerous in a config from elsewhere, or undefined when it is an ordinary one. */
export function dangerousEnvReason(key: string): string | undefined {
  const upper = key.toUpperCase();
  const exact = EXACT.get(upper);
  if (exact !== undefined) return exact;
  if (upper.startsWith('LD_')) return 'changes which libraries every program loads (the dynamic linker)';
  if (upper.startsWith('DYLD_')) return 'changes which libraries every program loads (the macOS dynamic linker)';
  if (upper.endsWith('_PRELOAD')) return 'loads a library into the process before it starts';
  return undefined;
}

/** The dangerous keys of an env, each with why, in the env's order. */
export function dangerousEnvKeys(env: Readonly<Record<string, string>>): Array<{ key: string; reason: string }> {
  return Object.keys(env).flatMap((key) => {
    const reason = dangerousEnvReason(key);
    return reason === undefined ? [] : [{ key, reason }];
  });
}
