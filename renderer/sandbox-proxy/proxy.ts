import { proxyLanguage, proxyWords, type ProxyWordId } from './proxy-words';
import { startSandboxRelay, type AppFrame } from './relay';

// The sandbox proxy page: runs on an origin that is not Berth's (a second
// loopback port in browser mode, berth-app://sandbox in Electron), inside an
// iframe of Berth's UI. See relay.ts for what it does.

const language = proxyLanguage(window.location.search, navigator.languages);
const word = proxyWords(language);
// CJK line breaking and font choice follow the page's language.
document.documentElement.lang = language;

function showNote(id: ProxyWordId): void {
  const note = document.createElement('p');
  note.textContent = word(id);
  document.body.replaceChildren(note);
}

function createFrame(attributes: { sandbox: string; allow: string; srcdoc: string }, onLoad: () => void): AppFrame {
  const frame = document.createElement('iframe');
  // The sandbox and allow attributes must be in place before the frame gets a document.
  frame.setAttribute('sandbox', attributes.sandbox);
  if (attributes.allow !== '') frame.setAttribute('allow', attributes.allow);
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.title = word('apps-sandbox.frame-title');
  frame.addEventListener('load', onLoad);
  frame.srcdoc = attributes.srcdoc;
  document.body.replaceChildren(frame);
  return {
    get window() {
      return frame.contentWindow;
    },
    remove: () => frame.remove(),
  };
}

const parentOrigin = window.location.ancestorOrigins?.[0];
if (window.parent === window) {
  showNote('apps-sandbox.standalone');
} else if (parentOrigin === undefined || parentOrigin === 'null') {
  showNote('apps-sandbox.no-embedder');
} else {
  const relay = startSandboxRelay({
    parent: window.parent,
    parentOrigin,
    selfOrigin: window.location.origin,
    search: window.location.search,
    reloadWithQuery: (search) => window.location.replace(`${window.location.pathname}${search}`),
    createFrame,
    showNote,
  });
  window.addEventListener('message', (event) =>
    relay.onMessage({ source: event.source, origin: event.origin, data: event.data }),
  );
}
