import { ServerConfigSchema, isSecretHeader, type ServerConfig } from '../../shared/domain/server';
import { looksSecretHeader } from './secret-names';
import { fail, ok, type Result } from '../../shared/result';
import { configImportError } from '../../shared/domain/config-import-errors';
import type { CodedText } from '../../shared/domain/host-wording';
import type { ImportCandidate, InputPrompt } from './foreign-formats';

/** What is needed to turn a candidate's placeholders into final values. */
export interface ResolveOptions {
  /** The preview's inputs, for password flags and pickString choices. */
  inputs: readonly InputPrompt[];
  /** The person's answers by input id; an absent answer falls back to the input's `default`. */
  answers: Readonly<Record<string, string>>;
  /** Environment for `${env:NAME}` (VS Code) and `${NAME}` (`.mcp.json`). */
  env: Readonly<Record<string, string | undefined>>;
  /** The folder `${workspaceFolder}` stands for, when the file belongs to a project. */
  workspaceFolder?: string;
  /** The home folder, for VS Code's `${userHome}`. */
  userHome?: string;
}

/** A candidate ready to be added to Berth. */
export interface ResolvedServer {
  name: string;
  /** Final config; `secretEnv` holds every key that must be or looks secret. */
  config: ServerConfig;
  /** Env keys whose values came from password inputs: these must be stored as secrets. */
  secretEnvKeys: string[];
}

/** VS Code: `${input:id}`, `${env:NAME}`, `${workspaceFolder}`, `${userHome}`, `${pathSeparator}`… */
const VSCODE_VARIABLE = /\$\{([^}]*)\}/g;
/** Claude Code `.mcp.json`: `${NAME}` and `${NAME:-default}`. */
const CLAUDE_CODE_VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

interface Substitution {
  text: string;
  usedPassword: boolean;
}

type Substitute = (text: string, field: string) => Result<Substitution>;

function vscodeSubstitute(options: ResolveOptions, inputs: Map<string, InputPrompt>): Substitute {
  return (text, field) => {
    let usedPassword = false;
    let error: Result<Substitution> | undefined;
    const out = text.replace(VSCODE_VARIABLE, (whole, variable: string) => {
      if (error !== undefined) return whole;
      const [scheme, ...rest] = variable.split(':');
      const arg = rest.join(':');
      if (scheme === 'input' && rest.length > 0) {
        const input = inputs.get(arg);
        const answer = options.answers[arg] ?? input?.default;
        if (input === undefined)
          error = refused(configImportError('config-import-errors.undeclared-input', { field, input: arg }), field);
        else if (answer === undefined)
          error = refused(
            configImportError('config-import-errors.enter-value', { description: input.description, input: arg }),
            `inputs.${arg}`,
          );
        else if (input.options !== undefined && !input.options.includes(answer)) {
          error = refused(
            configImportError('config-import-errors.not-a-choice', {
              answer,
              description: input.description,
              choices: input.options.join(', '),
            }),
            `inputs.${arg}`,
          );
        } else {
          usedPassword ||= input.password;
          return answer;
        }
        return whole;
      }
      if (scheme === 'env' && rest.length > 0) {
        const value = options.env[arg];
        if (value === undefined)
          error = refused(configImportError('config-import-errors.env-not-set', { field, variable: arg }), field);
        return value ?? whole;
      }
      if (variable === 'workspaceFolder' && options.workspaceFolder !== undefined) return options.workspaceFolder;
      if (variable === 'userHome' && options.userHome !== undefined) return options.userHome;
      error = refused(
        variable === 'workspaceFolder'
          ? configImportError('config-import-errors.needs-project-folder', { field })
          : configImportError('config-import-errors.variable-unknown', { field, variable }),
        field,
      );
      return whole;
    });
    return error ?? ok({ text: out, usedPassword });
  };
}

function claudeCodeSubstitute(options: ResolveOptions): Substitute {
  return (text, field) => {
    let error: Result<Substitution> | undefined;
    const out = text.replace(CLAUDE_CODE_VARIABLE, (whole, name: string, fallback: string | undefined) => {
      const value = options.env[name] ?? fallback;
      if (value === undefined)
        error ??= refused(
          configImportError('config-import-errors.env-not-set-no-default', { field, variable: name }),
          field,
        );
      return value ?? whole;
    });
    return error ?? ok({ text: out, usedPassword: false });
  };
}

