import type { SettingsSlice, SliceCreator } from './types';
import { words } from '../i18n/words';

/** How many audit entries Settings shows. */
export const AUDIT_LIMIT = 200;

export const createSettingsSlice: SliceCreator<SettingsSlice> = (transport) => (set, get) => ({
  settings: undefined,
  consentPolicies: [],
  samplingPolicies: {},
  audit: undefined,

  applySettings(settings) {
    set({ settings });
  },
  applyConsentPolicies(policies) {
    set({ consentPolicies: policies });
  },
  applySamplingPolicies(policies) {
    set({ samplingPolicies: policies });
  },
  async loadSettings() {
    const [settings, consent, sampling] = await Promise.all([
      transport.call('settings.get', {}),
      transport.call('consent.policies', {}),
      transport.call('sampling.policies', {}),
    ]);
    if (settings.ok) get().applySettings(settings.value);
    else get().toastFailure(words('settings.toast.readSettingsFailed'), settings);
    if (consent.ok) get().applyConsentPolicies(consent.value);
    else get().toastFailure(words('settings.toast.readConsentFailed'), consent);
    if (sampling.ok) get().applySamplingPolicies(sampling.value);
    else get().toastFailure(words('settings.toast.readSamplingFailed'), sampling);
  },
  async saveApiKey(apiKey) {
    const result = await transport.call('settings.setApiKey', { apiKey });
    if (result.ok) get().applySettings(result.value);
    return result;
  },
  async clearApiKey() {
    const result = await transport.call('settings.clearApiKey', {});
    if (result.ok) get().applySettings(result.value);
    return result;
  },
  async setDefaultModel(model) {
    const result = await transport.call('settings.setDefaultModel', { model });
    if (result.ok) get().applySettings(result.value);
    else get().toastFailure(words('settings.toast.defaultModelFailed'), result);
  },
  async setLanguage(language) {
    const result = await transport.call('settings.setLanguage', { language });
    if (result.ok) get().applySettings(result.value);
    else get().toastFailure(words('settings.toast.languageFailed'), result);
  },
  async setAppearance(changes) {
    const before = get().settings;
    if (before?.appearance !== undefined) {
      set({ settings: { ...before, appearance: { ...before.appearance, ...changes } } });
    }
    const result = await transport.call('settings.setAppearance', changes);
    if (result.ok) get().applySettings(result.value);
    else {
      if (before !== undefined) set({ settings: before });
      get().toastFailure(words('settings.toast.appearanceFailed'), result);
    }
  },
  async loadConsentPolicies() {
    const result = await transport.call('consent.policies', {});
    if (result.ok) get().applyConsentPolicies(result.value);
    else get().toastFailure(words('settings.toast.readConsentFailed'), result);
  },
  async addConsentRule(server, rule) {
    const result = await transport.call('consent.addRule', { server, rule });
    // The host announces the new list too; adding it here shows it without waiting for that.
    if (result.ok)
      set((s) => ({ consentPolicies: [...s.consentPolicies.filter((p) => p.id !== result.value.id), result.value] }));
    return result;
  },
  async revokeConsentPolicy(id) {
    const result = await transport.call('consent.revoke', { id });
    if (result.ok) set((s) => ({ consentPolicies: s.consentPolicies.filter((p) => p.id !== id) }));
    return result;
  },
  async loadSamplingPolicies() {
    const result = await transport.call('sampling.policies', {});
    if (result.ok) get().applySamplingPolicies(result.value);
    else get().toastFailure(words('settings.toast.readSamplingFailed'), result);
  },
  async setSamplingPolicy(server, policy) {
    const result = await transport.call('sampling.setPolicy', { server, policy });
    if (result.ok) get().applySamplingPolicies(result.value);
    else get().toastFailure(words('settings.toast.samplingPolicyFailed', { server }), result);
  },
  async loadAudit() {
    const result = await transport.call('consent.audit', { limit: AUDIT_LIMIT });
    if (result.ok) set({ audit: result.value });
    else get().toastFailure(words('settings.toast.readAuditFailed'), result);
  },
});
