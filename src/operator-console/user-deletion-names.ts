/** Whether a text (a Redis key, member, field or value) holds one of the names (a user's id, one of its keys' hashes). */
export function namer(names: readonly string[]): (text: string) => boolean {
  return (text) => names.some((name) => text.includes(name));
}

/**
 * The queue and id of the BullMQ job whose hash this is (its key, under the queues' prefix `bullPrefix`, and its
 * fields); null for any other hash (a queue's meta, our own keys).
 */
export function bullJobOf(key: string, bullPrefix: string, fields: Record<string, string>): { queue: string; jobId: string } | null {
  if (!key.startsWith(`${bullPrefix}:`) || fields.data === undefined || fields.timestamp === undefined) return null;
  const [queue, ...idParts] = key.slice(bullPrefix.length + 1).split(':');
  return idParts.length === 0 ? null : { queue, jobId: idParts.join(':') };
}
