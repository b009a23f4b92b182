import { describe, expect, it } from 'vitest';
import { dangerousEnvKeys, dangerousEnvReason } from './launch-risk';

describe('dangerous env keys', () => {
  it('flags the variables that make a process run other code', () => {
    for (const key of [
      'LD_PRELOAD',
      'LD_LIBRARY_PATH',
      'DYLD_INSERT_LIBRARIES',
      'NODE_OPTIONS',
      'PYTHONPATH',
      'PYTHONSTARTUP',
      'PATH',
      'SOME_PRELOAD',
      'Path',
    ]) {
      expect(dangerousEnvReason(key), key).toEqual(expect.any(String));
    }
  });

  it('flags what runs code through shells, package managers, git and other runtimes', () => {
    for (const key of [
      'ELECTRON_RUN_AS_NODE',
      'npm_config_registry',
      'NPM_CONFIG_SCRIPT_SHELL',
      'BASH_ENV',
      'ENV',
      'PROMPT_COMMAND',
      'GIT_SSH_COMMAND',
      'GIT_EXTERNAL_DIFF',
      'GIT_CONFIG_COUNT',
      'GIT_CONFIG_KEY_0',
      'GIT_CONFIG_GLOBAL',
      'GIT_ASKPASS',
      'GIT_EXEC_PATH',
      'PERL5OPT',
      'RUBYOPT',
      'JAVA_TOOL_OPTIONS',
      'DYLD_LIBRARY_PATH',
      'PIP_INDEX_URL',
      'UV_INDEX_URL',
      'DOTNET_STARTUP_HOOKS',
    ]) {
      expect(dangerousEnvReason(key), key).toEqual(expect.any(String));
    }
  });

  it('leaves ordinary variables alone', () => {
    for (const key of [
      'GITHUB_TOKEN',
      'HOME',
      'LOG_LEVEL',
      'NODE_ENV',
      'PATHNAME',
      'MY_PATH',
      'PRELOAD_COUNT',
      'ENVIRONMENT',
      'GITHUB_REPO',
      'GIT_AUTHOR_NAME',
      'NPM_TOKEN',
      'API_KEY',
    ]) {
      expect(dangerousEnvReason(key), key).toBeUndefined();
    }
  });

  it('lists them in the env order, with the reason', () => {
    expect(dangerousEnvKeys({ A: '1', NODE_OPTIONS: '--require ./x.js', LD_PRELOAD: '/tmp/x.so' })).toEqual([
      { key: 'NODE_OPTIONS', reason: 'can make Node.js load any file first (--require, --import)' },
      { key: 'LD_PRELOAD', reason: 'changes which libraries every program loads (the dynamic linker)' },
    ]);
  });
});
