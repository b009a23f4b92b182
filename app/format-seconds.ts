/** "30 s", "2.5 s": a duration as the person reads it in a message or a log line. */
export function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
