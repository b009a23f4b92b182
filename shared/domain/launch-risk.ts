/**
 * Environment variables that decide what code a process runs before (or
 * instead of) the server itself: a config file, registry entry or bundle that
 * sets one can run its own code through a harmless-looking command. Every
 * review (registry install, bundle, import) flags them and asks for their own
 * confirmation; a person typing them into the form is told too.
 */
const EXACT: ReadonlyMap<string, string> = new Map([
  ['PATH', 'decides which program a command name runs'],
  ['NODE_OPTIONS', 'can make Node.js load any file first (--require, --import)'],
  ['NODE_PATH', 'makes Node.js look for modules in other folders'],
  ['ELECTRON_RUN_AS_NODE', 'turns an Electron app into a plain Node.js that runs any script it is given'],
  ['PYTHONPATH', 'makes Python import modules from other folders first'],
  ['PYTHONSTARTUP', 'names a Python file that runs at start'],
  ['PYTHONHOME', 'replaces the Python standard library'],
  ['PYTHONUSERBASE', 'makes Python load packages (and their start-up hooks) from another folder'],
  ['PERL5OPT', 'adds command-line options (and modules) to every Perl run'],
  ['PERL5LIB', 'makes Perl load modules from other folders first'],
  ['RUBYOPT', 'adds command-line options (and libraries) to every Ruby run'],
  ['RUBYLIB', 'makes Ruby load libraries from other folders first'],
  ['BASH_ENV', 'names a file every non-interactive bash runs first'],
  ['ENV', 'names a file a POSIX shell (sh, dash) runs first'],
  ['PROMPT_COMMAND', 'is a command bash runs before each prompt'],
  ['SHELLOPTS', 'turns on bash options (such as xtrace) in every bash it starts'],
  ['PS4', 'is expanded (and can run commands) by a tracing shell'],
  ['IFS', 'changes how a shell splits words, so commands run differently'],
  ['JAVA_TOOL_OPTIONS', 'adds options (and agents) to every Java run'],
  ['_JAVA_OPTIONS', 'adds options (and agents) to every Java run'],
  ['JDK_JAVA_OPTIONS', 'adds options (and agents) to every Java run'],
  ['CLASSPATH', 'makes Java load classes from other places first'],
  ['DOTNET_STARTUP_HOOKS', 'names assemblies .NET runs before the program'],
  ['GIT_SSH', 'names a program git runs to connect'],
  ['GIT_SSH_COMMAND', 'is a command git runs to connect'],
  ['GIT_ASKPASS', 'names a program git runs to ask for passwords'],
  ['SSH_ASKPASS', 'names a program ssh runs to ask for passwords'],
  ['GIT_EXTERNAL_DIFF', 'names a program git runs for every diff'],
  ['GIT_EXEC_PATH', 'makes git run its sub-commands from another folder'],
  ['GIT_EDITOR', 'names a program git runs as the editor'],
  ['GIT_PAGER', 'names a program git runs as the pager'],
  ['GIT_PROXY_COMMAND', 'is a command git runs to connect'],
  ['GIT_TEMPLATE_DIR', 'gives new repositories hooks that run on git commands'],
  ['GIT_DIR', 'points git at another repository (and its hooks and config)'],
  ['EDITOR', 'names a program other tools run as the editor'],
  ['VISUAL', 'names a program other tools run as the editor'],
  ['PAGER', 'names a program other tools run as the pager'],
  ['BROWSER', 'names a program other tools run to open addresses'],
]);

/** Name families, checked in order: [prefix or suffix, reason]. */
const PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['LD_', 'changes which libraries every program loads (the dynamic linker)'],
  ['DYLD_', 'changes which libraries every program loads (the macOS dynamic linker)'],
  ['NPM_CONFIG_', 'changes npm settings, such as the registry packages come from or scripts it runs'],
  ['YARN_', 'changes yarn settings, such as the registry packages come from or scripts it runs'],
  ['PIP_', 'changes pip settings, such as the index packages come from'],
  ['UV_', 'changes uv settings, such as the index packages come from'],
  ['GIT_CONFIG', 'adds git settings, and some git settings (core.fsmonitor, core.sshCommand) run programs'],
];

/** Why an env key is dangerous in a config from elsewhere, or undefined when it is an ordinary one. */
export function dangerousEnvReason(key: string): string | undefined {
  const upper = key.toUpperCase();
  const exact = EXACT.get(upper);
  if (exact !== undefined) return exact;
  for (const [prefix, reason] of PREFIXES) if (upper.startsWith(prefix)) return reason;
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
