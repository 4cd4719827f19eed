/**
 * Answers every new inbound message with an approved template whose body has one placeholder,
 * filled with the contact's name. Run from the repository:
 *   PARLEY_URL=https://parley.example.com PARLEY_TOKEN=parley_… TEMPLATE_ID=<uuid> \
 *     node --import tsx packages/client/examples/answer-with-template.ts
 * Its position is kept in STORE_FILE (default answer-with-template.json), so after a restart it
 * answers only what it has not answered yet. Ctrl-C stops it.
 */
import { createParleyClient, fileStore, ParleyApiError, poll } from '@parley/client';

const { PARLEY_URL, PARLEY_TOKEN, TEMPLATE_ID, STORE_FILE = 'answer-with-template.json' } = process.env;
if (!PARLEY_URL || !PARLEY_TOKEN || !TEMPLATE_ID) {
  console.error('Set PARLEY_URL, PARLEY_TOKEN and TEMPLATE_ID');
  process.exit(2);
}

const client = createParleyClient({ baseUrl: PARLEY_URL, token: PARLEY_TOKEN });
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());

await poll(client, 'new-message-received', {
  store: fileStore(STORE_FILE),
  signal: stop.signal,
  onError: (error) => console.warn(`will retry: ${String(error)}`),
  async onRecord(message) {
    const { error, response } = await client.POST('/v1/actions/send-template-message', {
      body: { contact_id: message.contact_id, template_id: TEMPLATE_ID, variables: [message.contact_name ?? 'there'] },
      // Should the process die after sending but before storing its position, the message is
      // polled again; the same key within 24 hours then returns the first send instead of a second.
      params: { header: { 'Idempotency-Key': `answer-${message.id}` } },
    });
    if (error) throw new ParleyApiError(response.status, error);
    console.log(`answered ${message.contact_phone}`);
  },
});
