import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { EventOccurrence } from './events-draft';

/** The largest event `data` Berth keeps (serialized): beyond it the occurrence is refused, said so, never delivered. */
export const MAX_EVENT_DATA_BYTES = 256 * 1024;

/** An occurrence Berth would not deliver, and why (shown in the subscription's detail). */
export interface RefusedEvent {
  eventId: string;
  problem: string;
}

export interface IntakeResult {
  /** New occurrences, in order, to deliver. */
  fresh: EventOccurrence[];
  /** Occurrences already delivered (a replay after a restart, the same upstream event twice). */
  duplicates: number;
  refused: RefusedEvent[];
  /** The ids seen, newest last, to save with the cursor. */
  seen: string[];
}

const validator = new AjvJsonSchemaValidator();

/**
 * Sorts a batch of one subscription: drops what was delivered before (by eventId, the draft's dedup key), refuses
 * what breaks the event type's payloadSchema or is too large, and keeps the rest. An event's data is the server's
 * untrusted words: checked here for shape and size only, never read as instructions.
 */
export function takeIn(
  events: readonly EventOccurrence[],
  seenBefore: readonly string[],
  payloadSchema: Record<string, unknown> | undefined,
): IntakeResult {
  const seen = [...seenBefore];
  const known = new Set(seenBefore);
  const check = payloadSchema === undefined ? undefined : compile(payloadSchema);
  const result: IntakeResult = { fresh: [], duplicates: 0, refused: [], seen };
  for (const event of events) {
    if (known.has(event.eventId)) {
      result.duplicates += 1;
      continue;
    }
    known.add(event.eventId);
    seen.push(event.eventId);
    const bytes = Buffer.byteLength(JSON.stringify(event.data), 'utf8');
    if (bytes > MAX_EVENT_DATA_BYTES) {
      result.refused.push({
        eventId: event.eventId,
        problem: `its data is ${bytes} bytes (at most ${MAX_EVENT_DATA_BYTES})`,
      });
      continue;
    }
    const problem = check?.(event.data);
    if (problem !== undefined) result.refused.push({ eventId: event.eventId, problem });
    else result.fresh.push(event);
  }
  return result;
}

/** The payload check of one schema: undefined when data fits, else the validator's words. A schema it cannot read checks nothing. */
function compile(schema: Record<string, unknown>): ((data: unknown) => string | undefined) | undefined {
  try {
    const validate = validator.getValidator(schema as Parameters<typeof validator.getValidator>[0]);
    return (data) => {
      const outcome = validate(data);
      return outcome.valid
        ? undefined
        : `its data does not match the event's payloadSchema (${outcome.errorMessage ?? 'invalid'})`;
    };
  } catch {
    return undefined;
  }
}
