import { codedFamily, type CodedText } from './host-wording';

/**
 * The failures of MCP Apps (an app's UI that cannot be shown, an app's call or link refused), as codes with
 * their facts; the renderer words them from renderer/i18n/locales/<locale>/apps-errors.json. `status` is a
 * server's state; `detail` the server's own words. Why a UI cannot be shown is a code of its own (`apps-errors.ui-*`)
 * nested in `apps-errors.ui-unusable` (its `cause`; `reason` its English), as host-message.tsx words it.
 */
export type AppsErrorMessages = {
  'apps-errors.no-sandbox': Record<string, never>;
  'apps-errors.list-not-running': { server: string; status: string };
  'apps-errors.call-not-running': { server: string; status: string; tool: string };
  'apps-errors.no-tool': { server: string; tool: string };
  'apps-errors.model-only': { server: string; tool: string };
  'apps-errors.not-a-link': Record<string, never>;
  'apps-errors.link-scheme': { scheme: string };
  'apps-errors.link-credentials': Record<string, never>;
  'apps-errors.no-tool-call': { id: string };
  'apps-errors.call-of-other-server': { id: string; server: string };
  'apps-errors.result-too-large': { server: string; tool: string; size: string; max: number };
  'apps-errors.no-server': { server: string };
  'apps-errors.ui-not-running': { server: string; status: string };
  'apps-errors.read-ui-failed': { server: string; uri: string; detail: string };
  'apps-errors.list-failed': { server: string; detail: string };
  'apps-errors.ui-unusable': { server: string; uri: string; reason: string };
  'apps-errors.ui-blob-not-base64': Record<string, never>;
  'apps-errors.ui-blob-not-utf8': Record<string, never>;
  'apps-errors.ui-meta-not-object': { value: string };
  'apps-errors.ui-csp-malformed': { path: string; detail: string };
  'apps-errors.ui-csp-not-origin': { key: string; value: string };
  'apps-errors.ui-permissions-not-object': { value: string };
  'apps-errors.ui-no-content': Record<string, never>;
  'apps-errors.ui-too-many-items': { count: number };
  'apps-errors.ui-uri-not-sent': { count: number };
  'apps-errors.ui-wrong-mime': { value: string; expected: string };
  'apps-errors.ui-too-large': { size: string; max: string };
  'apps-errors.ui-no-body': Record<string, never>;
  'apps-errors.ui-empty': Record<string, never>;
  'apps-errors.context-too-large': { size: number; max: number };
};
export type AppsErrorCode = keyof AppsErrorMessages;

/** An MCP Apps failure in English with its code (the English is what Berth always said). */
export const appsError = codedFamily<AppsErrorMessages>({
  'apps-errors.no-sandbox': () =>
    "MCP Apps cannot be shown in this window: Berth has no sandbox for them here (the app's text result is shown instead).",
  'apps-errors.list-not-running': ({ server, status }) =>
    `server '${server}' is not running (${status}): its apps cannot be listed`,
  'apps-errors.call-not-running': ({ server, status, tool }) =>
    `server '${server}' is not running (${status}): its app cannot call '${tool}'`,
  'apps-errors.no-tool': ({ server, tool }) => `server '${server}' has no tool named '${tool}'`,
  'apps-errors.model-only': ({ server, tool }) =>
    `'${tool}' of server '${server}' is for the model only: its app may not call it`,
  'apps-errors.not-a-link': () => 'the app asked to open something that is not a link',
  'apps-errors.link-scheme': ({ scheme }) => `an app may open http and https links only, not ${scheme}`,
  'apps-errors.link-credentials': () => 'the link carries a user name or password: Berth does not open it',
  'apps-errors.no-tool-call': ({ id }) => `no tool call ${id} in this conversation`,
  'apps-errors.call-of-other-server': ({ id, server }) => `tool call ${id} is not one of server '${server}'`,
  'apps-errors.result-too-large': ({ server, tool, size, max }) =>
    `'${tool}' of server '${server}' answered ${size} MB; an app gets at most ${max} MB`,
  'apps-errors.no-server': ({ server }) => `no server named '${server}': its app cannot be shown`,
  'apps-errors.ui-not-running': ({ server, status }) =>
    `server '${server}' is not running (${status}): its app is shown once it is ready again`,
  'apps-errors.read-ui-failed': ({ server, uri, detail }) =>
    `server '${server}' could not read the app UI ${uri}: ${detail}`,
  'apps-errors.list-failed': ({ server, detail }) => `server '${server}' could not list its resources: ${detail}`,
  'apps-errors.ui-unusable': ({ server, uri, reason }) =>
    `server '${server}' sent an app UI (${uri}) that Berth cannot show: ${reason}`,
  'apps-errors.ui-blob-not-base64': () => 'its blob is not base64',
  'apps-errors.ui-blob-not-utf8': () => 'its blob is not UTF-8 text',
  'apps-errors.ui-meta-not-object': ({ value }) => `its _meta.ui is ${value}, not an object`,
  'apps-errors.ui-csp-malformed': ({ path, detail }) => `its _meta.ui.csp is malformed (${path}: ${detail})`,
  'apps-errors.ui-csp-not-origin': ({ key, value }) =>
    `its _meta.ui.csp.${key} holds ${value}, which is not one origin`,
  'apps-errors.ui-permissions-not-object': ({ value }) => `its _meta.ui.permissions is ${value}, not an object`,
  'apps-errors.ui-no-content': () => 'the answer holds no content',
  'apps-errors.ui-too-many-items': ({ count }) => `the answer holds ${count} items`,
  'apps-errors.ui-uri-not-sent': ({ count }) => `none of the ${count} items it sent is that URI`,
  'apps-errors.ui-wrong-mime': ({ value, expected }) => `its MIME type is ${value}, not ${expected}`,
  'apps-errors.ui-too-large': ({ size, max }) => `it is ${size} MB; Berth shows at most ${max} MB`,
  'apps-errors.ui-no-body': () => 'it has neither text nor a blob',
  'apps-errors.ui-empty': () => 'it is empty',
  'apps-errors.context-too-large': ({ size, max }) =>
    `the app's context is ${size} KB; at most ${max} KB per card is sent to the model`,
});

/** A UI a server sent that Berth cannot show, with why as its cause. */
export function uiUnusable(server: string, uri: string, why: CodedText): CodedText {
  return appsError('apps-errors.ui-unusable', { server, uri, reason: why.text }, why.hostMessage);
}
