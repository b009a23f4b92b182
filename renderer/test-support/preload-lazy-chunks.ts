/**
 * Loads every module the app shell and the chat load on demand (React.lazy), so
 * tests that mount the whole app do not spend their wait budget on the test
 * runner transforming those modules the first time a view or dialog appears.
 * Keep in step with the lazy() calls in features/shell/app-shell.tsx,
 * features/chat/markdown.tsx, features/chat/tool-card-task.tsx, features/chat/message-rows.tsx, features/chat/chat-view.tsx (the conversation settings dialog too)
 * and features/chat/composer.tsx.
 */
export async function preloadLazyChunks(): Promise<void> {
  await Promise.all([
    import('../features/servers/servers-view'),
    import('../features/tasks/tasks-view'),
    import('../features/roots/roots-view'),
    import('../features/logs/logs-view'),
    import('../features/settings/settings-view'),
    import('../features/servers/server-form-dialog'),
    import('../features/config/config-editor'),
    import('../features/config-import/import-dialog'),
    import('../features/config-import/export-dialog'),
    import('../features/pending/pending-dialogs'),
    import('../features/shell/toasts'),
    import('../features/chat/markdown-renderer'),
    import('../features/chat/tool-card-task-line'),
    import('../features/chat/thinking-block'),
    import('../features/chat/context-meter'),
    import('../features/chat/context-cut-block'),
    import('../features/chat/tool-result-note'),
    import('../features/chat/model-picker'),
    import('../features/chat/reasoning-control'),
    import('../features/chat/conversation-settings-dialog'),
  ]);
}
