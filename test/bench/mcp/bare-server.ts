/**
 * The baseline: a bare Fastify route in a process of its own, answering `POST /bare` with a small
 * JSON object shaped like platform_info's answer. Forked by the orchestrator with the port to
 * listen on; says `ready` over IPC once listening and exits when the orchestrator goes away.
 */
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const answer = { name: 'agent-data-platform', version: '1.0.0', description: '', tags: [], agent_instructions: '', toolkits: ['objstore'] };

const app = Fastify();
app.post('/bare', async () => answer);
await app.listen({ host: '127.0.0.1', port });
process.send?.({ type: 'ready' });
process.on('disconnect', () => {
  void app.close().then(() => process.exit(0));
});
