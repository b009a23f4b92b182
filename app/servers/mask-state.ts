import { OAUTH_SECRET_FIELDS, SECRET_MASK, isSecretHeader } from '../../shared/domain/server';
import type { ServerState } from '../../shared/domain/server';

/** A copy of the state that is safe to show: secret env values, secret headers and OAuth client credentials masked. */
export function maskState(state: ServerState): ServerState {
  const secrets = new Set(state.config.secretEnv);
  const env = Object.fromEntries(
    Object.entries(state.config.env).map(([key, value]) => [key, secrets.has(key) ? SECRET_MASK : value]),
  );
  const headers = Object.fromEntries(
    Object.entries(state.config.headers).map(([name, value]) => [
      name,
      isSecretHeader(state.config, name) ? SECRET_MASK : value,
    ]),
  );
  const oauth = state.config.oauth === undefined ? undefined : { ...state.config.oauth };
  for (const field of OAUTH_SECRET_FIELDS) if (oauth?.[field] !== undefined) oauth[field] = SECRET_MASK;
  const config = { ...state.config, env, headers, ...(oauth === undefined ? {} : { oauth }) };
  return state.status === 'ready' ? { ...state, config, tools: [...state.tools] } : { ...state, config };
}
