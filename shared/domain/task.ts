import { z } from 'zod';
import { HostMessageSchema } from './host-message';
import { MAX_TASK_TEXT, TASK_STATUSES } from './task-status';

// MCP tasks as Berth shows them: long work a server runs for Berth (a tool
// called as a task) and work Berth runs for a server (a task-augmented
// sampling or elicitation request). One record per task, whatever the era.

/** The protocol's five states, plus `lost`: Berth can no longer reach the task (a stdio server's process is gone, a recovered handle expired). */
export const TaskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export { isTerminalTaskStatus, MAX_TASK_TEXT, TASK_STATUSES, TERMINAL_TASK_STATUSES } from './task-status';

export const TaskRecordSchema = z.object({
  /** Berth's own key for the task (stable across reloads and restarts); not the server's id. */
  id: z.string().min(1).max(200),
  /** The server's task id (or Berth's, for a task Berth runs for the server). */
  taskId: z.string().max(1000),
  server: z.string(),
  /** `requester`: a server runs Berth's tool call as a task. `receiver`: Berth runs a server's sampling/elicitation request as a task. */
  side: z.enum(['requester', 'receiver']),
  kind: z.enum(['tool', 'sampling', 'elicitation']),
  /** The tool, for a tool call. */
  tool: z.string().optional(),
  /** Where the call came from, when it came from a chat turn: the card the Tasks view links to. */
  conversationId: z.string().optional(),
  toolUseId: z.string().optional(),
  status: TaskStatusSchema,
  /** The server's own words about where the task is (`statusMessage`), or why it was lost. */
  statusMessage: z.string().max(MAX_TASK_TEXT).optional(),
  /** `statusMessage` as a code when Berth wrote it ("cancelled by you", "Berth quit while it ran…"); absent for the server's words. */
  statusWording: HostMessageSchema.optional(),
  progress: z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() }).optional(),
  /** Epoch ms. */
  createdAt: z.number(),
  updatedAt: z.number(),
  /** How long the server keeps the task after creation; null: no limit stated. */
  ttlMs: z.number().nullable().optional(),
  /** The interval the server asked Berth to poll at. */
  pollIntervalMs: z.number().optional(),
  /** A question of this task waiting for the person (a pending request id): the card's "Answer" button opens it. */
  waitingFor: z.string().optional(),
  /** A failed task's error in words. */
  error: z.string().max(MAX_TASK_TEXT).optional(),
  /** With `lost`: the server no longer knows the task (it purged it or its TTL ran out), so it reads "Expired", not as a failure. */
  expired: z.boolean().optional(),
  /** Berth quit (or closed) while the task ran: the chat call's "stopped" result is Berth's doing, not the person's Stop. */
  berthQuit: z.boolean().optional(),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** What changed in the task list: tasks created or updated (whole records) and ids removed (expired or cleared). */
export const TasksChangedSchema = z.object({ changed: z.array(TaskRecordSchema), removed: z.array(z.string()) });
export type TasksChanged = z.infer<typeof TasksChangedSchema>;
