import type { Result } from '../../shared/result';
import type { MessageId } from '../i18n/message-ids';
import { words } from '../i18n/words';
import type { BerthState } from './types';

/** One server's value as the host sends it: `{ server, [field]: value }`. */
export type ServerSettingOf<F extends string> = { server: string } & Record<F, boolean>;

/**
 * One per-server on/off choice the host keeps in settings.json (send instructions, optional tools
 * as tasks…), as the renderer holds it. The renderer's side of app/bridge/per-server-setting.ts:
 * each setting is this configuration; the behaviour below is written once.
 */
export interface PerServerSettingSpec<F extends string> {
  /** The store field (server → value) and the key of the value in the host's payload. */
  field: F;
  /** What a server the host has not reported has. */
  fallback: boolean;
  list(): Promise<Result<Array<ServerSettingOf<F>>>>;
  write(setting: ServerSettingOf<F>): Promise<Result<ServerSettingOf<F>>>;
  /** The toast titles when the host refuses (the write's with `{server}`), worded when shown. */
  loadFailure: MessageId;
  writeFailure: MessageId;
}

type Values<F extends string> = Record<F, Record<string, boolean>>;

/** The value of one server: the host's, or the fallback until the host says otherwise. */
export function settingOf<F extends string>(state: Values<F>, field: F, server: string, fallback: boolean): boolean {
  return state[field][server] ?? fallback;
}

/** The actions every per-server setting has: apply the host's value, load all, set one optimistically. */
export function perServerSettingActions<F extends string>(
  spec: PerServerSettingSpec<F>,
  set: (update: (state: Values<F>) => Values<F>) => void,
  get: () => Values<F> & Pick<BerthState, 'toastFailure'>,
): {
  apply(setting: ServerSettingOf<F>): void;
  load(): Promise<void>;
  write(server: string, value: boolean): Promise<void>;
} {
  const { field } = spec;
  const setting = (server: string, value: boolean) => ({ server, [field]: value }) as ServerSettingOf<F>;
  const values = (byServer: Record<string, boolean>) => ({ [field]: byServer }) as Values<F>;
  const apply = (next: ServerSettingOf<F>) => {
    const value: boolean = next[field];
    set((s) => values({ ...s[field], [next.server]: value }));
  };
  return {
    apply,
    async load() {
      const result = await spec.list();
      if (!result.ok) {
        get().toastFailure(words(spec.loadFailure), result);
        return;
      }
      set(() => values(Object.fromEntries(result.value.map((s): [string, boolean] => [s.server, s[field]]))));
    },
    async write(server, value) {
      const before = settingOf(get(), field, server, spec.fallback);
      // Shown at once (the switch answers the key press); put back if the host refuses.
      apply(setting(server, value));
      const result = await spec.write(setting(server, value));
      if (result.ok) {
        apply(result.value);
        return;
      }
      apply(setting(server, before));
      get().toastFailure(words(spec.writeFailure, { server }), result);
    },
  };
}
