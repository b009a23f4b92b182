import { SECRET_MASK } from '../../shared/domain/server';
import { MIN_SECRET_LENGTH, formsOfAll } from './secret-forms';
import type { SecretStore } from './secret-store';

/** Replace every occurrence of each form (longest first) with the mask. */
export function redactForms(text: string, forms: readonly string[]): string {
  let result = text;
  for (const form of forms) {
    if (result.includes(form)) result = result.split(form).join(SECRET_MASK);
  }
  return result;
}

/**
 * Every secret the host holds, by owner (a secret-store id, a server, the
 * environment), and their derived forms (secret-forms.ts): one place that
 * masks them in whatever leaves the host process for a person to see, the
 * log lines and files, events, answers and console output.
 */
export class SecretRedactor {
  private readonly owners = new Map<string, readonly string[]>();
  private forms: string[] | undefined;

  /** The secrets of `owner` are now `secrets` (replacing what it had). */
  set(owner: string, secrets: Iterable<string | undefined>): void {
    const kept = [...secrets].filter(
      (secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH,
    );
    const before = this.owners.get(owner);
    if (
      before !== undefined &&
      before.length === kept.length &&
      before.every((secret, index) => secret === kept[index])
    )
      return;
    if (kept.length === 0) this.owners.delete(owner);
    else this.owners.set(owner, kept);
    this.forms = undefined;
  }

  secretsOf(owner: string): readonly string[] {
    return this.owners.get(owner) ?? [];
  }

  delete(owner: string): void {
    if (this.owners.delete(owner)) this.forms = undefined;
  }

  /** Whether any secret is known (when none is, redaction is free). */
  get active(): boolean {
    return this.owners.size > 0;
  }

  redact(text: string): string {
    if (this.owners.size === 0 || text.length < MIN_SECRET_LENGTH) return text;
    this.forms ??= formsOfAll([...this.owners.values()].flat());
    return redactForms(text, this.forms);
  }

  /** `value` with every string in it redacted; the same object when nothing changed. */
  redactDeep<T>(value: T): T {
    if (this.owners.size === 0) return value;
    return redactValue(value, (text) => this.redact(text), 0) as T;
  }
}

/** Deeper structures are left as they are rather than risk the stack (nothing Berth sends nests this deep). */
const MAX_DEPTH = 64;

function redactValue(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth >= MAX_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const next = redactValue(item, redact, depth + 1);
      if (next !== item) (copy ??= [...value])[index] = next;
    });
    return copy ?? value;
  }
  // Plain objects only: class instances (Uint8Array, Date) pass untouched.
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const next = redactValue(item, redact, depth + 1);
    if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return copy ?? value;
}

/** Keys of stored JSON records (OAuth records) whose string values are secrets: tokens, client secrets, private JWK members. */
const SECRET_JSON_KEYS = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'd',
  'p',
  'q',
  'dp',
  'dq',
  'qi',
  'k',
]);

/** The secrets inside one stored value: the value itself, or for a JSON record the secret members (and `client_id:client_secret`). */
export function secretsInStoredValue(value: string): string[] {
  if (!value.startsWith('{')) return [value];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [value];
  }
  const found: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || typeof node !== 'object' || node === null) return;
    for (const [key, item] of Object.entries(node)) {
      if (typeof item === 'string' && SECRET_JSON_KEYS.has(key)) found.push(item);
      else walk(item, depth + 1);
    }
    const record = node as Record<string, unknown>;
    if (typeof record.client_id === 'string' && typeof record.client_secret === 'string')
      found.push(`${record.client_id}:${record.client_secret}`);
  };
  walk(parsed, 0);
  return found;
}

/** A SecretStore that tells the redactor about every value it reads or writes, and forgets deleted ones. */
export class RedactingSecretStore implements SecretStore {
  constructor(
    private readonly inner: SecretStore,
    private readonly redactor: SecretRedactor,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const value = await this.inner.get(key);
    if (value === undefined) this.redactor.delete(`store:${key}`);
    else this.redactor.set(`store:${key}`, secretsInStoredValue(value));
    return value;
  }

  async set(key: string, value: string): Promise<void> {
    const owner = `store:${key}`;
    const before = this.redactor.secretsOf(owner);
    // Known before it is written: a failure message about the write is redacted too.
    this.redactor.set(owner, secretsInStoredValue(value));
    try {
      await this.inner.set(key, value);
    } catch (error) {
      // The old value stays in the store (and in use): keep masking both.
      this.redactor.set(owner, [...secretsInStoredValue(value), ...before]);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.inner.delete(key);
    this.redactor.delete(`store:${key}`);
  }
}