/**
 * Fill in a candidate's placeholders with the person's answers and the given
 * environment. Fails with a message naming the first missing value.
 */
export function resolveCandidate(candidate: ImportCandidate, options: ResolveOptions): Result<ResolvedServer> {
  if (candidate.unsupported !== undefined)
    return fail('INVALID_INPUT', `Server "${candidate.sourceName}" cannot be imported: ${candidate.unsupported}`);
  if (candidate.config === undefined && candidate.url === undefined)
    return refused(configImportError('config-import-errors.no-command-or-url', { server: candidate.sourceName }));
  const missing = candidate.requiredInputs.filter(
    (id) => options.answers[id] === undefined && options.inputs.find((input) => input.id === id)?.default === undefined,
  );
  if (missing.length > 0) {
    const description = (id: string) => options.inputs.find((input) => input.id === id)?.description ?? id;
    const server = candidate.sourceName;
    const [only] = missing;
    return refused(
      missing.length === 1 && only !== undefined
        ? configImportError('config-import-errors.needs-value', { server, description: description(only), input: only })
        : configImportError('config-import-errors.needs-values', {
            server,
            list: missing.map((id) => `"${description(id)}" (input "${id}")`).join(', '),
          }),
      `inputs.${missing[0] ?? ''}`,
    );
  }
  const substitute: Substitute =
    candidate.format === 'vscode'
      ? vscodeSubstitute(options, new Map(options.inputs.map((input) => [input.id, input])))
      : candidate.format === 'claude-code'
        ? claudeCodeSubstitute(options)
        : (text) => ok({ text, usedPassword: false });
  const one = (text: string, field: string): Result<Substitution> => substitute(text, field);
  const source = candidate.config;
  if (source === undefined) return resolveRemote(candidate, one);

  const command = one(source.command ?? '', 'command');
  if (!command.ok) return command;
  const args: string[] = [];
  for (const [index, arg] of source.args.entries()) {
    const result = one(arg, `args.${index}`);
    if (!result.ok) return result;
    args.push(result.value.text);
  }
  const env: Record<string, string> = {};
  const secretEnvKeys: string[] = [];
  for (const [key, value] of Object.entries(source.env)) {
    const result = one(value, `env.${key}`);
    if (!result.ok) return result;
    env[key] = result.value.text;
    if (result.value.usedPassword) secretEnvKeys.push(key);
  }
  let cwd: string | undefined;
  if (source.cwd !== undefined) {
    const result = one(source.cwd, 'cwd');
    if (!result.ok) return result;
    cwd = result.value.text;
  }
  const secretEnv = [...new Set([...secretEnvKeys, ...candidate.secretEnvKeys])];
  return validated(
    candidate,
    { ...source, command: command.value.text, args, env, ...(cwd === undefined ? {} : { cwd }), secretEnv },
    secretEnvKeys,
  );
}

/** A remote candidate: its url and header values filled in; headers from password inputs or with secret-looking names stay secret. */
function resolveRemote(
  candidate: ImportCandidate,
  one: (text: string, field: string) => Result<Substitution>,
): Result<ResolvedServer> {
  const url = one(candidate.url ?? '', 'url');
  if (!url.ok) return url;
  const headers: Record<string, string> = {};
  const secretHeaders: string[] = [];
  for (const [name, value] of Object.entries(candidate.headers ?? {})) {
    const result = one(value, `headers.${name}`);
    if (!result.ok) return result;
    headers[name] = result.value.text;
    if (!isSecretHeader({ secretHeaders: [] }, name) && (result.value.usedPassword || looksSecretHeader(name)))
      secretHeaders.push(name);
  }
  return validated(
    candidate,
    {
      url: url.value.text,
      ...(candidate.transportType !== undefined ? { type: candidate.transportType } : {}),
      headers,
      secretHeaders,
    },
    [],
  );
}

function validated(candidate: ImportCandidate, input: unknown, secretEnvKeys: string[]): Result<ResolvedServer> {
  const parsed = ServerConfigSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') ?? '';
    const detail = issue?.message ?? 'unknown problem';
    return refused(
      configImportError('config-import-errors.invalid-after-fill', { server: candidate.sourceName, field, detail }),
      field,
    );
  }
  return ok({ name: candidate.name, config: parsed.data, secretEnvKeys });
}

/** A refused value: the English and its code, and the field the person fixes. */
function refused(words: CodedText, path?: string): Result<never> {
  return fail('INVALID_INPUT', words.text, path, words.hostMessage);
}
