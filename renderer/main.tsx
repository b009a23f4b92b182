import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { BerthI18nProvider } from './i18n/provider';
import { activateStartupLocale } from './features/shell/locale-sync';
import { MissingToken } from './features/shell/missing-token';
import { applyTheme } from './features/shell/theme-sync';
import { createBerthStore } from './store';
import { rememberPlace } from './store/place-memory';
import { chooseTransport } from './transport';
import './styles/tokens.css';
import './styles/base.css';
// The design system's CSS (beside its components in ui/) before the features', so a feature's class refines it.
import './ui/controls.css';
import './ui/dialog.css';
import './ui/list.css';
import './styles/shell.css';
import './styles/overlays.css';
import './styles/config-editor.css';
import './styles/servers.css';
import './styles/tools.css';
import './styles/server-form.css';
import './styles/logs.css';
import './styles/chat.css';
import './styles/reasoning.css';
import './styles/slash.css';
import './styles/composer-extras.css';
import './styles/tool-calls.css';
import './styles/results.css';
import './styles/popovers.css';
import './styles/markdown.css';
import './styles/pending.css';
import './styles/review.css';
import './styles/settings.css';
import './styles/providers.css';
import './styles/roots.css';
import './styles/resources.css';
import './styles/config-import.css';
import './styles/tasks.css';
import './styles/apps.css';
import './styles/discover.css';
import './styles/bundles.css';
import './styles/skills.css';
import './styles/sandbox.css';
import './styles/events.css';

// The system's light or dark before anything renders; the Theme setting follows with the settings (ThemeSync).
applyTheme('system');

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
const choice = chooseTransport();
// The catalog of the person's language loads before the first render, so nothing shows in the
// wrong language first. A promise, not a top-level await: that would make the bundler split the
// first screen into many small chunks, which compress worse together than one.
if (choice.kind === 'missing-token') {
  void activateStartupLocale(undefined).then(() =>
    root.render(
      <BerthI18nProvider>
        <MissingToken />
      </BerthI18nProvider>,
    ),
  );
} else {
  const { transport } = choice;
  const store = createBerthStore(transport);
  rememberPlace(store, window.sessionStorage);
  void activateStartupLocale(transport).then(() =>
    root.render(
      <StrictMode>
        <App store={store} transport={transport} />
      </StrictMode>,
    ),
  );
}
