// The renderer's .tsx files that still show text outside the message catalog (issue 36): the
// no-unlocalized-strings lint skips them. The list only shrinks: converting a file (its words into
// renderer/i18n/locales/*/<feature>.json, read through useT()/<T>) takes its line out, and
// test/unlocalized-files.test.ts fails while a listed file has no literal left. Grouped by folder,
// a comment line between groups, so people converting different folders never edit touching lines.

/** Paths from the repository root. */
export const UNLOCALIZED_FILES = [
  // renderer/features/apps
  // renderer/features/bundles
  'renderer/features/bundles/bundle-dialog.tsx',
  'renderer/features/bundles/bundle-entry.tsx',
  'renderer/features/bundles/bundle-facts.tsx',
  'renderer/features/bundles/bundle-install-step.tsx',
  'renderer/features/bundles/bundle-review-facts.tsx',
  'renderer/features/bundles/bundle-settings.tsx',
  // renderer/features/chat
  'renderer/features/chat/context-meter.tsx',
  'renderer/features/chat/large-result.tsx',
  'renderer/features/chat/prompt-form.tsx',
  'renderer/features/chat/reasoning-control.tsx',
  'renderer/features/chat/tool-search-panel.tsx',
  // renderer/features/config-import
  'renderer/features/config-import/export-dialog.tsx',
  'renderer/features/config-import/import-dialog.tsx',
  'renderer/features/config-import/import-preview.tsx',
  'renderer/features/config-import/imported-notice.tsx',
  // renderer/features/config
  'renderer/features/config/config-banner.tsx',
  'renderer/features/config/config-editor.tsx',
  // renderer/features/discover
  'renderer/features/discover/discover-view.tsx',
  'renderer/features/discover/entry-details.tsx',
  'renderer/features/discover/install-dialog.tsx',
  'renderer/features/discover/registries-editor.tsx',
  // renderer/features/launch-review
  'renderer/features/launch-review/launch-details.tsx',
  'renderer/features/launch-review/launch-lists.tsx',
  'renderer/features/launch-review/risk-confirm.tsx',
  // renderer/features/logs
  'renderer/features/logs/log-list.tsx',
  'renderer/features/logs/log-toolbar.tsx',
  'renderer/features/logs/logs-view.tsx',
  // renderer/features/pending
  'renderer/features/pending/approval-change.tsx',
  'renderer/features/pending/elicitation-dialog.tsx',
  'renderer/features/pending/elicitation-fields.tsx',
  'renderer/features/pending/notifications-offer.tsx',
  'renderer/features/pending/pending-frame.tsx',
  'renderer/features/pending/pending-tray.tsx',
  'renderer/features/pending/review-list.tsx',
  'renderer/features/pending/root-consent-dialog.tsx',
  'renderer/features/pending/sampling-answer-dialog.tsx',
  'renderer/features/pending/sampling-blocks.tsx',
  'renderer/features/pending/sampling-flood.tsx',
  'renderer/features/pending/sampling-review-dialog.tsx',
  'renderer/features/pending/sampling-temperature.tsx',
  'renderer/features/pending/sampling-tokens.tsx',
  'renderer/features/pending/skill-approval-dialog.tsx',
  'renderer/features/pending/tool-consent-dialog.tsx',
  'renderer/features/pending/tray-body.tsx',
  'renderer/features/pending/turn-calls.tsx',
  // renderer/features/resources
  'renderer/features/resources/resource-browser.tsx',
  'renderer/features/resources/resource-preview.tsx',
  'renderer/features/resources/resource-template-form.tsx',
  'renderer/features/resources/resource-viewer.tsx',
  // renderer/features/roots
  'renderer/features/roots/add-root-dialog.tsx',
  'renderer/features/roots/broad-folder-warning.tsx',
  'renderer/features/roots/root-row.tsx',
  'renderer/features/roots/roots-access.tsx',
  'renderer/features/roots/roots-view.tsx',
  // renderer/features/sandbox
  'renderer/features/sandbox/denial-notice.tsx',
  'renderer/features/sandbox/form-sandbox.tsx',
  'renderer/features/sandbox/import-sandbox.tsx',
  'renderer/features/sandbox/policy-facts.tsx',
  'renderer/features/sandbox/review-sandbox.tsx',
  'renderer/features/sandbox/sandbox-editor.tsx',
  'renderer/features/sandbox/sandbox-fact.tsx',
  'renderer/features/sandbox/sandbox-offer.tsx',
  'renderer/features/sandbox/sandbox-panel.tsx',
  'renderer/features/sandbox/sandboxed-chip.tsx',
  // renderer/features/servers
  'renderer/features/servers/instructions-setting.tsx',
  'renderer/features/servers/keep-approvals-dialog.tsx',
  'renderer/features/servers/limit-form.tsx',
  'renderer/features/servers/list-editors.tsx',
  'renderer/features/servers/oauth-fields.tsx',
  'renderer/features/servers/registry-origin.tsx',
  'renderer/features/servers/remove-server-dialog.tsx',
  'renderer/features/servers/result-limit.tsx',
  'renderer/features/servers/sampling-limits.tsx',
  'renderer/features/servers/schema-table.tsx',
  'renderer/features/servers/server-actions.tsx',
  'renderer/features/servers/server-detail.tsx',
  'renderer/features/servers/server-form-dialog.tsx',
  'renderer/features/servers/servers-view.tsx',
  'renderer/features/servers/sign-in-button.tsx',
  'renderer/features/servers/status-badge.tsx',
  'renderer/features/servers/task-setting.tsx',
  'renderer/features/servers/tool-list.tsx',
  // renderer/features/settings
  'renderer/features/settings/anthropic-models-form.tsx',
  'renderer/features/settings/api-key-section.tsx',
  'renderer/features/settings/model-ranks-section.tsx',
  'renderer/features/settings/policies-section.tsx',
  'renderer/features/settings/provider-form.tsx',
  'renderer/features/settings/provider-models.tsx',
  'renderer/features/settings/providers-section.tsx',
  'renderer/features/settings/rule-form.tsx',
  'renderer/features/settings/settings-view.tsx',
  'renderer/features/settings/test-connection.tsx',
  // renderer/features/shell
  // renderer/features/skills
  'renderer/features/skills/server-skills.tsx',
  'renderer/features/skills/skill-picker.tsx',
  // renderer/features/tasks
  'renderer/features/tasks/task-row.tsx',
  'renderer/features/tasks/tasks-view.tsx',
  // renderer/ui
];
